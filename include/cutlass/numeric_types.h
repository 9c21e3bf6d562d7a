/// @file cutlass/numeric_types.h
/// Element types used by the kernel templates. The 16-bit floating types are CUDA's own
/// (`__half`, `__nv_bfloat16`); tf32 is stored as an fp32 bit pattern whose low 13 mantissa
/// bits the tensor core ignores (PTX ISA, "Floating point data types": .tf32). The 8-bit floating
/// types (outputs of fused epilogues) are CUDA's `__nv_fp8_e4m3` / `__nv_fp8_e5m2`; conversion from
/// float rounds to nearest even and saturates to the largest finite value (__NV_SATFINITE).
#pragma once

#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include "cutlass/cutlass.h"

namespace cutlass {

using half_t = __half;
using bfloat16_t = __nv_bfloat16;
using float_e4m3_t = __nv_fp8_e4m3;
using float_e5m2_t = __nv_fp8_e5m2;

/// 32-bit storage of a TensorFloat-32 operand: memory holds ordinary IEEE fp32 values; the
/// tf32 MMA reads the sign, the 8 exponent bits and the top 10 mantissa bits.
struct alignas(4) tfloat32_t {
  float storage;
};

/// Number of bits of one element of T.
template <typename T>
struct sizeof_bits {
  static constexpr int value = int(sizeof(T) * 8);
};

}  // namespace cutlass
