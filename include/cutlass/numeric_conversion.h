/// @file cutlass/numeric_conversion.h
/// Conversions between accumulator/compute types and storage types, round-to-nearest-even
/// for floating destinations (CUDA's __float2half_rn / __float2bfloat16_rn).
#pragma once

#include "cutlass/numeric_types.h"

namespace cutlass {

/// NumericConverter<To, From>::convert(x): x converted to To.
template <typename To, typename From>
struct NumericConverter {
  CUTLASS_HOST_DEVICE static To convert(From x) { return static_cast<To>(x); }
};

template <>
struct NumericConverter<half_t, float> {
  CUTLASS_HOST_DEVICE static half_t convert(float x) { return __float2half_rn(x); }
};
template <>
struct NumericConverter<float, half_t> {
  CUTLASS_HOST_DEVICE static float convert(half_t x) { return __half2float(x); }
};
template <>
struct NumericConverter<bfloat16_t, float> {
  CUTLASS_HOST_DEVICE static bfloat16_t convert(float x) { return __float2bfloat16_rn(x); }
};
template <>
struct NumericConverter<float, bfloat16_t> {
  CUTLASS_HOST_DEVICE static float convert(bfloat16_t x) { return __bfloat162float(x); }
};
template <>
struct NumericConverter<float, tfloat32_t> {
  CUTLASS_HOST_DEVICE static float convert(tfloat32_t x) { return x.storage; }
};

}  // namespace cutlass
