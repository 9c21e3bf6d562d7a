/// @file cutlass/gemm/threadblock/simt_thread_mma.h
/// One K step of a thread's SIMT tile: the outer product acc[i][j] += a[i] * b[j] of a
/// kThreadM-element A fragment and a kThreadN-element B fragment, one FFMA (float), DFMA
/// (double) or IMAD (int32_t, wrapping) per accumulator.
#pragma once

#include <cstdint>

#include "cutlass/gemm/threadblock/simt_policy.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

/// c + a * b with a single rounding (floating types) or wrapping (int32_t).
CUTLASS_DEVICE float simt_multiply_add(float a, float b, float c) { return fmaf(a, b, c); }
CUTLASS_DEVICE double simt_multiply_add(double a, double b, double c) { return fma(a, b, c); }
CUTLASS_DEVICE int32_t simt_multiply_add(int32_t a, int32_t b, int32_t c) {
  return int32_t(uint32_t(c) + uint32_t(a) * uint32_t(b));
}

/// acc += a (column) x b (row), in the accumulator type. With Policy::kSwapRowPairsA, a[i] holds
/// accumulator row i ^ 1 (the shared A tile stores adjacent rows swapped), and the loop runs
/// column by column so that consecutive FMAs share b[j] (the operand reuse cache serves it) and
/// read a[] and acc from different register banks (see SimtPolicy::kSwapRowPairsA).
template <typename Policy>
CUTLASS_DEVICE void simt_thread_mma(SimtAccumulatorTile<Policy> &acc,
                                    typename Policy::ElementAccumulator const (&a)[Policy::kThreadM],
                                    typename Policy::ElementAccumulator const (&b)[Policy::kThreadN]) {
  if constexpr (Policy::kSwapRowPairsA) {
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < Policy::kThreadN; ++j) {
      CUTLASS_PRAGMA_UNROLL
      for (int i = 0; i < Policy::kThreadM; ++i) acc.data[i][j] = simt_multiply_add(a[i ^ 1], b[j], acc.data[i][j]);
    }
  } else {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < Policy::kThreadM; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < Policy::kThreadN; ++j) acc.data[i][j] = simt_multiply_add(a[i], b[j], acc.data[i][j]);
    }
  }
}

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
