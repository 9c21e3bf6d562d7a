/// @file cutlass/gemm_coord.h
/// GEMM problem coordinates (M, N, K) and compile-time tile shapes.
#pragma once

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {

/// Compile-time (M, N, K) shape of a CTA tile, warp tile or MMA instruction, in elements.
template <int M_, int N_, int K_>
struct GemmShape {
  static constexpr int kM = M_;
  static constexpr int kN = N_;
  static constexpr int kK = K_;
  static constexpr int kMN = M_ * N_;
  static constexpr int kMNK = M_ * N_ * K_;
};

/// Run-time (M, N, K) extent of a GEMM problem, in elements. D is M x N, op(A) M x K, op(B) K x N.
struct GemmCoord {
  int m_ = 0, n_ = 0, k_ = 0;
  constexpr GemmCoord() = default;
  constexpr GemmCoord(int m, int n, int k) : m_(m), n_(n), k_(k) {}
  CUTLASS_HOST_DEVICE constexpr int m() const { return m_; }
  CUTLASS_HOST_DEVICE constexpr int n() const { return n_; }
  CUTLASS_HOST_DEVICE constexpr int k() const { return k_; }
  CUTLASS_HOST_DEVICE constexpr int mn_product() const { return m_ * n_; }
  CUTLASS_HOST_DEVICE int64_t product() const { return int64_t(m_) * n_ * k_; }
  constexpr bool operator==(GemmCoord const &o) const { return m_ == o.m_ && n_ == o.n_ && k_ == o.k_; }
  constexpr bool operator!=(GemmCoord const &o) const { return !(*this == o); }
};

/// How gemm_universal interprets batch_count and the batch strides
/// (same enumerators as CUTLASS's cutlass::gemm::GemmUniversalMode).
enum class GemmUniversalMode {
  kGemm,                 ///< One GEMM; batch_count > 1 would mean split-K slices (not supported).
  kGemmSplitKParallel,   ///< Parallel split-K (not supported).
  kBatched,              ///< batch_count GEMMs, operand l at ptr + l * batch_stride.
  kArray,                ///< Arrays of pointers (not supported).
  kGrouped,              ///< Grouped GEMM (not supported).
  kInvalid
};

}  // namespace gemm
}  // namespace cutlass
