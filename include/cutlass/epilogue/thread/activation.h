/// @file cutlass/epilogue/thread/activation.h
/// The activation functions a fused epilogue applies per output element, in fp32.
///
/// | kind       | formula                                              | source |
/// | ---------- | ---------------------------------------------------- | ------ |
/// | kIdentity  | x                                                    | |
/// | kReLU      | max(x, 0); NaN stays NaN                             | Nair & Hinton 2010 |
/// | kGELU      | 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))       | Hendrycks & Gimpel, arXiv:1606.08415, sec. 2 (the tanh approximation cuBLASLt's GELU epilogues use) |
/// | kGELUErf   | 0.5 x (1 + erf(x / sqrt(2)))                          | same paper, the exact form |
/// | kSiLU      | x / (1 + exp(-x))                                     | Elfwing et al., arXiv:1702.03118 (also "Swish", Ramachandran et al. 2017) |
/// | kSigmoid   | 1 / (1 + exp(-x))                                     | |
/// | kClamp     | min(max(x, lo), hi) with run-time lo <= hi            | |
///
/// Precision: with `kFast` (chosen by the epilogue when the output has at most 16 bits) tanh is
/// PTX's tanh.approx.f32 (max relative error 2^-10.987, PTX ISA "tanh") and exp is __expf; both are
/// far inside a 16-bit output's rounding step. fp32 outputs use tanhf / expf / erff.
#pragma once

#include <cmath>

#include "cutlass/cutlass.h"
#include "cutlass/epilogue/epilogue_types.h"

namespace cutlass {
namespace epilogue {
namespace thread {

template <ActivationKind Kind, bool kFast>
struct Activation;

template <bool kFast>
struct Activation<ActivationKind::kIdentity, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) { return x; }
};

template <bool kFast>
struct Activation<ActivationKind::kReLU, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) { return x < 0.f ? 0.f : x; }
};

/// tanh, fast (tanh.approx.f32, sm_75+) or precise.
template <bool kFast>
CUTLASS_HOST_DEVICE float activation_tanh(float x) {
#if defined(__CUDA_ARCH__)
  if (kFast) {
    float y;
    asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
#endif
  return tanhf(x);
}

/// exp, fast (__expf) or precise.
template <bool kFast>
CUTLASS_HOST_DEVICE float activation_exp(float x) {
#if defined(__CUDA_ARCH__)
  if (kFast) return __expf(x);
#endif
  return expf(x);
}

template <bool kFast>
struct Activation<ActivationKind::kGELU, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) {
    float const k0 = 0.7978845608028654f;   // sqrt(2 / pi)
    float const k1 = 0.044715f;
    return 0.5f * x * (1.f + activation_tanh<kFast>(k0 * (x + k1 * x * x * x)));
  }
};

template <bool kFast>
struct Activation<ActivationKind::kGELUErf, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) {
    return 0.5f * x * (1.f + erff(x * 0.7071067811865476f));   // 1 / sqrt(2)
  }
};

template <bool kFast>
struct Activation<ActivationKind::kSiLU, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) { return x / (1.f + activation_exp<kFast>(-x)); }
};

template <bool kFast>
struct Activation<ActivationKind::kSigmoid, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float, float) { return 1.f / (1.f + activation_exp<kFast>(-x)); }
};

template <bool kFast>
struct Activation<ActivationKind::kClamp, kFast> {
  CUTLASS_HOST_DEVICE static float apply(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
};

/// The activation `kind`, chosen at run time, of x: the functions above, for elementwise passes
/// that take the kind as an argument (the library's unfused epilogue, the reference epilogue).
template <bool kFast>
CUTLASS_HOST_DEVICE float apply_activation(ActivationKind kind, float x, float lo, float hi) {
  switch (kind) {
    case ActivationKind::kReLU: return Activation<ActivationKind::kReLU, kFast>::apply(x, lo, hi);
    case ActivationKind::kGELU: return Activation<ActivationKind::kGELU, kFast>::apply(x, lo, hi);
    case ActivationKind::kGELUErf: return Activation<ActivationKind::kGELUErf, kFast>::apply(x, lo, hi);
    case ActivationKind::kSiLU: return Activation<ActivationKind::kSiLU, kFast>::apply(x, lo, hi);
    case ActivationKind::kSigmoid: return Activation<ActivationKind::kSigmoid, kFast>::apply(x, lo, hi);
    case ActivationKind::kClamp: return Activation<ActivationKind::kClamp, kFast>::apply(x, lo, hi);
    default: return x;
  }
}

}  // namespace thread
}  // namespace epilogue
}  // namespace cutlass
