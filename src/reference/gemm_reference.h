/// @file src/reference/gemm_reference.h
/// Verification tools shared by the GPU tests and the profiler (not part of libcutlass_lib):
/// a simple device reference GEMM, tensor fill / poison / compare kernels, and a cuBLAS call
/// for the same problem. All run-time typed by NumericTypeID so one build serves every kernel.
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/library/types.h"

namespace cutlass {
namespace reference {

using library::LayoutTypeID;
using library::NumericTypeID;

/// D[l] = alpha * A[l] * B[l] + beta * C[l] with A (M x K, layout_A), B (K x N, layout_B), C and D
/// (M x N, layout_C). ld and batch strides in elements. A and B are read in their own type
/// (tf32 operands read as fp32); products are summed in double for floating types and in
/// int64 for integers, then converted to element_C with round-to-nearest. beta == 0 never reads C.
/// Operand scales (fp8 operands; cuBLASLt's A_SCALE_POINTER / B_SCALE_POINTER with their modes, laid
/// out as cutlass_lib.h's cutlassLibMatrixScale_t says; null = 1) dequantize each element before its
/// product: a(i, k) * sa(i, k / 128) and b(k, j) * sb(j, k / 128), so the reference is the exact
/// sum that the block-wise promotion of a kernel approximates (s8 inputs: the wrapped s32 sum times
/// the row's and the column's scale, the int8 dequantization; block modes do not apply to s8).
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0, batch_count = 1;
  NumericTypeID element_A = NumericTypeID::kInvalid, element_B = NumericTypeID::kInvalid;
  NumericTypeID element_C = NumericTypeID::kInvalid;
  LayoutTypeID layout_A = LayoutTypeID::kColumnMajor, layout_B = LayoutTypeID::kColumnMajor;
  LayoutTypeID layout_C = LayoutTypeID::kColumnMajor;
  double alpha = 1, beta = 0;
  void const *A = nullptr;
  int64_t lda = 0, batch_stride_A = 0;
  void const *B = nullptr;
  int64_t ldb = 0, batch_stride_B = 0;
  void const *C = nullptr;
  int64_t ldc = 0, batch_stride_C = 0;
  void *D = nullptr;
  int64_t ldd = 0, batch_stride_D = 0;
  float const *scale_A = nullptr, *scale_B = nullptr;
  epilogue::OperandScaleMode scale_A_mode = epilogue::OperandScaleMode::kScalar;
  epilogue::OperandScaleMode scale_B_mode = epilogue::OperandScaleMode::kScalar;
  /// How a tensor-core provider sums fp8 products over K (cuBLASLt's FAST_ACCUM); the reference
  /// always sums in double.
  library::AccumulationMode accumulation = library::AccumulationMode::kFast;

  /// Whether either operand has a block scale (1x128 or 128x128: applied per k-block).
  bool block_scaled() const {
    return (scale_A && epilogue::is_block_scale(scale_A_mode)) || (scale_B && epilogue::is_block_scale(scale_B_mode));
  }
};

/// Entries of an operand scale in `mode` for an operand with `extent` rows of op(A) (M) or columns of
/// op(B) (N), depth k and batch_count batches: 1, extent, ceil(k / 128) * extent * batch_count or
/// ceil(extent / 128) * KBp * batch_count (KBp: ceil(k / 128) rounded up to a multiple of 4).
int64_t scale_entries(epilogue::OperandScaleMode mode, int64_t extent, int64_t k, int64_t batch_count);

/// The same problem with column-major C/D: a row-major C/D problem becomes D^T = B^T A^T (A and B
/// swap and transpose, M and N swap); a column-major one is returned unchanged.
GemmProblem column_major(GemmProblem const &problem);

/// Runs the reference on `stream`; false for an element type it does not know, s8 operands with
/// block scales, or a failed launch.
bool reference_gemm(GemmProblem const &problem, cudaStream_t stream = nullptr);

/// Whether the reference kernels (built, like the GEMM kernels, as SASS for CUTLASS_NVCC_ARCHS
/// only) have code for the current device: an sm_80-only build has none for an sm_90 device.
/// Asked of cudaFuncGetAttributes, which fails for a kernel without a fitting image.
bool has_code_for_current_device();

/// Fills `count` elements with independent uniform values in [lo, hi] (integers: rounded), from
/// a counter-based hash of (seed, index): the same seed gives the same data on any device.
bool fill_uniform(NumericTypeID type, void *ptr, int64_t count, uint64_t seed, double lo = -1, double hi = 1,
                  cudaStream_t stream = nullptr);

/// Fills with one value (NaN allowed for floating types: the usual output poison).
bool fill_value(NumericTypeID type, void *ptr, int64_t count, double value, cudaStream_t stream = nullptr);

/// Fills with a poison pattern: NaN for floating types, 0x5A bytes for integers.
bool fill_poison(NumericTypeID type, void *ptr, int64_t count, cudaStream_t stream = nullptr);

/// Result of comparing a computed M x N matrix with a reference one.
struct Comparison {
  double relative_error = 0;   ///< ||x - ref||_F / ||ref||_F (0 when both are zero)
  double max_abs_error = 0;
  int64_t nonfinite = 0;       ///< elements of x that are NaN or Inf where ref is finite
  int64_t mismatches = 0;      ///< elements that differ at all (used for integer types)
  bool ok = false;             ///< the comparison ran
};

/// Compares column-major M x N (batched) matrices x and ref of the same type (synchronizes).
Comparison compare(NumericTypeID type, int64_t m, int64_t n, int64_t batch_count, void const *x, int64_t ldx,
                   int64_t batch_stride_x, void const *ref, int64_t ldref, int64_t batch_stride_ref);

/// True when the bytes [begin, end) are byte-equal in a and b (device memory, synchronizes).
bool bytes_equal(void const *a, void const *b, size_t bytes);

/// Relative-error bound of the DESIGN.md correctness rules for a kernel's output type, input
/// type and K: integers 0 (exact); fp8 outputs 5e-2; fp8 inputs max(2.5e-4 * sqrt(K), 4e-6 * K,
/// 1e-2 for 16-bit outputs) (the tensor core's reduced-precision fp8 adder); 16-bit outputs 1e-2; f32
/// outputs of tf32 inputs 5e-3, of 16-bit inputs 1e-3; f64 1e-12 * sqrt(K); f32 1e-5 * sqrt(K).
double error_bound(NumericTypeID element_A, NumericTypeID element_C, int64_t k);

}  // namespace reference
}  // namespace cutlass
