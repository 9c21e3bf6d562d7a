/// @file cute/numeric/math.hpp
/// Integer math that keeps static integers static: min, max, ceil_div, shape_div, and the
/// compile-time helpers log_2 and is_pow2. Each takes static (`C<v>`) or dynamic integers.
#pragma once

#include <type_traits>

#include "cute/config.hpp"
#include "cute/numeric/integral_constant.hpp"

namespace cute {

namespace detail {
template <class T>
struct dynamic_type {
  using type = remove_cvref_t<T>;
};
template <auto v>
struct dynamic_type<C<v>> {
  using type = decltype(v);
};
}  // namespace detail

/// The run-time type of an integer: `int` for `int` and for `Int<N>`.
template <class T>
using dynamic_type_t = typename detail::dynamic_type<remove_cvref_t<T>>::type;

/// Smaller of two integers; static when both are.
/// Example: min(_4{}, _6{}) is _4; min(4, _6{}) is int 4.
template <class A, class B>
CUTE_HOST_DEVICE constexpr auto min(A const& a, B const& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    return C<(A::value < B::value ? A::value : B::value)>{};
  } else {
    using T = std::common_type_t<dynamic_type_t<A>, dynamic_type_t<B>>;
    return T(a) < T(b) ? T(a) : T(b);
  }
}

/// Larger of two integers; static when both are.
template <class A, class B>
CUTE_HOST_DEVICE constexpr auto max(A const& a, B const& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    return C<(A::value < B::value ? B::value : A::value)>{};
  } else {
    using T = std::common_type_t<dynamic_type_t<A>, dynamic_type_t<B>>;
    return T(a) < T(b) ? T(b) : T(a);
  }
}

/// Floor of log2(n) for n >= 1; log_2(1) == 0, log_2(64) == 6.
CUTE_HOST_DEVICE constexpr int log_2(unsigned long long n) {
  int r = 0;
  while (n > 1) {
    n >>= 1;
    ++r;
  }
  return r;
}

/// True when n is a positive power of two.
CUTE_HOST_DEVICE constexpr bool is_pow2(long long n) { return n > 0 && (n & (n - 1)) == 0; }

/// Quotient rounded up, for positive integers; static when both are.
/// @pre a >= 0, b > 0.
/// Example: ceil_div(_10{}, _4{}) is _3.
template <class A, class B,
          std::enable_if_t<is_integral<A>::value && is_integral<B>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    static_assert(B::value > 0, "ceil_div: the divisor must be positive");
    return C<(A::value + B::value - 1) / B::value>{};
  } else if constexpr (is_constant<1, B>::value) {
    return a;
  } else {
    return (a + b - 1) / b;
  }
}

/// "Divide out" b from a: a / b when b <= a, and 1 when a < b (a divides b: the whole of a is
/// consumed). This is the step of composition and complement that walks a stride through the
/// modes of a shape. shape_div(_1, b) is _1 and shape_div(a, _1) is a for any b, a.
/// @pre a > 0, b > 0, and a % b == 0 or b % a == 0 (checked by static_assert when both are static).
/// Examples: shape_div(6, 2) == 3; shape_div(2, 6) == 1; shape_div(_8{}, _2{}) is _4.
template <class A, class B,
          std::enable_if_t<is_integral<A>::value && is_integral<B>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_static<A>::value && is_static<B>::value) {
    static_assert(A::value % B::value == 0 || B::value % A::value == 0,
                  "shape_div: divisibility condition violated: one of the two extents must divide "
                  "the other (see the stride and shape divisibility conditions of composition)");
    return C<(A::value / B::value != 0 ? A::value / B::value : 1)>{};
  } else if constexpr (is_constant<1, A>::value) {
    return C<1>{};
  } else if constexpr (is_constant<1, B>::value) {
    return a;
  } else {
    using T = std::common_type_t<dynamic_type_t<A>, dynamic_type_t<B>>;
    return T(a) < T(b) ? T(1) : T(T(a) / T(b));
  }
}

}  // namespace cute
