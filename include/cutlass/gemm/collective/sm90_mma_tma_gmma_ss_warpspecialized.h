/// @file cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.h
/// The sm90 mainloop: TMA loads of A and B tiles into a ring of 128-byte-swizzled shared-memory
/// stages (producer side) and warpgroup MMAs reading both operands from those stages
/// (consumer side, `wgmma.mma_async` SS). The kernel owns the full/empty barrier ring; this
/// collective knows the stage layout, the tensor maps and the descriptors.
///
/// Stage layout (per operand; tile K = one 128-byte swizzle row: 64 16-bit, 32 tf32 or 128 8-bit
/// (s8, e4m3) elements):
///   K-major operand (A row-major "t", B column-major "n"): MN rows of 128 B, TMA box {tile K, rows}.
///   MN-major operand (A column-major "n", B row-major "t"; 16-bit types only, since wgmma
///   transposes only those): per 64-wide MN chunk, 64 k-rows of 128 B (8 KB), TMA box
///   {64 (MN), 64 (K)}; chunks follow each other.
/// Each wgmma consumes 32 bytes of K (16 16-bit, 8 tf32 or 32 8-bit elements), so a stage is 4 k-steps.
/// Cooperative: consumer warpgroup w owns rows [w * WgM, (w+1) * WgM) of each CTA tile when the
/// tile has 128 or more rows (WgM = M/2), otherwise columns [w * WgN, (w+1) * WgN) (WgN = N/2).
/// Ping-pong: each consumer owns whole CTA tiles (WgM = M, WgN = N), the two taking turns.
///
/// Clusters (ClusterM x ClusterN CTAs, rank = rank_m + rank_n * ClusterM): the CTAs of a cluster
/// with the same rank_m work on tiles of the same rows and share the A tile; those with the same
/// rank_n share the B tile. A shared tile is cut along its MN extent into one slice per sharing
/// CTA; each CTA loads its slice once and multicasts it into the same stage offset of every
/// sharing CTA, completing the bytes on each destination's full barrier, so every CTA's full
/// barrier still receives the whole stage (kStageBytes). The kernel makes each stage's empty
/// barrier wait for the consumers of all CTAs the stage's slices are written into.
#pragma once

#include <type_traits>
#include <cuda.h>

#include "cutlass/arch/tma_sm90.h"
#include "cutlass/arch/wgmma_sm90.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/layout/matrix.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace gemm {
namespace collective {

/// The tensor-map element type of T. tf32 travels as its fp32 bits (the MMA reads the top 19,
/// like the sm80 family's); 8-bit types (s8, e4m3, e5m2: operands and fp8 outputs) move as bytes
/// (a copy does not interpret them, and TMA has no signed or fp8 type); s32 is the s8 kernels' C/D.
template <typename T>
struct TmaDataType {
  static constexpr CUtensorMapDataType value() {
    if constexpr (std::is_same<T, half_t>::value) return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    else if constexpr (std::is_same<T, bfloat16_t>::value) return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    else if constexpr (std::is_same<T, float>::value || std::is_same<T, tfloat32_t>::value) {
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    } else if constexpr (std::is_same<T, int32_t>::value) return CU_TENSOR_MAP_DATA_TYPE_INT32;
    else {
      static_assert(std::is_same<T, int8_t>::value || std::is_same<T, float_e4m3_t>::value ||
                        std::is_same<T, float_e5m2_t>::value,
                    "TmaDataType: f16, bf16, f32, tf32, s32, s8, e4m3 or e5m2");
      return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    }
  }
  static constexpr CUtensorMapDataType kValue = value();
};

/// Bytes between batches in a tensor map: the batch stride when there are several batches,
/// otherwise any valid value (the extent of one matrix, rounded up to 16 bytes).
CUTLASS_HOST_DEVICE uint64_t tma_batch_stride_bytes(int batch_count, int64_t batch_stride, int64_t ld,
                                                    int64_t columns, int element_bytes) {
  int64_t const elements = batch_count > 1 ? batch_stride : ld * columns;
  return uint64_t((elements * element_bytes + 15) / 16 * 16);
}

/// One operand's 3-D tensor map geometry: extents of its inner (contiguous) and outer dimensions
/// in elements, and the byte strides of the outer and batch dimensions. The mainloop's and the
/// epilogue's make_params encode it; a grouped launch's prologue writes it into a prototype map
/// on the device (GemmSm90Grouped::prepare_grouped_device).
struct TmaMapShape {
  uint64_t inner, outer, stride, batch_stride;
};

template <typename ElementA, typename LayoutA, typename ElementB, typename LayoutB, typename TileShape, int Stages,
          bool Cooperative, int ClusterM = 1, int ClusterN = 1>
struct Sm90MmaTmaGmmaSS {
  static constexpr int kTileM = TileShape::kM;
  static constexpr int kTileN = TileShape::kN;
  static constexpr int kTileK = TileShape::kK;
  static constexpr int kStages = Stages;
  static constexpr int kConsumers = 2;

  /// fp8 operands pair any way (e4m3 / e5m2: wgmma takes each combination); others match.
  static constexpr bool kFp8 =
      (std::is_same<ElementA, float_e4m3_t>::value || std::is_same<ElementA, float_e5m2_t>::value) &&
      (std::is_same<ElementB, float_e4m3_t>::value || std::is_same<ElementB, float_e5m2_t>::value);
  static_assert(std::is_same<ElementA, ElementB>::value || kFp8,
                "sm90 mainloop: A and B must have the same type (or be e4m3 / e5m2 in any pairing)");
  static_assert(kTileK * sizeof(ElementA) == 128,
                "sm90 mainloop: tile K must span one 128-byte swizzle row (64 16-bit, 32 tf32 or 128 8-bit elements)");
  static_assert(Stages >= 2, "sm90 mainloop: at least 2 stages");

  /// True when the operand's K dimension is contiguous in memory.
  static constexpr bool kKMajorA = std::is_same<LayoutA, layout::RowMajor>::value;
  static constexpr bool kKMajorB = std::is_same<LayoutB, layout::ColumnMajor>::value;
  static_assert(sizeof(ElementA) == 2 || ((sizeof(ElementA) == 4 || sizeof(ElementA) == 1) && kKMajorA && kKMajorB),
                "sm90 mainloop: 16-bit operands in any layout, or tf32 / s8 / e4m3 operands with A row-major and B "
                "column-major (wgmma reads 32-bit and 8-bit operands K-major only)");

  static constexpr bool kCooperative = Cooperative;
  static constexpr bool kSplitM = Cooperative && kTileM >= 128;
  static constexpr bool kSplitN = Cooperative && kTileM < 128;
  static constexpr int kWgM = kSplitM ? kTileM / 2 : kTileM;
  static constexpr int kWgN = kSplitN ? kTileN / 2 : kTileN;
  /// Consumers reading each stage (their warps all arrive on the stage's empty barrier).
  static constexpr int kConsumersPerStage = Cooperative ? kConsumers : 1;
  static_assert(kWgM % 64 == 0, "sm90 mainloop: each consumer warpgroup needs a multiple of 64 rows");
  static_assert(kWgN == 16 || kWgN == 32 || kWgN == 64 || kWgN == 96 || kWgN == 128 || kWgN == 192 || kWgN == 208 ||
                    kWgN == 256,
                "sm90 mainloop: consumer N must be 16, 32, 64, 96, 128, 192, 208 or 256");
  // an MN-major operand moves in 64-wide chunks (load_slice, slab_offset)
  static_assert(kTileN % 64 == 0 || kKMajorB, "sm90 mainloop: a tile N under 64 needs B K-major");
  // a cooperative consumer's B starts kWgN columns in: whole 64-wide chunks when B is MN-major
  static_assert(kWgN % 64 == 0 || kKMajorB, "sm90 mainloop: a consumer N not a multiple of 64 needs B K-major");
  static_assert(kTileM <= 256 && kTileN <= 256, "sm90 mainloop: a TMA box dimension holds at most 256 rows");
  static constexpr int kAtomsM = kWgM / 64;

  static constexpr int kClusterM = ClusterM;
  static constexpr int kClusterN = ClusterN;
  static constexpr int kClusterSize = ClusterM * ClusterN;
  /// A is shared by the ClusterN CTAs of a cluster row, B by the ClusterM CTAs of a column.
  static constexpr int kSlicesA = ClusterN;
  static constexpr int kSlicesB = ClusterM;
  static_assert(kClusterSize <= 16, "sm90 mainloop: a multicast mask holds 16 CTAs");
  // a slice of an MN-major operand is whole 64-wide chunks (load_slice), of a K-major one whole
  // 8-row swizzle atoms (1024 bytes: one box of its rows lands on an atom boundary)
  static_assert((kSlicesA == 1 || kTileM % (kSlicesA * (kKMajorA ? 8 : 64)) == 0) &&
                    (kSlicesB == 1 || kTileN % (kSlicesB * (kKMajorB ? 8 : 64)) == 0),
                "sm90 mainloop: each multicast slice of a shared tile must be whole 64-wide MN chunks (MN-major) "
                "or whole 8-row swizzle atoms (K-major)");
  static constexpr int kSliceRowsA = kTileM / kSlicesA;   ///< MN extent of one CTA's slice of A
  static constexpr int kSliceRowsB = kTileN / kSlicesB;

  using Wgmma = arch::WgmmaSS<kWgN, ElementA, !kKMajorA, !kKMajorB, ElementB>;
  using Accumulator = typename Wgmma::Accumulator;   ///< float, or int32_t for s8
  static constexpr int kAccumulatorsPerAtom = Wgmma::kAccumulators;
  static constexpr int kInstructionK = Wgmma::kK;   ///< elements of K per wgmma (32 bytes)

  static constexpr int kRowBytes = 128;                      // one swizzle row
  static constexpr int kTileBytesA = kTileM * kTileK * int(sizeof(ElementA));
  static constexpr int kTileBytesB = kTileN * kTileK * int(sizeof(ElementB));
  static constexpr int kStageBytes = kTileBytesA + kTileBytesB;
  static constexpr int kMnChunkBytes = kTileK * kRowBytes;   // one 64-wide chunk of an MN-major operand

  struct SharedStorage {
    alignas(1024) ElementA A[Stages][kTileM * kTileK];
    alignas(1024) ElementB B[Stages][kTileN * kTileK];
  };

  struct Params {
    CUtensorMap tma_A;
    CUtensorMap tma_B;
  };

  // ---- host --------------------------------------------------------------------------------

  using MapShape = TmaMapShape;
  /// An operand's map geometry: K-major (inner K, outer `mn`) or MN-major (inner `mn`, outer K).
  /// Both operands take A's element size (the 16-bit kernels pair equal types, the fp8 pairings
  /// two 1-byte types), as make_params takes A's TMA type for both.
  CUTLASS_HOST_DEVICE static MapShape operand_map_shape(bool k_major, uint64_t mn, uint64_t k, int64_t ld,
                                                        int batch_count, int64_t batch_stride) {
    uint64_t const outer = k_major ? mn : k;
    int const eb = int(sizeof(ElementA));
    return {k_major ? k : mn, outer, uint64_t(ld) * eb,
            tma_batch_stride_bytes(batch_count, batch_stride, ld, int64_t(outer), eb)};
  }
  template <typename Arguments>
  static MapShape map_shape_A(Arguments const &args) {
    return operand_map_shape(kKMajorA, uint64_t(args.problem_size.m()), uint64_t(args.problem_size.k()), args.lda,
                             args.batch_count, args.batch_stride_A);
  }
  template <typename Arguments>
  static MapShape map_shape_B(Arguments const &args) {
    return operand_map_shape(kKMajorB, uint64_t(args.problem_size.n()), uint64_t(args.problem_size.k()), args.ldb,
                             args.batch_count, args.batch_stride_B);
  }

  /// Tensor maps of A and B; false when the driver rejects them (alignment, sizes). A K-major
  /// operand's box is one CTA's slice (the whole tile without a cluster).
  template <typename Arguments>
  static bool make_params(Arguments const &args, Params &params) {
    auto const type = TmaDataType<ElementA>::kValue;
    MapShape const a = map_shape_A(args), b = map_shape_B(args);
    return arch::make_tensor_map_3d(&params.tma_A, type, args.ptr_A, a.inner, a.outer, args.batch_count, a.stride,
                                    a.batch_stride, kKMajorA ? kTileK : 64, kKMajorA ? kSliceRowsA : kTileK) &&
           arch::make_tensor_map_3d(&params.tma_B, type, args.ptr_B, b.inner, b.outer, args.batch_count, b.stride,
                                    b.batch_stride, kKMajorB ? kTileK : 64, kKMajorB ? kSliceRowsB : kTileK);
  }

#if defined(__CUDACC__)
  // ---- producer ----------------------------------------------------------------------------

  /// Issues the TMA loads of k-block `k_block` of tile (m_block, n_block, l) into `stage` for the
  /// CTA of rank (rank_m, rank_n) in its cluster; they complete kStageBytes on `full` (out-of-bounds
  /// elements arrive as zeros). A shared operand: this CTA's slice only, multicast to its sharers.
  CUTLASS_DEVICE static void load(SharedStorage &smem, Params const &params, int stage, uint64_t *full, int m_block,
                                  int n_block, int k_block, int l, int rank_m, int rank_n) {
    int const k0 = k_block * kTileK;
    // A: slice rank_n of the tile, to the CTAs (rank_m, 0 .. ClusterN-1)
    {
      int const slice = kSlicesA > 1 ? rank_n : 0;
      uint16_t mask = 0;
      CUTLASS_PRAGMA_UNROLL
      for (int n = 0; n < ClusterN; ++n) mask |= uint16_t(1u << (rank_m + n * ClusterM));
      int const m0 = m_block * kTileM + slice * kSliceRowsA;
      ElementA *dst = smem.A[stage] + slice * kSliceRowsA * kTileK;
      load_slice<kKMajorA, kSlicesA, kSliceRowsA>(dst, &params.tma_A, m0, k0, l, full, mask);
    }
    // B: slice rank_m of the tile, to the CTAs (0 .. ClusterM-1, rank_n)
    {
      int const slice = kSlicesB > 1 ? rank_m : 0;
      uint16_t mask = 0;
      CUTLASS_PRAGMA_UNROLL
      for (int m = 0; m < ClusterM; ++m) mask |= uint16_t(1u << (m + rank_n * ClusterM));
      int const n0 = n_block * kTileN + slice * kSliceRowsB;
      ElementB *dst = smem.B[stage] + slice * kSliceRowsB * kTileK;
      load_slice<kKMajorB, kSlicesB, kSliceRowsB>(dst, &params.tma_B, n0, k0, l, full, mask);
    }
  }

  /// One operand's `Rows` MN rows starting at mn0, k-block at k0, into `dst` (K-major: one box of
  /// Rows rows of 128 B; MN-major: Rows / 64 boxes of 64 x kTileK). Sharers > 1: multicast.
  template <bool KMajor, int Sharers, int Rows, typename Element>
  CUTLASS_DEVICE static void load_slice(Element *dst, CUtensorMap const *map, int mn0, int k0, int l, uint64_t *full,
                                        uint16_t mask) {
    if (KMajor) {
      if (Sharers > 1) {
        arch::tma_load_3d_multicast(dst, map, k0, mn0, l, full, mask);
      } else {
        arch::tma_load_3d(dst, map, k0, mn0, l, full);
      }
    } else {
      CUTLASS_PRAGMA_UNROLL
      for (int c = 0; c < Rows / 64; ++c) {
        if (Sharers > 1) {
          arch::tma_load_3d_multicast(dst + c * 64 * kTileK, map, mn0 + 64 * c, k0, l, full, mask);
        } else {
          arch::tma_load_3d(dst + c * 64 * kTileK, map, mn0 + 64 * c, k0, l, full);
        }
      }
    }
  }

  // ---- consumer ----------------------------------------------------------------------------

  /// Byte offset, inside one operand stage, of the slab starting at MN offset `mn` (a multiple
  /// of 64) and k-step `kk` (kInstructionK elements). K-major: rows of 128 B, 8-row atoms 1024 B
  /// apart, a k-step moves 32 B inside the row; MN-major (16-bit): 64-wide MN chunks of kTileK
  /// rows, a k-step moves kInstructionK rows of 128 B.
  template <bool KMajor>
  CUTLASS_HOST_DEVICE static constexpr uint32_t slab_offset(int mn, int kk) {
    return KMajor ? uint32_t(mn * kRowBytes + kk * kInstructionK * int(sizeof(ElementA)))
                  : uint32_t((mn / 64) * kMnChunkBytes + kk * kInstructionK * kRowBytes);
  }

  /// Descriptor of one operand stage's slab (0, 0); another slab's is
  /// arch::advance_smem_desc(this, slab_offset) (only the start address moves).
  template <bool KMajor>
  CUTLASS_DEVICE static uint64_t descriptor(void const *stage_base) {
    return arch::make_smem_desc_sw128(arch::smem_address(stage_base), KMajor ? 16 : kMnChunkBytes, 1024);
  }

  /// Row and column of warpgroup `consumer`'s part inside the CTA tile.
  CUTLASS_HOST_DEVICE static int consumer_row(int consumer) { return kSplitM ? consumer * kWgM : 0; }
  CUTLASS_HOST_DEVICE static int consumer_column(int consumer) { return kSplitN ? consumer * kWgN : 0; }

  /// Warpgroup `consumer` multiplies stage `stage` into its accumulators: kTileK/kInstructionK k-steps of
  /// kAtomsM wgmma each, committed as one wgmma-group. accumulate = false starts from zero.
  /// kSwapAB: the stage's B tile is wgmma's A operand and its A tile wgmma's B (both K-major, of one
  /// size: e4m3 x e5m2 runs as the wgmma .e5m2.e4m3; a square tile), so the accumulators hold the
  /// transposed part: rows are columns of D
  /// [consumer_row, + kWgM), columns rows of D (the block-scaled kernels' swapped promotion).
  /// kColumns < the part's columns: only its first kColumns columns, into the first kColumns / 2
  /// accumulators of each atom (wgmma's fragment holds the columns in order, 8 at a time; PTX ISA,
  /// "Register Fragments and Shared Memory Matrix Layouts" of wgmma); the others keep their
  /// values (a grouped tile's columns past its group's N, which the store clips).
  template <bool kSwapAB = false, int kColumns = kWgN>
  CUTLASS_DEVICE static void mma(SharedStorage &smem, int stage, int consumer,
                                 Accumulator (&acc)[kAtomsM][kAccumulatorsPerAtom], bool accumulate) {
    static_assert(!kSwapAB || (kKMajorA && kKMajorB && kTileM == kTileN && sizeof(ElementA) == sizeof(ElementB)),
                  "sm90 mainloop: swapped operands are K-major, of one size, in a square tile");
    static_assert(kColumns <= kWgN, "sm90 mainloop: at most the part's columns");
    using PartWgmma = typename std::conditional<kSwapAB, arch::WgmmaSS<kColumns, ElementB, false, false, ElementA>,
                                                arch::WgmmaSS<kColumns, ElementA, !kKMajorA, !kKMajorB, ElementB>>::type;
    using PartAccumulators = Accumulator[PartWgmma::kAccumulators];
    int const row0 = consumer_row(consumer);
    int const col0 = consumer_column(consumer);
    // one descriptor per operand and stage; every k-step and atom adds a compile-time offset
    void const *const tile_a = smem.A[stage], *const tile_b = smem.B[stage];
    uint64_t const desc_a0 =
        arch::advance_smem_desc(descriptor<kKMajorA>(kSwapAB ? tile_b : tile_a), slab_offset<kKMajorA>(row0, 0));
    uint64_t const desc_b0 =
        arch::advance_smem_desc(descriptor<kKMajorB>(kSwapAB ? tile_a : tile_b), slab_offset<kKMajorB>(col0, 0));
    arch::wgmma_fence();
    CUTLASS_PRAGMA_UNROLL
    for (int kk = 0; kk < kTileK / kInstructionK; ++kk) {
      uint64_t const desc_b = arch::advance_smem_desc(desc_b0, slab_offset<kKMajorB>(0, kk));
      CUTLASS_PRAGMA_UNROLL
      for (int a = 0; a < kAtomsM; ++a) {
        uint64_t const desc_a = arch::advance_smem_desc(desc_a0, slab_offset<kKMajorA>(64 * a, kk));
        PartWgmma::mma(desc_a, desc_b, reinterpret_cast<PartAccumulators &>(acc[a]), (accumulate || kk > 0) ? 1 : 0);
      }
    }
    arch::wgmma_commit_group();
  }
#endif
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
