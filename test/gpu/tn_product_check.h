/// One check the GPU tests of back-to-back and captured calls share (test_launch_order.cu,
/// test_grouped_contiguous.cu): a bf16 TN GEMM's output against the device reference.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "gemm_reference.h"
#include "gpu_test_util.h"

namespace cutlass_lib_test {

/// D (m x n, column-major, ldd = m, bf16) against the reference of alpha A B with alpha = 1 /
/// sqrt(k), the scale the tests call with (A row-major m x k, B column-major k x n): finite, and
/// within the bf16 bound for K. Callers wrap it in ASSERT_NO_FATAL_FAILURE.
inline void expect_tn_product(void const *a, int64_t lda, void const *b, int64_t ldb, void const *d, int64_t m,
                              int64_t n, int64_t k, std::string const &what) {
  namespace ref = cutlass::reference;
  using cutlass::library::LayoutTypeID;
  using cutlass::library::NumericTypeID;
  DeviceBuffer expected(size_t(m * n * element_bytes(NumericTypeID::kBF16)));
  ref::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.element_A = p.element_B = p.element_C = NumericTypeID::kBF16;
  p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
  p.alpha = 1.0 / std::sqrt(double(k));
  p.A = a, p.lda = lda, p.B = b, p.ldb = ldb, p.D = expected.get(), p.ldd = m;
  ASSERT_TRUE(ref::reference_gemm(p));
  ref::Comparison const cmp = ref::compare(NumericTypeID::kBF16, m, n, 1, d, m, 0, expected.get(), m, 0);
  ASSERT_TRUE(cmp.ok);
  EXPECT_EQ(0, cmp.nonfinite) << what << ": NaN, the poison of an output left unwritten or of an input read too early";
  EXPECT_LE(cmp.relative_error, ref::error_bound(NumericTypeID::kBF16, NumericTypeID::kBF16, k))
      << what << " (" << m << " x " << n << " x " << k << ")";
}

}  // namespace cutlass_lib_test
