/// @file src/library/gemm_arguments.cpp
/// The BLAS argument checks of a GEMM call (declared in gemm_call.h): sizes, layouts, leading
/// dimensions, batch strides, scalars, pointers and the fused epilogue's operands, in the order
/// DESIGN.md and handle.h give; and the facts of a call they share (runs_scale_only, gemm_reads_c).
#include "gemm_call.h"
#include "split_k.h"

#include <algorithm>
#include <cstdint>

#include "cutlass/library/util.h"

namespace cutlass {
namespace library {

int64_t leading_extent(LayoutTypeID layout, int64_t rows, int64_t columns) {
  return layout == LayoutTypeID::kColumnMajor ? rows : columns;
}

namespace {

bool is_matrix_layout(LayoutTypeID layout) {
  return layout == LayoutTypeID::kColumnMajor || layout == LayoutTypeID::kRowMajor;
}

}  // namespace

// No allocation spans more than 2^63 - 1 bytes, and the kernels' 64-bit address arithmetic would
// wrap past it.
bool operand_span_overflows(LayoutTypeID layout, int64_t rows, int64_t columns, int64_t ld, int64_t batch_stride,
                            int64_t batch, NumericTypeID element) {
  if (rows <= 0 || columns <= 0) return false;
  int64_t const lines = layout == LayoutTypeID::kColumnMajor ? columns : rows;
  int64_t const contiguous = leading_extent(layout, rows, columns);
  int64_t last = 0, term = 0;   // index of the last element: (batch-1)*stride + (lines-1)*ld + contiguous-1
  if (__builtin_mul_overflow(batch - 1, batch_stride, &term) || __builtin_add_overflow(last, term, &last) ||
      __builtin_mul_overflow(lines - 1, ld, &term) || __builtin_add_overflow(last, term, &last) ||
      __builtin_add_overflow(last, contiguous, &last)) {
    return true;
  }
  int64_t const bits = std::max(sizeof_bits(element), 8);
  int64_t bytes = 0;
  return __builtin_mul_overflow(last, bits / 8, &bytes);
}

bool host_scalar_equals(NumericTypeID type, void const *ptr, int value) {
  switch (type) {
    case NumericTypeID::kF32: return *static_cast<float const *>(ptr) == float(value);
    case NumericTypeID::kF64: return *static_cast<double const *>(ptr) == double(value);
    case NumericTypeID::kS32: return *static_cast<int32_t const *>(ptr) == value;
    default: return false;
  }
}

bool runs_scale_only(GemmCall const &call) {
  bool const host_scalars = call.pointer_mode == ScalarPointerMode::kHost;
  return !call.epilogue.kind.fused() &&
         (call.k == 0 || (host_scalars && host_scalar_equals(call.element_scalar, call.alpha, 0)));
}

bool gemm_reads_c(GemmCall const &c) {
  return c.pointer_mode == ScalarPointerMode::kDevice || !host_scalar_equals(c.element_scalar, c.beta, 0);
}

/// The argument checks that read no pointer: sizes, layouts, leading dimensions, batch strides.
GemmOutcome check_gemm_shape(GemmCall const &c) {
  if (c.m < 0 || c.n < 0 || c.k < 0) return gemm_failure(GemmFailure::kInvalidValue, "M, N and K must be >= 0");
  if (c.batch_count < 1) return gemm_failure(GemmFailure::kInvalidValue, "batch_count must be >= 1");
  if (!is_matrix_layout(c.layout_A) || !is_matrix_layout(c.layout_B) || !is_matrix_layout(c.layout_C) ||
      !is_matrix_layout(c.layout_D)) {
    return gemm_failure(GemmFailure::kInvalidValue, "layouts must be column- or row-major");
  }
  if (c.lda < std::max<int64_t>(1, leading_extent(c.layout_A, c.m, c.k))) {
    return gemm_failure(GemmFailure::kInvalidValue, "lda is smaller than the leading extent of A");
  }
  if (c.ldb < std::max<int64_t>(1, leading_extent(c.layout_B, c.k, c.n))) {
    return gemm_failure(GemmFailure::kInvalidValue, "ldb is smaller than the leading extent of B");
  }
  if (c.ldc < std::max<int64_t>(1, leading_extent(c.layout_C, c.m, c.n))) {
    return gemm_failure(GemmFailure::kInvalidValue, "ldc is smaller than the leading extent of C");
  }
  if (c.ldd < std::max<int64_t>(1, leading_extent(c.layout_D, c.m, c.n))) {
    return gemm_failure(GemmFailure::kInvalidValue, "ldd is smaller than the leading extent of D");
  }
  if (c.batch_stride_A < 0 || c.batch_stride_B < 0 || c.batch_stride_C < 0 || c.batch_stride_D < 0) {
    return gemm_failure(GemmFailure::kInvalidValue, "batch strides must be >= 0");
  }
  int64_t const batch = c.batch_count;   // >= 1, checked above
  if (operand_span_overflows(c.layout_A, c.m, c.k, c.lda, c.batch_stride_A, batch, c.element_A) ||
      operand_span_overflows(c.layout_B, c.k, c.n, c.ldb, c.batch_stride_B, batch, c.element_B) ||
      operand_span_overflows(c.layout_C, c.m, c.n, c.ldc, c.batch_stride_C, batch, c.element_C) ||
      operand_span_overflows(c.layout_D, c.m, c.n, c.ldd, c.batch_stride_D, batch, c.element_D)) {
    return gemm_failure(GemmFailure::kInvalidValue,
                "an operand's leading dimension and batch stride span more than 2^63 bytes");
  }
  return {};
}

/// BLAS argument checks (reference BLAS xGEMM order, as DESIGN.md states them).
GemmOutcome check_gemm_arguments(GemmCall const &c) {
  using gemm::GemmUniversalMode;
  // INVALID_VALUE first (every check up to the epilogue's), then NOT_SUPPORTED: the order
  // handle.h and cutlass_lib.h document. Kinds of call no kernel offers (C and D differing in
  // layout or type, complex transforms) are the kernels' answer, after the device
  // (unoffered_call_kind, gemm_call).
  GemmOutcome const shape = check_gemm_shape(c);
  if (shape.failure != GemmFailure::kNone) return shape;
  if (!c.alpha || !c.beta) return gemm_failure(GemmFailure::kInvalidValue, "alpha and beta must not be null");
  bool const device_scalars = c.pointer_mode == ScalarPointerMode::kDevice;
  bool const output_nonempty = c.m > 0 && c.n > 0;
  bool const reads_ab = output_nonempty && c.k > 0 &&
                        (device_scalars || c.epilogue.kind.fused() || !host_scalar_equals(c.element_scalar, c.alpha, 0));
  if (reads_ab && (!c.A || !c.B)) return gemm_failure(GemmFailure::kInvalidValue, "A and B must not be null");
  if (output_nonempty && !c.D) return gemm_failure(GemmFailure::kInvalidValue, "D must not be null");
  bool const reads_c = gemm_reads_c(c);
  if (output_nonempty && reads_c && !c.C) {
    return gemm_failure(GemmFailure::kInvalidValue, "C must not be null when beta != 0");
  }
  using epilogue::OperandScaleMode;
  auto const known = [](OperandScaleMode m) {
    return m == OperandScaleMode::kScalar || m == OperandScaleMode::kOuterVector || epilogue::is_block_scale(m);
  };
  if (!known(c.epilogue.scale_a_mode) || !known(c.epilogue.scale_b_mode) ||
      (c.epilogue.accumulation != AccumulationMode::kFast && c.epilogue.accumulation != AccumulationMode::kPrecise)) {
    return gemm_failure(GemmFailure::kInvalidValue, "an operand scale mode or accumulation mode outside its enumerators");
  }
  if ((c.epilogue.scale_a_mode != OperandScaleMode::kScalar && !c.epilogue.scale_a) ||
      (c.epilogue.scale_b_mode != OperandScaleMode::kScalar && !c.epilogue.scale_b)) {
    return gemm_failure(GemmFailure::kInvalidValue, "an outer-vector or block operand scale needs its scales");
  }
  // f32 operands the kernels load as floats: a pointer off 4 bytes would fault in the launch
  auto const misaligned = [](void const *p) { return (reinterpret_cast<uintptr_t>(p) & 3u) != 0; };
  if (misaligned(c.epilogue.scale_a) || misaligned(c.epilogue.scale_b) || misaligned(c.epilogue.scale_d) ||
      misaligned(c.epilogue.amax) || misaligned(c.epilogue.alpha_vector)) {
    return gemm_failure(GemmFailure::kInvalidValue,
                        "operand scales, scale_d, amax and the alpha vector must be 4-byte aligned f32 pointers");
  }
  GemmOutcome const epilogue = check_epilogue_arguments(c);   // its INVALID_VALUEs before any NOT_SUPPORTED below
  if (epilogue.failure != GemmFailure::kNone) return epilogue;
  if (c.mode != GemmUniversalMode::kGemm && c.mode != GemmUniversalMode::kBatched) {
    return gemm_failure(GemmFailure::kNotSupported, "only kGemm and kBatched modes are offered");
  }
  if (c.mode == GemmUniversalMode::kGemm && c.batch_count != 1) {
    return gemm_failure(GemmFailure::kNotSupported, "kGemm with batch_count > 1 (split-K) is not offered");
  }
  if (c.m > INT_MAX || c.n > INT_MAX || c.k > INT_MAX) {
    return gemm_failure(GemmFailure::kNotSupported, "M, N and K must each fit in 32 bits");
  }
  if (c.batch_count > 65535) return gemm_failure(GemmFailure::kNotSupported, "batch_count must be <= 65535");
  if (c.split_k_request > 1 && output_nonempty && !runs_scale_only(c)) {   // else the quick return D = beta * C
    if (char const *refusal = split_k_refusal(c, c.split_k_request)) return gemm_failure(GemmFailure::kNotSupported, refusal);
  }
  bool const fp8_operands = c.element_A == NumericTypeID::kFE4M3 || c.element_A == NumericTypeID::kFE5M2;
  // s8 operands with an f32 epilogue (int8 dequantization) take per-tensor and outer-vector scales
  bool const s8_dequant = c.element_A == NumericTypeID::kS8 && c.element_scalar == NumericTypeID::kF32;
  if ((c.epilogue.scale_a || c.epilogue.scale_b) && !fp8_operands && !s8_dequant) {
    return gemm_failure(GemmFailure::kNotSupported,
                        "operand scales (scale_a, scale_b) are for fp8 operands, and s8 operands with f32 outputs");
  }
  bool const block_scales = (c.epilogue.scale_a && epilogue::is_block_scale(c.epilogue.scale_a_mode)) ||
                            (c.epilogue.scale_b && epilogue::is_block_scale(c.epilogue.scale_b_mode));
  if (block_scales && !fp8_operands) {
    return gemm_failure(GemmFailure::kNotSupported, "block scales (1x128, 128x128) are for fp8 operands");
  }
  bool const fp8_output = c.element_D == NumericTypeID::kFE4M3 || c.element_D == NumericTypeID::kFE5M2;
  if (fp8_output && !c.epilogue.kind.scale_amax) {
    return gemm_failure(GemmFailure::kNotSupported,
                        "fp8 outputs need the D scale / amax piece (cutlassLibSetEpilogueScaleAmax; GemmEpilogueArguments scale_d / amax)");
  }
  if (c.epilogue.accumulation == AccumulationMode::kPrecise && !fp8_operands) {
    return gemm_failure(GemmFailure::kNotSupported, "precise accumulation is for fp8 operands");
  }
  if (c.epilogue.kind.fused() && output_nonempty && c.k == 0) {
    return gemm_failure(GemmFailure::kNotSupported,
                        "a fused epilogue needs K >= 1 (the kernels do not run empty products)");
  }
  return {};
}

/// The fused-epilogue operands (library.h, GemmEpilogueArguments, states the rules).
char const *epilogue_operands_error(GemmEpilogueArguments const &e, int64_t aux_extent, bool output_nonempty) {
  // NOTE: compared as integers, so a value cast from outside the enumerators is caught too.
  int const activation = int(e.kind.activation);
  if (activation < 0 || activation >= int(epilogue::ActivationKind::kInvalid)) {
    return "the epilogue's activation is invalid";
  }
  auto const broadcast_valid = [](epilogue::VectorBroadcast b) {
    return b == epilogue::VectorBroadcast::kPerRow || b == epilogue::VectorBroadcast::kPerColumn;
  };
  if ((e.kind.element_bias != NumericTypeID::kInvalid && !broadcast_valid(e.bias_broadcast)) ||
      (e.kind.alpha_vector && !broadcast_valid(e.alpha_vector_broadcast))) {
    return "the epilogue's bias or alpha-vector broadcast is neither per row nor per column";
  }
  if (output_nonempty && e.kind.element_bias != NumericTypeID::kInvalid && !e.bias) {
    return "the epilogue has a bias but the bias pointer is null";
  }
  if (output_nonempty && e.kind.alpha_vector && !e.alpha_vector) {
    return "the epilogue has an alpha vector but its pointer is null";
  }
  if (e.kind.element_aux != NumericTypeID::kInvalid) {
    if (output_nonempty && !e.aux) return "the epilogue has an aux output but its pointer is null";
    if (e.ldaux < std::max<int64_t>(1, aux_extent)) return "ldaux is smaller than the leading extent of D";
  }
  if (e.batch_stride_bias < 0 || e.batch_stride_alpha_vector < 0 || e.batch_stride_aux < 0) {
    return "epilogue batch strides must be >= 0";
  }
  // the kernels load and store the vectors' and aux's elements as whole elements (a misaligned
  // one faults)
  auto const misaligned = [](void const *pointer, NumericTypeID type) {
    return pointer && reinterpret_cast<uintptr_t>(pointer) % uintptr_t(std::max(sizeof_bits(type) / 8, 1)) != 0;
  };
  if ((e.kind.element_bias != NumericTypeID::kInvalid && misaligned(e.bias, e.kind.element_bias)) ||
      (e.kind.alpha_vector && misaligned(e.alpha_vector, NumericTypeID::kF32)) ||
      (e.kind.element_aux != NumericTypeID::kInvalid && misaligned(e.aux, e.kind.element_aux))) {
    return "the bias, alpha vector or aux pointer is not aligned to its element size";
  }
  if (e.kind.activation == epilogue::ActivationKind::kClamp && !(e.clamp_min <= e.clamp_max)) {
    return "clamp_min must be <= clamp_max";
  }
  return nullptr;
}

GemmOutcome check_epilogue_arguments(GemmCall const &c) {
  GemmEpilogueArguments const &e = c.epilogue;
  if (!e.kind.fused()) return {};
  bool const output_nonempty = c.m > 0 && c.n > 0;
  if (char const *why = epilogue_operands_error(e, leading_extent(c.layout_D, c.m, c.n), output_nonempty)) {
    return gemm_failure(GemmFailure::kInvalidValue, why);
  }
  int64_t const batch = c.batch_count > 0 ? c.batch_count : 1;
  if (e.kind.element_aux != NumericTypeID::kInvalid &&
      operand_span_overflows(c.layout_D, c.m, c.n, e.ldaux, e.batch_stride_aux, batch, e.kind.element_aux)) {
    return gemm_failure(GemmFailure::kInvalidValue,
                        "the aux output's ldaux and batch stride span more than 2^63 bytes");
  }
  // the bias and alpha vectors: M (per row) or N (per column) values per batch, batch_stride
  // apart; nothing is read when D is empty
  auto const vector_overflows = [&](epilogue::VectorBroadcast broadcast, int64_t batch_stride, NumericTypeID element) {
    int64_t const length = !output_nonempty ? 0 : broadcast == epilogue::VectorBroadcast::kPerRow ? c.m : c.n;
    return operand_span_overflows(LayoutTypeID::kColumnMajor, length, 1, length, batch_stride, batch, element);
  };
  if ((e.kind.element_bias != NumericTypeID::kInvalid &&
       vector_overflows(e.bias_broadcast, e.batch_stride_bias, e.kind.element_bias)) ||
      (e.kind.alpha_vector &&
       vector_overflows(e.alpha_vector_broadcast, e.batch_stride_alpha_vector, NumericTypeID::kF32))) {
    return gemm_failure(GemmFailure::kInvalidValue,
                        "the bias or alpha vector's batch stride spans more than 2^63 bytes");
  }
  return {};
}

}  // namespace library
}  // namespace cutlass
