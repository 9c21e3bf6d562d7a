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
/// needs 2 row scales (one atom: a part is 64 rows) and 2 column scales per 8 columns. Each thread
/// loads its row scales and one column's scale (thread t: column t of the part), issued before the
/// stage's barrier wait; 1x128 column scales then pass through shared memory (a warpgroup barrier,
/// LDS.64 reads). s13: the first version loaded every column scale per thread, with bounds
/// branches and 64-bit address arithmetic (~20 instructions per scale), which the promotion,
/// serialized behind each k-block's wgmma, could not hide (0.16x cuBLASLt).
#pragma once

#include <cstdint>

#include "cutlass/arch/tma_sm90.h"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/epilogue_types.h"

namespace cutlass {
namespace gemm {
namespace collective {

template <int WgM, int WgN>
struct Sm90BlockScales {
  static_assert(WgM == 64 && 128 % WgN == 0,
                "Sm90BlockScales: a warpgroup part of 64 rows (one atom) and columns in one 128-wide scale block");
  static constexpr int kColumnGroups = WgN / 8;

  /// Shared memory of one consumer warpgroup: its columns' 1x128 scales of two k-blocks (by the
  /// k-block's parity). A buffer is written again two k-blocks later, after every thread passed the
  /// barrier of the k-block in between; across tiles, the epilogue's warpgroup barriers order the
  /// last reads of one tile before the first writes of the next.
  struct SharedStorage {
    alignas(16) float columns[2][WgN];   // read as float2
  };

  /// One operand's scales at k-block 0 of batch entry l: `first` points at this thread's value
  /// (rows: its first row; columns: column t of the part, for the part's thread t < WgN, which
  /// stages it for the warpgroup; 128x128: the block's value), `stride` floats apart from one
  /// k-block to the next. Indices past the extent are clamped to its last one: the partial sums
  /// there are zeros (TMA fills out-of-bounds elements with zeros), so any finite scale does.
  struct Operand {
    float const *first = nullptr;   ///< null: no block scale on this operand (1), or nothing to stage
    int stride = 0;                 ///< M or N (1x128), 1 (128x128): below 2^31
    bool per_index = false;         ///< kBlock1x128: a value per row / column
  };

  Operand a, b;
  int last_row_step = 8;            ///< the thread's second row's offset from its first (clamped at the extent)

  /// The scales of warpgroup part (row0, col0) of batch entry l, for thread `thread` (0..127) of
  /// the part's warpgroup. m, n: the problem's extent; k_blocks: KB.
  CUTLASS_DEVICE Sm90BlockScales(float const *scale_a, epilogue::OperandScaleMode mode_a, float const *scale_b,
                                 epilogue::OperandScaleMode mode_b, int m, int n, int k_blocks, int l, int row0,
                                 int col0, int thread) {
    int const row = row0 + 16 * (thread / 32) + (thread % 32) / 4;
    a = operand(scale_a, mode_a, m, k_blocks, l, row0, min(row, m - 1));
    last_row_step = min(row + 8, m - 1) - min(row, m - 1);
    int const column = thread < WgN ? min(col0 + thread, n - 1) : -1;
    b = operand(scale_b, mode_b, n, k_blocks, l, col0, column);
    if (b.per_index && column < 0) b.first = nullptr;   // a thread past WgN stages nothing, reads the stage
  }

  CUTLASS_DEVICE static Operand operand(float const *scale, epilogue::OperandScaleMode mode, int extent, int k_blocks,
                                        int l, int part0, int index) {
    Operand o;
    if (!scale || !epilogue::is_block_scale(mode)) return o;
    o.per_index = mode == epilogue::OperandScaleMode::kBlock1x128;
    int64_t const blocks = o.per_index ? int64_t(extent) : int64_t((extent + 127) / 128);
    // 1x128: MN fastest (k-blocks extent apart); 128x128: K fastest (a block's k-blocks adjacent)
    o.stride = o.per_index ? extent : 1;
    float const *batch = scale + int64_t(l) * k_blocks * blocks;
    o.first = o.per_index ? batch + (index < 0 ? 0 : index) : batch + int64_t(part0 / 128) * k_blocks;
    return o;
  }

  /// The loads of k-block kb, issued before the stage's barrier wait: this thread's two row
  /// scales (or the 128x128 value) in sa, and the column scale it stages (or the 128x128 value)
  /// in sb. Operands without block scales leave theirs alone.
  CUTLASS_DEVICE void load(int kb, float (&sa)[2], float &sb) const {
    if (a.first) {
      float const *p = a.first + int64_t(kb) * a.stride;
      sa[0] = __ldg(p);
      sa[1] = a.per_index ? __ldg(p + last_row_step) : sa[0];
    }
    if (b.first) sb = __ldg(b.first + int64_t(kb) * b.stride);
  }

  /// total += partial * sa(row) * sb(column) over the accumulator fragment (d[4 i + 2 h + c]:
  /// row half h, column 8 i + 2 (l % 4) + c), after the wgmma-group of k-block kb completed. 1x128
  /// column scales go through `smem` (this thread's staged value stored, a barrier over the
  /// warpgroup, `barrier`, then each thread reads its columns); no block scales: an add.
  template <int kAccumulators>
  CUTLASS_DEVICE void promote(float (&total)[1][kAccumulators], float const (&partial)[1][kAccumulators],
                              float const (&sa)[2], float sb, SharedStorage &smem, int kb, int thread,
                              int barrier) const {
    static_assert(kAccumulators == WgN / 2, "Sm90BlockScales: WgN / 2 accumulators per atom and thread");
    if (!a.first && !b.first && !b.per_index) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < kAccumulators; ++v) total[0][v] += partial[0][v];
      return;
    }
    float const row[2] = {a.first ? sa[0] : 1.f, a.first ? sa[1] : 1.f};
    if (!b.per_index) {   // one column scale: folded into the two row scales
      float const column = b.first ? sb : 1.f;
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        float const f = row[h] * column;
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kColumnGroups; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int c = 0; c < 2; ++c) total[0][4 * i + 2 * h + c] = fmaf(partial[0][4 * i + 2 * h + c], f, total[0][4 * i + 2 * h + c]);
        }
      }
      return;
    }
    float *columns = smem.columns[kb & 1];
    if (thread < WgN) columns[thread] = sb;
    arch::named_barrier_sync(barrier, 128);
    int const lane = thread % 32;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kColumnGroups; ++i) {
      float2 const s = *reinterpret_cast<float2 const *>(columns + 8 * i + 2 * (lane % 4));
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        total[0][4 * i + 2 * h + 0] = fmaf(partial[0][4 * i + 2 * h + 0] * row[h], s.x, total[0][4 * i + 2 * h + 0]);
        total[0][4 * i + 2 * h + 1] = fmaf(partial[0][4 * i + 2 * h + 1] * row[h], s.y, total[0][4 * i + 2 * h + 1]);
      }
    }
  }
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
