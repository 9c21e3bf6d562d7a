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
/// loads its row scales and one column's scale (thread t: column t % WgN of the part), two k-blocks
/// ahead of their use; 1x128 column scales then pass through shared memory (a warpgroup barrier,
/// LDS.64 reads). The mainloop (GemmSm90::promoted_mainloop) promotes one wgmma-group while the
/// next runs. History: s13's first version loaded every column scale per thread, with bounds
/// branches and 64-bit address arithmetic (~20 instructions per scale), which the promotion,
/// serialized behind each k-block's wgmma, could not hide (0.16x cuBLASLt); the lean loads with
/// the same serialization reached 0.45x (block scales) and 0.73x (precise, no scales).
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
  /// The promotion pipeline's wgmma-groups: a warpgroup part of 128 columns runs as two groups
  /// of 64 (two sets of 32 accumulators beside the 64 promoted ones fit the 168 registers a
  /// 384-thread CTA gets; two full 128-column sets spilled); narrower parts run whole.
  static constexpr int kPieces = WgN > 64 ? 2 : 1;

  /// Shared memory of one consumer warpgroup: its columns' 1x128 scales of two k-blocks (by the
  /// k-block's parity). A buffer is written again two k-blocks later, after every thread passed the
  /// barrier of the k-block in between; across tiles, the epilogue's warpgroup barriers order the
  /// last reads of one tile before the first writes of the next.
  struct SharedStorage {
    alignas(16) float columns[2][WgN];   // read as float2
  };

  /// One operand's scales at k-block 0 of batch entry l: `first` points at this thread's value
  /// (rows: its first row; columns: column t % WgN of the part, which thread t stages for the
  /// warpgroup; 128x128: the block's value), `stride` floats apart from one k-block to the next.
  /// Indices past the extent are clamped to its last one: the partial sums there are zeros (TMA
  /// fills out-of-bounds elements with zeros), so any finite scale does. `scaled` and `per_index`
  /// come from kernel parameters only, so every branch on them is uniform: a per-thread branch
  /// while the other accumulator set's wgmma-group is in flight makes ptxas serialize every wgmma
  /// (C7518, "compiler-inserted WG.DP in divergent path").
  struct Operand {
    float const *first = nullptr;
    int stride = 0;                 ///< M or N (1x128), 1 (128x128): below 2^31
    bool scaled = false;            ///< a block scale on this operand (else 1)
    bool per_index = false;         ///< kBlock1x128: a value per row / column
  };

  Operand a, b;
  int last_row_step = 8;            ///< the thread's second row's offset from its first (clamped at the extent)
  int last_k_block = 0;             ///< KB - 1

  /// The scales of warpgroup part (row0, col0) of batch entry l, for thread `thread` (0..127) of
  /// the part's warpgroup. m, n: the problem's extent; k_blocks: KB.
  CUTLASS_DEVICE Sm90BlockScales(float const *scale_a, epilogue::OperandScaleMode mode_a, float const *scale_b,
                                 epilogue::OperandScaleMode mode_b, int m, int n, int k_blocks, int l, int row0,
                                 int col0, int thread) {
    last_k_block = k_blocks - 1;
    int const row = row0 + 16 * (thread / 32) + (thread % 32) / 4;
    a = operand(scale_a, mode_a, m, k_blocks, l, row0, min(row, m - 1));
    last_row_step = min(row + 8, m - 1) - min(row, m - 1);
    b = operand(scale_b, mode_b, n, k_blocks, l, col0, min(col0 + thread % WgN, n - 1));
  }

  CUTLASS_DEVICE static Operand operand(float const *scale, epilogue::OperandScaleMode mode, int extent, int k_blocks,
                                        int l, int part0, int index) {
    Operand o;
    o.scaled = scale && epilogue::is_block_scale(mode);
    if (!o.scaled) return o;
    o.per_index = mode == epilogue::OperandScaleMode::kBlock1x128;
    int64_t const blocks = o.per_index ? int64_t(extent) : int64_t((extent + 127) / 128);
    // 1x128: MN fastest (k-blocks extent apart); 128x128: K fastest (a block's k-blocks adjacent)
    o.stride = o.per_index ? extent : 1;
    float const *batch = scale + int64_t(l) * k_blocks * blocks;
    o.first = o.per_index ? batch + index : batch + int64_t(part0 / 128) * k_blocks;
    return o;
  }

  /// One k-block's scales for this thread: its two row scales (or the 128x128 value) and the
  /// column scale it stages (or the 128x128 value); 1 where the operand has no block scale.
  struct Values {
    float row[2] = {1.f, 1.f};
    float column = 1.f;
  };

  /// The loads of k-block kb (clamped to the last one, so a load ahead of the loop's end stays in
  /// the scale arrays). The mainloop issues them two k-blocks ahead of their promotion: a global
  /// load's latency (~1 us under a full-speed GEMM's traffic) is longer than one k-block's MMAs
  /// (~0.3 us at 128x128x128), and loading at the top of the same k-block left it exposed (s14:
  /// 0.45x cuBLASLt, 0.94 us per k-block against 0.53 with no scales to load).
  CUTLASS_DEVICE Values load(int kb) const {
    Values v;
    kb = min(kb, last_k_block);
    if (a.scaled) {
      float const *p = a.first + int64_t(kb) * a.stride;
      v.row[0] = __ldg(p);
      v.row[1] = a.per_index ? __ldg(p + last_row_step) : v.row[0];
    }
    if (b.scaled) v.column = __ldg(b.first + int64_t(kb) * b.stride);
    return v;
  }

  /// total += partial * row scale * column scale over part kPiece of the accumulator fragment
  /// (the part's kPartial accumulators are columns [kPiece, kPiece + 1) * WgN / kPieces of the
  /// warpgroup's; d[4 i + 2 h + c]: row half h, column 8 i + 2 (l % 4) + c), after its wgmma-group
  /// completed. 1x128 column scales go through `smem` (at part 0: this thread's staged value
  /// stored, a barrier over the warpgroup, `barrier`; then each thread reads its columns); no
  /// block scales: an add.
  template <int kPiece, int kTotal, int kPartial>
  CUTLASS_DEVICE void promote(float (&total)[1][kTotal], float const (&partial)[1][kPartial], Values const &scale,
                              SharedStorage &smem, int kb, int thread, int barrier) const {
    static_assert(kTotal == WgN / 2 && kTotal % kPartial == 0 && kPartial % 4 == 0,
                  "Sm90BlockScales: WgN / 2 accumulators per atom and thread, in whole 8-column parts");
    constexpr int kGroups = kPartial / 4;         // 8-column groups in the part
    constexpr int kFirst = kPiece * kGroups;      // the part's first group
    if (!a.scaled && !b.scaled) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < kPartial; ++v) total[0][4 * kFirst + v] += partial[0][v];
      return;
    }
    float const (&row)[2] = scale.row;
    if (!b.per_index) {   // one column scale: folded into the two row scales
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        float const f = row[h] * scale.column;
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kGroups; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int c = 0; c < 2; ++c) {
            float &t = total[0][4 * (kFirst + i) + 2 * h + c];
            t = fmaf(partial[0][4 * i + 2 * h + c], f, t);
          }
        }
      }
      return;
    }
    float *columns = smem.columns[kb & 1];
    if (kPiece == 0) {
      columns[thread % WgN] = scale.column;   // threads t and t + WgN store the same value
      arch::named_barrier_sync(barrier, 128);
    }
    int const lane = thread % 32;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kGroups; ++i) {
      float2 const s = *reinterpret_cast<float2 const *>(columns + 8 * (kFirst + i) + 2 * (lane % 4));
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        float &t0 = total[0][4 * (kFirst + i) + 2 * h + 0];
        float &t1 = total[0][4 * (kFirst + i) + 2 * h + 1];
        t0 = fmaf(partial[0][4 * i + 2 * h + 0] * row[h], s.x, t0);
        t1 = fmaf(partial[0][4 * i + 2 * h + 1] * row[h], s.y, t1);
      }
    }
  }
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
