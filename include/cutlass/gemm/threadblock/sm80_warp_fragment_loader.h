/// @file cutlass/gemm/threadblock/sm80_warp_fragment_loader.h
/// Loads one warp's mma.sync operand fragments for one k-step from a swizzled stage
/// (cutlass/gemm/threadblock/sm80_smem_layout.h) into registers.
///
/// Fragments (PTX ISA "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32"), with
/// g = lane / 4 and t = lane % 4, and a "k-unit" = 4 bytes of K (2 x 16-bit, 1 x tf32, 4 x s8):
///   A, per m16 tile i, 4 regs:  a[0] = (m g,   k-unit t)    a[1] = (m g+8, k-unit t)
///                               a[2] = (m g,   k-unit t+4)  a[3] = (m g+8, k-unit t+4)
///   B, per n8 tile j,  2 regs:  b[0] = (n g, k-unit t)      b[1] = (n g, k-unit t+4)
/// (m relative to the tile, k relative to the k-step; a k-step is 8 k-units = 32 bytes = two
/// 16-byte chunks.) Within a register, the lower address element is in the lower bits.
///
/// Three readers, one per Sm80FragmentRead:
///  - kLdsm (K-major; rows = M/N): an 8x8 ldmatrix matrix is 8 M/N rows x one 16-byte chunk
///    (4 k-units); lane l gets k-unit l % 4 of row l / 4, i.e. exactly the (g, t) entry above.
///    One ldmatrix.x4 yields one A m16 tile (matrices: rows +0/+8 x chunks 0/1) or two B n8
///    tiles (matrices: rows +0/+8 x chunks 0/1, ordered tile 2p b0, b1, tile 2p+1 b0, b1).
///  - kLdsmTrans (16-bit MN-major; rows = K): a matrix is 8 K rows x 8 M/N elements; .trans
///    gives lane l the elements (k 2t, 2t+1; mn g) = the entries above. Matrices of one A m16
///    tile: (k +0, m +0), (k +0, m +8), (k +8, m +0), (k +8, m +8); of two B n8 tiles:
///    (k +0, n +0), (k +8, n +0), (k +0, n +8), (k +8, n +8).
///  - kLds32 (tf32 MN-major; rows = K): one 32-bit shared load per register.
///
/// Addressing, through the layout algebra (include/cute): each reader has a LaneBytes layout,
/// lane -> unswizzled byte offset of the element (or ldmatrix row) the lane addresses, made by
/// composing the tile's SmemLayout::RowMajor with a LaneCoord layout (lane -> tile coordinate,
/// as a column-major index of (rows, columns)). The warp tile's origin (warp_mn, from the warp
/// grid of the mainloop) and the compile-time steps (m16/n8 tile, register, k-step) are added
/// through Sm80SwizzledOffset (sm80_smem_layout.h), which keeps the swizzle outside the steps:
/// the constructor keeps one swizzled register, offset() adds constants (host-callable so tests
/// can check it).
#pragma once

#include <cstdint>
#include "cute/layout.hpp"
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"
#include "cutlass/gemm/threadblock/sm80_mma_traits.h"
#include "cutlass/gemm/threadblock/sm80_smem_layout.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

/// Register shape of one warp's fragment of operand A (kIsA) or B over a warp tile of kWarpMN.
template <bool kIsA, int kWarpMN>
struct Sm80FragmentShape {
  static_assert(kWarpMN % 16 == 0, "warp tile M and N must be multiples of 16");
  static constexpr int kTiles = kIsA ? kWarpMN / 16 : kWarpMN / 8;   ///< m16 (A) or n8 (B) tiles
  static constexpr int kRegs = kIsA ? 4 : 2;                          ///< b32 registers per tile
};

/// Places the four registers of ldmatrix.x4 number `load` into a fragment: for A they are the
/// 4 registers of m16 tile `load`; for B, registers b[0], b[1] of n8 tile 2 load, then of 2 load + 1.
template <bool kIsA, typename Fragment>
CUTLASS_HOST_DEVICE void sm80_scatter_ldsm_x4(Fragment &frag, int load, uint32_t const (&d)[4]) {
  if constexpr (kIsA) {
    frag[load][0] = d[0];
    frag[load][1] = d[1];
    frag[load][2] = d[2];
    frag[load][3] = d[3];
  } else {
    frag[2 * load][0] = d[0];
    frag[2 * load][1] = d[1];
    frag[2 * load + 1][0] = d[2];
    frag[2 * load + 1][1] = d[3];
  }
}

template <Sm80FragmentRead kRead, bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader;

/// K-major tile (rows = M/N, columns = K), read with ldmatrix.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLdsm, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static constexpr int kRowBytes = SmemLayout::kRowBytes;
  using RowMajor = typename SmemLayout::RowMajor;   ///< (row, column) -> unswizzled byte offset
  static constexpr int kLoads = kWarpMN / 16;   ///< ldmatrix.x4 per k-step, each covering 16 rows
  static constexpr int kRows = SmemLayout::kRows;
  static constexpr int kChunk = SmemLayout::kElementsPerChunk;   ///< elements per 16-byte chunk

  /// Lane l = r + 8 j (matrix j) gives ldmatrix the row r + 8 (j & 1) (A) or r + 8 (j >> 1) (B)
  /// at chunk j >> 1 (A) or j & 1 (B) of a 16-row x 2-chunk block: (r, j0, j1) -> tile coordinate.
  using LaneCoord = cute::Layout<cute::Shape<cute::_8, cute::_2, cute::_2>,
                                 cute::Stride<cute::_1, cute::Int<kIsA ? 8 : kRows * kChunk>,
                                              cute::Int<kIsA ? kRows * kChunk : 8>>>;
  using LaneBytes = decltype(cute::composition(RowMajor{}, LaneCoord{}));
  static constexpr uint32_t kLaneBits = sm80_layout_bits(LaneBytes{});
  static constexpr uint32_t kWarpBits =
      sm80_multiple_bits(kWarpMN * kRowBytes, sm80_ceil_pow2(uint32_t(SmemLayout::kBytes)));
  static constexpr uint32_t kKStepBits = sm80_range_bits(kChunksPerRow / 2, 32);   ///< 2 chunks per k-step
  static constexpr uint32_t kLoadBits = sm80_multiple_bits(16 * kRowBytes, sm80_ceil_pow2(uint32_t(SmemLayout::kBytes)));

  /// @param warp_mn  first M (A) or N (B) row of the warp tile inside the CTA tile (multiple of 16)
  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn)
      : lane_(Sm80SwizzledOffset<SmemLayout, kLaneBits>::origin(LaneBytes{}(uint32_t(lane)))),
        warp_(uint32_t(RowMajor{}(warp_mn, cute::_0{}))) {}

  /// Byte offset in the stage of the row this lane gives to ldmatrix `load` of k-step kk:
  /// SmemLayout::offset_bytes(warp_mn + 16 * load + row, (2 * kk + chunk) * elements per chunk).
  /// The 16-row steps are whole swizzle periods (an immediate); the k-step's 2 chunks share no
  /// bit with the lane's chunk (an XOR with a constant).
  /// The warp's origin is a whole number of swizzle periods too; it is added last, outside the
  /// per-lane constants.
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return lane_.template plus<kKStepBits>(uint32_t(RowMajor{}(cute::_0{}, 2 * kk * kChunk)))
        .template plus<kLoadBits>(uint32_t(RowMajor{}(16 * load, cute::_0{})))
        .template plus<kWarpBits>(warp_)
        .value();
  }

  template <typename Fragment>
  CUTLASS_DEVICE void load(Fragment &frag, uint32_t stage, int kk) const {
    CUTLASS_PRAGMA_UNROLL
    for (int l = 0; l < kLoads; ++l) {
      uint32_t d[4];
      arch::ldsm_x4(d, stage + offset(l, kk));
      sm80_scatter_ldsm_x4<kIsA>(frag, l, d);
    }
  }

 private:
  Sm80SwizzledOffset<SmemLayout, kLaneBits> lane_;   ///< the lane's row of the warp tile's origin
  uint32_t warp_;                                    ///< the warp tile's origin, unswizzled bytes
};

/// 16-bit MN-major tile (rows = K, columns = M/N), read with ldmatrix .trans.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLdsmTrans, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static constexpr int kRowBytes = SmemLayout::kRowBytes;
  using RowMajor = typename SmemLayout::RowMajor;   ///< (row, column) -> unswizzled byte offset
  static constexpr int kLoads = kWarpMN / 16;
  static constexpr int kRows = SmemLayout::kRows;
  static_assert(SmemLayout::kElementBytes == 2, "ldmatrix .trans moves 16-bit elements only");
  static_assert(SmemLayout::kRowShift == 0 && SmemLayout::kXorMask == 7 && SmemLayout::kXorShift == 0,
                "ldmatrix .trans reads 8 consecutive K rows: the layout must XOR by row % 8");

  /// Lane l = r + 8 j (matrix j) gives ldmatrix K row r + 8 k_half at M/N element 8 mn_half, with
  /// (k_half, mn_half) = (j >> 1, j & 1) (A) or (j & 1, j >> 1) (B): (r, j0, j1) -> tile coordinate.
  using LaneCoord = cute::Layout<cute::Shape<cute::_8, cute::_2, cute::_2>,
                                 cute::Stride<cute::_1, cute::Int<kIsA ? 8 * kRows : 8>,
                                              cute::Int<kIsA ? 8 : 8 * kRows>>>;
  using LaneBytes = decltype(cute::composition(RowMajor{}, LaneCoord{}));
  static constexpr uint32_t kLaneBits = sm80_layout_bits(LaneBytes{});
  static constexpr uint32_t kWarpBits = sm80_multiple_bits(kWarpMN * 2, kRowBytes);
  static constexpr uint32_t kLoadBits = sm80_range_bits(kLoads, 32);   ///< 16 M/N elements per load
  static constexpr uint32_t kKStepBits = sm80_multiple_bits(16 * kRowBytes, sm80_ceil_pow2(uint32_t(SmemLayout::kBytes)));
  using Base = decltype(Sm80SwizzledOffset<SmemLayout, kLaneBits>{}.template plus<kWarpBits>(0u));

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn)
      : base_(Sm80SwizzledOffset<SmemLayout, kLaneBits>::origin(LaneBytes{}(uint32_t(lane)))
                  .template plus<kWarpBits>(uint32_t(RowMajor{}(cute::_0{}, warp_mn)))) {}

  /// Byte offset of the row this lane gives to ldmatrix `load` of k-step kk: K row
  /// 16 * kk + 8 * k_half + r, M/N element warp_mn + 16 * load + 8 * mn_half. The 16-row k-step is
  /// a whole swizzle period (an immediate); the load's 2 chunks share no bit with the lane's
  /// chunk or the warp's (an XOR with a constant).
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return base_.template plus<kLoadBits>(uint32_t(RowMajor{}(cute::_0{}, 16 * load)))
        .template plus<kKStepBits>(uint32_t(RowMajor{}(16 * kk, cute::_0{})))
        .value();
  }

  template <typename Fragment>
  CUTLASS_DEVICE void load(Fragment &frag, uint32_t stage, int kk) const {
    CUTLASS_PRAGMA_UNROLL
    for (int l = 0; l < kLoads; ++l) {
      uint32_t d[4];
      arch::ldsm_x4_trans(d, stage + offset(l, kk));
      sm80_scatter_ldsm_x4<kIsA>(frag, l, d);
    }
  }

 private:
  Base base_;
};

/// 32-bit MN-major tile (rows = K, columns = M/N), read with one 32-bit load per register.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLds32, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  using Shape = Sm80FragmentShape<kIsA, kWarpMN>;
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static constexpr int kRowBytes = SmemLayout::kRowBytes;
  using RowMajor = typename SmemLayout::RowMajor;   ///< (row, column) -> unswizzled byte offset
  static constexpr int kRows = SmemLayout::kRows;
  static_assert(SmemLayout::kElementBytes == 4, "the 32-bit reader serves tf32 tiles");
  static_assert(SmemLayout::kRowShift == 0 && (SmemLayout::kXorMask & 3) == 3,
                "the 32-bit reader assumes the XOR depends on k % 4 only");

  /// Lane l = t + 4 g reads K row t at M/N element g: (t, g) -> tile coordinate.
  using LaneCoord = cute::Layout<cute::Shape<cute::_4, cute::_8>, cute::Stride<cute::_1, cute::Int<kRows>>>;
  using LaneBytes = decltype(cute::composition(RowMajor{}, LaneCoord{}));
  static constexpr uint32_t kLaneBits = sm80_layout_bits(LaneBytes{});
  static constexpr uint32_t kWarpBits = sm80_multiple_bits(kWarpMN * 4, kRowBytes);
  static constexpr uint32_t kMNStepBits = sm80_range_bits(kWarpMN / 8, 32);   ///< 8 M/N elements apart
  static constexpr uint32_t kKStepBits = sm80_multiple_bits(4 * kRowBytes, sm80_ceil_pow2(uint32_t(SmemLayout::kBytes)));
  using Base = decltype(Sm80SwizzledOffset<SmemLayout, kLaneBits>{}.template plus<kWarpBits>(0u));

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn)
      : base_(Sm80SwizzledOffset<SmemLayout, kLaneBits>::origin(LaneBytes{}(uint32_t(lane)))
                  .template plus<kWarpBits>(uint32_t(RowMajor{}(cute::_0{}, warp_mn)))) {}

  /// Byte offset of register `reg` of tile `tile` in k-step kk: element (k 8 kk + t + 4 k_add,
  /// mn warp_mn + g + mn_add) with (A) mn_add = 16 tile + 8 (reg & 1), k_add = reg >> 1 or
  /// (B) mn_add = 8 tile, k_add = reg. The K steps are whole swizzle periods (4 rows: an
  /// immediate); the M/N steps share no bit with the lane's or the warp's (an XOR with a constant).
  CUTLASS_HOST_DEVICE uint32_t offset(int tile, int reg, int kk) const {
    int mn_add = kIsA ? 16 * tile + 8 * (reg & 1) : 8 * tile;
    int k_add = kIsA ? (reg >> 1) : reg;
    return base_.template plus<kMNStepBits>(uint32_t(RowMajor{}(cute::_0{}, mn_add)))
        .template plus<kKStepBits>(uint32_t(RowMajor{}(8 * kk + 4 * k_add, cute::_0{})))
        .value();
  }

  template <typename Fragment>
  CUTLASS_DEVICE void load(Fragment &frag, uint32_t stage, int kk) const {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < Shape::kTiles; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < Shape::kRegs; ++v) {
        frag[i][v] = arch::lds_u32(stage + offset(i, v, kk));
      }
    }
  }

 private:
  Base base_;
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
