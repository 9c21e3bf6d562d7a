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
/// needs 2 row scales (one atom: a part is 64 rows) and 2 column scales per 8 columns. The scales
/// reach shared memory by cp.async, kAhead k-blocks ahead of their use: thread t copies row t % 64's
/// and column t % WgN's value (a 128x128 block's one value into every slot), into one of kBuffers
/// buffers; at a k-block's first promotion each thread waits for its copies of that k-block and a
/// warpgroup barrier publishes them. No scale passes through a register before it is used, so a
/// load's latency (longer than a k-block under a full-speed GEMM's traffic) stalls nothing.
/// The mainloop (GemmSm90::promoted_mainloop) promotes one wgmma-group while the next runs.
///
/// History (8192^3 and three llm shapes, e4m3 -> bf16, ratio to cuBLASLt's same mode): s13's first
/// version loaded every column scale per thread with bounds branches (0.16x with block scales); the
/// lean loads (one per thread), each k-block's group waited for, then promoted: 0.45x, 0.73x
/// precise; promotion pipelined behind the next group with register prefetch: 0.48-0.59x, 0.77-0.82x
/// (the rotating registers waited on the loads); cp.async two k-blocks ahead, the modes as run-time
/// branches: 0.39-0.47x, 0.76x (ptxas if-converted every mode's code into the loop); one mainloop
/// per promotion kind: 0.45-0.57x, 0.90-0.93x precise (s14, 03ea8ed; its block-scaled k-loop was
/// issue-bound: 275 instructions per k-block and warp against 148 for precise). Then (not yet run
/// on a GPU): copies three k-blocks ahead, one slot per thread, the 128x128 operand's value folded
/// into the other's staged values once per k-block (one FFMA per element).
#pragma once

#include <cstdint>

#include "cutlass/arch/memory_sm80.h"
#include "cutlass/arch/tma_sm90.h"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/epilogue_types.h"

namespace cutlass {
namespace gemm {
namespace collective {

/// What promoting one partial sum costs per element, by the operands' scale modes. The mainloop is
/// compiled once per kind and chosen per unit (a uniform branch outside the k-loop): with the
/// kinds as run-time branches inside the loop, ptxas if-converted them and issued every kind's
/// instructions predicated (s14: 0.39x cuBLASLt with block scales against 0.76x with none).
enum class Promotion {
  kAdd,          ///< no block scale (precise accumulation): total += partial
  kRowScales,    ///< one column scale (B 128x128 or none): folded into the two row scales, one FFMA
  kColumnScales, ///< 1x128 column scales, one row scale (A 128x128 or none): folded into the columns, one FFMA
  kBoth,         ///< 1x128 on both: an FMUL and an FFMA
};

template <int WgM, int WgN>
struct Sm90BlockScales {
  static_assert(WgM == 64 && 128 % WgN == 0,
                "Sm90BlockScales: a warpgroup part of 64 rows (one atom) and columns in one 128-wide scale block");
  /// The promotion pipeline's wgmma-groups: a warpgroup part of 128 columns runs as two groups
  /// of 64 (two sets of 32 accumulators beside the 64 promoted ones fit the 168 registers a
  /// 384-thread CTA gets; two full 128-column sets spilled); narrower parts run whole.
  static constexpr int kPieces = WgN > 64 ? 2 : 1;
  /// Scale buffers: k-block kb's is read while the copies of the next kAhead are in flight (issued
  /// kAhead k-blocks before their use, more than the two of s14's first version, in case an L2
  /// load under a full-speed GEMM's traffic outlasts two k-blocks).
  static constexpr int kBuffers = 4;
  static constexpr int kAhead = kBuffers - 1;
  static_assert((kBuffers & (kBuffers - 1)) == 0, "Sm90BlockScales: a power-of-two ring (index & (kBuffers - 1))");
  /// Slots per buffer: thread t copies into slot t (rows t % 64 and columns t % WgN), so no two
  /// threads write one address (racecheck reported identical values from two threads as hazards).
  static constexpr int kSlots = 128;

  /// Shared memory of one consumer warpgroup. A buffer is copied into (see promote) only after
  /// every thread passed the barrier of a k-block after the one that last read it; across units,
  /// the epilogue's warpgroup barriers order the last reads of one unit before the first copies of
  /// the next.
  struct SharedStorage {
    alignas(16) float columns[kBuffers][kSlots];   // read as float2
    alignas(16) float rows[kBuffers][kSlots];
  };

  /// One operand's scale that this thread copies, at k-block 0 of batch entry l (`first`), and
  /// `stride` floats apart from one k-block to the next. Indices past the extent are clamped to
  /// its last one: the partial sums there are zeros (TMA fills out-of-bounds elements with zeros),
  /// so any finite scale does. `scaled` comes from kernel parameters only, so every branch on it
  /// is uniform: a per-thread branch while the other accumulator set's wgmma-group
  /// is in flight makes ptxas serialize every wgmma (C7518, "compiler-inserted WG.DP in divergent
  /// path").
  struct Operand {
    float const *first = nullptr;
    int stride = 0;                 ///< M or N (1x128), 1 (128x128): below 2^31
    bool scaled = false;            ///< a block scale on this operand (else 1)
  };

  Operand a, b;
  int last_k_block = 0;             ///< KB - 1
  int first_row = 0;                ///< this thread's first row in the part (16 w + l / 4)
  uint32_t row_slot = 0;            ///< .shared address of rows[0][thread]
  uint32_t column_slot = 0;         ///< .shared address of columns[0][thread]

  /// The scales of warpgroup part (row0, col0) of batch entry l, for thread `thread` (0..127) of
  /// the part's warpgroup. m, n: the problem's extent; k_blocks: KB.
  CUTLASS_DEVICE Sm90BlockScales(float const *scale_a, epilogue::OperandScaleMode mode_a, float const *scale_b,
                                 epilogue::OperandScaleMode mode_b, int m, int n, int k_blocks, int l, int row0,
                                 int col0, int thread, SharedStorage &smem) {
    last_k_block = k_blocks - 1;
    first_row = 16 * (thread / 32) + (thread % 32) / 4;
    a = operand(scale_a, mode_a, m, k_blocks, l, row0, min(row0 + thread % 64, m - 1));
    b = operand(scale_b, mode_b, n, k_blocks, l, col0, min(col0 + thread % WgN, n - 1));
    row_slot = arch::shared_address(&smem.rows[0][thread]);
    column_slot = arch::shared_address(&smem.columns[0][thread]);
  }

  CUTLASS_DEVICE static Operand operand(float const *scale, epilogue::OperandScaleMode mode, int extent, int k_blocks,
                                        int l, int part0, int index) {
    Operand o;
    o.scaled = has_block_scale(scale, mode);
    if (!o.scaled) return o;
    bool const per_index = mode == epilogue::OperandScaleMode::kBlock1x128;   // a value per row / column
    int64_t const blocks = per_index ? int64_t(extent) : int64_t((extent + 127) / 128);
    // 1x128: MN fastest (k-blocks extent apart); 128x128: K fastest (a block's k-blocks adjacent)
    o.stride = per_index ? extent : 1;
    float const *batch = scale + int64_t(l) * k_blocks * blocks;
    o.first = per_index ? batch + index : batch + int64_t(part0 / 128) * k_blocks;
    return o;
  }

  /// Issues this thread's copies of k-block kb's scales (clamped to the last k-block, so copies
  /// past the loop's end stay in the scale arrays) into buffer `buffer`, as one cp.async group (an
  /// empty one without block scales, so the group count is the same on every path).
  CUTLASS_DEVICE void copy(int kb, int buffer) const {
    kb = min(kb, last_k_block);
    if (a.scaled) {
      arch::cp_async_zfill<4>(row_slot + uint32_t(buffer * kSlots * 4), a.first + int64_t(kb) * a.stride, true);
    }
    if (b.scaled) {
      arch::cp_async_zfill<4>(column_slot + uint32_t(buffer * kSlots * 4), b.first + int64_t(kb) * b.stride, true);
    }
    arch::cp_async_commit();
  }

  /// Whether an operand's scale is a block scale the mainloop applies (else it counts as 1 here).
  CUTLASS_HOST_DEVICE static bool has_block_scale(float const *scale, epilogue::OperandScaleMode mode) {
    return scale && epilogue::is_block_scale(mode);
  }

  /// The kind of promotion the scale modes need (kernel parameters only: uniform).
  CUTLASS_HOST_DEVICE static Promotion promotion(float const *scale_a, epilogue::OperandScaleMode mode_a,
                                                  float const *scale_b, epilogue::OperandScaleMode mode_b) {
    bool const a_scaled = has_block_scale(scale_a, mode_a);
    bool const b_scaled = has_block_scale(scale_b, mode_b);
    bool const a_rows = a_scaled && mode_a == epilogue::OperandScaleMode::kBlock1x128;
    bool const b_columns = b_scaled && mode_b == epilogue::OperandScaleMode::kBlock1x128;
    if (!a_scaled && !b_scaled) return Promotion::kAdd;
    if (!b_columns) return Promotion::kRowScales;
    return a_rows ? Promotion::kBoth : Promotion::kColumnScales;
  }

  /// Shared loads and stores at .shared addresses (volatile: kept on their side of the barrier that
  /// publishes them).
  CUTLASS_DEVICE static float lds(uint32_t address) {
    float v;
    asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(address));
    return v;
  }
  CUTLASS_DEVICE static float2 lds2(uint32_t address) {
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(v.x), "=f"(v.y) : "r"(address));
    return v;
  }
  CUTLASS_DEVICE static void sts(uint32_t address, float v) {
    asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(address), "f"(v) : "memory");
  }

  /// The first kAhead k-blocks' copies, before a unit's first group is issued.
  CUTLASS_DEVICE void prologue(int k_begin) const {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kAhead; ++i) copy(k_begin + i, i);
  }

  /// After a unit's last promotion: no copy of this unit may land in the next unit's buffers.
  CUTLASS_DEVICE static void epilogue() { arch::cp_async_wait<0>(); }

  /// total += partial * row scale * column scale over part kPiece of the accumulator fragment
  /// (the part's kPartial accumulators are columns [kPiece, kPiece + 1) * WgN / kPieces of the
  /// warpgroup's; d[4 i + 2 h + c]: row half h, column 8 i + 2 (l % 4) + c), after its wgmma-group
  /// completed; `index` counts the unit's k-blocks from 0 (its buffer: index & (kBuffers - 1)). At part 0: this
  /// thread's copies of the k-block are waited for, a barrier over the warpgroup (`barrier`)
  /// publishes every thread's, and k-block kb + kAhead's copies are issued into the buffer every thread
  /// has finished reading (the one of kb - 1). No block scales: an add.
  template <Promotion kKind, int kPiece, int kTotal, int kPartial>
  CUTLASS_DEVICE void promote(float (&total)[1][kTotal], float const (&partial)[1][kPartial], int kb, int index,
                              int thread, int barrier) const {
    static_assert(kTotal == WgN / 2 && kTotal % kPartial == 0 && kPartial % 4 == 0,
                  "Sm90BlockScales: WgN / 2 accumulators per atom and thread, in whole 8-column parts");
    constexpr int kGroups = kPartial / 4;         // 8-column groups in the part
    constexpr int kFirst = kPiece * kGroups;      // the part's first group
    if constexpr (kKind == Promotion::kAdd) {
      CUTLASS_PRAGMA_UNROLL
      for (int v = 0; v < kPartial; ++v) total[0][4 * kFirst + v] += partial[0][v];
      return;
    } else {
      int const buffer = index & (kBuffers - 1);
      // .shared addresses of this thread's slots in this k-block's buffers, and the buffers' bases
      uint32_t const own_row = row_slot + uint32_t(buffer * kSlots * 4);
      uint32_t const own_column = column_slot + uint32_t(buffer * kSlots * 4);
      uint32_t const rows = own_row - 4u * uint32_t(thread);
      uint32_t const columns = own_column - 4u * uint32_t(thread);
      if (kPiece == 0) {
        arch::cp_async_wait<kAhead - 1>();        // kb's copies landed (the next kAhead - 1 may not have)
        // The operand with one value for the whole part (128x128) is folded into the other's
        // values once per k-block, each thread into its own slot (its own copies, landed), so the
        // promotion is one FFMA per element: s14 measured the promotion issue-bound (275
        // instructions per k-block and warp with a per-element FMUL, 148 for a plain add; two
        // consumer warps share a scheduler for 512 cycles of MMAs per k-block).
        if constexpr (kKind == Promotion::kColumnScales) {
          if (a.scaled) sts(own_column, lds(own_column) * lds(own_row));
        } else if constexpr (kKind == Promotion::kRowScales) {
          if (a.scaled && b.scaled) sts(own_row, lds(own_row) * lds(own_column));
        }
        arch::named_barrier_sync(barrier, 128);
        copy(kb + kAhead, (index + kAhead) & (kBuffers - 1));
      }
      if constexpr (kKind == Promotion::kRowScales) {
        // each row's scale times B's one value (folded above when both are scaled)
        float f[2];
        if (a.scaled) {
          f[0] = lds(rows + 4u * uint32_t(first_row));
          f[1] = lds(rows + 4u * uint32_t(first_row + 8));
        } else {
          f[0] = f[1] = b.scaled ? lds(columns) : 1.f;
        }
        CUTLASS_PRAGMA_UNROLL
        for (int h = 0; h < 2; ++h) {
          CUTLASS_PRAGMA_UNROLL
          for (int i = 0; i < kGroups; ++i) {
            CUTLASS_PRAGMA_UNROLL
            for (int c = 0; c < 2; ++c) {
              float &t = total[0][4 * (kFirst + i) + 2 * h + c];
              t = fmaf(partial[0][4 * i + 2 * h + c], f[h], t);
            }
          }
        }
      } else {
        int const lane = thread % 32;
        float row[2] = {1.f, 1.f};   // kBoth: each row's 1x128 scale
        if constexpr (kKind == Promotion::kBoth) {
          row[0] = lds(rows + 4u * uint32_t(first_row));
          row[1] = lds(rows + 4u * uint32_t(first_row + 8));
        }
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kGroups; ++i) {
          float2 const s = lds2(columns + 4u * uint32_t(8 * (kFirst + i) + 2 * (lane % 4)));   // kColumnScales: folded
          CUTLASS_PRAGMA_UNROLL
          for (int h = 0; h < 2; ++h) {
            float &t0 = total[0][4 * (kFirst + i) + 2 * h + 0];
            float &t1 = total[0][4 * (kFirst + i) + 2 * h + 1];
            if constexpr (kKind == Promotion::kBoth) {
              t0 = fmaf(partial[0][4 * i + 2 * h + 0] * row[h], s.x, t0);
              t1 = fmaf(partial[0][4 * i + 2 * h + 1] * row[h], s.y, t1);
            } else {
              t0 = fmaf(partial[0][4 * i + 2 * h + 0], s.x, t0);
              t1 = fmaf(partial[0][4 * i + 2 * h + 1], s.y, t1);
            }
          }
        }
      }
    }
  }
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
