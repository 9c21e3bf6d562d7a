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
/// Addressing, through the layout algebra (include/cute): each reader has lane layouts (lane ->
/// row of the tile, lane -> chunk, for kLds32 also lane -> byte in the chunk) over the lane's
/// natural coordinates (8 rows x 4 matrices for ldmatrix, (t, g) for the 32-bit loads); the warp
/// tile's origin comes from the warp grid of the mainloop. The tile coordinate goes through the
/// stage layout in its split form (sm80_smem_layout.h): the constructor keeps the lane's
/// unswizzled chunk index (SmemLayout::ChunkRowMajor), the XOR of its row (SmemLayout::row_xor)
/// and the bytes that lie outside the swizzle (SmemLayout::RowMajor of whole swizzle periods of
/// rows); offset() adds the compile-time steps (m16/n8 tile, register, k-step): rows outside the
/// XOR, chunks to the chunk index inside it (host-callable so tests can check it against
/// SmemLayout::Layout).
/// NOTE: the lane layouts are evaluated on uint32_t(lane) (on the int lane, idx2crd's % and /
/// would need sign fix-ups). The hand formulas shifted the int lane, so lane / 16 is now a logical
/// instead of an arithmetic shift: the one SASS instruction that differs from them at sm_90a.
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
  using RowMajor = typename SmemLayout::RowMajor;             ///< (row, column) -> unswizzled bytes
  using ChunkRowMajor = typename SmemLayout::ChunkRowMajor;   ///< (row, chunk) -> unswizzled chunk
  static constexpr int kLoads = kWarpMN / 16;   ///< ldmatrix.x4 per k-step, each covering 16 rows

  /// Lane l = r + 8 j0 + 16 j1 (matrix j0 + 2 j1) gives ldmatrix row r + 8 j0 (A) or r + 8 j1 (B)
  /// of a 16-row block, at chunk j1 (A) or j0 (B) of the k-step's two: lane -> row, lane -> chunk.
  using LaneShape = cute::Shape<cute::_8, cute::_2, cute::_2>;
  using LaneRow = cute::Layout<LaneShape, cute::Stride<cute::_1, cute::Int<kIsA ? 8 : 0>, cute::Int<kIsA ? 0 : 8>>>;
  using LaneChunk = cute::Layout<LaneShape, cute::Stride<cute::_0, cute::Int<kIsA ? 0 : 1>, cute::Int<kIsA ? 1 : 0>>>;

  /// @param warp_mn  first M (A) or N (B) row of the warp tile inside the CTA tile (multiple of 16)
  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    int const row = LaneRow{}(uint32_t(lane));
    int const chunk = LaneChunk{}(uint32_t(lane));
    base_ = uint32_t(RowMajor{}(warp_mn, cute::_0{}));
    linear_ = uint32_t(ChunkRowMajor{}(row, chunk));
    xor_ = SmemLayout::row_xor(row);
  }

  /// Byte offset in the stage of the row this lane gives to ldmatrix `load` of k-step kk:
  /// SmemLayout::Layout at (warp_mn + 16 * load + row, (2 * kk + chunk) * elements per chunk),
  /// split: the warp's and the load's rows are whole swizzle periods (added outside), the lane's
  /// row gives the XOR, and the k-step's chunks are added to the lane's chunk index inside it.
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return base_ + uint32_t(RowMajor{}(16 * load, cute::_0{})) +
           (((linear_ + uint32_t(ChunkRowMajor{}(cute::_0{}, 2 * kk))) ^ xor_) << 4);
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
  uint32_t base_;     ///< the warp tile's first row, bytes
  uint32_t linear_;   ///< the lane's (row, chunk), unswizzled chunk index
  uint32_t xor_;      ///< SmemLayout::row_xor of the lane's row
};

/// 16-bit MN-major tile (rows = K, columns = M/N), read with ldmatrix .trans.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLdsmTrans, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  using RowMajor = typename SmemLayout::RowMajor;
  using ChunkRowMajor = typename SmemLayout::ChunkRowMajor;
  static constexpr int kLoads = kWarpMN / 16;
  static constexpr int kChunk = SmemLayout::kElementsPerChunk;
  static_assert(SmemLayout::kElementBytes == 2, "ldmatrix .trans moves 16-bit elements only");
  static_assert(SmemLayout::kRowShift == 0 && SmemLayout::kXorMask == 7 && SmemLayout::kXorShift == 0,
                "ldmatrix .trans reads 8 consecutive K rows: the layout must XOR by row % 8");

  /// Lane l = r + 8 j0 + 16 j1 gives ldmatrix K row r + 8 k_half at M/N element 8 mn_half, with
  /// (k_half, mn_half) = (j1, j0) (A) or (j0, j1) (B): lane -> K row, lane -> M/N chunk.
  using LaneShape = cute::Shape<cute::_8, cute::_2, cute::_2>;
  using LaneRow = cute::Layout<LaneShape, cute::Stride<cute::_1, cute::Int<kIsA ? 0 : 8>, cute::Int<kIsA ? 8 : 0>>>;
  using LaneChunk = cute::Layout<LaneShape, cute::Stride<cute::_0, cute::Int<kIsA ? 1 : 0>, cute::Int<kIsA ? 0 : 1>>>;
  /// The lane's row within the swizzle period (8 rows): 8 k_half is a whole period, so the row's
  /// XOR is that of r.
  using LanePeriodRow = cute::Layout<LaneShape, cute::Stride<cute::_1, cute::_0, cute::_0>>;

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    row_bytes_ = uint32_t(RowMajor{}(int(LaneRow{}(uint32_t(lane))), cute::_0{}));
    chunk_ = uint32_t(ChunkRowMajor{}(cute::_0{}, warp_mn / kChunk + int(LaneChunk{}(uint32_t(lane)))));
    xor_ = SmemLayout::row_xor(LanePeriodRow{}(uint32_t(lane)));
  }

  /// Byte offset of the row this lane gives to ldmatrix `load` of k-step kk: SmemLayout::Layout
  /// at K row 16 * kk + row, M/N element warp_mn + 16 * load + 8 mn_half, split: the k-step's
  /// 16 rows are whole swizzle periods and the lane's row only gives the XOR (row bytes outside),
  /// the loads' chunks are added to the lane's chunk index inside it.
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return row_bytes_ + uint32_t(RowMajor{}(16 * kk, cute::_0{})) +
           (((chunk_ + uint32_t(ChunkRowMajor{}(cute::_0{}, 2 * load))) ^ xor_) << 4);
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
  uint32_t row_bytes_;   ///< the lane's K row, bytes
  uint32_t chunk_;       ///< the lane's M/N chunk in the warp tile, unswizzled
  uint32_t xor_;         ///< SmemLayout::row_xor of the lane's K row
};

/// 32-bit MN-major tile (rows = K, columns = M/N), read with one 32-bit load per register.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLds32, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  using Shape = Sm80FragmentShape<kIsA, kWarpMN>;
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  using RowMajor = typename SmemLayout::RowMajor;
  using ChunkRowMajor = typename SmemLayout::ChunkRowMajor;
  static constexpr int kChunk = SmemLayout::kElementsPerChunk;
  static_assert(SmemLayout::kElementBytes == 4, "the 32-bit reader serves tf32 tiles");
  static_assert(SmemLayout::kRowShift == 0 && (SmemLayout::kXorMask & 3) == 3,
                "the 32-bit reader assumes the XOR depends on k % 4 only");

  /// Lane l = t + 4 g reads K row t at M/N element g = 4 g1 + g0: lane -> K row, lane -> M/N
  /// chunk (g1), lane -> byte in the chunk (g0).
  using LaneShape = cute::Shape<cute::_4, cute::_4, cute::_2>;
  using LaneRow = cute::Layout<LaneShape, cute::Stride<cute::_1, cute::_0, cute::_0>>;
  using LaneChunk = cute::Layout<LaneShape, cute::Stride<cute::_0, cute::_0, cute::_1>>;
  using LaneWithin = cute::Layout<LaneShape, cute::Stride<cute::_0, cute::Int<SmemLayout::kElementBytes>, cute::_0>>;

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    int const row = LaneRow{}(uint32_t(lane));
    row_bytes_ = uint32_t(RowMajor{}(row, cute::_0{}));
    chunk_ = uint32_t(ChunkRowMajor{}(cute::_0{}, warp_mn / kChunk + int(LaneChunk{}(uint32_t(lane)))));
    xor_ = SmemLayout::row_xor(row);
    within_ = uint32_t(LaneWithin{}(uint32_t(lane)));
  }

  /// Byte offset of register `reg` of tile `tile` in k-step kk: SmemLayout::Layout at element
  /// (k 8 kk + t + 4 k_add, mn warp_mn + g + mn_add) with (A) mn_add = 16 tile + 8 (reg & 1),
  /// k_add = reg >> 1 or (B) mn_add = 8 tile, k_add = reg; split: the K steps are whole swizzle
  /// periods (4 rows) and the lane's row t only gives the XOR (row bytes outside), the M/N steps'
  /// chunks are added to the lane's chunk index inside it.
  CUTLASS_HOST_DEVICE uint32_t offset(int tile, int reg, int kk) const {
    int mn_add = kIsA ? 16 * tile + 8 * (reg & 1) : 8 * tile;
    int k_add = kIsA ? (reg >> 1) : reg;
    return row_bytes_ + uint32_t(RowMajor{}(8 * kk + 4 * k_add, cute::_0{})) +
           (((chunk_ + uint32_t(ChunkRowMajor{}(cute::_0{}, mn_add / kChunk))) ^ xor_) << 4) + within_;
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
  uint32_t row_bytes_;   ///< the lane's K row, bytes
  uint32_t chunk_;       ///< the lane's M/N chunk in the warp tile, unswizzled
  uint32_t xor_;         ///< SmemLayout::row_xor of the lane's K row
  uint32_t within_;      ///< the lane's byte in its chunk
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
