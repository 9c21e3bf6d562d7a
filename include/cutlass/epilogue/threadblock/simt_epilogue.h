/// @file cutlass/epilogue/threadblock/simt_epilogue.h
/// The SIMT epilogue: applies the output operator to a thread's accumulators (laid out as in
/// gemm/threadblock/simt_policy.h) and writes the CTA tile of the column-major output
///
///     D(m, n) = op(acc(m, n), source, C(m, n))   (C not read when !op.is_source_needed())
///
/// with element (m, n) of C at m + n * ldc and of D at m + n * ldd (elements).
///
/// Coalescing: each warp stages its tile through shared memory one accumulator column step j
/// (0 .. kThreadN-1) at a time. Step j holds the warp's kWarpM x kLanesN block of columns
/// {column_in_warp(j) over all lanes}; the lanes write it with 128-bit stores as [kLanesN][kWarpM
/// + pad] and read it back so that lane l of read r takes element e = l + 32 r, i.e. row e % kWarpM
/// of column e / kWarpM: one warp-wide global access covers 32 consecutive rows (128 bytes of
/// float) of one column. Only __syncwarp is needed; the caller must __syncthreads before the
/// first call if SharedStorage aliases the mainloop's shared memory.
///
/// Predication: only m < M, n < N are read or written. C is read only when the operator needs
/// it, by the thread that then writes the same D element, so D may alias C.
/// Fused pieces of the operator (thread/linear_combination.h) take their vector terms per
/// element; the caller calls op.set_batch() first.
#pragma once

#include <cstdint>

#include "cutlass/gemm/threadblock/simt_policy.h"
#include "cutlass/gemm/threadblock/simt_vector.h"

namespace cutlass {
namespace epilogue {
namespace threadblock {

/// Where a CTA writes: C and D (batch offsets applied), the tile's origin and the problem size.
template <typename ElementC>
struct SimtEpilogueOutput {
  ElementC const *ptr_C;  ///< may be null when the output operator needs no source
  int64_t ldc;
  ElementC *ptr_D;
  int64_t ldd;
  int m_begin;  ///< first row of the CTA tile
  int n_begin;  ///< first column of the CTA tile
  int m;        ///< M of the problem
  int n;        ///< N of the problem
};

template <typename Policy, typename OutputOp>
class SimtEpilogue {
 public:
  using ElementAccumulator = typename Policy::ElementAccumulator;
  using ElementC = typename OutputOp::ElementOutput;
  using AccumulatorTile = gemm::threadblock::SimtAccumulatorTile<Policy>;
  using Output = SimtEpilogueOutput<ElementC>;

  /// Staged column stride (elements): the warp's rows plus 64 bytes, so the two lane_n values of
  /// a quarter-warp's 128-bit stores fall on different banks when kLanesM == 4.
  static constexpr int kStagingStride = Policy::kWarpM + 4 * Policy::kVector;
  static constexpr int kStagingElements = Policy::kLanesN * kStagingStride;
  /// Elements each lane reads back per column step: kWarpM * kLanesN / 32.
  static constexpr int kReads = Policy::kThreadM;

  struct SharedStorage {
    alignas(16) ElementAccumulator staging[Policy::kWarps][kStagingElements];
  };

  CUTLASS_DEVICE SimtEpilogue(SharedStorage &smem, int thread_idx)
      : staging_(smem.staging[thread_idx / 32]), lane_(thread_idx % 32), coord_(thread_idx) {}

  /// `output` may live in shared memory; it is read once, before the first __syncwarp.
  CUTLASS_DEVICE void operator()(OutputOp &op, AccumulatorTile const &acc, Output const &output) {
    Output const out = output;
    if (op.is_source_needed()) {
      store<true>(op, acc, out);
    } else {
      store<false>(op, acc, out);
    }
    op.end_tile();
  }

 private:
  using Vector = gemm::threadblock::SimtVector<ElementAccumulator, Policy::kVector>;

  template <bool kReadSource>
  CUTLASS_DEVICE void store(OutputOp &op, AccumulatorTile const &acc, Output const &out) {
    // Offsets from the warp tile's origin, and the rows/columns left in the problem from there
    // (differences of in-range ints: no overflow for any M, N <= INT_MAX).
    int64_t const m_warp = int64_t(out.m_begin) + coord_.warp_m * Policy::kWarpM;
    int64_t const n_warp = int64_t(out.n_begin) + coord_.warp_n * Policy::kWarpN;
    int const m_left = out.m - out.m_begin - coord_.warp_m * Policy::kWarpM;
    int const n_left = out.n - out.n_begin - coord_.warp_n * Policy::kWarpN;

    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < Policy::kThreadN; ++j) {
      stage_column_step(acc, j);
      __syncwarp();

      // Staged column `col` of step j is column_in_warp(j) of the lanes with lane_n == col.
      int const n_step = (j / Policy::kVector) * (Policy::kLanesN * Policy::kVector) + j % Policy::kVector;
      CUTLASS_PRAGMA_UNROLL
      for (int r = 0; r < kReads; ++r) {
        int const e = lane_ + 32 * r;
        int const row = e % Policy::kWarpM;
        int const col = e / Policy::kWarpM;
        int const n = n_step + col * Policy::kVector;
        if (row < m_left && n < n_left) {
          int64_t const m_global = m_warp + row;
          int64_t const n_global = n_warp + n;
          ElementAccumulator value = staging_[col * kStagingStride + row];
          int const m = int(m_global), n = int(n_global);
          auto const row_terms = op.row_terms(m);
          auto const column_terms = op.column_terms(n);
          ElementC const c = kReadSource ? out.ptr_C[m_global + n_global * out.ldc] : ElementC();
          out.ptr_D[m_global + n_global * out.ldd] = op(value, kReadSource, c, row_terms, column_terms, m, n);
        }
      }
      __syncwarp();
    }
  }

  /// Writes accumulator column j of every lane: lane (lane_m, lane_n) stores its kThreadM rows
  /// as kThreadM / kVector 128-bit chunks into staged column lane_n at their warp rows.
  CUTLASS_DEVICE void stage_column_step(AccumulatorTile const &acc, int j) {
    CUTLASS_PRAGMA_UNROLL
    for (int c = 0; c < Policy::kThreadM / Policy::kVector; ++c) {
      Vector v;
      CUTLASS_PRAGMA_UNROLL
      for (int e = 0; e < Policy::kVector; ++e) v.data[e] = acc.data[c * Policy::kVector + e][j];
      v.store(staging_ + coord_.lane_n * kStagingStride + coord_.row_in_warp(c * Policy::kVector));
    }
  }

  ElementAccumulator *staging_;  ///< this warp's [kLanesN][kStagingStride] staging block
  int lane_;
  gemm::threadblock::SimtThreadCoord<Policy> coord_;
};

}  // namespace threadblock
}  // namespace epilogue
}  // namespace cutlass
