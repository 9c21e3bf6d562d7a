/// @file cutlass/gemm/collective/sm90_block_scales.h
/// The block-scaled sm90 kernels' promotion (KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum):
/// each 128-deep k-block's wgmma partial sum is multiplied by the operands' scales of that
/// k-block and added into f32 registers, as DeepSeek-V3 does ("DeepSeek-V3 Technical Report",
/// arXiv 2412.19437, section 3.3.2: fine-grained quantization, 1x128 activation and 128x128
/// weight tiles, and partial sums promoted to CUDA cores every 128 elements of K). The same
/// promotion with no block scales is the "precise" accumulation mode: wgmma's fp8 adder keeps
/// about 14 bits across a k-block, the f32 registers 24 bits across K.
///
/// Scale layouts (epilogue::OperandScaleMode; cuBLASLt's, checked against it on the H200):
///   kBlock1x128:   scale[(l * KB + kb) * MN + i]   (i: row of op(A) or column of op(B); MN fastest)
///   kBlock128x128: scale[(l * ceil(MN / 128) + i / 128) * KB + kb]   (K fastest)
/// with KB = ceil(K / 128) and MN = M for A, N for B. Other modes (kScalar, kOuterVector) are the
/// epilogue's; the mainloop treats them as 1.
///
/// Per thread: the accumulator fragment of wgmma (arch/wgmma_sm90.h) holds rows
/// 64 a + 16 w + l / 4 + 8 h and columns 8 i + 2 (l % 4) + c of the warpgroup's part, so a thread
/// needs 2 row scales per 64-row atom and 2 column scales per 8 columns. The loads go to the L2
/// (each k-block's scales are read once per CTA tile), issued before the stage's barrier wait.
#pragma once

#include <cstdint>

#include "cutlass/cutlass.h"
#include "cutlass/epilogue/epilogue_types.h"

namespace cutlass {
namespace gemm {
namespace collective {

template <int AtomsM, int WgM, int WgN>
struct Sm90BlockScales {
  static_assert(128 % WgM == 0 && 128 % WgN == 0,
                "Sm90BlockScales: a warpgroup's rows and columns must lie in one 128-wide scale block");
  static constexpr int kColumnGroups = WgN / 8;

  /// One operand's scales for this thread: the address of k-block 0 of batch entry l, the floats
  /// between k-blocks, and whether each row / column has its own value (kBlock1x128).
  struct Operand {
    float const *base = nullptr;   ///< null: 1 (no block scale on this operand)
    int64_t stride = 0;
    bool per_index = false;
    int extent = 0;                ///< M or N: indices at or past it read nothing
  };

  Operand a, b;
  int row[AtomsM][2];              ///< this thread's rows (of D) per atom and half
  int column[kColumnGroups];       ///< this thread's first column of each 8-column group

  /// The scales of warpgroup part (row0, col0) of batch entry l, for a thread of warp `warp`,
  /// lane `lane`. m, n: the problem's extent; k_blocks: KB.
  CUTLASS_DEVICE Sm90BlockScales(float const *scale_a, epilogue::OperandScaleMode mode_a, float const *scale_b,
                                 epilogue::OperandScaleMode mode_b, int m, int n, int k_blocks, int l, int row0,
                                 int col0, int warp, int lane) {
    a = operand(scale_a, mode_a, m, k_blocks, l, row0);
    b = operand(scale_b, mode_b, n, k_blocks, l, col0);
    CUTLASS_PRAGMA_UNROLL
    for (int at = 0; at < AtomsM; ++at) {
      row[at][0] = row0 + 64 * at + 16 * warp + lane / 4;
      row[at][1] = row[at][0] + 8;
    }
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kColumnGroups; ++i) column[i] = col0 + 8 * i + 2 * (lane % 4);
  }

  CUTLASS_DEVICE static Operand operand(float const *scale, epilogue::OperandScaleMode mode, int extent, int k_blocks,
                                        int l, int first) {
    Operand o;
    if (!scale || !epilogue::is_block_scale(mode)) return o;
    o.per_index = mode == epilogue::OperandScaleMode::kBlock1x128;
    int64_t const blocks = o.per_index ? int64_t(extent) : int64_t((extent + 127) / 128);
    // 1x128: MN fastest (k-blocks extent apart); 128x128: K fastest (a block's k-blocks adjacent)
    o.stride = o.per_index ? int64_t(extent) : 1;
    o.base = scale + int64_t(l) * k_blocks * blocks + (o.per_index ? 0 : int64_t(first / 128) * k_blocks);
    o.extent = extent;
    return o;
  }

  /// Element i of operand o in k-block kb (block mode: the block's value for any i; 0 past the extent).
  CUTLASS_DEVICE static float value(Operand const &o, int kb, int i) {
    if (!o.base) return 1.f;
    if (!o.per_index) return __ldg(o.base + kb * o.stride);
    return i < o.extent ? __ldg(o.base + kb * o.stride + i) : 0.f;
  }

  /// The row and column scales of k-block kb (loads only; the promotion uses them).
  CUTLASS_DEVICE void load(int kb, float (&sa)[AtomsM][2], float (&sb)[kColumnGroups][2]) const {
    CUTLASS_PRAGMA_UNROLL
    for (int at = 0; at < AtomsM; ++at) {
      sa[at][0] = value(a, kb, row[at][0]);
      sa[at][1] = value(a, kb, row[at][1]);
    }
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kColumnGroups; ++i) {
      sb[i][0] = value(b, kb, column[i]);
      sb[i][1] = value(b, kb, column[i] + 1);
    }
  }

  /// total += partial * sa(row) * sb(column), element by element of the accumulator fragment
  /// (d[4 i + 2 h + c]: row half h, column 8 i + 2 (l % 4) + c).
  template <int kAccumulators>
  CUTLASS_DEVICE static void promote(float (&total)[AtomsM][kAccumulators], float const (&partial)[AtomsM][kAccumulators],
                                     float const (&sa)[AtomsM][2], float const (&sb)[kColumnGroups][2]) {
    static_assert(kAccumulators == WgN / 2, "Sm90BlockScales: WgN / 2 accumulators per atom and thread");
    CUTLASS_PRAGMA_UNROLL
    for (int at = 0; at < AtomsM; ++at) {
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < kColumnGroups; ++i) {
        CUTLASS_PRAGMA_UNROLL
        for (int h = 0; h < 2; ++h) {
          CUTLASS_PRAGMA_UNROLL
          for (int c = 0; c < 2; ++c) {
            int const v = 4 * i + 2 * h + c;
            total[at][v] = fmaf(partial[at][v] * sa[at][h], sb[i][c], total[at][v]);
          }
        }
      }
    }
  }
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
