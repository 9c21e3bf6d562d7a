/// Host reference of the fused epilogues for the GPU tests: number formats decoded and encoded
/// on the host (independently of the CUDA and CUTLASS conversion code under test), the
/// activations in double, and per-element error bounds.
///
/// Semantics (include/cutlass/epilogue/thread/linear_combination.h), per element (m, n) of D:
///     x = alpha [* alpha_vector] * acc + beta * C [+ bias]     aux(m, n) = x
///     y = act(x)                                                D = y [* scale_d]
///     amax = max |y| over D (before scale_d; NaNs ignored)
/// Activations (include/cutlass/epilogue/thread/activation.h), here in double:
///     relu      max(x, 0)                                        (Nair & Hinton 2010)
///     gelu      0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))  (Hendrycks & Gimpel, arXiv:1606.08415, sec. 2, tanh form)
///     gelu_erf  0.5 x (1 + erf(x / sqrt(2)))                     (same paper, the exact form)
///     silu      x / (1 + exp(-x))                                (Elfwing et al., arXiv:1702.03118)
///     sigmoid   1 / (1 + exp(-x))
///     clamp     min(max(x, lo), hi)
///
/// Error model of one element (bounds are absolute, then the output's rounding is added):
///  - x: the f32 accumulation over K products of [-1, 1] data, 2^-19 * K * |alpha * alpha_vector|
///    (the kernels sum in f32; this is above the sqrt(K) growth of round-to-nearest sums and
///    leaves room for the tensor cores' accumulation order), plus 2^-22 of each epilogue term
///    (the f32 multiplies and adds of the epilogue). fp8 inputs (fast accumulation) add an
///    empirical allowance, 2^-13 * ceil(K / 32) * (|acc| + sqrt(K)) * |alpha * alpha_vector|,
///    not a proven bound: wgmma's fp8 adder keeps about 14 bits (DeepSeek-V3 report, section
///    3.3.2) and truncates, modeled as one loss of 2^-13 of the running sum per 32-deep
///    instruction, all of one sign, with the partial sums of [-1, 1] data below |acc| + sqrt(K)
///    (3 sigma of a walk of K products of sigma 1/3; not always). Calibrated on the H200 (s31):
///    the largest error of the fused e4m3 kernels (K <= 400) was a quarter of it.
///  - y = act(x): every activation above is 1.2-Lipschitz, so 1.2 * err(x), plus its f32
///    evaluation (2^-21 (|x| + |y|)), plus, for outputs of at most 16 bits, the kernels' fast
///    math: tanh.approx.f32 (max relative error 2^-10.987, PTX ISA "tanh"), which GELU turns into
///    0.5 |x| |tanh(u)| 2^-10.98 (absolute: 1 + tanh cancels for negative x), and __expf
///    (2 + 1.16 |x| ulp, CUDA C Programming Guide "Intrinsic Functions"), bounded by 2^-16 (1 + |x|) |y|.
///  - D = y * scale_d: |scale_d| err(y) + 2^-23 |D|, then the conversion to the output type:
///    round-to-nearest, unit roundoff 2^-8 (bf16), 2^-11 (f16), 2^-24 (f32). fp8 outputs are
///    compared as codes: the kernel's code may differ from the reference rounded to fp8 by one
///    code (one fp8 ulp) and no more, except near zero where the f32 bound itself spans several
///    subnormal steps (e.g. GELU of x = -8 with tanh.approx: 0.5 |x| 2^-11 = 2^-9, one e4m3
///    subnormal step); there the allowance is one code beyond the codes of ref -/+ the bound.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "cutlass/epilogue/epilogue_types.h"
#include "cutlass/library/types.h"
#include "cutlass/library/util.h"

namespace cutlass_lib_test {
namespace fused {

using cutlass::epilogue::ActivationKind;
using cutlass::epilogue::VectorBroadcast;
using cutlass::library::NumericTypeID;

// ---- number formats ----------------------------------------------------------------------------

/// A binary floating-point format: `mantissa` stored significand bits, `exponent` bits, bias,
/// whether the all-ones exponent is Inf/NaN (IEEE; e5m2) or, as in e4m3, only the all-ones code
/// is NaN and the rest are finite (max 448).
struct Format {
  int mantissa, exponent, bias;
  bool ieee_specials;
};

inline bool is_floating(NumericTypeID t) {
  return t == NumericTypeID::kF16 || t == NumericTypeID::kBF16 || t == NumericTypeID::kF32 ||
         t == NumericTypeID::kTF32 || t == NumericTypeID::kF64 || t == NumericTypeID::kFE4M3 ||
         t == NumericTypeID::kFE5M2;
}

inline bool is_fp8(NumericTypeID t) { return t == NumericTypeID::kFE4M3 || t == NumericTypeID::kFE5M2; }

inline int bytes_of(NumericTypeID t) {
  switch (t) {
    case NumericTypeID::kFE4M3:
    case NumericTypeID::kFE5M2:
    case NumericTypeID::kS8: return 1;
    case NumericTypeID::kF16:
    case NumericTypeID::kBF16: return 2;
    case NumericTypeID::kF64: return 8;
    default: return 4;
  }
}

/// The format of a 8- or 16-bit floating type (f32 and f64 are handled natively).
inline Format format_of(NumericTypeID t) {
  switch (t) {
    case NumericTypeID::kF16: return {10, 5, 15, true};
    case NumericTypeID::kBF16: return {7, 8, 127, true};
    case NumericTypeID::kFE4M3: return {3, 4, 7, false};
    case NumericTypeID::kFE5M2: return {2, 5, 15, true};
    default: return {23, 8, 127, true};
  }
}

/// Largest finite value of a format.
inline double max_finite(Format f) {
  int const emax = (1 << f.exponent) - 1 - f.bias - (f.ieee_specials ? 1 : 0);
  // e4m3: the all-ones exponent holds finite values except mantissa all ones (NaN)
  double const top_mantissa = f.ieee_specials ? (2.0 - std::ldexp(1.0, -f.mantissa)) : (2.0 - std::ldexp(2.0, -f.mantissa));
  return std::ldexp(top_mantissa, emax);
}

/// Decodes the `bits` of a small format.
inline double decode_bits(Format f, uint32_t bits) {
  int const total = 1 + f.exponent + f.mantissa;
  bool const negative = (bits >> (total - 1)) & 1u;
  uint32_t const e = (bits >> f.mantissa) & ((1u << f.exponent) - 1);
  uint32_t const man = bits & ((1u << f.mantissa) - 1);
  uint32_t const e_max = (1u << f.exponent) - 1;
  double v;
  if (f.ieee_specials && e == e_max) {
    v = man ? NAN : INFINITY;
  } else if (!f.ieee_specials && e == e_max && man == (1u << f.mantissa) - 1) {
    v = NAN;
  } else if (e == 0) {
    v = std::ldexp(double(man), 1 - f.bias - f.mantissa);
  } else {
    v = std::ldexp(1.0 + std::ldexp(double(man), -f.mantissa), int(e) - f.bias);
  }
  return negative ? -v : v;
}

/// Rounds to the nearest value of a small format (ties to even); beyond the largest finite
/// value: Inf for IEEE-like formats, NaN for e4m3 (as a plain, non-saturating conversion).
inline uint32_t encode_bits(Format f, double v) {
  int const total = 1 + f.exponent + f.mantissa;
  uint32_t const sign = std::signbit(v) ? (1u << (total - 1)) : 0u;
  uint32_t const e_max = (1u << f.exponent) - 1;
  uint32_t const nan_bits = f.ieee_specials ? ((e_max << f.mantissa) | (1u << (f.mantissa - 1)))
                                            : ((e_max << f.mantissa) | ((1u << f.mantissa) - 1));
  if (std::isnan(v)) return nan_bits;
  if (std::isinf(v)) return f.ieee_specials ? (sign | (e_max << f.mantissa)) : (sign | nan_bits);
  double a = std::fabs(v);
  int const emin = 1 - f.bias;
  int e = a == 0 ? emin : std::max(std::ilogb(a), emin);
  double const quantum = std::ldexp(1.0, e - f.mantissa);
  double const q = std::nearbyint(a / quantum);   // round to nearest even (default rounding mode)
  double r = q * quantum;
  if (r > max_finite(f)) return f.ieee_specials ? (sign | (e_max << f.mantissa)) : (sign | nan_bits);
  if (r == 0) return sign;
  e = std::max(std::ilogb(r), emin);
  if (std::ilogb(r) < emin) {   // subnormal
    return sign | uint32_t(std::ldexp(r, f.bias - 1 + f.mantissa));
  }
  uint32_t const biased = uint32_t(e + f.bias);
  uint32_t const man = uint32_t(std::ldexp(r, -e) * std::ldexp(1.0, f.mantissa)) - (1u << f.mantissa);
  return sign | (biased << f.mantissa) | man;
}

/// Element `index` of an array of `type` as a double.
inline double load(NumericTypeID type, void const *base, int64_t index) {
  unsigned char const *p = static_cast<unsigned char const *>(base) + index * bytes_of(type);
  switch (type) {
    case NumericTypeID::kF32:
    case NumericTypeID::kTF32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case NumericTypeID::kF64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case NumericTypeID::kF16:
    case NumericTypeID::kBF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return decode_bits(format_of(type), bits);
    }
    case NumericTypeID::kFE4M3:
    case NumericTypeID::kFE5M2: return decode_bits(format_of(type), *p);
    default: return NAN;
  }
}

/// Stores `value` rounded to nearest (ties to even) as element `index` of an array of `type`.
inline void store(NumericTypeID type, void *base, int64_t index, double value) {
  unsigned char *p = static_cast<unsigned char *>(base) + index * bytes_of(type);
  switch (type) {
    case NumericTypeID::kF32: {
      float v = float(value);
      std::memcpy(p, &v, 4);
      break;
    }
    case NumericTypeID::kTF32: {
      // fp32 bits rounded to tf32's 10 mantissa bits (ties to even), the low 13 bits zero: the
      // value the tensor cores read, so products of tf32 operands are exact in f32 as for 16-bit
      // ones (finite values; the tests' operands lie in [-1, 1])
      float const f = float(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      bits = (bits + 0xFFFu + ((bits >> 13) & 1u)) & ~0x1FFFu;
      std::memcpy(p, &bits, 4);
      break;
    }
    case NumericTypeID::kF64: std::memcpy(p, &value, 8); break;
    case NumericTypeID::kF16:
    case NumericTypeID::kBF16: {
      uint16_t bits = uint16_t(encode_bits(format_of(type), value));
      std::memcpy(p, &bits, 2);
      break;
    }
    case NumericTypeID::kFE4M3:
    case NumericTypeID::kFE5M2: *p = uint8_t(encode_bits(format_of(type), value)); break;
    default: break;
  }
}

/// The type's quiet-NaN bytes (the output poison), as stored by store(type, ..., NAN).
inline void store_nan(NumericTypeID type, void *base, int64_t index) { store(type, base, index, NAN); }

/// `value` rounded to the type (round to nearest even).
inline double round_to(NumericTypeID type, double value) {
  unsigned char bytes[8];
  store(type, bytes, 0, value);
  return load(type, bytes, 0);
}

/// Unit roundoff of round-to-nearest conversion to the type.
inline double unit_roundoff(NumericTypeID t) {
  switch (t) {
    case NumericTypeID::kBF16: return std::ldexp(1.0, -8);
    case NumericTypeID::kF16: return std::ldexp(1.0, -11);
    case NumericTypeID::kFE4M3: return std::ldexp(1.0, -4);
    case NumericTypeID::kFE5M2: return std::ldexp(1.0, -3);
    case NumericTypeID::kF64: return std::ldexp(1.0, -53);
    default: return std::ldexp(1.0, -24);
  }
}

/// Half the spacing of the type's subnormals (the absolute rounding error near zero).
inline double subnormal_half_step(NumericTypeID t) {
  switch (t) {
    case NumericTypeID::kF16: return std::ldexp(1.0, -25);
    case NumericTypeID::kBF16: return std::ldexp(1.0, -134);
    case NumericTypeID::kF64: return 0;
    default: return std::ldexp(1.0, -150);
  }
}

/// Signed position of an fp8 code in value order (+0 and -0 both 0): neighbouring values differ by 1.
inline int fp8_order(uint8_t code) { return (code & 0x80) ? -int(code & 0x7f) : int(code & 0x7f); }

// ---- the epilogue ------------------------------------------------------------------------------

inline double activation(ActivationKind kind, double x, double lo, double hi) {
  switch (kind) {
    case ActivationKind::kIdentity: return x;
    case ActivationKind::kReLU: return x < 0 ? 0 : x;
    case ActivationKind::kGELU: {
      double const k0 = std::sqrt(2.0 / M_PI);
      return 0.5 * x * (1.0 + std::tanh(k0 * (x + 0.044715 * x * x * x)));
    }
    case ActivationKind::kGELUErf: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case ActivationKind::kSiLU: return x / (1.0 + std::exp(-x));
    case ActivationKind::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ActivationKind::kClamp: return x < lo ? lo : (x > hi ? hi : x);
    default: return NAN;
  }
}

inline char const *activation_name(ActivationKind kind) { return cutlass::library::to_string(kind); }

/// The compile-time and per-call facts the reference needs.
struct Spec {
  ActivationKind activation = ActivationKind::kIdentity;
  double alpha = 1, beta = 0, scale_d = 1, clamp_lo = 0, clamp_hi = 0;
  int64_t k = 1;
  bool fast_math = false;   ///< the kernels use tanh.approx / __expf (outputs of at most 16 bits)
  bool fp8_inputs = false;  ///< A and B are fp8: the tensor core's fp8 adder (fast accumulation)
};

/// One element's reference values and absolute error bounds (before the output conversion).
struct Element {
  double x = 0, y = 0, d = 0;      ///< pre-activation, activation, scaled output
  double ex = 0, ey = 0, ed = 0;   ///< bounds of the kernel's f32 errors in x, y and d
};

/// The reference of one element from the exact product `acc` = sum_k a b, C (0 when beta == 0),
/// the bias value (0 without bias) and the alpha-vector value (1 without).
inline Element reference_element(Spec const &s, double acc, double c, double bias, double alpha_vector) {
  Element e;
  double const scaled_alpha = s.alpha * alpha_vector;
  double const product = scaled_alpha * acc;
  double const source = s.beta * c;
  e.x = product + source + bias;
  e.ex = std::ldexp(1.0, -19) * double(std::max<int64_t>(s.k, 1)) * std::fabs(scaled_alpha) +
         std::ldexp(1.0, -22) * (std::fabs(product) + std::fabs(source) + std::fabs(bias) + std::fabs(e.x));
  if (s.fp8_inputs) {
    double const k = double(std::max<int64_t>(s.k, 1));
    e.ex += std::ldexp(1.0, -13) * std::ceil(k / 32) * (std::fabs(acc) + std::sqrt(k)) * std::fabs(scaled_alpha);
  }
  e.y = activation(s.activation, e.x, s.clamp_lo, s.clamp_hi);
  double const ax = std::fabs(e.x), ay = std::fabs(e.y);
  double act_err = std::ldexp(1.0, -21) * (ax + ay);
  if (s.fast_math) {
    switch (s.activation) {
      case ActivationKind::kGELU: {
        double const u = std::sqrt(2.0 / M_PI) * (e.x + 0.044715 * e.x * e.x * e.x);
        act_err += 0.5 * ax * std::fabs(std::tanh(u)) * std::ldexp(1.0, -10) + std::ldexp(1.0, -20) * ax;
        break;
      }
      case ActivationKind::kSiLU:
      case ActivationKind::kSigmoid: act_err += std::ldexp(1.0, -16) * (1.0 + ax) * ay; break;
      default: break;
    }
  }
  e.ey = (s.activation == ActivationKind::kIdentity ? 1.0 : 1.2) * e.ex + act_err;
  e.d = e.y * s.scale_d;
  e.ed = std::fabs(s.scale_d) * e.ey + std::ldexp(1.0, -23) * std::fabs(e.d);
  return e;
}

/// True when `got` (a value of `type`) matches the reference `ref` whose f32 computation may be
/// off by `err`: |got - ref| <= err + u |ref| (+ the subnormal step), u the type's unit roundoff.
/// fp8 types use within_one_fp8_code instead.
inline bool within(NumericTypeID type, double got, double ref, double err) {
  if (!std::isfinite(got)) return false;
  double const u = unit_roundoff(type);
  return std::fabs(got - ref) <= err * (1 + u) + u * std::fabs(ref) + subnormal_half_step(type);
}

/// fp8 outputs: the kernel's code lies within one code (one fp8 ulp) of the codes the reference
/// interval [ref - err, ref + err] rounds to (for every element but those near zero whose f32
/// error bound exceeds a subnormal step, that is: within one code of the reference rounded to
/// the type), and is not NaN.
inline bool within_one_fp8_code(NumericTypeID type, uint8_t got, double ref, double err = 0) {
  Format const f = format_of(type);
  if (std::isnan(decode_bits(f, got))) return false;
  int const lo = fp8_order(uint8_t(encode_bits(f, ref - err))), hi = fp8_order(uint8_t(encode_bits(f, ref + err)));
  int const g = fp8_order(got);
  return g >= lo - 1 && g <= hi + 1;
}

}  // namespace fused
}  // namespace cutlass_lib_test
