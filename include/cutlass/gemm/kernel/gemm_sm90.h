/// @file cutlass/gemm/kernel/gemm_sm90.h
/// GemmSm90: the Hopper (sm_90a) warp-specialized, persistent GEMM. 384 threads per CTA, one CTA
/// per SM, walking output tiles in the Sm90TileScheduler order:
///   warpgroup 0 (producer, 40 registers, block-scaled 56 / 64 on a cluster; kProducerRegisters): one thread issues the TMA loads of A and B into a ring
///     of kStages shared-memory stages, each guarded by a full and an empty mbarrier (block-scaled
///     kernels: its warp also copies each k-block's scales into the stage);
///   warpgroups 1, 2 (consumers, 232 registers, block-scaled 224 / 216 on a cluster): wgmma from the stages into f32 accumulators,
///     then the TMA epilogue (sm90_epilogue_tma.h). Cooperative: the two split every tile.
///     Ping-pong: they take alternate tiles, and an order barrier lets a consumer start a tile's
///     mainloop only when the other has finished the previous tile's, so one consumer's mainloop
///     runs while the other stores its tile. (It also keeps each consumer within one phase of the
///     stage barriers: an mbarrier parity wait cannot tell phase p from phase p - 2.)
/// The producer runs ahead into the next tile while the consumers are in the epilogue.
/// Clusters (ClusterShape 2x1x1 or 1x2x1): the grid is whole clusters, launched with the cluster
/// dimension attribute; the CTAs of a cluster take neighbouring tiles that share B (2x1) or A
/// (1x2) in the same iteration (Sm90TileScheduler), and each loads its slice of the shared tile
/// once, multicast into both CTAs' stages. So a stage may be refilled only when the consumers of
/// every CTA it is written into have released it: consumer warps arrive on the empty barrier of
/// every CTA of the cluster (lane r on rank r's, through the shared::cluster window), and the
/// empty barriers count the arrivals of all of them. Cluster barriers after the barrier set-up
/// (no CTA multicasts into or arrives on a peer's barrier before it is initialized) and before
/// exit (no CTA leaves while a peer may still arrive on its barriers).
/// Stream-K (TileSchedulerTag = StreamKScheduler, 1x1 clusters; Sm90StreamKScheduler): the
/// walker also hands out runs of k-blocks of a tile. A unit that starts inside a tile stores its
/// raw accumulators to the CTA's partial slot in the workspace and raises the CTA's flag (per
/// consumer part) with a release; the unit that starts the tile waits for the flags of the later
/// CTAs that share it (acquire), adds their partials in CTA order (so the sum is deterministic),
/// clears the flags for the next launch and runs the epilogue. The flags must be zero before the
/// first launch on a workspace: initialize_workspace() clears them, each launch leaves them clear.
/// Requirements (TMA): A, B, C, D 16-byte aligned, leading dimensions and batch strides
/// multiples of 16 bytes (swap-AB tiles, below: C and D any alignment, as they store without TMA);
/// can_implement() checks them (Status::kErrorMisalignedOperand).
/// Any M, N, K >= 1: TMA zero-fills loads outside the problem and clips stores at M and N.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <type_traits>

#include <cuda/atomic>
#include <cuda/ptx>

#include "cutlass/arch/arch.h"
#include "cutlass/arch/tma_sm90.h"
#include "cutlass/arch/wgmma_sm90.h"
#include "cutlass/device_once.h"
#include "cutlass/epilogue/collective/sm90_epilogue_tma.h"
#include "cutlass/gemm/collective/sm90_block_scales.h"
#include "cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h"
#include "cutlass/gemm/dispatch_policy.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/kernel/gemm_sm90_grouped.h"
#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"

namespace cutlass {
namespace gemm {
namespace kernel {

template <typename Kernel>
__global__ void __launch_bounds__(384, 1) gemm_sm90_kernel(__grid_constant__ typename Kernel::Params const params) {
  Kernel::run_device(params);
}

template <typename ElementA_, typename LayoutA_, typename ElementB_, typename LayoutB_, typename ElementC_,
          typename ElementAccumulator_, typename ThreadblockShape_, typename ClusterShape_, int Stages,
          typename KernelSchedule, typename EpilogueOutputOp_, typename TileSchedulerTag = PersistentScheduler>
struct GemmSm90 {
  /// Block-scaled (fp8): every k-block's partial sum promoted, times its block scales (see
  /// collective/sm90_block_scales.h); a cooperative schedule.
  static constexpr bool kBlockScaled =
      std::is_same<KernelSchedule, KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum>::value;
  static constexpr bool kCooperative =
      std::is_same<KernelSchedule, KernelTmaWarpSpecializedCooperative>::value || kBlockScaled;
  static_assert(kCooperative || std::is_same<KernelSchedule, KernelTmaWarpSpecializedPingpong>::value,
                "GemmSm90: the schedule must be KernelTmaWarpSpecializedCooperative, ...CooperativeFP8BlockScaledAccum "
                "or KernelTmaWarpSpecializedPingpong");
  static_assert(ClusterShape_::kK == 1 && ((ClusterShape_::kM == 1 && ClusterShape_::kN == 1) ||
                                            (ClusterShape_::kM == 2 && ClusterShape_::kN == 1) ||
                                            (ClusterShape_::kM == 1 && ClusterShape_::kN == 2)),
                "GemmSm90: clusters 1x1x1, 2x1x1 and 1x2x1 are implemented");
  static_assert(std::is_same<ElementAccumulator_, float>::value ||
                    (std::is_same<ElementAccumulator_, int32_t>::value && std::is_same<ElementA_, int8_t>::value),
                "GemmSm90: f32 accumulators (s32 for s8 operands)");
  static constexpr bool kStreamK = std::is_same<TileSchedulerTag, StreamKScheduler>::value;
  static constexpr bool kGrouped = std::is_same<TileSchedulerTag, GroupedScheduler>::value;
  static_assert(kStreamK || kGrouped || std::is_same<TileSchedulerTag, PersistentScheduler>::value,
                "GemmSm90: the tile scheduler must be PersistentScheduler, StreamKScheduler or GroupedScheduler");

  /// Swap-AB kernels: a tile of fewer than 64 rows of D (ThreadblockShape_::kM 16 or 32), for calls
  /// with few rows (tokens in M: GemmEx(T, N, m = tokens, n = out features, k = in features), a
  /// column-major caller's y = x W^T, the suite's decode rows; or D^T = B^T A^T users). wgmma's M
  /// is 64, so the kernel runs the transposed problem D^T = B^T A^T on the transposed tile
  /// (TileShape, N x M): B's columns (the weights) stream through the
  /// wgmma's 64-row side and D's few rows are its N, as 64x32 does for few columns; the consumer
  /// writes its transposed accumulators straight to D (Epilogue::store_transposed_direct), so C
  /// and D need no TMA alignment. Both operands K-major (TN; the transposed problem is TN again),
  /// ping-pong, not grouped or block-scaled; 1x1 clusters, or (persistent only) 1x2 in D's terms:
  /// two CTAs along the weights share D's few rows of A, each loading half and multicasting it
  /// (8-row slices, one 128-byte swizzle atom each), as cuBLAS's decode kernel does (s35 ncu). cuBLAS's sm90 kernels swap the same way
  /// at 16 x 8192 x 8192 (docs/NOTES.md, s11: a 16x64 tile with the weights on the wgmma M side).
  static constexpr bool kSwapAB = ThreadblockShape_::kM < 64;
  static_assert(!kSwapAB || (std::is_same<LayoutA_, layout::RowMajor>::value &&
                             std::is_same<LayoutB_, layout::ColumnMajor>::value &&
                             std::is_same<ElementA_, ElementB_>::value),
                "GemmSm90: a swap-AB tile (M < 64) takes K-major operands of one type (TN)");
  static_assert(!kSwapAB || (!kGrouped && ClusterShape_::kM == 1 && (ClusterShape_::kN == 1 || !kStreamK)),
                "GemmSm90: a swap-AB tile runs the persistent or stream-K scheduler on 1x1x1 clusters, or the "
                "persistent one on 1x2x1 (D's terms)");
  /// The tile the mainloop and the tile scheduler walk: D's (ThreadblockShape_), or D^T's.
  using TileShape = typename std::conditional<
      kSwapAB, GemmShape<ThreadblockShape_::kN, ThreadblockShape_::kM, ThreadblockShape_::kK>, ThreadblockShape_>::type;

  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB = ElementB_;
  using LayoutB = LayoutB_;
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using OperatorClass = arch::OpClassTensorOp;
  using MathOperator = arch::OpMultiplyAdd;
  using ClusterShape = ClusterShape_;

  /// The cluster in TileShape's terms (a swap-AB kernel's is D's transposed; ClusterShape stays D's).
  static constexpr int kClusterM = kSwapAB ? ClusterShape_::kN : ClusterShape_::kM;
  static constexpr int kClusterN = kSwapAB ? ClusterShape_::kM : ClusterShape_::kN;
  static constexpr int kClusterSize = kClusterM * kClusterN;
  static_assert(!kStreamK || kClusterSize == 1, "GemmSm90: stream-K runs 1x1x1 clusters");
  static_assert(!kGrouped || kClusterSize <= 2, "GemmSm90: grouped launches run 1x1x1, 2x1x1 or 1x2x1 clusters");
  static_assert(!kBlockScaled || (!kStreamK && !kGrouped),
                "GemmSm90: block-scaled kernels run the persistent scheduler");

  /// On TileShape. A swap-AB kernel's mainloop operands are B^T and A^T (operand_problem); with
  /// one element type and both K-major (asserted above) they have A's and B's types and layouts.
  using Mainloop = collective::Sm90MmaTmaGmmaSS<ElementA, LayoutA, ElementB, LayoutB, TileShape, Stages, kCooperative,
                                                kClusterM, kClusterN>;
  static_assert(!kSwapAB || (!kCooperative && Mainloop::kAtomsM <= 2),
                "GemmSm90: a swap-AB tile is one ping-pong warpgroup of one or two wgmma atoms (64 or 128 "
                "columns of D)");
  using TileScheduler =
      typename std::conditional<kStreamK, Sm90StreamKScheduler,
                                typename std::conditional<kGrouped, Sm90GroupedTileScheduler<kClusterM, kClusterN>,
                                                          Sm90TileScheduler<kClusterM, kClusterN>>::type>::type;
  using Accumulator = typename Mainloop::Accumulator;
  static_assert(std::is_same<Accumulator, ElementAccumulator_>::value,
                "GemmSm90: the wgmma accumulates in ElementAccumulator");
  static_assert(!kBlockScaled || (Mainloop::kFp8 && TileShape::kK == 128 && EpilogueOutputOp::kOperandScales),
                "GemmSm90: block-scaled kernels take fp8 operands, 128-deep k-blocks and the operand-scale epilogue");
  using BlockScales = collective::Sm90BlockScales<(kBlockScaled ? TileShape::kM : 128), (kBlockScaled ? TileShape::kN : 128),
                                                  (kBlockScaled ? Mainloop::kWgM : 64), (kBlockScaled ? Mainloop::kWgN : 128)>;
  /// Block-scaled kernels with a square tile split along M run 1x128 scales on B's columns as the
  /// tile's transpose (Sm90BlockScales::swaps; Mainloop::mma kSwapAB, Epilogue::store_transposed;
  /// a mixed fp8 pairing's wgmma swaps its operand types with them).
  static constexpr bool kSwapsColumnScales =
      kBlockScaled && TileShape::kM == TileShape::kN && Mainloop::kSplitM && Mainloop::kAtomsM == 1;
  using Epilogue = epilogue::collective::Sm90EpilogueTma<ElementC, EpilogueOutputOp, Mainloop::kWgM, Mainloop::kWgN,
                                                         Mainloop::kConsumers, Accumulator>;
  /// Four accumulators of a stream-K partial sum, moved as one 16-byte vector.
  using PartialVector = typename std::conditional<std::is_same<Accumulator, float>::value, float4, int4>::type;

  using ThreadblockShape = ThreadblockShape_;
  /// The part of a tile one consumer warpgroup computes (cooperative: warp_count = 2 warpgroups),
  /// in D's terms (a swap-AB tile's warpgroup computes its transpose).
  using WarpShape = typename std::conditional<kSwapAB, GemmShape<Mainloop::kWgN, Mainloop::kWgM, TileShape::kK>,
                                              GemmShape<Mainloop::kWgM, Mainloop::kWgN, TileShape::kK>>::type;
  using InstructionShape = typename std::conditional<kSwapAB, GemmShape<Mainloop::kWgN, 64, Mainloop::kInstructionK>,
                                                     GemmShape<64, Mainloop::kWgN, Mainloop::kInstructionK>>::type;

  static constexpr int kStages = Stages;
  static constexpr int kAlignmentA = 16 / int(sizeof(ElementA));
  static constexpr int kAlignmentB = 16 / int(sizeof(ElementB));
  static constexpr int kAlignmentC = kSwapAB ? 1 : 16 / int(sizeof(ElementC));   // swap-AB: no TMA on C, D
  static constexpr int kMinComputeCapability = 90;
  static constexpr int kMaxComputeCapability = 90;   // sm_90a code runs on sm_90 only

  static constexpr int kThreads = 384;
  /// setmaxnreg per warpgroup (128 x (producer + 2 consumers) <= the launch's 168 x 384; ptxas
  /// compiles each side's code to its count, and reports the launch's 168). Block-scaled kernels
  /// give the producer more for its warp's scale-copy addresses: 56 on one CTA, 64 on a cluster
  /// (the 2x1-cluster kernel spilled 20 bytes there at 40, s16, and 12 at 56, s30, s32); their
  /// consumers the 224 or 216 left, which hold two accumulator sets beside the promoted totals,
  /// and at 224 also kBoth's column factors (promoted_mainloop).
  static constexpr int kProducerRegisters = !kBlockScaled ? 40 : kClusterSize == 1 ? 56 : 64;
  static constexpr int kConsumerRegisters = !kBlockScaled ? 232 : kClusterSize == 1 ? 224 : 216;
  // setmaxnreg.inc waits until the CTA's pool (168 per thread at launch) has the registers: a
  // budget past it hangs every consumer (s30: 64 + 2 x 224 did, on the GPU)
  static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= 384 * 168,
                "GemmSm90: setmaxnreg budgets within the launch's 168 registers per thread");

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;

  /// Block-scaled kernels: each stage's k-block scales (Sm90BlockScales::StageStorage); an empty
  /// base of the other kernels' storage (no bytes: their layout is unchanged).
  struct BlockScaleStorage {
    typename BlockScales::StageStorage block_scales[Stages];
  };
  struct NoBlockScaleStorage {};

  struct SharedStorage : std::conditional<kBlockScaled, BlockScaleStorage, NoBlockScaleStorage>::type {
    typename Mainloop::SharedStorage mainloop;
    typename Epilogue::SharedStorage epilogue;
    uint64_t full[Stages];
    uint64_t empty[Stages];
    uint64_t mainloop_done[2];   ///< ping-pong order barrier: consumer c waits on [c]
  };
  static constexpr int kSharedBytes = int(sizeof(SharedStorage)) + 1024;   // + alignment slack

  /// One group's operands and epilogue (grouped launches): tensor maps and output operator of a
  /// one-batch problem, read from device memory (TMA takes a tensor map in global memory). 128-byte
  /// aligned, every map at a multiple of 128 bytes: tensormap.replace (run_contiguous's prologue)
  /// takes a 128-byte (.b1024) object at a 128-byte aligned address.
  struct alignas(128) GroupParams {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
  };

  /// The grouped launches (run_grouped, run_contiguous, run_device_sized) and their prologue
  /// kernels: gemm_sm90_grouped.h. Only kernels with the grouped scheduler take them.
  using Grouped = GemmSm90Grouped<GemmSm90>;

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    TileScheduler scheduler;
    int *flags = nullptr;               ///< stream-K: one per (CTA, consumer part)
    PartialVector *partials = nullptr;  ///< stream-K: one CTA tile of accumulators per CTA
    GroupParams const *groups = nullptr;   ///< grouped: one per group (the scheduler's l)
  };

  /// Partial sums: accumulators (f32 or s32, 4 bytes) of one CTA tile, in accumulator-fragment order.
  static constexpr int kTileElements = TileShape::kM * TileShape::kN;

  // ---- host --------------------------------------------------------------------------------

  /// The problem the mainloop and the tile scheduler walk: `args`, or for a swap-AB kernel its
  /// transpose D^T = B^T A^T (A and B trade places; C and D are the epilogue's alone).
  static Arguments operand_problem(Arguments const &args) {
    if constexpr (!kSwapAB) {
      return args;
    } else {
      Arguments t = args;
      t.problem_size = GemmCoord(args.problem_size.n(), args.problem_size.m(), args.problem_size.k());
      t.ptr_A = args.ptr_B;
      t.lda = args.ldb;
      t.batch_stride_A = args.batch_stride_B;
      t.ptr_B = args.ptr_A;
      t.ldb = args.lda;
      t.batch_stride_B = args.batch_stride_A;
      return t;
    }
  }

  /// The tile order (and for stream-K the split over `sm_count` SMs) of `args`; its raster order
  /// in the caller's terms (a swap-AB kernel's tiles are of the transposed problem, so its M and
  /// N orders trade places).
  static TileScheduler make_scheduler(Arguments const &args, int sm_count) {
    GemmCoord const p = operand_problem(args).problem_size;
    int const m_tiles = int((int64_t(p.m()) + TileShape::kM - 1) / TileShape::kM);
    int const n_tiles = int((int64_t(p.n()) + TileShape::kN - 1) / TileShape::kN);
    int const k_tiles = int((int64_t(p.k()) + TileShape::kK - 1) / TileShape::kK);
    TileScheduler scheduler;
    if constexpr (kStreamK) {
      scheduler = TileScheduler::make(m_tiles, n_tiles, args.batch_count, k_tiles, sm_count, stream_k_split(),
                                      stream_k_max_splits());
    } else {
      scheduler.m_tiles = m_tiles;
      scheduler.n_tiles = n_tiles;
      scheduler.batch = args.batch_count;
      scheduler.k_tiles = k_tiles;
    }
    RasterOrder const order = kSwapAB ? transposed(args.raster_order) : args.raster_order;
    if constexpr (kStreamK) {
      scheduler.tiles.set_raster(order, args.swizzle_size);
    } else {
      scheduler.set_raster(order, args.swizzle_size);
    }
    return scheduler;
  }

  static Status make_params(Arguments const &args, Params &params, int sm_count) {
    params.scheduler = make_scheduler(args, sm_count);
    if (!Mainloop::make_params(operand_problem(args), params.mainloop)) return Status::kErrorMisalignedOperand;
    if constexpr (kSwapAB) {
      Epilogue::make_direct_params(args, params.epilogue);
    } else if (!Epilogue::make_params(args, params.epilogue)) {
      return Status::kErrorMisalignedOperand;
    }
    return Status::kSuccess;
  }

  /// An attribute of the current device (0 when the query fails).
  static int device_attribute(cudaDeviceAttr attribute) {
    int device = 0, value = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return value;
  }
  static int device_sm_count() { return device_attribute(cudaDevAttrMultiProcessorCount); }
  static int device_shared_memory_limit() { return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin); }

  static Status can_implement(Arguments const &args) {
    if constexpr (kGrouped) return Status::kErrorNotSupported;   // a grouped kernel takes groups (Grouped::run_grouped)
    Status status = can_implement_common<GemmSm90>(args);
    if (status != Status::kSuccess) return status;
    if (kSharedBytes > device_shared_memory_limit()) return Status::kErrorNotSupported;
    if (int64_t(args.problem_size.m()) * args.problem_size.n() > (int64_t(1) << 31) * TileShape::kM) {
      return Status::kErrorNotSupported;
    }
    // the tile order counts tiles (all batches) in an int
    GemmCoord const p = operand_problem(args).problem_size;
    int64_t const tiles = ((int64_t(p.m()) + TileShape::kM - 1) / TileShape::kM) *
                          ((int64_t(p.n()) + TileShape::kN - 1) / TileShape::kN) * args.batch_count;
    if (tiles > int64_t(INT32_MAX)) return Status::kErrorNotSupported;
    Params params;
    return make_params(args, params, device_sm_count());
  }

  /// Bytes of device workspace `args` needs: stream-K's flags and partial tiles when it splits
  /// tiles (Sm90StreamKScheduler::workspace_bytes), else 0.
  static size_t get_workspace_size(Arguments const &args) {
    if constexpr (kStreamK) {
      return size_t(make_scheduler(args, device_sm_count()).workspace_bytes(kTileElements));
    } else {
      return 0;
    }
  }

  /// Bytes at the workspace's start that initialize_workspace zeroes and every launch leaves zero
  /// (the stream-K flags; 0 when nothing is split).
  static size_t get_workspace_sync_bytes(Arguments const &args) {
    if constexpr (kStreamK) {
      TileScheduler const scheduler = make_scheduler(args, device_sm_count());
      return scheduler.sk_tiles == 0 ? 0 : size_t(scheduler.flag_bytes());
    } else {
      return 0;
    }
  }

  /// Prepares `workspace` (get_workspace_size bytes) for launches of `args`: clears the
  /// stream-K flags on `stream`. kErrorWorkspaceNull when a workspace is needed and null.
  static Status initialize_workspace(Arguments const &args, void *workspace, cudaStream_t stream) {
    return zero_workspace_sync_bytes(workspace, get_workspace_sync_bytes(args), stream);
  }

  static Status run(Arguments const &args, void *workspace, cudaStream_t stream) {
    if constexpr (kGrouped) return Status::kErrorNotSupported;   // Grouped::run_grouped
    int const sm_count = device_sm_count();
    Params params;
    Status status = make_params(args, params, sm_count);
    if (status != Status::kSuccess) return status;
    if constexpr (kStreamK) {
      if (params.scheduler.sk_tiles > 0) {
        if (workspace == nullptr) return Status::kErrorWorkspaceNull;
        params.flags = static_cast<int *>(workspace);
        params.partials =
            reinterpret_cast<PartialVector *>(static_cast<char *>(workspace) + params.scheduler.flag_bytes());
      }
    }
    int device = 0;
    cudaGetDevice(&device);
    if (!allow_shared_memory(device)) return Status::kErrorInternal;
    if constexpr (kStreamK) {
      return launch(params, params.scheduler.grid, stream);   // the split's CTAs
    } else {
      return launch_persistent(params, params.scheduler.unit_count(), device, sm_count, stream);
    }
  }

  /// The persistent launch of `params` over `units` units (cluster tiles) on `stream` of `device`
  /// (`sm_count` SMs): one CTA per SM, or whole clusters, as many as can be resident at once (SMs
  /// of a GPC pair up; a GPC with an odd number of free SMs leaves one idle); never more walkers
  /// than units. Sets the scheduler's walker count.
  static Status launch_persistent(Params &params, int units, int device, int sm_count, cudaStream_t stream) {
    int const resident = kClusterSize == 1 ? sm_count : max_active_clusters(device, sm_count);
    int const clusters = units < resident ? units : resident;
    params.scheduler.walkers = clusters;
    return launch(params, clusters * kClusterSize, stream);
  }

  /// Programmatic dependent launch (CUDA C++ Programming Guide, "Programmatic Dependent Launch and
  /// Synchronization"; PTX ISA, "griddepcontrol"): every launch of this kernel carries
  /// cudaLaunchAttributeProgrammaticStreamSerialization, so its CTAs may start (barriers, tensor-map
  /// prefetch) while the kernel before it in the stream finishes; each CTA then waits for that
  /// kernel's completion and memory (cudaGridDependencySynchronize, run_device) before its first
  /// global access. The next kernel may launch once every CTA of this one has exited (the implicit
  /// trigger; an explicit cudaTriggerProgrammaticLaunchCompletion right after the wait ran 13824 x
  /// 8 x 5120, two waves of tiles, 11% slower back to back than the implicit one and 5% slower than
  /// no PDL at all). Launches after a copy or a memset, or after a kernel of another stream,
  /// serialize as before. H200, 200 calls back to back (s35_F / s35_G, docs/NOTES.md): 1-2 us
  /// less per call on 11-37 us GEMMs (4096 x 16 x 4096 12.6 -> 11.1 us, 13824 x 8 x 5120 39.6 ->
  /// 37.7, 128 x 14336 x 4096 37.0 -> 34.8). CUTLASS_LIB_PDL=0 (read once, host) launches without
  /// the attribute: a measurement aid.
  static bool programmatic_launch() {
    static bool const on = env_int_in("CUTLASS_LIB_PDL", 0, 1, 1) == 1;
    return on;
  }

  /// Launches `ctas` CTAs (whole clusters) of this kernel with `params` on `stream`.
  static Status launch(Params const &params, int ctas, cudaStream_t stream) {
    cudaLaunchAttribute attributes[2];
    cudaLaunchConfig_t const config = launch_config(ctas, stream, attributes, programmatic_launch());
    void *kernel_args[] = {const_cast<Params *>(&params)};
    if (cudaLaunchKernelExC(&config, reinterpret_cast<void const *>(gemm_sm90_kernel<GemmSm90>), kernel_args) !=
        cudaSuccess) {
      cudaGetLastError();
      return Status::kErrorInternal;
    }
    return Status::kSuccess;
  }

  /// Lets the kernel use kSharedBytes of dynamic shared memory on `device` (set once per device).
  static bool allow_shared_memory(int device) {
    return once_per_device(device, [] {
             return cudaFuncSetAttribute(gemm_sm90_kernel<GemmSm90>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         kSharedBytes);
           }) == cudaSuccess;
  }

  /// The launch of `ctas` CTAs of this kernel on `stream`: the cluster dimension when clusters are
  /// larger than one CTA, and programmatic stream serialization when `programmatic`. The
  /// configuration points at `attributes`, which must outlive it.
  static cudaLaunchConfig_t launch_config(int ctas, cudaStream_t stream, cudaLaunchAttribute (&attributes)[2],
                                          bool programmatic) {
    unsigned count = 0;
    attributes[0] = {};
    attributes[1] = {};
    if (kClusterSize > 1) {
      attributes[count].id = cudaLaunchAttributeClusterDimension;
      attributes[count].val.clusterDim.x = kClusterSize;
      attributes[count].val.clusterDim.y = 1;
      attributes[count].val.clusterDim.z = 1;
      ++count;
    }
    if (programmatic) {
      attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attributes[count].val.programmaticStreamSerializationAllowed = 1;
      ++count;
    }
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(ctas), 1, 1);
    config.blockDim = dim3(kThreads, 1, 1);
    config.dynamicSmemBytes = kSharedBytes;
    config.stream = stream;
    config.attrs = attributes;
    config.numAttrs = count;
    return config;
  }

  /// Clusters of this kernel that fit on the device at once (cudaOccupancyMaxActiveClusters),
  /// queried once per device; sm_count / cluster size when the query fails.
  static int max_active_clusters(int device, int sm_count) {
    return once_per_device(device, [sm_count] {
      cudaLaunchAttribute attributes[2];
      cudaLaunchConfig_t const config = launch_config(sm_count / kClusterSize * kClusterSize, nullptr, attributes, false);
      int clusters = 0;
      if (cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<void const *>(gemm_sm90_kernel<GemmSm90>),
                                         &config) != cudaSuccess ||
          clusters < 1) {
        cudaGetLastError();
        clusters = sm_count / kClusterSize > 0 ? sm_count / kClusterSize : 1;
      }
      return clusters;
    });
  }

#if defined(__CUDACC__)
  // ---- device ------------------------------------------------------------------------------

  CUTLASS_DEVICE static void run_device(Params const &params) {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
    extern __shared__ char shared_raw[];
    uintptr_t const aligned = (reinterpret_cast<uintptr_t>(shared_raw) + 1023) & ~uintptr_t(1023);
    SharedStorage &smem = *reinterpret_cast<SharedStorage *>(aligned);

    // broadcast from lane 0: the compiler then knows the warpgroup is warp-uniform and can keep
    // values derived from it (stage addresses, wgmma descriptors) in uniform registers
    int const warpgroup = __shfl_sync(0xffffffffu, int(threadIdx.x / 128), 0);
    int const thread_in_wg = threadIdx.x % 128;
    if (threadIdx.x == 0) {
      if constexpr (!kGrouped) {   // a grouped launch's maps are per group, in global memory
        arch::prefetch_tensor_map(&params.mainloop.tma_A);
        arch::prefetch_tensor_map(&params.mainloop.tma_B);
        if constexpr (!kSwapAB) arch::prefetch_tensor_map(&params.epilogue.tma_D);   // (swap-AB: no map)
      }
      CUTLASS_PRAGMA_UNROLL
      for (int s = 0; s < Stages; ++s) {
        // the producer's arrive + tx bytes (block-scaled: and its warp's 32 scale-copy arrivals)
        arch::mbarrier_init(&smem.full[s], kBlockScaled ? 1 + 32 : 1);
        // one arrive per consumer warp of every CTA of the cluster (the stage's slices land in all)
        arch::mbarrier_init(&smem.empty[s], Mainloop::kConsumersPerStage * 4 * kClusterSize);
      }
      CUTLASS_PRAGMA_UNROLL
      for (int c = 0; c < Mainloop::kConsumers; ++c) {
        arch::mbarrier_init(&smem.epilogue.source_full[c], 1);
        arch::mbarrier_init(&smem.mainloop_done[c], 4);   // the other consumer's four warps
      }
      arch::mbarrier_init_fence();
    }
    if (kClusterSize > 1) {
      // the peers' barriers are initialized before anyone multicasts into or arrives on them
      arch::cluster_arrive_relaxed();
      arch::cluster_wait();
    } else {
      __syncthreads();
    }
    // programmatic dependent launch (programmatic_launch): past this point the kernel before this
    // one in the stream has completed and its writes are visible
    cudaGridDependencySynchronize();

    if (warpgroup == 0) {
      arch::warpgroup_reg_dealloc<kProducerRegisters>();
      if (thread_in_wg == 0 || (kBlockScaled && thread_in_wg < 32)) producer(params, smem, thread_in_wg);
    } else {
      arch::warpgroup_reg_alloc<kConsumerRegisters>();
      consumer(params, smem, warpgroup - 1, thread_in_wg);
    }
    if (kClusterSize > 1) {
      // no CTA exits while a peer may still arrive on its barriers
      arch::cluster_arrive();
      arch::cluster_wait();
    }
#endif
  }

  /// The operands of unit batch `l`: the launch's, or (grouped) group l's one-batch problem.
  CUTLASS_DEVICE static typename Mainloop::Params const &mainloop_params(Params const &params, int l) {
    if constexpr (kGrouped) {
      return params.groups[l].mainloop;
    } else {
      return params.mainloop;
    }
  }
  CUTLASS_DEVICE static typename Epilogue::Params const &epilogue_params(Params const &params, int l) {
    if constexpr (kGrouped) {
      return params.groups[l].epilogue;
    } else {
      return params.epilogue;
    }
  }
  /// The batch coordinate of unit batch `l` in its operands' tensor maps (a group has one batch).
  CUTLASS_DEVICE static int operand_batch(int l) { return kGrouped ? 0 : l; }

  /// This CTA's cluster (the scheduler's walker).
  CUTLASS_DEVICE static int cluster_index() {
    return kClusterSize == 1 ? int(blockIdx.x) : int(blockIdx.x) / kClusterSize;
  }

  /// This CTA's (rank_m, rank_n) in its cluster; rank = rank_m + rank_n * kClusterM.
  CUTLASS_DEVICE static void cluster_position(int &rank_m, int &rank_n) {
    int const rank = kClusterSize == 1 ? 0 : int(arch::cluster_cta_rank());
    rank_m = rank % kClusterM;
    rank_n = rank / kClusterM;
  }

  /// A consumer warp gives stage `stage` back: one arrive on the empty barrier of every CTA of the
  /// cluster (lane r arrives on rank r's), as every CTA's producer writes into this CTA's stage.
  /// Block-scaled kernels' warps have also read the stage's scale slots with ld.shared, which the
  /// producer's copies overwrite next: the warp synchronizes (ordering every lane's loads before
  /// lane 0's; s32 review: the column kinds now load right before the release) and the local
  /// arrive (release, CTA scope) orders them;
  /// a cluster's arrive is relaxed, so every lane's loads are fenced and the warp synchronized
  /// before it (a fence then a relaxed arrive: a release pattern, PTX ISA "Memory Consistency
  /// Model"; ptxas moved the bare arrive above the promotion that consumes the loads, s30 review).
  CUTLASS_DEVICE static void release_stage(SharedStorage &smem, int stage, int lane) {
    if (kClusterSize == 1) {
      if constexpr (kBlockScaled) __syncwarp();   // every lane's loads before lane 0's release
      if (lane == 0) arch::mbarrier_arrive(&smem.empty[stage]);
    } else {
      if constexpr (kBlockScaled) {
        cuda::ptx::fence(cuda::ptx::sem_acq_rel, cuda::ptx::scope_cta);
        __syncwarp();
      }
      if (lane < kClusterSize) arch::mbarrier_arrive_cluster(&smem.empty[stage], uint32_t(lane));
    }
  }

  /// One thread (lane 0): for every k-block of every tile of this CTA, wait for a free stage, arm
  /// its full barrier with the stage's bytes and issue the TMA loads. Block-scaled kernels run it
  /// on the whole warp: every lane also copies its share of the k-block's scales into the stage
  /// (Sm90BlockScales::copy).
  CUTLASS_DEVICE static void producer(Params const &params, SharedStorage &smem, int lane) {
    int stage = 0;
    uint32_t phase = 0;
    int rank_m, rank_n;
    cluster_position(rank_m, rank_n);
    auto walker = params.scheduler.walker(cluster_index());
    Sm90WorkUnit work;
    int acquired = -1;   // grouped: the group whose A / B maps this thread has acquired (groups only increase)
    while (params.scheduler.next(walker, work)) {
      params.scheduler.locate(work, rank_m, rank_n);
      if (kGrouped && work.l != acquired) {
        arch::tensor_map_acquire(&mainloop_params(params, work.l).tma_A);
        arch::tensor_map_acquire(&mainloop_params(params, work.l).tma_B);
        acquired = work.l;
      }
      typename BlockScales::TileSources scale_sources;   // (block-scaled only; dropped elsewhere)
      uint32_t stage_bytes = Mainloop::kStageBytes;      // all slices, all sources
      if constexpr (kBlockScaled) {
        scale_sources = BlockScales::sources(params.epilogue.output_op, work.m_block * TileShape::kM,
                                             work.n_block * TileShape::kN, work.l, params.scheduler.k_tiles, lane);
        stage_bytes += scale_sources.bulk_bytes();
      }
      for (int k_block = work.k_begin; k_block < work.k_end; ++k_block) {
        arch::mbarrier_wait(&smem.empty[stage], phase ^ 1);   // a fresh barrier passes parity 1
        if (!kBlockScaled || lane == 0) {   // (other kernels run this on lane 0 only)
          arch::mbarrier_arrive_expect_tx(&smem.full[stage], stage_bytes);
          Mainloop::load(smem.mainloop, mainloop_params(params, work.l), stage, &smem.full[stage], work.m_block,
                         work.n_block, k_block, operand_batch(work.l), rank_m, rank_n);
        }
        if constexpr (kBlockScaled) {
          BlockScales::copy(scale_sources, k_block, lane, smem.block_scales[stage], &smem.full[stage]);
        }
        advance_stage(stage, phase);
      }
    }
  }

  /// One consumer warpgroup: for each of its units, the mainloop over the stages (one
  /// wgmma-group in flight; a stage is released once the group after it is issued and it has
  /// completed; block-scaled kernels: promoted_mainloop), then the epilogue (stream-K: or the
  /// partial-sum hand-off). Cooperative consumers take every unit of the CTA; ping-pong consumer
  /// c takes the CTA's units j = c, c + 2, ..., whose k-blocks start at the ring position of the
  /// k-blocks of units 0 .. j - 1, after the other consumer's mainloop of unit j - 1 is done.
  CUTLASS_DEVICE static void consumer(Params const &params, SharedStorage &smem, int consumer, int thread_in_wg) {
    Accumulator acc[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom];
    typename Epilogue::State epilogue_state;
    int const lane = thread_in_wg % 32;
    bool const warp_leader = lane == 0;
    int rank_m, rank_n;
    cluster_position(rank_m, rank_n);
    int epilogue_acquired = -1;   // grouped: the group whose D / C maps this consumer's TMA thread holds

    // Unit j of the CTA, its k-blocks from ring position (stage, phase), which it advances.
    auto compute = [&](Sm90WorkUnit &work, int j, int &stage, uint32_t &phase) {
      params.scheduler.locate(work, rank_m, rank_n);
      [[maybe_unused]] int columns = TileShape::kN;   // of the tile inside its group (read before the waits)
      if constexpr (kNarrowsTails) columns = tile_columns(params, work);
      if (!kCooperative && j > 0) {
        // the order barrier's phase: consumer c waits before its units j = c + 2, c + 4, ... (and
        // consumer 1 before j = 1), so this is its ((j - 1) / 2)-th wait, counted from 0
        arch::mbarrier_wait(&smem.mainloop_done[consumer], uint32_t((j - 1) >> 1) & 1);
      }
      bool transposed = false;   // the accumulators hold the part of D^T (kSwapsColumnScales)
      if constexpr (kBlockScaled) {
        using collective::Promotion;
        auto const run = [&](auto kind, auto swapped) {
          promoted_mainloop<decltype(kind)::value, decltype(swapped)::value>(params, smem, consumer, thread_in_wg, work,
                                                                             stage, phase, acc);
        };
        std::false_type const as_is;
        auto const &op = params.epilogue.output_op;
        Promotion const kind = BlockScales::promotion(op.scale_a, op.scale_a_mode, op.scale_b, op.scale_b_mode);
        if (kSwapsColumnScales && BlockScales::swaps(kind)) {
          run(std::integral_constant<Promotion, Promotion::kRowScales>{}, std::bool_constant<kSwapsColumnScales>{});
          transposed = true;
        } else {
          switch (kind) {
            case Promotion::kAdd: run(std::integral_constant<Promotion, Promotion::kAdd>{}, as_is); break;
            case Promotion::kRowScales: run(std::integral_constant<Promotion, Promotion::kRowScales>{}, as_is); break;
            // (unreachable on kernels that swap; left compiled: without it ptxas spilled 4-8 bytes there, s16)
            case Promotion::kColumnScales: run(std::integral_constant<Promotion, Promotion::kColumnScales>{}, as_is); break;
            default: run(std::integral_constant<Promotion, Promotion::kBoth>{}, as_is);
          }
        }
      } else if constexpr (kNarrowsTails) {
        if (kQuarterTails && columns <= Mainloop::kWgN / 4) {
          if constexpr (kQuarterTails) mainloop<Mainloop::kWgN / 4>(smem, consumer, lane, work, stage, phase, acc);
        } else if (columns <= Mainloop::kWgN / 2) {
          mainloop<Mainloop::kWgN / 2>(smem, consumer, lane, work, stage, phase, acc);
        } else {
          mainloop(smem, consumer, lane, work, stage, phase, acc);
        }
      } else {
        mainloop(smem, consumer, lane, work, stage, phase, acc);
      }
      if (warp_leader && !kCooperative) arch::mbarrier_arrive(&smem.mainloop_done[1 - consumer]);

      if constexpr (kStreamK) {
        if (TileScheduler::stores_partial(work)) {
          store_partial(params, consumer, thread_in_wg, acc);
          return;
        }
        add_partials(params, consumer, thread_in_wg, params.scheduler.partials_end(int(blockIdx.x), work), acc);
      }
      int const row0 = work.m_block * TileShape::kM + Mainloop::consumer_row(consumer);
      int const col0 = work.n_block * TileShape::kN + Mainloop::consumer_column(consumer);
      if (kGrouped && thread_in_wg == 0 && work.l != epilogue_acquired) {
        // the epilogue's TMA thread: this group's D and C maps, once per group (groups only increase)
        typename Epilogue::Params const &group = epilogue_params(params, work.l);
        arch::tensor_map_acquire(&group.tma_D);
        if (group.has_source_pointer) arch::tensor_map_acquire(&group.tma_C);
        epilogue_acquired = work.l;
      }
      if constexpr (kSwapAB) {   // fragment rows are D's columns [row0, ...), its columns D's rows [col0, ...)
        Epilogue::store_transposed_direct(epilogue_params(params, work.l), thread_in_wg, acc, col0, row0,
                                          operand_batch(work.l));
      } else {
        if constexpr (kSwapsColumnScales) {
          if (transposed) {   // fragment rows are D's columns [n0 + consumer_row, ...), its columns D's rows
            Epilogue::store_transposed(smem.epilogue, epilogue_params(params, work.l), consumer, thread_in_wg, acc,
                                       work.m_block * TileShape::kM,
                                       work.n_block * TileShape::kN + Mainloop::consumer_row(consumer),
                                       operand_batch(work.l), epilogue_state);
            return;
          }
        }
        Epilogue::store(smem.epilogue, epilogue_params(params, work.l), consumer, thread_in_wg, acc, row0, col0,
                        operand_batch(work.l), epilogue_state);
      }
    };

    if constexpr (kStreamK || kGrouped) {
      // Units of varying length (stream-K's runs, the groups' K): walk all of them, skipping the
      // other consumer's k-blocks.
      auto walker = params.scheduler.walker(cluster_index());
      Sm90WorkUnit work;
      int stage = 0;
      uint32_t phase = 0;
      for (int j = 0; params.scheduler.next(walker, work); ++j) {
        if (!kCooperative && (j & 1) != consumer) {
          int const end = stage + work.k_blocks();
          phase ^= uint32_t(end / Stages) & 1;
          stage = end % Stages;
          continue;
        }
        compute(work, j, stage, phase);
      }
    } else {
      // Whole tiles: this consumer's units directly (Sm90TileScheduler::unit), each starting at
      // ring position j * k_tiles, so nothing but j is carried across the epilogue (the
      // fp8-output epilogue has no register to spare).
      Sm90WorkUnit work;
      for (int j = kCooperative ? 0 : consumer; params.scheduler.unit(cluster_index(), j, work);
           j += kCooperative ? 1 : 2) {
        int64_t const position = int64_t(j) * params.scheduler.k_tiles;
        int stage = int(position % Stages);
        uint32_t phase = uint32_t(position / Stages) & 1;
        compute(work, j, stage, phase);
      }
    }
    if (thread_in_wg == 0) Epilogue::drain();
  }

  /// The next position of the stage ring: the stage after `stage`, the phase flipping on each lap.
  CUTLASS_DEVICE static void advance_stage(int &stage, uint32_t &phase) {
    if (++stage == Stages) {
      stage = 0;
      phase ^= 1;
    }
  }

  /// Grouped 16-bit kernels whose consumers each cover all 128 columns of the tile: a tile with at
  /// most 32 (B K-major only) or 64 of its columns inside its group's N runs the m64n32 or m64n64
  /// wgmma instead of m64n128 (the scheduler's narrow_tails), so an expert's last, partly filled
  /// token tile costs about its tokens' share of the tensor work. At 128-token tiles the sparse MoE
  /// layer of the s26 notes computes 1.22x its tokens; with these widths ~1.06x. An MN-major B tile
  /// sits in shared memory in 64-column chunks (the 128-byte swizzle atom), which a 32-column
  /// wgmma would cut, so those kernels narrow to 64 only. The columns a narrow wgmma leaves keep
  /// the unit before's values; the store clips them, but an amax would count them (it takes the
  /// padding as zeros: linear_combination.h), so D-amax kernels never narrow.
  static constexpr bool kNarrowsTails = kGrouped && !kBlockScaled && !Mainloop::kSplitN && Mainloop::kWgN == 128 &&
                                        sizeof(ElementA) == 2 && sizeof(ElementB) == 2 &&
                                        !EpilogueOutputOp::FusionType::kScaleAmax;
  static constexpr bool kQuarterTails = kNarrowsTails && Mainloop::kKMajorB;

  /// The columns of unit `work` (located) inside its group, or the tile's width when the launch
  /// does not narrow (kNarrowsTails kernels only).
  CUTLASS_DEVICE static int tile_columns(Params const &params, Sm90WorkUnit const &work) {
    if (!params.scheduler.narrow_tails) return TileShape::kN;
    int const inside = params.scheduler.groups[work.l].n - work.n_block * TileShape::kN;
    return inside < TileShape::kN ? inside : TileShape::kN;
  }

  /// The mainloop of one unit: its k-blocks from ring position (stage, phase), one wgmma-group in
  /// flight; a stage is released once the group after it is issued and it has completed.
  /// kColumns < the consumer's columns: only its first kColumns (Mainloop::mma).
  template <int kColumns = Mainloop::kWgN>
  CUTLASS_DEVICE static void mainloop(SharedStorage &smem, int consumer, int lane, Sm90WorkUnit const &work, int &stage,
                                      uint32_t &phase,
                                      Accumulator (&acc)[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom]) {
    int previous = -1;
    for (int k_block = work.k_begin; k_block < work.k_end; ++k_block) {
      arch::mbarrier_wait(&smem.full[stage], phase);
      fence_accumulators(acc);
      Mainloop::template mma<false, kColumns>(smem.mainloop, stage, consumer, acc, k_block > work.k_begin);
      fence_accumulators(acc);
      arch::wgmma_wait_group<1>();
      if (previous >= 0) release_stage(smem, previous, lane);
      previous = stage;
      advance_stage(stage, phase);
    }
    arch::wgmma_wait_group<0>();
    fence_accumulators(acc);
    release_stage(smem, previous, lane);
  }

  /// The block-scaled mainloop of one unit (kBlockScaled): each k-block's part runs as one
  /// wgmma-group from zero into an accumulator set, is waited for, and its partial sum times the
  /// k-block's scales is added into f32 registers (`total`), which end in `acc` for the epilogue.
  /// Each k-block's 1x128 scales arrive with its stage (BlockScales::copy); a group's factors are
  /// loaded right after its issue (from that stage, and 128x128 values from global memory), and
  /// its stage is released as soon as the group is done (before the promotion, as DeepGEMM).
  /// Precise sums and the row-scale kind (kAdd, kRowScales: a few factors per thread) keep two
  /// accumulator sets: the next k-block's group is issued before the previous one is waited for
  /// and promoted, so the warpgroup's own group covers its promotion (ptxas compiles the consumers
  /// to their setmaxnreg budget, 216-224 here, which fits two n128 sets and the totals). The column
  /// kinds (sixteen column factors per set) do too at 224 registers (one-CTA kernels), loading
  /// their column pairs at the promotion (s32: vec x vec +10%); at 216 (cluster kernels) they
  /// spill with two sets and run serially: one group, waited for, then promoted, the other
  /// consumer's group covering it (DeepGEMM's order).
  /// History: s14-s28 ran two sets of n64 pieces (then thought to need the 168 registers of the
  /// launch); s29's serial order beat that in 10 of 12 shape-and-mode pairs (+2-7%). s30, 8192^3
  /// and 4096 x 14336 x 4096 (e4m3 -> bf16, ratio to cuBLASLt's same mode): two n128 sets took
  /// precise from 0.82-0.87x to 0.86-0.92x; the row kind tied its serial order (blk x vec 913-917
  /// against 911-926 TFLOP/s at 8192^3) once no register move waited on a load inside a group's
  /// issue (before that, -3 to -5%).
  /// Compiled once per promotion kind (collective::Promotion), chosen per unit by consumer(); only
  /// kBlockScaled kernels instantiate it (the call is in a discarded `if constexpr` branch elsewhere).
  template <collective::Promotion kKind, bool kSwapped>
  CUTLASS_DEVICE static void promoted_mainloop(Params const &params, SharedStorage &smem, int consumer,
                                               int thread_in_wg, Sm90WorkUnit const &work, int &stage,
                                               uint32_t &phase,
                                               Accumulator (&acc)[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom]) {
    using Set = Accumulator[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom];
    auto const &op = params.epilogue.output_op;
    int const lane = thread_in_wg % 32;
    BlockScales const scales(op.scale_a, op.scale_a_mode, op.scale_b, op.scale_b_mode, Mainloop::consumer_row(consumer),
                             Mainloop::consumer_column(consumer), thread_in_wg, kSwapped);
    float total[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom];
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < Mainloop::kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < Mainloop::kAccumulatorsPerAtom; ++v) total[a][v] = 0.f;
    }
    auto const block_row = scales.block_row(op, work.m_block * TileShape::kM, work.n_block * TileShape::kN, work.l,
                                            params.scheduler.k_tiles);
    // the group of the ring's next k-block into `into`; then its factors (loads only, from the
    // stage whose full barrier the issue waited for), which its promotion will use
    // The column kinds run two sets too where the consumers have 224 registers, their column
    // pairs loaded at the promotion (kBoth at 216: ptxas spilled 24 bytes in the loop; on the 2x1
    // cluster kernel, whose producer needs 64, 336 bytes with its release fence, s32): serially
    // otherwise
    constexpr bool kColumnKind = kKind == collective::Promotion::kColumnScales || kKind == collective::Promotion::kBoth;
    constexpr bool kTwoSets = !kColumnKind || kConsumerRegisters >= 224;
    constexpr bool kColumnsAtPromotion = kTwoSets && kColumnKind;
    int issued_kb = work.k_begin;
    auto issue = [&](Set &into) {
      arch::mbarrier_wait(&smem.full[stage], phase);
      fence_accumulators(into);
      Mainloop::template mma<kSwapped>(smem.mainloop, stage, consumer, into, false);
      fence_accumulators(into);
      auto const f =
          scales.template factors<kKind, kSwapped, !kColumnsAtPromotion>(smem.block_scales[stage], block_row, issued_kb);
      advance_stage(stage, phase);
      ++issued_kb;
      return f;
    };
    // once the oldest unpromoted group is done: its stage back to the producer (release_stage
    // orders the ld.shared of its scale factors), its partial sum into the totals
    int promoted_stage = stage;
    auto promote = [&](Set &done, auto f) {
      if constexpr (kColumnsAtPromotion) {
        scales.template load_columns<kSwapped>(smem.block_scales[promoted_stage], f);
      }
      release_stage(smem, promoted_stage, lane);
      fence_accumulators(done);
      BlockScales::template apply<kKind>(total, done, f);
      promoted_stage = promoted_stage + 1 == Stages ? 0 : promoted_stage + 1;
    };
    int const blocks = work.k_end - work.k_begin;
    if constexpr (kTwoSets) {
      // Every path into the loop's head and out of its body has exactly set 0's group in flight:
      // ptxas tracks the groups path by path, and a merge where either set could be in flight
      // makes it serialize every wgmma (C7514).
      Set set0, set1;
      auto f0 = issue(set0);
      int g = 0;
      for (; g + 2 < blocks; g += 2) {
        auto const f1 = issue(set1);
        arch::wgmma_wait_group<1>();
        promote(set0, f0);
        f0 = issue(set0);
        arch::wgmma_wait_group<1>();
        promote(set1, f1);
      }
      if (g + 1 < blocks) {
        auto const f1 = issue(set1);
        arch::wgmma_wait_group<1>();
        promote(set0, f0);
        arch::wgmma_wait_group<0>();
        promote(set1, f1);
      } else {
        arch::wgmma_wait_group<0>();
        promote(set0, f0);
      }
    } else {
      Set part;
      for (int g = 0; g < blocks; ++g) {
        auto const f = issue(part);
        arch::wgmma_wait_group<0>();
        promote(part, f);
      }
    }
    if constexpr (kKind != collective::Promotion::kAdd) {
      int const rows_left = op.rows - work.m_block * TileShape::kM, columns_left = op.columns - work.n_block * TileShape::kN;
      scales.mask_padding(total, kSwapped ? columns_left : rows_left, kSwapped ? rows_left : columns_left);
    }
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < Mainloop::kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < Mainloop::kAccumulatorsPerAtom; ++v) acc[a][v] = total[a][v];
    }
  }

  // ---- stream-K partial sums (workspace; see the file comment) --------------------------------

  /// Which part of a CTA tile a consumer's accumulators are (cooperative: its half; ping-pong: the
  /// whole tile), and the named barrier over its warpgroup (1, 2 are the epilogue's).
  CUTLASS_DEVICE static int partial_part(int consumer) { return kCooperative ? consumer : 0; }
  CUTLASS_DEVICE static int partial_barrier(int consumer) { return 3 + consumer; }
  static constexpr int kVectorsPerAtom = Mainloop::kAccumulatorsPerAtom / 4;
  static_assert(Mainloop::kAccumulatorsPerAtom % 4 == 0, "GemmSm90: accumulators per atom a multiple of 4");

  /// Element (a, v) of this thread's accumulators as float4s of `cta`'s partial slot: thread t's
  /// v-th vector of atom a at ((part * kAtomsM + a) * kVectorsPerAtom + v) * 128 + t, so each warp's
  /// store or load of one vector is 512 contiguous bytes.
  CUTLASS_DEVICE static PartialVector *partial_vector(Params const &params, int cta, int consumer, int thread_in_wg,
                                                      int a, int v) {
    int64_t const index =
        ((int64_t(partial_part(consumer)) * Mainloop::kAtomsM + a) * kVectorsPerAtom + v) * 128 + thread_in_wg;
    return params.partials + int64_t(cta) * (kTileElements / 4) + index;
  }

  CUTLASS_DEVICE static cuda::atomic_ref<int, cuda::thread_scope_device> partial_flag(Params const &params, int cta,
                                                                                     int consumer) {
    return cuda::atomic_ref<int, cuda::thread_scope_device>(params.flags[cta * 2 + partial_part(consumer)]);
  }

  /// Stores this consumer's accumulators as this CTA's partial sum, then (after its warpgroup's
  /// stores, with release) raises the flag.
  CUTLASS_DEVICE static void store_partial(
      Params const &params, int consumer, int thread_in_wg,
      Accumulator const (&acc)[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom]) {
    int const cta = int(blockIdx.x);
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < Mainloop::kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < kVectorsPerAtom; ++v) {
        PartialVector const p = {acc[a][4 * v], acc[a][4 * v + 1], acc[a][4 * v + 2], acc[a][4 * v + 3]};
        __stcg(partial_vector(params, cta, consumer, thread_in_wg, a, v), p);
      }
    }
    arch::named_barrier_sync(partial_barrier(consumer), 128);
    if (thread_in_wg == 0) partial_flag(params, cta, consumer).store(1, cuda::memory_order_release);
  }

  /// Partial sums loaded per round trip to L2 in add_partials: as many as keep about 16 float4
  /// loads of a thread in flight (a 64x32 tile's thread holds 4 vectors of a partial, so 4
  /// partials at once; a 128x128 ping-pong tile's 32, so one, each of its loads in flight).
  static constexpr int kPartialsInFlight =
      16 / (Mainloop::kAtomsM * kVectorsPerAtom) > 1 ? 16 / (Mainloop::kAtomsM * kVectorsPerAtom) : 1;

  /// Adds the partial sums of CTAs blockIdx.x + 1 .. end - 1, in that order (the same bits on
  /// every run): first every flag (acquired by the lanes of warp 0 in parallel; the later CTAs
  /// finish at about the same time), then
  /// the partials kPartialsInFlight at a time, so the owner pays about one L2 round trip per
  /// kPartialsInFlight partials instead of a flag poll and a load per partial (s24: at 16 splits
  /// of a 64x32 tile the one-by-one sum cost ~1.3 us per partial, more than the split saved; s25:
  /// 128x128x65536 on that split 29.0 -> 24.0 us, the rest being the small tile's operand re-reads).
  /// Clears the flags.
  CUTLASS_DEVICE static void add_partials(Params const &params, int consumer, int thread_in_wg, int end,
                                          Accumulator (&acc)[Mainloop::kAtomsM][Mainloop::kAccumulatorsPerAtom]) {
    int const first = int(blockIdx.x) + 1;
    if (first >= end) return;   // a whole tile: nothing to add, no barrier
    if (thread_in_wg < 32) {    // warp 0: lane i acquires flags first + i, first + i + 32, ...
      for (int g = first + thread_in_wg; g < end; g += 32) {
        auto flag = partial_flag(params, g, consumer);
        while (flag.load(cuda::memory_order_acquire) == 0) {
        }
        flag.store(0, cuda::memory_order_relaxed);   // read by no one else in this launch
      }
    }
    arch::named_barrier_sync(partial_barrier(consumer), 128);   // each acquire before every load
    for (int g = first; g < end; g += kPartialsInFlight) {
      PartialVector p[kPartialsInFlight][Mainloop::kAtomsM][kVectorsPerAtom];
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < kPartialsInFlight; ++i) {
        CUTLASS_PRAGMA_UNROLL
        for (int a = 0; a < Mainloop::kAtomsM; ++a) {
          CUTLASS_PRAGMA_UNROLL
          for (int v = 0; v < kVectorsPerAtom; ++v) {
            if (g + i < end) p[i][a][v] = __ldcg(partial_vector(params, g + i, consumer, thread_in_wg, a, v));
          }
        }
      }
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < kPartialsInFlight; ++i) {
        if (g + i >= end) break;
        CUTLASS_PRAGMA_UNROLL
        for (int a = 0; a < Mainloop::kAtomsM; ++a) {
          CUTLASS_PRAGMA_UNROLL
          for (int v = 0; v < kVectorsPerAtom; ++v) {
            acc[a][4 * v] = sum(acc[a][4 * v], p[i][a][v].x);
            acc[a][4 * v + 1] = sum(acc[a][4 * v + 1], p[i][a][v].y);
            acc[a][4 * v + 2] = sum(acc[a][4 * v + 2], p[i][a][v].z);
            acc[a][4 * v + 3] = sum(acc[a][4 * v + 3], p[i][a][v].w);
          }
        }
      }
    }
  }

  /// a + b: f32, or s32 wrapping modulo 2^32 as the wgmma's own s32 sums do (no signed overflow).
  CUTLASS_DEVICE static float sum(float a, float b) { return a + b; }
  CUTLASS_DEVICE static int32_t sum(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }

  template <int kCount>
  CUTLASS_DEVICE static void fence_accumulators(Accumulator (&acc)[Mainloop::kAtomsM][kCount]) {
    CUTLASS_PRAGMA_UNROLL
    for (int a = 0; a < Mainloop::kAtomsM; ++a) {
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < kCount; ++i) arch::wgmma_fence_operand(acc[a][i]);
    }
  }
#endif
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
