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
/// Each reader's constructor keeps only lane constants; offset() adds the compile-time part
/// (tile, k-step) and is the only address formula (host-callable so tests can check it).
#pragma once

#include <cstdint>
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"
#include "cutlass/gemm/threadblock/sm80_mma_traits.h"

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
  static constexpr int kLoads = kWarpMN / 16;   ///< ldmatrix.x4 per k-step, each covering 16 rows

  /// @param warp_mn  first M (A) or N (B) row of the warp tile inside the CTA tile (multiple of 16)
  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    int matrix = lane >> 3;
    int r = lane & 7;
    int row = (kIsA ? (matrix & 1) : (matrix >> 1)) * 8 + r;   // row inside a 16-row group
    int chunk = kIsA ? (matrix >> 1) : (matrix & 1);           // chunk inside the k-step
    base_ = uint32_t(warp_mn * kChunksPerRow * 16);
    linear_ = uint32_t(row * kChunksPerRow + chunk);
    xor_ = SmemLayout::row_xor(row);
  }

  /// Byte offset in the stage of the row this lane gives to ldmatrix `load` of k-step kk.
  /// Equals SmemLayout::offset_bytes(warp_mn + 16 * load + row, (2 * kk + chunk) * elements per
  /// chunk): row_xor() reads only row bits 0..3 (16 | warp_mn + 16 * load) and XORs only chunk
  /// bits 0..2, so the 16-row group's part can be added outside the XOR.
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return base_ + uint32_t(load * 16 * kChunksPerRow * 16) + (((linear_ + 2u * kk) ^ xor_) << 4);
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
  uint32_t base_;
  uint32_t linear_;
  uint32_t xor_;
};

/// 16-bit MN-major tile (rows = K, columns = M/N), read with ldmatrix .trans.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLdsmTrans, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static constexpr int kLoads = kWarpMN / 16;
  static_assert(SmemLayout::kElementBytes == 2, "ldmatrix .trans moves 16-bit elements only");
  static_assert(SmemLayout::kRowShift == 0 && SmemLayout::kXorMask == 7 && SmemLayout::kXorShift == 0,
                "ldmatrix .trans reads 8 consecutive K rows: the layout must XOR by row % 8");

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    int matrix = lane >> 3;
    int r = lane & 7;
    int k_half = kIsA ? (matrix >> 1) : (matrix & 1);
    int mn_half = kIsA ? (matrix & 1) : (matrix >> 1);
    row_bytes_ = uint32_t((k_half * 8 + r) * kChunksPerRow * 16);
    chunk_ = uint32_t(warp_mn / 8 + mn_half);
    xor_ = SmemLayout::row_xor(r);
  }

  /// Byte offset of the row this lane gives to ldmatrix `load` of k-step kk: K row
  /// 16 * kk + 8 * k_half + r, M/N chunk (warp_mn + 16 * load) / 8 + mn_half; row_xor depends
  /// on row % 8 = r only.
  CUTLASS_HOST_DEVICE uint32_t offset(int load, int kk) const {
    return row_bytes_ + uint32_t(kk * 16 * kChunksPerRow * 16) + (((chunk_ + 2u * load) ^ xor_) << 4);
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
  uint32_t row_bytes_;
  uint32_t chunk_;
  uint32_t xor_;
};

/// 32-bit MN-major tile (rows = K, columns = M/N), read with one 32-bit load per register.
template <bool kIsA, typename SmemLayout, int kWarpMN>
class Sm80WarpFragmentLoader<Sm80FragmentRead::kLds32, kIsA, SmemLayout, kWarpMN>
    : public Sm80FragmentShape<kIsA, kWarpMN> {
 public:
  using Shape = Sm80FragmentShape<kIsA, kWarpMN>;
  static constexpr int kChunksPerRow = SmemLayout::kChunksPerRow;
  static_assert(SmemLayout::kElementBytes == 4, "the 32-bit reader serves tf32 tiles");
  static_assert(SmemLayout::kRowShift == 0 && (SmemLayout::kXorMask & 3) == 3,
                "the 32-bit reader assumes row_xor(k) depends on k % 4 only");

  CUTLASS_HOST_DEVICE Sm80WarpFragmentLoader(int lane, int warp_mn) {
    int g = lane >> 2;
    int t = lane & 3;
    row_bytes_ = uint32_t(t * kChunksPerRow * 16);
    chunk_ = uint32_t(warp_mn / 4 + (g >> 2));
    xor_ = SmemLayout::row_xor(t);
    within_ = uint32_t((g & 3) * 4);
  }

  /// Byte offset of register `reg` of tile `tile` in k-step kk: element (k 8 kk + t + 4 k_add,
  /// mn warp_mn + g + mn_add) with (A) mn_add = 16 tile + 8 (reg & 1), k_add = reg >> 1 or
  /// (B) mn_add = 8 tile, k_add = reg. row_xor(k) = row_xor(t) since 4 | 8 kk + 4 k_add.
  CUTLASS_HOST_DEVICE uint32_t offset(int tile, int reg, int kk) const {
    int mn_add = kIsA ? 16 * tile + 8 * (reg & 1) : 8 * tile;
    int k_add = kIsA ? (reg >> 1) : reg;
    return row_bytes_ + uint32_t((8 * kk + 4 * k_add) * kChunksPerRow * 16) +
           (((chunk_ + uint32_t(mn_add / 4)) ^ xor_) << 4) + within_;
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
  uint32_t row_bytes_;
  uint32_t chunk_;
  uint32_t xor_;
  uint32_t within_;
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
