/// @file cutlass/gemm/kernel/gemm_sm90_grouped.h
/// GemmSm90Grouped<Kernel>: the grouped launches of a GemmSm90 built with the grouped tile
/// scheduler (TileSchedulerTag = GroupedScheduler, Kernel::kGrouped), reached as Kernel::Grouped:
/// many problems in one persistent launch of Kernel's GEMM kernel, which walks all groups' tiles
/// (Sm90GroupedTileScheduler) and takes each group's tensor maps from a table in the workspace
/// (Kernel::GroupParams). Three ways to hand over the groups, each a prologue kernel that writes
/// the table, then the GEMM kernel:
///   run_grouped: sizes and operands on the host (cutlassLibGemmGroupedBatchedEx, the
///     pointer-array calls); the host builds each group's record and copies it;
///   run_contiguous: the mixture-of-experts layout, the group sizes in device memory;
///   run_device_sized: every group's sizes, pointers and leading dimensions in device memory.
/// The last two read no size on the host, so they can be captured into a CUDA graph.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <vector>

#include <cub/block/block_scan.cuh>
#include <cuda/ptx>

#include "cutlass/arch/wgmma_sm90.h"   // CUTLASS_ARCH_WGMMA_ENABLED
#include "cutlass/cutlass.h"
#include "cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"

namespace cutlass {
namespace gemm {
namespace kernel {

/// The prologue of a host-sized grouped launch (run_grouped): one thread per group writes its
/// GroupParams (tensor maps from the prototypes, output operator) from its record.
template <typename Grouped>
__global__ void __launch_bounds__(256) gemm_sm90_grouped_prepare_kernel(__grid_constant__ typename Grouped::GroupedPrepare const prepare) {
  Grouped::prepare_grouped_device(prepare);
}

/// The prologue of a contiguous grouped launch (run_contiguous): its CTAs write every group's
/// tile counts and tensor maps into the workspace.
template <typename Grouped>
__global__ void __launch_bounds__(Grouped::kPrepareThreads, 1)
    gemm_sm90_contiguous_prepare_kernel(__grid_constant__ typename Grouped::ContiguousPrepare const prepare) {
  Grouped::prepare_contiguous_device(prepare);
}

/// The prologue of a device-sized grouped launch (run_device_sized): each group's tile count and
/// tensor maps from its sizes, leading dimensions and pointers in device memory.
template <typename Grouped>
__global__ void __launch_bounds__(Grouped::kPrepareThreads, 1)
    gemm_sm90_device_sized_prepare_kernel(__grid_constant__ typename Grouped::DeviceSizedPrepare const prepare) {
  Grouped::prepare_device_sized_device(prepare);
}

template <typename Kernel>
struct GemmSm90Grouped {
  using Arguments = typename Kernel::Arguments;
  using Params = typename Kernel::Params;
  using GroupParams = typename Kernel::GroupParams;
  using Mainloop = typename Kernel::Mainloop;
  using Epilogue = typename Kernel::Epilogue;
  using EpilogueOutputOp = typename Kernel::EpilogueOutputOp;
  using TileScheduler = typename Kernel::TileScheduler;
  using TileShape = typename Kernel::TileShape;
  using ElementA = typename Kernel::ElementA;
  using ElementB = typename Kernel::ElementB;
  using ElementC = typename Kernel::ElementC;
  static constexpr bool kGrouped = Kernel::kGrouped;
  static constexpr int kClusterM = Kernel::kClusterM;
  static constexpr int kClusterN = Kernel::kClusterN;
  static constexpr int kSharedBytes = Kernel::kSharedBytes;

  // ---- shared by the three launches --------------------------------------------------------

  /// A launch's workspace for its group table: kErrorWorkspaceNull when null,
  /// kErrorMisalignedOperand when not 256-byte aligned (the table's arrays are, at their
  /// offsets), else kSuccess.
  static Status check_table_workspace(void const *workspace) {
    if (workspace == nullptr) return Status::kErrorWorkspaceNull;
    if (reinterpret_cast<uintptr_t>(workspace) % 256 != 0) return Status::kErrorMisalignedOperand;
    return Status::kSuccess;
  }

  /// A device-written table's prototype maps and output operator (`prepare`'s mainloop and
  /// epilogue) from `args`: kErrorMisalignedOperand when the driver refuses the maps.
  template <typename Prepare>
  static Status make_prototype(Arguments const &args, Prepare &prepare) {
    bool const made = Mainloop::make_params(args, prepare.mainloop) && Epilogue::make_params(args, prepare.epilogue);
    return made ? Status::kSuccess : Status::kErrorMisalignedOperand;
  }

  /// A grouped launch's rows of units for M rows: tile rows, in clusters of kClusterM.
  CUTLASS_HOST_DEVICE static int64_t unit_rows(int64_t m) {
    int64_t const m_tiles = (m + TileShape::kM - 1) / TileShape::kM;
    return (m_tiles + kClusterM - 1) / kClusterM;
  }

  /// A grouped launch's columns of units for N columns: tile columns, in clusters of kClusterN.
  CUTLASS_HOST_DEVICE static int64_t unit_columns(int64_t n) {
    int64_t const n_tiles = (n + TileShape::kN - 1) / TileShape::kN;
    return (n_tiles + kClusterN - 1) / kClusterN;
  }

  // ---- host-sized grouped launches: the groups' sizes and operands on the host ---------------

  /// Group g as the host hands it to a host-sized grouped launch's prologue, which writes its
  /// GroupParams from it: the operands' addresses and map geometry (Mainloop::map_shape_A / _B,
  /// Epilogue::map_shape), written into the prototype tensor maps, and the output operator. (The
  /// tensor maps themselves, 512 of GroupParams' bytes, are never built or copied on the host.)
  struct GroupRecord {
    char const *A = nullptr, *B = nullptr, *C = nullptr;
    char *D = nullptr;
    collective::TmaMapShape a{}, b{}, c{}, d{};
    typename EpilogueOutputOp::Params output_op{};
    bool has_source_pointer = false;   ///< C is read
  };

  /// What the host-sized grouped launch's prologue reads: prototype maps (the first non-empty
  /// problem's A and B, and its D for C and D: one type and box) and where the table is.
  struct GroupedPrepare {
    typename Mainloop::Params mainloop;
    CUtensorMap output;
    GroupRecord const *records = nullptr;
    Sm90GroupTiles const *tiles = nullptr;
    GroupParams *groups = nullptr;   ///< written here
    int count = 0;
  };

  /// Byte offsets in a grouped launch's workspace, each array 256-byte aligned: GroupParams, then
  /// Sm90GroupTiles, then (host-sized launches) GroupRecord.
  static size_t round_up_256(size_t bytes) { return (bytes + 255) / 256 * 256; }
  static size_t grouped_tiles_offset(int count) { return round_up_256(size_t(count) * sizeof(GroupParams)); }
  static size_t grouped_records_offset(int count) {
    return grouped_tiles_offset(count) + round_up_256(size_t(count) * sizeof(Sm90GroupTiles));
  }

  /// Bytes of device workspace a grouped launch of `count` groups needs (its group table).
  static size_t get_grouped_workspace_size(int count) {
    return count <= 0 ? 0 : grouped_records_offset(count) + size_t(count) * sizeof(GroupRecord);
  }

  /// A grouped launch's table: each group's tile counts and k-blocks per tile, its record
  /// (operands, map geometry, output operator), and the prototype maps.
  struct GroupTable {
    std::vector<Sm90GroupTiles> tiles;
    std::vector<GroupRecord> records;
    GroupedPrepare prepare;
  };

  /// The group table of `count` problems, or why they cannot run as one grouped launch: each one
  /// batch, with the TMA alignment (can_implement_common), K >= 1 (kErrorNotSupported: a K == 0
  /// problem is beta * C, which the library runs apart) and units that fit an int (all checked
  /// first, on every problem),
  /// then, with `encode`, each group's output operator and map geometry, and the prototype maps
  /// the driver encodes from the first problem with M, N > 0 (kErrorMisalignedOperand if it
  /// refuses one; the other problems' maps are written on the device from the same prototypes,
  /// the checks above holding for every problem). A problem with M or N == 0 takes no part (it
  /// owns no tiles; its GroupParams are not written). Fills *table (count groups; without `encode`,
  /// only the tile counts).
  static Status make_group_table(Arguments const *problems, int count, GroupTable *table, bool encode) {
    if (count < 0 || (count > 0 && problems == nullptr)) return Status::kErrorInvalidProblem;
    if (kSharedBytes > Kernel::device_shared_memory_limit()) return Status::kErrorNotSupported;
    table->tiles.assign(static_cast<size_t>(count), Sm90GroupTiles{});
    if (encode) table->records.assign(static_cast<size_t>(count), GroupRecord{});   // (not for the checks alone)
    int64_t units = 0;
    for (int g = 0; g < count; ++g) {   // the checks that encode nothing
      Arguments const &p = problems[g];
      if (p.batch_count != 1) return Status::kErrorInvalidProblem;
      if (p.problem_size.m() > 0 && p.problem_size.n() > 0) {
        if (p.problem_size.k() <= 0) return Status::kErrorNotSupported;
        Status const status = can_implement_common<Kernel>(p);
        if (status != Status::kSuccess) return status;
        if (!tma_encodable(Mainloop::map_shape_A(p)) || !tma_encodable(Mainloop::map_shape_B(p)) ||
            !tma_encodable(Epilogue::map_shape(p, p.ldc, p.batch_stride_C)) ||
            !tma_encodable(Epilogue::map_shape(p, p.ldd, p.batch_stride_D))) {
          return Status::kErrorMisalignedOperand;   // (the prologue writes maps the driver never sees)
        }
        int64_t const rows = unit_rows(p.problem_size.m());
        units += rows * unit_columns(p.problem_size.n());
        if (units > int64_t(INT32_MAX)) return Status::kErrorNotSupported;
        table->tiles[size_t(g)].m_tiles = int(rows);
        table->tiles[size_t(g)].k_tiles = int((int64_t(p.problem_size.k()) + TileShape::kK - 1) / TileShape::kK);
        table->tiles[size_t(g)].n = p.problem_size.n();
      }
      table->tiles[size_t(g)].end = int(units);
    }
    bool prototype = false;
    for (int g = 0; encode && g < count; ++g) {   // then each group's operator and map geometry
      Arguments const &p = problems[g];
      if (p.problem_size.m() <= 0 || p.problem_size.n() <= 0) continue;
      if (!prototype) {
        typename Epilogue::Params output;
        if (!Mainloop::make_params(p, table->prepare.mainloop) || !Epilogue::make_params(p, output)) {
          return Status::kErrorMisalignedOperand;
        }
        table->prepare.output = output.tma_D;
        prototype = true;
      }
      GroupRecord &record = table->records[size_t(g)];
      record.A = static_cast<char const *>(static_cast<void const *>(p.ptr_A));
      record.B = static_cast<char const *>(static_cast<void const *>(p.ptr_B));
      record.C = static_cast<char const *>(static_cast<void const *>(p.ptr_C));
      record.D = static_cast<char *>(static_cast<void *>(p.ptr_D));
      record.a = Mainloop::map_shape_A(p);
      record.b = Mainloop::map_shape_B(p);
      record.c = Epilogue::map_shape(p, p.ldc, p.batch_stride_C);
      record.d = Epilogue::map_shape(p, p.ldd, p.batch_stride_D);
      Epilogue::make_operator_params(p, record);
    }
    return Status::kSuccess;
  }

  /// Whether a map of `shape` is within the driver's limits for cuTensorMapEncodeTiled (extents at
  /// most 2^32, strides below 2^40 bytes; CUDA driver API, "cuTensorMapEncodeTiled").
  static bool tma_encodable(collective::TmaMapShape const &shape) {
    return shape.inner <= (uint64_t(1) << 32) && shape.outer <= (uint64_t(1) << 32) &&
           shape.stride < (uint64_t(1) << 40) && shape.batch_stride < (uint64_t(1) << 40);
  }

  /// Whether `count` problems can run as one grouped launch: make_group_table's checks, without
  /// encoding the prototype maps (run_grouped does, once per launch).
  static Status can_implement_grouped(Arguments const *problems, int count) {
    if constexpr (!kGrouped) {
      return Status::kErrorNotSupported;
    } else {
      GroupTable table;
      return make_group_table(problems, count, &table, /*encode=*/false);
    }
  }

  /// Runs `count` problems (can_implement_grouped) as one persistent launch on `stream`: each
  /// group's tile counts and record (GroupRecord: operands, map geometry, output operator) are
  /// built here and copied into `workspace` (get_grouped_workspace_size(count) bytes, 256-byte
  /// aligned; ~0.2 KB per group) by cudaMemcpyAsync from pageable memory, ordered after
  /// `stream`'s earlier work (not capturable in a CUDA graph; a pinned staging ring measured no
  /// faster on the H200, s24: the call is bound by its host work); a prologue kernel writes each
  /// group's GroupParams, its tensor maps from three prototypes the driver encoded
  /// (prepare_grouped_device: the driver encoding four maps per problem on the host took ~0.6 ms
  /// at 1024 problems, s21); the GEMM kernel acquires each group's maps
  /// (arch::tensor_map_acquire) and walks all groups' tiles (Sm90GroupedTileScheduler).
  static Status run_grouped(Arguments const *problems, int count, void *workspace, cudaStream_t stream) {
    if constexpr (!kGrouped) {
      return Status::kErrorNotSupported;
    } else {
      GroupTable table;
      Status const status = make_group_table(problems, count, &table, /*encode=*/true);
      if (status != Status::kSuccess) return status;   // nothing launched, nothing copied
      std::vector<Sm90GroupTiles> const &tiles = table.tiles;
      int const units = count > 0 ? tiles.back().end : 0;
      if (units == 0) return Status::kSuccess;
      if (Status const checked = check_table_workspace(workspace); checked != Status::kSuccess) return checked;
      auto *device_groups = static_cast<GroupParams *>(workspace);
      auto *device_tiles =
          reinterpret_cast<Sm90GroupTiles *>(static_cast<char *>(workspace) + grouped_tiles_offset(count));
      auto *device_records =
          reinterpret_cast<GroupRecord *>(static_cast<char *>(workspace) + grouped_records_offset(count));
      int device = 0;
      cudaGetDevice(&device);
      if (!Kernel::allow_shared_memory(device)) return Status::kErrorInternal;   // (before anything is copied)
      size_t const tiles_bytes = sizeof(Sm90GroupTiles) * size_t(count);
      size_t const records_bytes = sizeof(GroupRecord) * size_t(count);
      if (cudaMemcpyAsync(device_tiles, tiles.data(), tiles_bytes, cudaMemcpyHostToDevice, stream) != cudaSuccess ||
          cudaMemcpyAsync(device_records, table.records.data(), records_bytes, cudaMemcpyHostToDevice, stream) !=
              cudaSuccess) {
        cudaGetLastError();
        return Status::kErrorInternal;
      }
      GroupedPrepare prepare = table.prepare;
      prepare.records = device_records;
      prepare.tiles = device_tiles;
      prepare.groups = device_groups;
      prepare.count = count;
      gemm_sm90_grouped_prepare_kernel<GemmSm90Grouped><<<(count + 255) / 256, 256, 0, stream>>>(prepare);
      if (cudaGetLastError() != cudaSuccess) return Status::kErrorInternal;
      Params params;
      params.groups = device_groups;
      params.scheduler = TileScheduler::make(device_tiles, count);
      return Kernel::launch_persistent(params, units, device, Kernel::device_sm_count(), stream);
    }
  }

  // ---- contiguous grouped launches: the group sizes in device memory --------------------------
  //
  // The mixture-of-experts layout (torch._grouped_mm's 2D x 3D case, column-major here): `count`
  // groups share M, K, the types and leading dimensions; group g's A starts at
  // ptr_A + g * batch_stride_A (the experts' weights), and its N columns are the columns
  // [offsets[g - 1], offsets[g]) (offsets[-1] = 0) of one packed B, C and D of N = problem_size.n()
  // columns (the tokens routed to it, packed expert after expert). offsets is a device array the
  // caller's kernels may write on the stream before the launch (routing computed on the GPU): the
  // host reads no size, so the launch can be captured into a CUDA graph and replayed with new
  // offsets. A prologue kernel (one CTA per SM, contiguous_prepare_ctas) turns the offsets into the group table: each group's tile
  // count and its A / B / C / D tensor maps, copied from maps the host encodes once per call for
  // the whole packed problem and rebased with tensormap.replace (PTX ISA, "tensormap.replace":
  // global address and the N extent); the GEMM kernel then walks the groups' tiles as run_grouped
  // does, on one CTA per SM or as many clusters as fit (the host does not know the tile count),
  // and CTAs without a tile exit.

  static constexpr int kPrepareThreads = 1024;

  /// What the prologue reads: every group's parameters as the whole packed problem's, the offsets,
  /// and where each group's operands start relative to them.
  struct ContiguousPrepare {
    typename Mainloop::Params mainloop;   ///< maps of A (group 0) and of B over all N columns
    typename Epilogue::Params epilogue;   ///< maps of C and D over all N columns, output operator
    int const *offsets = nullptr;         ///< device: the end column of each group
    int count = 0;
    int n = 0;                            ///< columns of B, C and D
    int m_tiles = 0;
    int k_tiles = 0;                      ///< k-blocks of every tile (the groups share K)
    char const *A = nullptr, *B = nullptr, *C = nullptr;
    char *D = nullptr;
    int64_t stride_A = 0;                 ///< bytes from one group's A to the next
    int64_t column_B = 0, column_C = 0, column_D = 0;   ///< bytes from one column to the next
    GroupParams *groups = nullptr;        ///< the group table (written)
    Sm90GroupTiles *tiles = nullptr;      ///< the groups' tile counts (written)
  };

  /// Whether `shape` (the packed problem, one batch: M, all N columns, K, A with batch_stride_A
  /// from group to group, B, C, D) can run as a contiguous launch of `count` groups: the TMA rules
  /// of can_implement (kErrorMisalignedOperand; batch_stride_A a multiple of 16 bytes), K >= 1,
  /// M >= 1 (kErrorInvalidProblem), B K-major (a column offset must keep B's maps aligned; else
  /// kErrorNotSupported), count >= 1 and the tile count bound (every group's partial column tile
  /// counted) within an int (kErrorNotSupported). N == 0 is allowed (nothing runs).
  static Status can_implement_contiguous(Arguments const &shape, int count) {
    if constexpr (!kGrouped || !Mainloop::kKMajorB) {
      return Status::kErrorNotSupported;
    } else {
      auto const &p = shape.problem_size;
      if (count < 1 || shape.batch_count != 1 || p.m() < 1 || p.k() < 1 || p.n() < 0) {
        return Status::kErrorInvalidProblem;
      }
      if (kSharedBytes > Kernel::device_shared_memory_limit()) return Status::kErrorNotSupported;
      Arguments whole = shape;   // the TMA alignment rules, checked on one column at least
      whole.problem_size = GemmCoord(p.m(), p.n() > 0 ? p.n() : 1, p.k());
      Status const status = can_implement_common<Kernel>(whole);
      if (status != Status::kSuccess) return status;
      if ((shape.batch_stride_A * int64_t(sizeof(ElementA))) % 16 != 0 || shape.batch_stride_A < 0) {
        return Status::kErrorMisalignedOperand;
      }
      int64_t const n_units = unit_columns(p.n()) + count;   // each group's partial column unit
      if (unit_rows(p.m()) * n_units > int64_t(INT32_MAX)) return Status::kErrorNotSupported;
      return Status::kSuccess;
    }
  }

  /// Bytes of device workspace (256-byte aligned) a contiguous launch of `count` groups needs.
  static size_t get_contiguous_workspace_size(int count) {
    return count <= 0 ? 0 : grouped_tiles_offset(count) + size_t(count) * sizeof(Sm90GroupTiles);   // (no GroupRecord)
  }

  /// Runs `shape` (can_implement_contiguous) as `count` groups split at the device array `offsets`
  /// (count ints; group g owns columns [offsets[g - 1], offsets[g]), offsets[-1] = 0): the
  /// prologue kernel, then the GEMM kernel, on `stream`; nothing else (no copy, no host read of
  /// device memory), so a stream being captured takes both. A group whose end lies before an
  /// earlier group's end or past N owns no columns and is skipped (its columns are not written):
  /// groups never overlap and nothing past column N is read or written. kErrorMisalignedOperand
  /// when the driver refuses the packed problem's maps, kErrorWorkspaceNull without a workspace.
  static Status run_contiguous(Arguments const &shape, int const *offsets, int count, void *workspace,
                               cudaStream_t stream) {
    if constexpr (!kGrouped || !Mainloop::kKMajorB) {
      return Status::kErrorNotSupported;
    } else {
      if (shape.problem_size.n() == 0) return Status::kSuccess;
      if (offsets == nullptr) return Status::kErrorInvalidProblem;
      if (Status const checked = check_table_workspace(workspace); checked != Status::kSuccess) return checked;
      ContiguousPrepare prepare;
      if (Status const made = make_prototype(shape, prepare); made != Status::kSuccess) return made;
      prepare.offsets = offsets;
      prepare.count = count;
      prepare.n = shape.problem_size.n();
      prepare.m_tiles = int(unit_rows(shape.problem_size.m()));
      prepare.k_tiles = (shape.problem_size.k() + TileShape::kK - 1) / TileShape::kK;
      prepare.A = reinterpret_cast<char const *>(shape.ptr_A);
      prepare.B = reinterpret_cast<char const *>(shape.ptr_B);
      prepare.C = reinterpret_cast<char const *>(shape.ptr_C);
      prepare.D = reinterpret_cast<char *>(shape.ptr_D);
      prepare.stride_A = shape.batch_stride_A * int64_t(sizeof(ElementA));
      prepare.column_B = shape.ldb * int64_t(sizeof(ElementB));
      prepare.column_C = shape.ldc * int64_t(sizeof(ElementC));
      prepare.column_D = shape.ldd * int64_t(sizeof(ElementC));
      return run_after_prologue(gemm_sm90_contiguous_prepare_kernel<GemmSm90Grouped>, prepare, workspace, count, stream);
    }
  }

  /// The launches of a grouped call sized on the device: `prologue` (contiguous_prepare_ctas(count)
  /// CTAs) writing `prepare`'s group table into `workspace` (GroupParams, then Sm90GroupTiles),
  /// then the GEMM kernel over it on one CTA per SM or as many clusters as fit (the host does not
  /// know the tile count). kErrorInternal if either launch fails (nothing launched when the
  /// shared memory attribute cannot be set).
  template <typename Prepare>
  static Status run_after_prologue(void (*prologue)(Prepare), Prepare &prepare, void *workspace, int count,
                                   cudaStream_t stream) {
    prepare.groups = static_cast<GroupParams *>(workspace);
    prepare.tiles = reinterpret_cast<Sm90GroupTiles *>(static_cast<char *>(workspace) + grouped_tiles_offset(count));
    int device = 0;
    cudaGetDevice(&device);
    if (!Kernel::allow_shared_memory(device)) return Status::kErrorInternal;   // (before anything launches)
    prologue<<<contiguous_prepare_ctas(count), kPrepareThreads, 0, stream>>>(prepare);
    if (cudaGetLastError() != cudaSuccess) return Status::kErrorInternal;
    Params params;
    params.groups = prepare.groups;
    params.scheduler = TileScheduler::make(prepare.tiles, count);
    return Kernel::launch_persistent(params, INT_MAX, device, Kernel::device_sm_count(), stream);   // (units: on the device)
  }

  /// CTAs of the contiguous launch's prologue: one per SM (at most one per group), or
  /// CUTLASS_LIB_PREPARE_CTAS (an integer from 1 to 1024, read once on the host; a measurement aid).
  /// Measured on the H200 (s22, ncu, 1024 groups): 1 CTA 314 us, 32 CTAs 15.8 us, 132 CTAs 13.4 us
  /// (every CTA repeats the scans, a few microseconds); the 1024-expert layer's whole contiguous
  /// call went from 433 to 127 us (docs/runs/2026-12-02-s22-prologue-ctas.log).
  static int contiguous_prepare_ctas(int count) {
    static int const chosen = env_int_in("CUTLASS_LIB_PREPARE_CTAS", 1, 1024, 0);   // 0: one per SM
    int const ctas = chosen > 0 ? chosen : Kernel::device_sm_count();
    return count < ctas ? (count > 0 ? count : 1) : ctas;
  }

  // ---- device-sized grouped launches: every group's sizes and operands in device memory -------
  //
  // `count` groups, group g: D_g = alpha * op(A_g) op(B_g) + beta * C_g with (m, n, k) =
  // sizes[3g .. 3g + 2], A_g = A[g] (lda[g]), B_g = B[g] (ldb[g]), C_g = D_g = C[g] (ldc[g]),
  // column-major C; the kernel's layouts and types, one alpha and beta (the prototype's output
  // operator) for all. The host reads none of the arrays: a prologue kernel checks each group
  // and writes its tile count and tensor maps (rebased prototypes, tensormap.replace), then the
  // GEMM kernel walks all groups' tiles as run_grouped does (one CTA per SM, or as many clusters
  // as fit). So routing that changes every step can write the arrays on the stream and the call
  // can be captured into a CUDA graph. A group the kernels cannot run is skipped, its C untouched
  // (device_group_units); a group with K == 0 owns no tiles: the prologue writes its beta * C
  // (an accumulator zeroed by plain stores inside the consumers' loop would serialize every wgmma:
  // ptxas C7515).

  /// What the prologue reads: the prototype maps and output operator, the arrays, the table.
  struct DeviceSizedPrepare {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    GroupedDeviceArrays groups_in;
    int count = 0;
    GroupParams *groups = nullptr;     ///< the group table (written)
    Sm90GroupTiles *tiles = nullptr;   ///< the groups' tile counts (written)
  };

  /// Whether a device-sized launch of `count` groups can run with `prototype`'s scalars and
  /// epilogue (its sizes, pointers and leading dimensions only encode the prototype maps: any
  /// problem the TMA rules take, e.g. 128 x 128 x 128 with lda = ldb = ldc = 128 on a 16-byte
  /// aligned address; its ptr_C null when C is never read, beta == 0 with host scalars):
  /// kErrorNotSupported for a kernel without the grouped scheduler, count past 2^31 - 1 / 2
  /// (the prologue's bound on a group's tiles stays >= 1), and can_implement's answers for the
  /// prototype (kErrorInvalidProblem, kErrorMisalignedOperand).
  static Status can_implement_device_sized(Arguments const &prototype, int count) {
    if constexpr (!kGrouped) {
      return Status::kErrorNotSupported;
    } else {
      if (count < 0 || count > INT_MAX / 2) return Status::kErrorNotSupported;
      if (kSharedBytes > Kernel::device_shared_memory_limit()) return Status::kErrorNotSupported;
      return can_implement_common<Kernel>(prototype);
    }
  }

  /// Bytes of device workspace (256-byte aligned) a device-sized launch of `count` groups needs.
  static size_t get_device_sized_workspace_size(int count) { return get_contiguous_workspace_size(count); }

  /// Runs `count` device-sized groups (can_implement_device_sized): the prologue, then the GEMM
  /// kernel, on `stream`; nothing else (no copy, no host read of device memory). kErrorWorkspaceNull
  /// without a workspace, kErrorMisalignedOperand when it is not 256-byte aligned or the driver
  /// refuses the prototype maps; nothing launched then.
  static Status run_device_sized(Arguments const &prototype, GroupedDeviceArrays const &groups, int count, void *workspace,
                                 cudaStream_t stream) {
    if constexpr (!kGrouped) {
      return Status::kErrorNotSupported;
    } else {
      if (count == 0) return Status::kSuccess;
      if (Status const checked = check_table_workspace(workspace); checked != Status::kSuccess) return checked;
      DeviceSizedPrepare prepare;
      if (Status const made = make_prototype(prototype, prepare); made != Status::kSuccess) return made;
      prepare.groups_in = groups;
      prepare.count = count;
      return run_after_prologue(gemm_sm90_device_sized_prepare_kernel<GemmSm90Grouped>, prepare, workspace, count, stream);
    }
  }

  /// Whether the call's alpha is 0 on the host (alpha_ptr null) and the epilogue plain: every
  /// group is C = beta * C without reading A or B (scale_device_group), as a single call with host
  /// alpha == 0 (with a fused epilogue the groups run the GEMM, as that call does).
  CUTLASS_DEVICE static bool scales_only(DeviceSizedPrepare const &p) {
    return !EpilogueOutputOp::kFused && p.epilogue.output_op.alpha_ptr == nullptr && p.epilogue.output_op.alpha == 0;
  }

  /// Group g's (m, n, k).
  CUTLASS_DEVICE static void device_group_size(GroupedDeviceArrays const &in, int g, int &m, int &n, int &k) {
    int const *size = in.sizes + 3 * int64_t(g);
    m = size[0], n = size[1], k = size[2];
  }

  /// Group g's units (cluster tiles) when the GEMM kernel runs it, else 0: m, n, k > 0 (K == 0 or
  /// a host alpha of 0: scale_device_group; m or n == 0: nothing to do), C, A and B each
  /// device_operand_fits with its contiguous extent (m for C; k for a K-major A / B, else m / n),
  /// at most `limit` units (the prologue keeps the total within an int). A group of 0 units that
  /// scale_device_group does not take is skipped, its C untouched.
  CUTLASS_DEVICE static int64_t device_group_units(DeviceSizedPrepare const &p, int g, int64_t limit) {
    GroupedDeviceArrays const &in = p.groups_in;
    int m, n, k;
    device_group_size(in, g, m, n, k);
    if (m <= 0 || n <= 0 || k <= 0 || scales_only(p) || !device_operand_fits<ElementC>(in.C[g], in.ldc[g], m)) {
      return 0;
    }
    int64_t const a_extent = Mainloop::kKMajorA ? k : m, b_extent = Mainloop::kKMajorB ? k : n;
    if (!device_operand_fits<ElementA>(in.A[g], in.lda[g], a_extent) ||
        !device_operand_fits<ElementB>(in.B[g], in.ldb[g], b_extent)) {
      return 0;
    }
    int64_t const units = unit_rows(m) * unit_columns(n);
    return units <= limit ? units : 0;
  }

  /// Whether an operand of T at `p` with leading dimension `ld` and contiguous extent `extent`
  /// takes the kernels' 16-byte TMA rule: p non-null, ld >= extent, below 2^40 bytes, and
  /// operand_is_aligned (can_implement_common's rule) at 16 bytes.
  template <typename T>
  CUTLASS_DEVICE static bool device_operand_fits(void const *p, int64_t ld, int64_t extent) {
    return p != nullptr && ld >= extent && ld < (int64_t(1) << 40) / int64_t(sizeof(T)) &&
           operand_is_aligned<T>(p, ld, 0, 1, extent, 16 / int(sizeof(T)));
  }

  /// Group g's C = beta * C when its K is 0 (any K with a host alpha of 0) and C passes
  /// device_group_units' checks (beta == 0 writes zeros without reading C, as BLAS), by the
  /// calling CTA's threads. Not with a fused epilogue: such a group is skipped, its C untouched
  /// (a single fused call with K == 0 is NOT_SUPPORTED).
  CUTLASS_DEVICE static void scale_device_group(DeviceSizedPrepare const &p, int g) {
    if (EpilogueOutputOp::kFused) return;
    GroupedDeviceArrays const &in = p.groups_in;
    int m, n, k;
    device_group_size(in, g, m, n, k);
    if ((k != 0 && !scales_only(p)) || k < 0 || m <= 0 || n <= 0) return;
    auto *c = static_cast<ElementC *>(in.C[g]);
    int64_t const ldc = in.ldc[g];
    if (!device_operand_fits<ElementC>(c, ldc, m)) return;
    auto const &op = p.epilogue.output_op;
    float const beta = float(op.beta_ptr ? *op.beta_ptr : op.beta);
    for (int64_t i = threadIdx.x; i < int64_t(m) * n; i += blockDim.x) {
      ElementC &x = c[i % m + (i / m) * ldc];
      x = ElementC(beta == 0.f ? 0.f : beta * float(x));
    }
  }

#if defined(__CUDACC__)
  // ---- device: the prologues ----------------------------------------------------------------

  /// The contiguous launch's prologue (run_contiguous), CTAs of kPrepareThreads threads, a group
  /// per thread in rounds: group g's columns are [begin, end) with end = offsets[g] and begin the
  /// largest end before it (0 for the first), so groups never overlap; an end before begin or past
  /// N leaves the group empty. Two block-wide scans (cub::BlockScan) carry the running largest end
  /// and the running tile count across rounds. A non-empty group's entry of the table is the whole
  /// problem's with its maps rebased in place (tensormap.replace on the global copy; the GEMM
  /// kernel acquires each map before its first use, tensor_map_acquire). Every CTA runs the scans
  /// over all groups (a few microseconds) and writes the entries of the groups g with
  /// g % gridDim.x == blockIdx.x, so more CTAs share the map writes (contiguous_prepare_ctas).
  CUTLASS_DEVICE static void prepare_contiguous_device(ContiguousPrepare const &p) {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
    using Scan = cub::BlockScan<int, kPrepareThreads>;
    __shared__ typename Scan::TempStorage scan;
    auto const larger = [](int a, int b) { return a > b ? a : b; };
    int last_end = 0, units = 0;   // carried from the rounds before (the same in every thread)
    for (int64_t first = 0; first < p.count; first += kPrepareThreads) {
      int const g = int(first) + int(threadIdx.x);
      int const end = g < p.count ? p.offsets[g] : INT_MIN;
      int begin = 0, round_end = 0;
      Scan(scan).ExclusiveScan(end, begin, last_end, larger, round_end);
      __syncthreads();
      int const columns = g < p.count && end >= begin && end <= p.n ? end - begin : 0;
      // (bounded by the host: m_tiles x (N units + count) fits an int; columns + kN - 1 may not)
      int const tiles = columns > 0 ? p.m_tiles * int(unit_columns(columns)) : 0;
      int tiles_end = 0, round_tiles = 0;
      Scan(scan).InclusiveSum(tiles, tiles_end, round_tiles);
      __syncthreads();
      bool const writes = g < p.count && g % int(gridDim.x) == int(blockIdx.x);   // this CTA's groups
      if (writes) {
        p.tiles[g] = Sm90GroupTiles{units + tiles_end, columns > 0 ? p.m_tiles : 0, p.k_tiles, columns};
      }
      if (writes && columns > 0) {
        GroupParams &group = p.groups[g];
        group.mainloop = p.mainloop;
        group.epilogue = p.epilogue;
        EpilogueOutputOp::move_to_group(group.epilogue.output_op, g, begin, columns);   // fused pieces
        // K-major B: dimension 1 is N; D and C: dimension 0 is M, 1 is N (make_params)
        cuda::ptx::tensormap_replace_global_address(cuda::ptx::space_global, &group.mainloop.tma_A,
                                                    uint64_t(p.A + int64_t(g) * p.stride_A));
        move_map(&group.mainloop.tma_B, p.B + int64_t(begin) * p.column_B, uint32_t(columns));
        move_map(&group.epilogue.tma_D, p.D + int64_t(begin) * p.column_D, uint32_t(columns));
        if (p.epilogue.has_source_pointer) {
          move_map(&group.epilogue.tma_C, p.C + int64_t(begin) * p.column_C, uint32_t(columns));
        }
        // the writer's half of the proxy hand-off; the GEMM kernel acquires each map before use
        cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_release, cuda::ptx::scope_gpu);
      }
      last_end = last_end > round_end ? last_end : round_end;
      units += round_tiles;
    }
#endif
  }

  /// The device-sized launch's prologue (run_device_sized), CTAs of kPrepareThreads threads, a
  /// group per thread in rounds: its units (device_group_units; 0 skips it), a block-wide scan
  /// (cub::BlockScan) for the running count, then, for the groups g with g % gridDim.x ==
  /// blockIdx.x, its table entry: the prototype maps rebased to its operands (C's map only when
  /// the prototype reads C) and released to the tensormap proxy; then those of its groups with
  /// K == 0 (scale_device_group). Each group is held to INT_MAX / count units, so the total fits
  /// an int.
  CUTLASS_DEVICE static void prepare_device_sized_device(DeviceSizedPrepare const &p) {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
    using Scan = cub::BlockScan<int, kPrepareThreads>;
    __shared__ typename Scan::TempStorage scan;
    int64_t const limit = INT_MAX / (p.count > 0 ? p.count : 1);
    int units = 0;   // carried from the rounds before (the same in every thread)
    for (int64_t first = 0; first < p.count; first += kPrepareThreads) {
      int const g = int(first) + int(threadIdx.x);
      int const tiles = g < p.count ? int(device_group_units(p, g, limit)) : 0;
      int tiles_end = 0, round_tiles = 0;
      Scan(scan).InclusiveSum(tiles, tiles_end, round_tiles);
      __syncthreads();
      bool const writes = g < p.count && g % int(gridDim.x) == int(blockIdx.x);   // this CTA's groups
      if (writes) {
        int m, n, k;
        device_group_size(p.groups_in, g, m, n, k);
        int const k_tiles = tiles > 0 ? int((int64_t(k) + TileShape::kK - 1) / TileShape::kK) : 0;
        p.tiles[g] = Sm90GroupTiles{units + tiles_end, tiles > 0 ? int(unit_rows(m)) : 0, k_tiles, tiles > 0 ? n : 0};
        if (tiles > 0) {
          GroupParams &group = p.groups[g];
          group.mainloop = p.mainloop;
          group.epilogue = p.epilogue;
          EpilogueOutputOp::move_to_entry(group.epilogue.output_op, g, m, n);   // fused pieces
          auto const a = Mainloop::operand_map_shape(Mainloop::kKMajorA, uint64_t(m), uint64_t(k), p.groups_in.lda[g], 1, 0);
          auto const b = Mainloop::operand_map_shape(Mainloop::kKMajorB, uint64_t(n), uint64_t(k), p.groups_in.ldb[g], 1, 0);
          write_map(&group.mainloop.tma_A, p.groups_in.A[g], a);
          write_map(&group.mainloop.tma_B, p.groups_in.B[g], b);
          int64_t const ldc = p.groups_in.ldc[g];
          collective::TmaMapShape const c{uint64_t(m), uint64_t(n), uint64_t(ldc) * sizeof(ElementC),
                                          collective::tma_batch_stride_bytes(1, 0, ldc, n, int(sizeof(ElementC)))};
          write_map(&group.epilogue.tma_D, p.groups_in.C[g], c);
          if (p.epilogue.has_source_pointer) write_map(&group.epilogue.tma_C, p.groups_in.C[g], c);
          cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_release, cuda::ptx::scope_gpu);
        }
      }
      units += round_tiles;
    }
    // the K == 0 groups, a CTA's whole threads for each of its groups
    for (int g = int(blockIdx.x); g < p.count; g += int(gridDim.x)) scale_device_group(p, g);
#endif
  }

  /// The host-sized grouped launch's prologue (run_grouped): thread g writes group g's GroupParams
  /// (a group that owns tiles) from its record: the output operator, and the tensor maps from the
  /// prototypes: address, extents and strides replaced in
  /// place (PTX ISA, "tensormap.replace"; global_stride ordinal i is dimension i + 1's stride,
  /// dimension 0 being contiguous), then released to the tensormap proxy; the GEMM kernel
  /// acquires each map before its first use (tensor_map_acquire).
  CUTLASS_DEVICE static void prepare_grouped_device(GroupedPrepare const &p) {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
    int const g = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
    if (g >= p.count || p.tiles[g].m_tiles == 0) return;
    GroupParams &group = p.groups[g];
    GroupRecord const &record = p.records[g];
    group.mainloop = p.mainloop;
    write_map(&group.mainloop.tma_A, record.A, record.a);
    write_map(&group.mainloop.tma_B, record.B, record.b);
    group.epilogue.output_op = record.output_op;
    group.epilogue.has_source_pointer = record.has_source_pointer;
    group.epilogue.tma_D = p.output;
    write_map(&group.epilogue.tma_D, record.D, record.d);
    if (record.has_source_pointer) {
      group.epilogue.tma_C = p.output;
      write_map(&group.epilogue.tma_C, record.C, record.c);
    }
    cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_release, cuda::ptx::scope_gpu);
#endif
  }

#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  /// A map (already copied to `map`, in global memory) moved to `address`, its outer extent
  /// (dimension 1) `outer`; the rest as it was.
  CUTLASS_DEVICE static void move_map(CUtensorMap *map, void const *address, uint32_t outer) {
    cuda::ptx::tensormap_replace_global_address(cuda::ptx::space_global, map, uint64_t(address));
    cuda::ptx::tensormap_replace_global_dim(cuda::ptx::space_global, map, cuda::ptx::n32_t<1>{}, outer);
  }

  /// A prototype map (already copied to `map`, in global memory) moved to `address` with `shape`.
  CUTLASS_DEVICE static void write_map(CUtensorMap *map, void const *address, collective::TmaMapShape const &shape) {
    using cuda::ptx::space_global;
    move_map(map, address, uint32_t(shape.outer));
    cuda::ptx::tensormap_replace_global_dim(space_global, map, cuda::ptx::n32_t<0>{}, uint32_t(shape.inner));
    cuda::ptx::tensormap_replace_global_stride(space_global, map, cuda::ptx::n32_t<0>{}, shape.stride);
    cuda::ptx::tensormap_replace_global_stride(space_global, map, cuda::ptx::n32_t<1>{}, shape.batch_stride);
  }
#endif
#endif  // defined(__CUDACC__)
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
