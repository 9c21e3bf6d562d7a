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
///   kBlock128x128: scale[(l * ceil(MN / 128) + i / 128) * KBp + kb]   (K fastest)
/// with KB = ceil(K / 128), KBp = KB rounded up to a multiple of 4 (epilogue::block128x128_ld) and
/// MN = M for A, N for B. Other modes (kScalar, kOuterVector) are the
/// epilogue's; the mainloop treats them as 1.
///
/// Delivery: a k-block's 1x128 scales travel with its stage. The producer warp decides once per
/// tile how each 1x128 operand's scales are copied (Source): one bulk copy from lane 0 when the
/// extent is a multiple of 4 and the array 16-byte aligned (its bytes counted in the stage's
/// expected transaction bytes), else every lane's 4-byte cp.async of its share; every lane then
/// ends with cp.async.mbarrier.arrive.noinc on the stage's full barrier (PTX ISA,
/// "cp.async.mbarrier.arrive"), which therefore completes only when the TMA bytes and every scale
/// have landed; the consumers already wait on it before the stage's wgmma, load their factors
/// before the group's wait (the column kinds on two accumulator sets: their column pairs after
/// it, load_columns) and release the stage then (GemmSm90::release_stage orders the loads). A bulk copy leaves the slots past M or N as they were; the consumers zero the totals
/// there once per tile (mask_padding).
/// A 128x128 operand's one value per k-block does not travel with the stage: each consumer thread
/// loads it from global memory itself (the same address across the warpgroup: one request per
/// warp, a tile's values contiguous, so mostly L1 hits) while the k-block's group runs (BlockRow;
/// loaded one k-block ahead instead, the loop-carried value cost register moves that ptxas put
/// before the group's wgmma, waiting on the load).
/// s29 under ncu: the same kernel ran two 128x128 scales copied into the stages in 1.82 M cycles
/// against 1.34 M with none (precise); every stage whose copy completed late held up both
/// consumer warpgroups, which then issued together and left the tensor core idle during their
/// promotions. (DeepGEMM copies a tile's whole row of 128x128 values into shared memory at the
/// tile's start instead, which costs a global round trip per tile.)
///
/// Per thread: the accumulator fragment of wgmma (arch/wgmma_sm90.h) holds rows
/// 64 a + 16 w + l / 4 + 8 h and columns 8 i + 2 (l % 4) + c of the warpgroup's part, so a thread
/// needs 2 row scales (one atom: a part is 64 rows) and 2 column scales per 8 columns. A square
/// tile split along M runs 1x128 scales on B's columns transposed (swaps): the fragment's rows are
/// then D's columns (B's scales, 2 per thread) and its columns D's rows (A's one 128x128 value).
/// The mainloop (GemmSm90::promoted_mainloop) waits for each k-block's group and promotes it
/// while the other consumer warpgroup's group runs.
///
/// History (8192^3 and three llm shapes, e4m3 -> bf16, ratio to cuBLASLt's same mode): s13's first
/// version loaded every column scale per thread with bounds branches (0.16x with block scales); the
/// lean loads (one per thread), each k-block's group waited for, then promoted: 0.45x, 0.73x
/// precise; promotion pipelined behind the next group with register prefetch: 0.48-0.59x, 0.77-0.82x
/// (the rotating registers waited on the loads); cp.async two k-blocks ahead, the modes as run-time
/// branches: 0.39-0.47x, 0.76x (ptxas if-converted every mode's code into the loop); one mainloop
/// per promotion kind: 0.45-0.57x, 0.90-0.93x precise (s14, 03ea8ed); consumer threads copying
/// the scales three k-blocks ahead into a ring published by a warpgroup barrier each k-block, the
/// 128x128 value folded into the staged values: blk x vec 0.48-0.59x, vec x blk 0.52-0.63x,
/// precise 0.82-0.96x (s15, a88c4d2; ncu: short-scoreboard stalls 2.1 of 6.3 cycles per issued
/// instruction; ptxas moves the wgmma wait above the scale work, so the barrier, the fold and the
/// loads sat between a group's completion and the next group's issue); the scales delivered with
/// the stage, as above: blk x vec 0.52-0.67x, vec x blk 0.63-0.76x, precise 0.89-0.93x (s15,
/// 367596b); each group's factors loaded before the next group's issue (factors / apply), so only
/// FFMAs follow the wgmma wait: blk x vec 0.57-0.69x, vec x blk 0.63-0.75x (s16, 16f609d; ncu: the
/// producer warp issued 157 instructions per stage and was busy in 95% of its samples, the
/// consumers waited on the full barrier in 22% of theirs: the producer paced the CTA). Then (s16)
/// the per-tile Source decisions and the bulk copy above: ~70 producer instructions per stage, the
/// producer idle on its empty barrier in 18% of its samples; blk x vec 0.61-0.72x, vec x blk
/// 0.74-0.84x, precise 0.83-0.88x (s16, 37bfde4): now the consumers' promotion is the limit, and
/// the column-scale kind (blk x vec) issues ~40 more instructions per k-block than the row one.
/// Then (s16, not yet run on a GPU when written): square tiles run the column-scale kind as the
/// tile's transpose (swaps), which is the row-scale kind; predicted blk x vec ~0.74-0.84x. Then
/// (s29) s13's order came back on this delivery: each k-block's whole n128 group waited for, then
/// promoted, the other consumer's group filling the tensor core meanwhile (DeepGEMM's order); it
/// beat the two-set n64 pipeline in 10 of 12 shape-and-mode pairs (GemmSm90::promoted_mainloop).
/// s30: the 128x128 values left the stage (consumer loads), the stage went back right after its
/// group, the folds moved after the group's wait (ptxas had put them, waiting on their loads,
/// inside the group's issue: an A 128x128 scale alone cost 15%), and precise sums and the row
/// kind got two n128 accumulator sets (216 consumer registers): blk x vec 0.72-0.84x, vec x blk
/// 0.79-0.87x, precise 0.81-0.94x.
#pragma once

#include <cstdint>

#include <cuda/ptx>

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

template <int TileM, int TileN, int WgM, int WgN>
struct Sm90BlockScales {
  static_assert(WgM == 64 && 128 % WgN == 0 && TileM <= 128 && TileN <= 128 && TileM % 32 == 0 && TileN % 32 == 0,
                "Sm90BlockScales: a tile inside one 128x128 scale block, in parts of 64 rows (one atom)");
  /// One stage's 1x128 scales (its k-block's): rows[i] of the tile's row i of op(A), columns[j]
  /// of column j of op(B). Rows and columns past the problem hold zeros or stale values (their
  /// partial sums are zeros: TMA zero-fills them; mask_padding).
  struct StageStorage {
    alignas(16) float rows[TileM];
    alignas(16) float columns[TileN];
  };

  /// Whether an operand's scale is a block scale the mainloop applies (else it counts as 1 here).
  CUTLASS_HOST_DEVICE static bool has_block_scale(float const *scale, epilogue::OperandScaleMode mode) {
    return scale && epilogue::is_block_scale(mode);
  }
  /// Whether an operand's scale is given in block mode `block` (kBlock1x128 or kBlock128x128).
  CUTLASS_HOST_DEVICE static bool has_scale(float const *scale, epilogue::OperandScaleMode mode,
                                            epilogue::OperandScaleMode block) {
    return scale && mode == block;
  }

  /// The kind of promotion the scale modes need (kernel parameters only: uniform).
  CUTLASS_HOST_DEVICE static Promotion promotion(float const *scale_a, epilogue::OperandScaleMode mode_a,
                                                  float const *scale_b, epilogue::OperandScaleMode mode_b) {
    bool const a_scaled = has_block_scale(scale_a, mode_a);
    bool const b_scaled = has_block_scale(scale_b, mode_b);
    bool const a_rows = has_scale(scale_a, mode_a, epilogue::OperandScaleMode::kBlock1x128);
    bool const b_columns = has_scale(scale_b, mode_b, epilogue::OperandScaleMode::kBlock1x128);
    if (!a_scaled && !b_scaled) return Promotion::kAdd;
    if (!b_columns) return Promotion::kRowScales;
    return a_rows ? Promotion::kBoth : Promotion::kColumnScales;
  }

  // ---- producer warp -------------------------------------------------------------------------

  /// How the producer warp copies one operand's scales of one tile, decided once per tile
  /// (sources()), so each k-block's copy is a pointer step and one or a few copy instructions.
  /// s15's copy re-derived the mode, the batch and every lane's bounds from the kernel parameters
  /// at every k-block: 157 producer instructions per stage, issued at one per ~7 cycles, so the
  /// single producer warp (busy 95% of its samples, under ncu) paced the CTA at half the tensor rate.
  enum class SourceKind {
    kNone,    ///< no 1x128 scale on this operand: nothing copied (128x128 values: BlockRow)
    kBulk,    ///< 1x128, extent % 4 == 0 and a 16-byte aligned array: lane 0's one bulk copy
              ///< (cp.async.bulk, PTX ISA "Data Movement: cp.async.bulk") of the tile's values
    kLanes,   ///< 1x128 otherwise: each lane's 4-byte cp.async of its share (zeros past the extent)
  };
  struct Source {
    float const *first = nullptr;   ///< k-block 0's source: the tile's first value (kBulk) or this lane's (kLanes)
    int64_t step = 0;               ///< floats from one k-block's source to the next
    uint32_t bytes = 0;             ///< kBulk: bytes per k-block (the tile's values inside the extent)
    int last = 0;                   ///< kLanes: offset from `first` of the extent's last value (< 0: none of this lane's)
    SourceKind kind = SourceKind::kNone;
  };

  /// Operand scale `scale` (mode `mode`, an extent-long side) of the tile's kSlots rows or
  /// columns from index0, batch entry l (k_blocks: KB), for lane `lane`.
  template <int kSlots>
  CUTLASS_DEVICE static Source source(float const *scale, epilogue::OperandScaleMode mode, int extent, int index0,
                                      int l, int k_blocks, int lane) {
    Source s;
    if (!has_scale(scale, mode, epilogue::OperandScaleMode::kBlock1x128)) return s;
    float const *batch = scale + int64_t(l) * k_blocks * extent;   // scale[(l * KB + kb) * extent + i]
    s.step = extent;
    if (extent % 4 == 0 && reinterpret_cast<uintptr_t>(scale) % 16 == 0) {
      s.kind = SourceKind::kBulk;
      s.first = batch + index0;
      s.bytes = uint32_t(min(kSlots, extent - index0)) * 4u;
    } else {
      s.kind = SourceKind::kLanes;
      s.first = batch + index0 + lane;
      s.last = extent - 1 - index0 - lane;
    }
    return s;
  }

  /// Both operands' sources for tile (m0, n0) of batch entry l (op: the output operator's
  /// parameters: scale pointers and modes, rows = M, columns = N).
  struct TileSources {
    Source rows, columns;
    /// The bytes the bulk copies add to each stage's transaction count.
    CUTLASS_DEVICE uint32_t bulk_bytes() const {
      return (rows.kind == SourceKind::kBulk ? rows.bytes : 0u) + (columns.kind == SourceKind::kBulk ? columns.bytes : 0u);
    }
  };
  template <typename OutputParams>
  CUTLASS_DEVICE static TileSources sources(OutputParams const &op, int m0, int n0, int l, int k_blocks, int lane) {
    TileSources t;
    t.rows = source<TileM>(op.scale_a, op.scale_a_mode, op.rows, m0, l, k_blocks, lane);
    t.columns = source<TileN>(op.scale_b, op.scale_b_mode, op.columns, n0, l, k_blocks, lane);
    return t;
  }

  /// Lane `lane`'s copies of k-block kb's values of source s into `slots`. Slots past the
  /// extent: zeros (kLanes), or left as they were (kBulk: the consumer zeroes what they touch,
  /// see mask_padding).
  template <int kSlots>
  CUTLASS_DEVICE static void copy_source(Source const &s, int kb, int lane, float (&slots)[kSlots], uint64_t *full) {
    float const *const src = s.first + kb * s.step;
    if (s.kind == SourceKind::kBulk) {
      if (lane == 0) cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, &slots[0], src, s.bytes, full);
    } else if (s.kind == SourceKind::kLanes) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < kSlots / 32; ++j) {
        arch::cp_async_zfill<4>(arch::shared_address(&slots[32 * j + lane]), src + min(32 * j, s.last), 32 * j <= s.last);
      }
    }
  }

  /// The producer warp's share of k-block kb's 1x128 scales into `stage`: lane 0's bulk copies,
  /// or every lane's part; then each lane arrives (without incrementing the pending
  /// count) on the stage's `full` barrier once its cp.async copies have landed: so the barrier
  /// counts 32 arrivals beyond the producer's own, whatever the modes (a bulk copy completes its
  /// bytes on the barrier itself: lane 0 adds them to the stage's expected bytes, bulk_bytes()).
  CUTLASS_DEVICE static void copy(TileSources const &t, int kb, int lane, StageStorage &stage, uint64_t *full) {
    copy_source(t.rows, kb, lane, stage.rows, full);
    copy_source(t.columns, kb, lane, stage.columns, full);
    cuda::ptx::cp_async_mbarrier_arrive_noinc(full);
  }

  // ---- consumer warpgroup ----------------------------------------------------------------------

  // What the fragment's rows and columns carry: the rows are A's rows, or B's columns when the
  // kernel runs its tile transposed (kSwapped: the accumulators hold D^T, Mainloop::mma kSwapAB).
  bool rows_vector = false;      ///< the row side's scales are 1x128 (one per fragment row)
  bool swapped = false;          ///< the rows are B's columns
  int row = 0;                   ///< this thread's first fragment row in the tile (+ 8: its second)
  int column = 0;                ///< this thread's first fragment column in the tile (+ 8 i + c)

  /// Whether a kernel that can (a square tile split along M) runs promotion `kind` on its tile's
  /// transpose: 1x128 scales on B's columns with none or one value on A's side (kColumnScales:
  /// the frameworks' weights-as-A orientation) become two row factors per thread (kRowScales on
  /// D^T) instead of sixteen column factors (s16: vec x blk ran 0.74-0.84x cuBLASLt, blk x vec
  /// 0.61-0.72x, the difference being the column factors' loads and folds).
  CUTLASS_HOST_DEVICE static bool swaps(Promotion kind) { return kind == Promotion::kColumnScales; }

  /// The consumer side of warpgroup part (row0, col0) of the tile (offsets in the tile: fragment
  /// rows and columns), for thread `thread` (0..127) of the part's warpgroup; `swapped`: the part
  /// is transposed (its rows are B's columns).
  CUTLASS_DEVICE Sm90BlockScales(float const *scale_a, epilogue::OperandScaleMode mode_a, float const *scale_b,
                                 epilogue::OperandScaleMode mode_b, int row0, int col0, int thread, bool swapped) {
    rows_vector = swapped ? has_scale(scale_b, mode_b, epilogue::OperandScaleMode::kBlock1x128)
                          : has_scale(scale_a, mode_a, epilogue::OperandScaleMode::kBlock1x128);
    this->swapped = swapped;
    row = row0 + 16 * (thread / 32) + (thread % 32) / 4;
    column = col0 + 2 * (thread % 4);
  }

  /// Shared loads at .shared addresses (volatile: issued after the full-barrier wait that published
  /// the values, and before the stage's release in program order; the release's own ordering is
  /// GemmSm90::promoted_mainloop's).
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

  /// A tile's 128x128 values on the fragment's row side and column side (A's and B's, or B's and
  /// A's when swapped): k-block kb's at [kb] (nullptr: the side has none, its factor is 1).
  struct BlockRow {
    float const *rows = nullptr;
    float const *columns = nullptr;
  };
  /// The 128x128 rows of tile (m0, n0) of batch entry l (op: the output operator's parameters:
  /// scale pointers and modes, rows = M, columns = N), in the layout of the file comment.
  template <typename OutputParams>
  CUTLASS_DEVICE BlockRow block_row(OutputParams const &op, int m0, int n0, int l, int k_blocks) const {
    auto const row_of = [&](float const *scale, epilogue::OperandScaleMode mode, int extent,
                            int index0) -> float const * {
      if (!has_scale(scale, mode, epilogue::OperandScaleMode::kBlock128x128)) return nullptr;
      int64_t const blocks = (int64_t(extent) + 127) / 128;
      return scale + (int64_t(l) * blocks + index0 / 128) * epilogue::block128x128_ld(k_blocks);
    };
    float const *a = row_of(op.scale_a, op.scale_a_mode, op.rows, m0);
    float const *b = row_of(op.scale_b, op.scale_b_mode, op.columns, n0);
    return swapped ? BlockRow{b, a} : BlockRow{a, b};
  }

  /// A 128x128 value (read-only for the kernel's life: the non-coherent path; volatile, so each
  /// use is its own load straight into its register: a load shared by two factors, or selected
  /// against a shared-memory load, became a register move that ptxas placed inside the next
  /// group's wgmma issue, waiting on the load, s30).
  CUTLASS_DEVICE static float ldg(float const *address) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];\n" : "=f"(v) : "l"(address));
    return v;
  }
  /// K-block kb's value of a 128x128 side (1 where it has none).
  CUTLASS_DEVICE static float block_value(float const *side, int kb) { return side ? ldg(side + kb) : 1.f; }

  /// One k-block's scale factors in registers: each row half's (kRowScales, kBoth; the 128x128
  /// value when the row side has no 1x128 scales), each column pair's (kColumnScales, kBoth), and
  /// the column side's 128x128 value (kRowScales). apply multiplies them together (kRowScales:
  /// row x fold; kColumnScales: column pair x row[0]). What a kind leaves unused the compiler drops.
  struct Factors {
    float row[2];
    float2 column[WgN / 8];
    float fold = 1.f;   ///< kRowScales: the column side's 128x128 value, multiplied in by apply
  };

  /// The factors of this thread's fragment for k-block kb from `stage` and the tile's 128x128
  /// rows `block`, once the stage's full barrier has passed; loaded
  /// between the k-block's wgmma issue and its wait, so the loads' latency hides under the group
  /// (s15: loaded after the wait, they sat between a group's completion and the next issue).
  /// Only loads: the folds that use them wait for apply, after the group's wait (s30: ptxas put
  /// the folding FMULs between the group's first and second wgmma, where they stalled the issue
  /// on their loads; an A 128x128 scale alone then ran 15% below precise).
  /// kSwapped: the fragment's rows read B's (column) scales, its columns A's (only kRowScales runs
  /// swapped).
  /// kColumns: also the column pairs (the column kinds run serially; on two accumulator sets they
  /// load them at the promotion instead, load_columns).
  template <Promotion kKind, bool kSwapped, bool kColumns = true>
  CUTLASS_DEVICE Factors factors(StageStorage const &stage, BlockRow const &block, int kb) const {
    static_assert(!kSwapped || kKind == Promotion::kRowScales, "Sm90BlockScales: only the row-scale kind runs swapped");
    Factors f = {};   // (kAdd, kRowScales: parts stay unused, and dropped)
    if constexpr (kKind != Promotion::kAdd) {
      uint32_t const rows = arch::shared_address(kSwapped ? &stage.columns[0] : &stage.rows[0]);
      // a row's factor: its 1x128 value, else the 128x128 value or 1 (kRowScales: selects, not
      // branches: ptxas if-converts uniform branches in the k-loop anyway). The kind fixes the
      // row side's mode otherwise (kBoth: 1x128; kColumnScales: none or 128x128), and a select
      // there cost kBoth a load and registers it has none left for.
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        bool const from_vector = kKind == Promotion::kBoth || (kKind == Promotion::kRowScales && rows_vector);
        f.row[h] = from_vector ? lds(rows + 4u * uint32_t(row + 8 * h)) : block_value(block.rows, kb);
      }
      if constexpr (kKind == Promotion::kRowScales) {
        f.fold = block_value(block.columns, kb);
      } else if constexpr (kColumns) {
        load_columns<kSwapped>(stage, f);
      }
    }
    return f;
  }

  /// The column pairs of `f` from `stage`: by factors() at the group's issue when one accumulator
  /// set runs (they are carried across the group); with two sets (kColumnScales, kBoth) at the
  /// promotion, after the group's wait and before the stage's release, as two sets leave no room
  /// for sixteen pairs per set carried from the issue: the other set's group covers these loads'
  /// latency instead.
  template <bool kSwapped>
  CUTLASS_DEVICE void load_columns(StageStorage const &stage, Factors &f) const {
    uint32_t const columns = arch::shared_address(kSwapped ? &stage.rows[0] : &stage.columns[0]);
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < WgN / 8; ++i) f.column[i] = lds2(columns + 4u * uint32_t(column + 8 * i));
  }

  /// Zeroes this thread's totals outside the problem (rows_left / columns_left: the fragment rows
  /// and columns left past the tile's origin: M and N, or N and M when swapped), once per tile: a
  /// bulk copy leaves the slots past the extent as they were (another tile's scales, or never
  /// written), and the epilogue relies on padding elements being exactly 0 (amax without bounds
  /// tests).
  template <int kTotal>
  CUTLASS_DEVICE void mask_padding(float (&total)[1][kTotal], int rows_left, int columns_left) const {
    CUTLASS_PRAGMA_UNROLL
    for (int v = 0; v < kTotal; ++v) {
      int const r = row + 8 * ((v / 2) % 2), c = column + 8 * (v / 4) + v % 2;
      if (r >= rows_left || c >= columns_left) total[0][v] = 0.f;
    }
  }

  /// total += partial x the factors over the accumulator fragment (d[4 i + 2 h + c]: row half h,
  /// column 8 i + 2 (l % 4) + c), after the k-block's wgmma-group completed. No block scales
  /// (kAdd): an add.
  template <Promotion kKind, int kTotal>
  CUTLASS_DEVICE static void apply(float (&total)[1][kTotal], float const (&partial)[1][kTotal], Factors const &f) {
    static_assert(kTotal == WgN / 2, "Sm90BlockScales: WgN / 2 accumulators per atom and thread");
    float const row[2] = {f.row[0] * f.fold, f.row[1] * f.fold};   // (kRowScales)
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < WgN / 8; ++i) {
      // kColumnScales: A's one value (or 1, in row[0]) folded into the pair
      float2 const pair = kKind == Promotion::kColumnScales ? make_float2(f.column[i].x * f.row[0], f.column[i].y * f.row[0])
                                                            : f.column[i];
      CUTLASS_PRAGMA_UNROLL
      for (int h = 0; h < 2; ++h) {
        CUTLASS_PRAGMA_UNROLL
        for (int c = 0; c < 2; ++c) {
          float &t = total[0][4 * i + 2 * h + c];
          float const p = partial[0][4 * i + 2 * h + c];
          if constexpr (kKind == Promotion::kAdd) {
            t += p;
          } else if constexpr (kKind == Promotion::kRowScales) {
            t = fmaf(p, row[h], t);
          } else {
            float const column = c == 0 ? pair.x : pair.y;
            t = fmaf(kKind == Promotion::kBoth ? p * f.row[h] : p, column, t);
          }
        }
      }
    }
  }
};

}  // namespace collective
}  // namespace gemm
}  // namespace cutlass
