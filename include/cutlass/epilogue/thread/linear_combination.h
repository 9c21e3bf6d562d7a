/// @file cutlass/epilogue/thread/linear_combination.h
/// The per-element output operator every kernel family applies to its accumulators:
///
///     x = alpha * alpha_vector * accumulator + beta * C + bias      (in ElementCompute)
///     aux = x                                                        (optional second output)
///     D = activation(x) * scale_d                                    (then converted to ElementOutput)
///     amax = max |activation(x)| over D, before scale_d and conversion (optional)
///
/// Every piece after `alpha * accumulator + beta * C` is chosen at compile time by the Fusion
/// parameter (NoFusion by default: the plain BLAS epilogue, which pays nothing for the others).
/// OperandScales = true (the fp8-input kernels): the f32 scales of A and B (null = 1; cuBLASLt's
/// A_SCALE_POINTER and B_SCALE_POINTER), each either a per-tensor device scalar, read when the
/// operator is made and folded into alpha, or an outer vector (cuBLASLt's OUTER_VEC_32F): one
/// value per row of op(A) (scale_a[m], M values) or per column of op(B) (scale_b[n], N values),
/// the same for every batch entry, read as row / column terms (block scales, OperandScaleMode,
/// are the mainloop's: this operator leaves them out). So
///     D(m, n) = alpha * sa(m) * sb(n) * sum_k A(m, k) B(k, n) + ...
/// The pieces and their operands:
///   bias          vector of ElementBias, broadcast per row (bias[m], M entries; cuBLASLt's BIAS
///                 orientation) or per column (bias[n], N entries), chosen at run time
///   alpha_vector  vector of ElementCompute multiplying alpha, per row or per column (run time)
///   aux           M x N column-major matrix of ElementAux (leading dimension ldaux, elements)
///                 receiving the pre-activation value x (what a backward pass needs, cuBLASLt's
///                 GELU_AUX)
///   scale_amax    D is multiplied by *scale_d (a device scalar; null means 1) and the largest
///                 |activation(x)| of D's elements is max-reduced into *amax (a device float that
///                 the caller zeroes first; NaNs are ignored). This is cuBLASLt's amax_D of its FP8
///                 epilogue ("cuBLASLt API: FP8 usage", amax computed before the D scale).
///   activation    see activation.h (kClamp takes clamp_min, clamp_max)
/// Vectors and aux advance by their batch strides (elements) for batch entry l.
///
/// beta == 0 means C is not read at all (BLAS semantics: NaN or garbage in C never reaches D).
/// Kernels ask is_source_needed() once per CTA and skip the C loads when it is false.
/// alpha and beta come either by value or, when the pointer is non-null, from device memory
/// (ScalarPointerMode::kDevice in the library).
///
/// How a kernel's epilogue drives it, per tile:
///     op.set_batch(l);
///     Terms r = op.row_terms(m);  Terms c = op.column_terms(n);   // hoisted per row / column
///     D(m, n) = op(acc, source, C(m, n) or any value, r, c, m, n);   // every element of the tile
///     op.end_tile();                                                  // all 32 lanes of each warp
/// m and n are global coordinates in D; elements outside rows x columns (the tile's padding) may
/// be passed: they read no vector element, write no aux and do not count toward amax.
#pragma once

#include <cstring>
#include <type_traits>

#include "cutlass/epilogue/thread/activation.h"
#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace epilogue {
namespace thread {

/// The compile-time pieces of a fused epilogue (see the file comment).
template <ActivationKind Activation_ = ActivationKind::kIdentity, bool kBias_ = false, typename ElementBias_ = float,
          bool kAlphaVector_ = false, bool kAux_ = false, typename ElementAux_ = float, bool kScaleAmax_ = false>
struct Fusion {
  static constexpr ActivationKind kActivation = Activation_;
  static constexpr bool kBias = kBias_;
  using ElementBias = ElementBias_;
  static constexpr bool kAlphaVector = kAlphaVector_;
  static constexpr bool kAux = kAux_;
  using ElementAux = ElementAux_;
  static constexpr bool kScaleAmax = kScaleAmax_;
  static constexpr bool kFused =
      Activation_ != ActivationKind::kIdentity || kBias_ || kAlphaVector_ || kAux_ || kScaleAmax_;
};

/// The plain epilogue D = alpha * acc + beta * C.
using NoFusion = Fusion<>;

/// The operand-scale pointers of LinearCombination<..., OperandScales = true>'s Params (empty otherwise,
/// so the other kernels' parameters are unchanged).
template <typename ElementCompute, bool kOperandScales>
struct OperandScalePointers {};
template <typename ElementCompute>
struct OperandScalePointers<ElementCompute, true> {
  ElementCompute const *scale_a = nullptr;   ///< laid out as scale_a_mode says; null = 1
  ElementCompute const *scale_b = nullptr;   ///< laid out as scale_b_mode says; null = 1
  OperandScaleMode scale_a_mode = OperandScaleMode::kScalar;   ///< kOuterVector: M values
  OperandScaleMode scale_b_mode = OperandScaleMode::kScalar;   ///< kOuterVector: N values
};

template <typename ElementOutput_, typename ElementAccumulator_, typename ElementCompute_,
          typename Fusion_ = NoFusion, bool OperandScales_ = false>
class LinearCombination {
 public:
  using ElementOutput = ElementOutput_;
  using ElementAccumulator = ElementAccumulator_;
  using ElementCompute = ElementCompute_;
  using FusionType = Fusion_;
  using ElementBias = typename Fusion_::ElementBias;
  using ElementAux = typename Fusion_::ElementAux;
  static constexpr bool kFused = Fusion_::kFused;
  /// True when row_terms / column_terms read vectors (kernels may stage them per tile): bias,
  /// alpha vector, or operand scales (which may be outer vectors).
  static constexpr bool kHasVectors = Fusion_::kBias || Fusion_::kAlphaVector || OperandScales_;
  /// True when the row and column terms' alpha multiplies the accumulator.
  static constexpr bool kTermAlpha = Fusion_::kAlphaVector || OperandScales_;
  /// True when alpha takes the operands' per-tensor scales (Params::scale_a / scale_b).
  static constexpr bool kOperandScales = OperandScales_;

  static_assert(!kFused || std::is_same<ElementCompute, float>::value,
                "LinearCombination: fused epilogue pieces need ElementCompute = float");

  /// Host-side parameters, passed to the kernel by value. The fusion operands are read only
  /// when the Fusion enables their piece.
  struct Params : OperandScalePointers<ElementCompute_, OperandScales_> {
    ElementCompute alpha = ElementCompute(1);
    ElementCompute beta = ElementCompute(0);
    ElementCompute const *alpha_ptr = nullptr;  ///< device pointer; overrides alpha when set
    ElementCompute const *beta_ptr = nullptr;   ///< device pointer; overrides beta when set

    ElementBias const *bias = nullptr;
    VectorBroadcast bias_broadcast = VectorBroadcast::kPerRow;
    int64_t batch_stride_bias = 0;              ///< elements
    ElementCompute const *alpha_vector = nullptr;
    VectorBroadcast alpha_vector_broadcast = VectorBroadcast::kPerRow;
    int64_t batch_stride_alpha_vector = 0;      ///< elements
    ElementAux *aux = nullptr;
    int64_t ldaux = 0;                          ///< elements, >= rows
    int64_t batch_stride_aux = 0;               ///< elements
    ElementCompute const *scale_d = nullptr;    ///< device scalar; null = 1
    float *amax = nullptr;                      ///< device scalar, max-reduced (zero it first)
    ElementCompute clamp_min = ElementCompute(0);
    ElementCompute clamp_max = ElementCompute(0);
    int rows = 0;      ///< M of D: the extent of per-row vectors and aux rows
    int columns = 0;   ///< N of D
  };

  /// With bias and amax, a row's bias must not reach the padding columns of a tile (nor a
  /// column's bias the padding rows): the terms then carry `keep` (1 inside D's extent, 0 in the
  /// padding) that masks the other direction's bias, so padding elements stay exactly 0 and
  /// amax needs no per-element bounds test (one costs the fp8 sm90 consumer 32 bytes of spill).
  static constexpr bool kMaskedBias = Fusion_::kBias && Fusion_::kScaleAmax;

  /// Per-row or per-column vector values of one element (bias 0 and alpha 1 when unused).
  struct TermsPlain {
    ElementCompute bias;
    ElementCompute alpha;
  };
  struct TermsMasked {
    ElementCompute bias;
    ElementCompute alpha;
    ElementCompute keep;
  };
  using Terms = typename std::conditional<kMaskedBias, TermsMasked, TermsPlain>::type;

  /// The terms of an element no vector touches (bias 0, alpha 1, kept).
  CUTLASS_HOST_DEVICE static Terms neutral_terms() {
    Terms t{};
    t.bias = ElementCompute(0);
    t.alpha = ElementCompute(1);
    if constexpr (kMaskedBias) t.keep = ElementCompute(1);
    return t;
  }

  CUTLASS_HOST_DEVICE explicit LinearCombination(Params const &params)
      : params_(params),
        alpha_(scaled_alpha(params)),
        beta_(params.beta_ptr ? *params.beta_ptr : params.beta),
        scale_d_(Fusion_::kScaleAmax && params.scale_d ? *params.scale_d : ElementCompute(1)) {}

  /// alpha (by value or from alpha_ptr), times the operand scales when the operator has them.
  CUTLASS_HOST_DEVICE static ElementCompute scaled_alpha(Params const &params) {
    ElementCompute alpha = params.alpha_ptr ? *params.alpha_ptr : params.alpha;
    if constexpr (OperandScales_) {
      if (params.scale_a && params.scale_a_mode == OperandScaleMode::kScalar) alpha = alpha * *params.scale_a;
      if (params.scale_b && params.scale_b_mode == OperandScaleMode::kScalar) alpha = alpha * *params.scale_b;
    }
    return alpha;
  }

  /// False when beta == 0: the kernel must not load C.
  CUTLASS_HOST_DEVICE bool is_source_needed() const { return beta_ != ElementCompute(0); }

  /// Moves the vector and aux pointers to batch entry l.
  CUTLASS_HOST_DEVICE void set_batch(int64_t l) { to_batch_entry(params_, l); }

  /// The vector and aux pointers of `p` moved to batch entry l (vector + l * its batch stride).
  CUTLASS_HOST_DEVICE static void to_batch_entry(Params &p, int64_t l) {
    if (Fusion_::kBias) p.bias += l * p.batch_stride_bias;
    if (Fusion_::kAlphaVector) p.alpha_vector += l * p.batch_stride_alpha_vector;
    if (Fusion_::kAux) p.aux += l * p.batch_stride_aux;
  }

  /// Params of group g of a device-sized grouped launch (GemmSm90Grouped::prepare_device_sized_device),
  /// made from the call's: the group's vectors are batch entry g's (as a host-sized grouped call's
  /// problem g), over its rows x columns.
  CUTLASS_HOST_DEVICE static void move_to_entry(Params &p, int64_t g, int rows, int columns) {
    to_batch_entry(p, g);
    p.rows = rows;
    p.columns = columns;
  }

  /// Params of one group of a contiguous grouped launch (GemmSm90Grouped::prepare_contiguous_device), made
  /// from the packed problem's: the group owns D's columns [first_column, first_column + columns).
  /// Per-row vectors move to group g's (bias + g * batch_stride_bias, as batch entry g); per-column
  /// vectors and the aux matrix follow the packed columns (vector + first_column, aux + first_column
  /// * ldaux), and the columns the aux and per-column vectors cover end at the group's last.
  CUTLASS_HOST_DEVICE static void move_to_group(Params &p, int64_t g, int64_t first_column, int columns) {
    if (Fusion_::kBias) {
      p.bias += p.bias_broadcast == VectorBroadcast::kPerRow ? g * p.batch_stride_bias : first_column;
    }
    if (Fusion_::kAlphaVector) {
      p.alpha_vector += p.alpha_vector_broadcast == VectorBroadcast::kPerRow ? g * p.batch_stride_alpha_vector
                                                                              : first_column;
    }
    if (Fusion_::kAux) p.aux += first_column * p.ldaux;
    p.columns = columns;
  }

#if defined(__CUDACC__)
  CUTLASS_DEVICE Terms row_terms(int m) const { return vector_terms(m, params_.rows, VectorBroadcast::kPerRow); }
  CUTLASS_DEVICE Terms column_terms(int n) const {
    return vector_terms(n, params_.columns, VectorBroadcast::kPerColumn);
  }

  /// D(m, n) from the accumulator, plus beta C(m, n) when `source` (c is then C(m, n); otherwise it
  /// is not read). One body for both cases: an epilogue that unrolls over a tile keeps one copy of
  /// the fused code (two copies cost the sm90 bias+GELU kernels ~20% at 256 tokens in instruction
  /// fetch stalls, docs/NOTES.md s33 / s34).
  CUTLASS_DEVICE ElementOutput operator()(ElementAccumulator acc, bool source, ElementOutput c, Terms const &row,
                                          Terms const &column, int m, int n) {
    ElementCompute x = scaled(acc, row, column);
    if (source) x = add(x, multiply(beta_, NumericConverter<ElementCompute, ElementOutput>::convert(c)));
    return finish(x, row, column, m, n);
  }

  /// Folds this thread's amax into *amax (one atomic per warp). Every lane of the warp calls it.
  CUTLASS_DEVICE void end_tile() {
    if (Fusion_::kScaleAmax) {
      unsigned const bits = __reduce_max_sync(0xffffffffu, __float_as_uint(amax_));   // amax_ >= 0: bit order = value order
      if ((threadIdx.x & 31) == 0 && bits != 0u && params_.amax) {
        atomicMax(reinterpret_cast<unsigned *>(params_.amax), bits);
      }
      amax_ = 0.f;
    }
  }
#endif

  /// D = alpha * acc + beta * c (the plain epilogue only).
  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator acc, ElementOutput c) const {
    static_assert(!kFused, "a fused LinearCombination needs the (acc, source, c, row, column, m, n) form");
    ElementCompute a = NumericConverter<ElementCompute, ElementAccumulator>::convert(acc);
    ElementCompute s = NumericConverter<ElementCompute, ElementOutput>::convert(c);
    return NumericConverter<ElementOutput, ElementCompute>::convert(add(multiply(alpha_, a), multiply(beta_, s)));
  }

  /// D = alpha * acc (the plain epilogue only, source not needed).
  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator acc) const {
    static_assert(!kFused, "a fused LinearCombination needs the (acc, source, c, row, column, m, n) form");
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

  static constexpr bool kActivationZeroAtZero =
      Fusion_::kActivation == ActivationKind::kIdentity || Fusion_::kActivation == ActivationKind::kReLU ||
      Fusion_::kActivation == ActivationKind::kGELU || Fusion_::kActivation == ActivationKind::kGELUErf ||
      Fusion_::kActivation == ActivationKind::kSiLU;

  /// Activations use the fast tanh / exp when the output has at most 16 bits (activation.h).
  static constexpr bool kFastMath = sizeof(ElementOutput) <= 2;

#if defined(__CUDACC__)
  // NOTE: vector loads and aux stores are volatile PTX so the compiler keeps them where the
  // epilogue puts them (per row once per tile, per column once per box). As plain loads it
  // hoisted every box's loads to the top of the epilogue and the sm90 consumer spilled
  // (316-592 bytes at 128x128); this way a box holds only its own terms.
  template <typename T>
  CUTLASS_DEVICE static ElementCompute load_vector(T const *p) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "epilogue vectors are 16- or 32-bit");
    T value;
    if (sizeof(T) == 2) {
      unsigned short bits;
      asm volatile("ld.global.nc.b16 %0, [%1];" : "=h"(bits) : "l"(p));
      memcpy(&value, &bits, 2);
    } else {
      unsigned bits;
      asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(bits) : "l"(p));
      memcpy(&value, &bits, 4);
    }
    return NumericConverter<ElementCompute, T>::convert(value);
  }

  template <typename T>
  CUTLASS_DEVICE static void store_aux(T *p, T value) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "aux elements are 16- or 32-bit");
    if (sizeof(T) == 2) {
      unsigned short bits;
      memcpy(&bits, &value, 2);
      asm volatile("st.global.b16 [%0], %1;" : : "l"(p), "h"(bits) : "memory");
    } else {
      unsigned bits;
      memcpy(&bits, &value, 4);
      asm volatile("st.global.b32 [%0], %1;" : : "l"(p), "r"(bits) : "memory");
    }
  }

  CUTLASS_DEVICE Terms vector_terms(int i, int extent, VectorBroadcast along) const {
    Terms t = neutral_terms();
    if constexpr (kMaskedBias) t.keep = i < extent ? ElementCompute(1) : ElementCompute(0);
    if constexpr (Fusion_::kBias) {
      if (params_.bias_broadcast == along && i < extent) t.bias = load_vector(params_.bias + i);
    }
    if constexpr (Fusion_::kAlphaVector) {
      if (params_.alpha_vector_broadcast == along && i < extent) t.alpha = load_vector(params_.alpha_vector + i);
    }
    if constexpr (OperandScales_) {
      bool const rows = along == VectorBroadcast::kPerRow;
      ElementCompute const *scale = rows ? params_.scale_a : params_.scale_b;
      bool const vector = (rows ? params_.scale_a_mode : params_.scale_b_mode) == OperandScaleMode::kOuterVector;
      if (vector && scale && i < extent) t.alpha = t.alpha * load_vector(scale + i);
    }
    return t;
  }

  CUTLASS_DEVICE ElementCompute scaled(ElementAccumulator acc, Terms const &row, Terms const &column) const {
    ElementCompute const a = NumericConverter<ElementCompute, ElementAccumulator>::convert(acc);
    if (kTermAlpha) return alpha_ * (row.alpha * column.alpha) * a;
    return multiply(alpha_, a);
  }

  CUTLASS_DEVICE ElementOutput finish(ElementCompute x, Terms const &row, Terms const &column, int m, int n) {
    if constexpr (!kFused) {
      return NumericConverter<ElementOutput, ElementCompute>::convert(x);
    } else {
      if constexpr (kMaskedBias) {
        x += row.bias * column.keep + column.bias * row.keep;
      } else if constexpr (Fusion_::kBias) {
        x += row.bias + column.bias;
      }
      bool const inside = m < params_.rows && n < params_.columns;
      if constexpr (Fusion_::kAux) {
        if (inside) {
          store_aux(params_.aux + (int64_t(n) * params_.ldaux + m), NumericConverter<ElementAux, ElementCompute>::convert(x));
        }
      }
      ElementCompute y = Activation<Fusion_::kActivation, kFastMath>::apply(x, params_.clamp_min, params_.clamp_max);
      if (Fusion_::kScaleAmax) {
        // NOTE: padding elements (outside rows x columns) have x == 0 (zero accumulators, zero
        // C, masked bias: kMaskedBias), so when activation(0) == 0 they cannot raise amax and
        // need no bounds test. (Kernels that leave padding accumulators stale, the grouped
        // kernels' narrow tail tiles, are never built with amax: GemmSm90::kNarrowsTails.)
        if (kActivationZeroAtZero || inside) amax_ = fmaxf(amax_, fabsf(y));
        y *= scale_d_;
      }
      return NumericConverter<ElementOutput, ElementCompute>::convert(y);
    }
  }
#endif

  Params params_;
  ElementCompute alpha_;
  ElementCompute beta_;
  ElementCompute scale_d_;
  float amax_ = 0.f;
};

}  // namespace thread
}  // namespace epilogue
}  // namespace cutlass
