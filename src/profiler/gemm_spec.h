/// @file src/profiler/gemm_spec.h
/// One concrete GEMM problem of the profiler's problem space (every type and layout known),
/// and what follows from it: packed leading dimensions, batch strides, sizes, FLOPs, and the
/// same problem as the reference / cuBLAS call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/library/library.h"
#include "cutlass/library/types.h"
#include "epilogue_variant.h"
#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

using library::LayoutTypeID;
using library::NumericTypeID;

/// Element type and storage order of one matrix.
struct Operand {
  NumericTypeID element = NumericTypeID::kInvalid;
  LayoutTypeID layout = LayoutTypeID::kColumnMajor;

  bool operator==(Operand const &other) const { return element == other.element && layout == other.layout; }
  bool operator!=(Operand const &other) const { return !(*this == other); }
  bool operator<(Operand const &other) const {
    return element != other.element ? element < other.element : layout < other.layout;
  }
};

/// "bf16:row".
std::string to_string(Operand const &operand);

/// The fused epilogue of a problem (--epilogue, --bias-broadcast, --alpha-vector-broadcast,
/// --clamp): the variant, the run-time choices, and the element types of its operands.
/// Vectors: bias (element_bias) and alpha vector (f32), M entries per batch when broadcast per
/// row, N per column; aux: M x N of element_aux in C's layout; scale_d: kScaleD; amax: f32.
struct EpilogueSpec {
  EpilogueVariant variant;   ///< plain by default
  epilogue::VectorBroadcast bias_broadcast = epilogue::VectorBroadcast::kPerRow;
  epilogue::VectorBroadcast alpha_vector_broadcast = epilogue::VectorBroadcast::kPerRow;
  float clamp_min = -8, clamp_max = 8;
  NumericTypeID element_bias = NumericTypeID::kInvalid;   ///< set when variant.bias
  NumericTypeID element_aux = NumericTypeID::kInvalid;    ///< set when variant.aux

  /// D's scale of the _amax variants (a device scalar of this value).
  static constexpr float kScaleD = 0.5f;

  bool fused() const { return variant.fused(); }
  /// The library's EpilogueDescription (the functional key's epilogue).
  library::EpilogueDescription description() const;
};

/// "row" / "column".
char const *to_string(epilogue::VectorBroadcast broadcast);

/// fp8 operand scales and accumulation (--scale-a, --scale-b, --accumulation): cuBLASLt's
/// A_SCALE_MODE / B_SCALE_MODE and FAST_ACCUM (cutlass_lib.h, cutlassLibSetMatrixScale). An empty
/// mode is no scale (1). The scales are f32, uniform in [kLow, kHigh], one set per problem.
struct ScalingSpec {
  std::optional<epilogue::OperandScaleMode> A, B;
  library::AccumulationMode accumulation = library::AccumulationMode::kFast;

  static constexpr double kLow = 0.5, kHigh = 1.5;

  /// Asks for more than plain fp8: a scale or precise accumulation.
  bool any() const { return A || B || accumulation == library::AccumulationMode::kPrecise; }
  /// Needs the block-scaled kernels (GemmDescription::block_scaled): block scales or precise sums.
  bool block_scaled() const;
};

/// "tensor", "row", "block128", "block128x128" (the --scale-a / --scale-b names).
char const *to_string(epilogue::OperandScaleMode mode);

/// "scale_a=block128x128 scale_b=block128 accumulation=precise" (only the parts that are set;
/// empty without scaling).
std::string describe(ScalingSpec const &scaling);

/// D = alpha * A * B + beta * C, batch_count times; A is M x K, B is K x N, C and D are M x N
/// in C's type and layout. Operands are packed: ld is the extent of the contiguous dimension
/// and batch l starts at l * (rows * columns) elements.
struct GemmSpec {
  int64_t m = 0, n = 0, k = 0, batch_count = 1;
  double alpha = 1, beta = 0;
  Operand A, B, C;
  EpilogueSpec epilogue;   ///< plain unless --epilogue names a variant
  ScalingSpec scaling;     ///< fp8 inputs only; none unless --scale-a / --scale-b / --accumulation
  /// The cutlass provider's tile order (--raster_order / --swizzle_size; in the problem's terms)
  library::RasterOrder raster_order = library::RasterOrder::kHeuristic;
  int swizzle_size = 0;
  /// The handle's split-K slices (--split_k_slices): 1 = the library decides; > 1 with
  /// batch_count 1 only.
  int64_t split_k_slices = 1;

  int64_t lda() const;
  int64_t ldb() const;
  int64_t ldc() const;   ///< also D's
  int64_t elements_A() const { return m * k; }   ///< per batch; also the batch stride
  int64_t elements_B() const { return k * n; }
  int64_t elements_C() const { return m * n; }   ///< also D's
  /// Bytes of A, B, C and D over all batches.
  size_t bytes_A() const;
  size_t bytes_B() const;
  size_t bytes_C() const;
  /// Entries of the bias / alpha vector per batch (M per row, N per column).
  int64_t bias_extent() const;
  int64_t alpha_vector_extent() const;
  /// Entries of A's / B's scale (0 without one; layouts as cutlassLibMatrixScale_t).
  int64_t scale_entries_A() const;
  int64_t scale_entries_B() const;
  /// 2 * M * N * K * batch_count.
  double flops() const;
  /// Integer GEMM (s8 inputs, s32 accumulation): results must match exactly.
  bool is_integer() const;
};

/// fe4m3 or fe5m2.
bool is_fp8(NumericTypeID type);

/// Bytes of `count` elements of `type`.
size_t bytes_of(NumericTypeID type, int64_t count);

/// "m=4096 n=4096 k=4096 batch_count=1 A=bf16:row B=bf16:column C=bf16:column alpha=1 beta=0",
/// then for a fused epilogue " epilogue=bias_gelu bias=bf16:row" (and the other pieces' facts) and
/// for fp8 scaling " scale_a=block128x128 scale_b=block128 accumulation=precise".
std::string describe(GemmSpec const &spec);

/// Device pointers of one copy of the operands.
struct OperandPointers {
  void const *A = nullptr;
  void const *B = nullptr;
  void const *C = nullptr;
  void *D = nullptr;
  int copy = 0;   ///< which copy of the operands (OperandBuffers); the epilogue operands follow it
  float const *scale_A = nullptr, *scale_B = nullptr;   ///< the same for every copy; null: no scale
};

/// The problem as reference::reference_gemm and reference::cublas_gemm take it.
reference::GemmProblem reference_problem(GemmSpec const &spec, OperandPointers const &pointers);

}  // namespace profiler
}  // namespace cutlass
