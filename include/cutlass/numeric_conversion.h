/// @file cutlass/numeric_conversion.h
/// Conversions between accumulator/compute types and storage types, round-to-nearest-even
/// for floating destinations (CUDA's __float2half_rn / __float2bfloat16_rn) and for s8 outputs
/// (saturating).
#pragma once

#include <cmath>
#include <cstdint>

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
/// f32 -> s8 (int8 requantization outputs): round to nearest even, saturate to [-128, 127], NaN
/// -> 0, as PTX's cvt.rni.sat.s8.f32 (PTX ISA, "cvt": integer destinations with .sat) and
/// cuBLASLt's int8 outputs.
template <>
struct NumericConverter<int8_t, float> {
  CUTLASS_HOST_DEVICE static int8_t convert(float x) {
#if defined(__CUDA_ARCH__)
    int r;
    asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(r) : "f"(x));
    return int8_t(r);
#else
    if (std::isnan(x)) return 0;
    float const r = std::nearbyint(x);   // the default rounding mode: to nearest, ties to even
    return int8_t(r < -128.f ? -128.f : r > 127.f ? 127.f : r);
#endif
  }
};
template <>
struct NumericConverter<float, tfloat32_t> {
  CUTLASS_HOST_DEVICE static float convert(tfloat32_t x) { return x.storage; }
};

}  // namespace cutlass
