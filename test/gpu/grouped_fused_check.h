/// The fused-epilogue check of the grouped GPU tests (test_grouped.cu, test_grouped_contiguous.cu):
/// one problem's (or one expert's) M x N region of a column-major bf16 D against the host
/// reference of fused_reference.h, its product op(A) op(B) taken from the device reference GEMM in
/// f32 (whose error the reference's 2^-19 K bound covers).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fused_reference.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"

namespace cutlass_lib_test {

/// One region: `product` is the reference GEMM's problem (A, B, layouts, M, N, K of the region;
/// its alpha, beta, C and D are replaced here); `before` / `got` the region of C before the call
/// and of D after it (bf16, ld `ldc`); `row_bias` M or `column_bias` N bf16 values (device), or
/// null; `aux` the M x N region of the bf16 aux output (ld `ldaux`), or null.
struct FusedRegion {
  cutlass::reference::GemmProblem product;
  cutlass::epilogue::ActivationKind activation = cutlass::epilogue::ActivationKind::kIdentity;
  double alpha = 1, beta = 0;
  void const *before = nullptr;
  void const *got = nullptr;
  int64_t ldc = 0;
  void const *row_bias = nullptr, *column_bias = nullptr;
  float const *row_alpha = nullptr, *column_alpha = nullptr;   ///< f32 alpha vector (M or N values), or null
  void const *aux = nullptr;
  int64_t ldaux = 0;
};

/// The rows x columns column-major region (ld `ld` elements) of a device matrix of `type`, decoded
/// on the host.
inline std::vector<double> host_matrix(cutlass::library::NumericTypeID type, void const *device, int64_t rows,
                                       int64_t columns, int64_t ld) {
  int const bytes = fused::bytes_of(type);
  std::vector<unsigned char> raw(size_t(rows * columns * bytes));
  std::vector<double> out(size_t(rows * columns));
  if (rows == 0 || columns == 0) return out;
  if (cudaMemcpy2D(raw.data(), size_t(rows * bytes), device, size_t(ld * bytes), size_t(rows * bytes), size_t(columns),
                   cudaMemcpyDeviceToHost) != cudaSuccess) {
    ADD_FAILURE() << "copy to the host failed";
    return out;
  }
  for (int64_t i = 0; i < rows * columns; ++i) out[size_t(i)] = fused::load(type, raw.data(), i);
  return out;
}

/// Every element of the region (and of its aux) within the reference's bounds (fused::within).
inline ::testing::AssertionResult fused_region_matches(FusedRegion const &r) {
  using cutlass::library::NumericTypeID;
  namespace ref = cutlass::reference;
  int64_t const m = r.product.m, n = r.product.n;
  DeviceBuffer product(size_t(m * n) * sizeof(float));
  ref::GemmProblem p = r.product;
  p.element_C = NumericTypeID::kF32;
  p.alpha = 1, p.beta = 0;
  p.C = nullptr, p.ldc = m;
  p.D = product.get(), p.ldd = m;
  if (!ref::reference_gemm(p)) return ::testing::AssertionFailure() << "the reference GEMM failed";
  std::vector<double> const acc = host_matrix(NumericTypeID::kF32, product.get(), m, n, m);
  std::vector<double> const c = host_matrix(NumericTypeID::kBF16, r.before, m, n, r.ldc);
  std::vector<double> const d = host_matrix(NumericTypeID::kBF16, r.got, m, n, r.ldc);
  std::vector<double> const aux = r.aux ? host_matrix(NumericTypeID::kBF16, r.aux, m, n, r.ldaux) : std::vector<double>();
  std::vector<double> const row_bias =
      r.row_bias ? host_matrix(NumericTypeID::kBF16, r.row_bias, m, 1, m) : std::vector<double>(size_t(m), 0.0);
  std::vector<double> const column_bias =
      r.column_bias ? host_matrix(NumericTypeID::kBF16, r.column_bias, n, 1, n) : std::vector<double>(size_t(n), 0.0);
  std::vector<double> const row_alpha =
      r.row_alpha ? host_matrix(NumericTypeID::kF32, r.row_alpha, m, 1, m) : std::vector<double>(size_t(m), 1.0);
  std::vector<double> const column_alpha =
      r.column_alpha ? host_matrix(NumericTypeID::kF32, r.column_alpha, n, 1, n) : std::vector<double>(size_t(n), 1.0);
  fused::Spec spec;
  spec.activation = r.activation;
  spec.alpha = r.alpha, spec.beta = r.beta;
  spec.k = r.product.k;
  spec.fast_math = true;   // 16-bit outputs
  int64_t bad = 0;
  std::string first;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      size_t const e = size_t(j * m + i);
      double const source = r.beta != 0 ? c[e] : 0.0;
      fused::Element const want = fused::reference_element(spec, acc[e], source, row_bias[size_t(i)] + column_bias[size_t(j)],
                                                           row_alpha[size_t(i)] * column_alpha[size_t(j)]);
      bool ok = fused::within(NumericTypeID::kBF16, d[e], want.d, want.ed);
      if (r.aux) ok = ok && fused::within(NumericTypeID::kBF16, aux[e], want.x, want.ex);
      if (!ok && bad++ == 0) {
        first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): D " + std::to_string(d[e]) + " want " +
                std::to_string(want.d) + (r.aux ? ", aux " + std::to_string(aux[e]) + " want " + std::to_string(want.x) : "");
      }
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << m * n << " elements off, first " << first;
}

}  // namespace cutlass_lib_test
