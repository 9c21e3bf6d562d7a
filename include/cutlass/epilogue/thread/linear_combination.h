/// @file cutlass/epilogue/thread/linear_combination.h
/// The per-element output operator every kernel family applies to its accumulators:
///
///     D = alpha * accumulator + beta * C        (computed in ElementCompute, then converted)
///
/// beta == 0 means C is not read at all (BLAS semantics: NaN or garbage in C never reaches D).
/// Kernels ask is_source_needed() once per CTA and skip the C loads when it is false.
/// alpha and beta come either by value or, when the pointer is non-null, from device memory
/// (ScalarPointerMode::kDevice in the library).
#pragma once

#include <type_traits>

#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace epilogue {
namespace thread {

template <typename ElementOutput_, typename ElementAccumulator_, typename ElementCompute_>
class LinearCombination {
 public:
  using ElementOutput = ElementOutput_;
  using ElementAccumulator = ElementAccumulator_;
  using ElementCompute = ElementCompute_;

  /// Host-side parameters, passed to the kernel by value.
  struct Params {
    ElementCompute alpha = ElementCompute(1);
    ElementCompute beta = ElementCompute(0);
    ElementCompute const *alpha_ptr = nullptr;  ///< device pointer; overrides alpha when set
    ElementCompute const *beta_ptr = nullptr;   ///< device pointer; overrides beta when set
  };

  CUTLASS_HOST_DEVICE explicit LinearCombination(Params const &params)
      : alpha_(params.alpha_ptr ? *params.alpha_ptr : params.alpha),
        beta_(params.beta_ptr ? *params.beta_ptr : params.beta) {}

  /// False when beta == 0: the kernel must not load C.
  CUTLASS_HOST_DEVICE bool is_source_needed() const { return beta_ != ElementCompute(0); }

  /// D = alpha * acc + beta * c.
  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator acc, ElementOutput c) const {
    ElementCompute a = NumericConverter<ElementCompute, ElementAccumulator>::convert(acc);
    ElementCompute s = NumericConverter<ElementCompute, ElementOutput>::convert(c);
    return NumericConverter<ElementOutput, ElementCompute>::convert(add(multiply(alpha_, a), multiply(beta_, s)));
  }

  /// D = alpha * acc (source not needed).
  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator acc) const {
    ElementCompute a = NumericConverter<ElementCompute, ElementAccumulator>::convert(acc);
    return NumericConverter<ElementOutput, ElementCompute>::convert(multiply(alpha_, a));
  }

 private:
  /// Integer scalars wrap modulo 2^bits, as the s32 accumulators do (signed overflow would be
  /// undefined behaviour in C++); floating scalars use ordinary arithmetic.
  using Wrapping = typename std::conditional<std::is_integral<ElementCompute>::value,
                                             std::make_unsigned<ElementCompute>, std::common_type<ElementCompute>>::type::type;
  CUTLASS_HOST_DEVICE static ElementCompute multiply(ElementCompute x, ElementCompute y) {
    return ElementCompute(Wrapping(x) * Wrapping(y));
  }
  CUTLASS_HOST_DEVICE static ElementCompute add(ElementCompute x, ElementCompute y) {
    return ElementCompute(Wrapping(x) + Wrapping(y));
  }

  ElementCompute alpha_;
  ElementCompute beta_;
};

}  // namespace thread
}  // namespace epilogue
}  // namespace cutlass
