/// @file cute/numeric/integral_constant.hpp
/// Static integers: `C<v>` holds its value in its type, so a value known at compile time stays
/// known through arithmetic. `Int<N>` and the aliases `_0, _1, _2, ...` are the spellings of the
/// CuTe documentation; plain `int` (any std integral type) is a dynamic integer.
///
/// Arithmetic on two static integers gives a static integer (`_4{} * _8{}` is `_32`). Mixed with a
/// dynamic integer, a `C<v>` converts to its value and the result is dynamic, except where the
/// result is known anyway: `_0 * x` and `x * _0` are `_0`, `x % _1` is `_0`, `_1 * x`, `x * _1` and
/// `x / _1` are `x`. These keep broadcast (stride-0) and unit modes static through the algebra.
#pragma once

#include <cstddef>
#include <type_traits>

#include "cute/config.hpp"

namespace cute {

/// A compile-time constant of any integral (or bool) type; an empty type.
template <auto v>
struct C {
  using type = C<v>;
  using value_type = decltype(v);
  static constexpr value_type value = v;
  CUTE_HOST_DEVICE constexpr operator value_type() const noexcept { return value; }
  CUTE_HOST_DEVICE constexpr value_type operator()() const noexcept { return value; }
};

template <int v>
using Int = C<v>;
template <bool b>
using bool_constant = C<b>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

template <class T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

namespace detail {
template <class T>
struct is_static_int : std::false_type {};
template <auto v>
struct is_static_int<C<v>> : std::bool_constant<std::is_integral<decltype(v)>::value> {};
template <auto n, class T>
struct is_constant_impl : std::false_type {};
template <auto n, auto v>
struct is_constant_impl<n, C<v>> : std::bool_constant<std::is_integral<decltype(v)>::value && v == n> {};
}  // namespace detail

/// A dynamic integer: any std integral type (`int`, `int64_t`, ...).
template <class T>
struct is_std_integral : std::is_integral<remove_cvref_t<T>> {};
/// A static (`C<v>`) or dynamic integer.
template <class T>
struct is_integral
    : std::bool_constant<std::is_integral<remove_cvref_t<T>>::value ||
                         detail::is_static_int<remove_cvref_t<T>>::value> {};
/// A type that holds no run-time data (so its value is fixed by its type).
template <class T>
struct is_static : std::is_empty<remove_cvref_t<T>> {};
/// A static integer whose value is `n`.
template <auto n, class T>
struct is_constant : detail::is_constant_impl<n, remove_cvref_t<T>> {};

// ---- static (op) static -> static ---------------------------------------------------------------

#define CUTE_C_BINARY_OP(OP)                                                 \
  template <auto a, auto b>                                                  \
  CUTE_HOST_DEVICE constexpr C<(a OP b)> operator OP(C<a>, C<b>) noexcept { \
    return {};                                                               \
  }
CUTE_C_BINARY_OP(+)
CUTE_C_BINARY_OP(-)
CUTE_C_BINARY_OP(*)
CUTE_C_BINARY_OP(/)
CUTE_C_BINARY_OP(%)
CUTE_C_BINARY_OP(&)
CUTE_C_BINARY_OP(|)
CUTE_C_BINARY_OP(^)
CUTE_C_BINARY_OP(<<)
CUTE_C_BINARY_OP(>>)
CUTE_C_BINARY_OP(&&)
CUTE_C_BINARY_OP(||)
CUTE_C_BINARY_OP(==)
CUTE_C_BINARY_OP(!=)
CUTE_C_BINARY_OP(<)
CUTE_C_BINARY_OP(>)
CUTE_C_BINARY_OP(<=)
CUTE_C_BINARY_OP(>=)
#undef CUTE_C_BINARY_OP

template <auto a>
CUTE_HOST_DEVICE constexpr C<(-a)> operator-(C<a>) noexcept { return {}; }
template <auto a>
CUTE_HOST_DEVICE constexpr C<(!a)> operator!(C<a>) noexcept { return {}; }
template <auto a>
CUTE_HOST_DEVICE constexpr C<(~a)> operator~(C<a>) noexcept { return {}; }

// ---- results that stay static with one dynamic operand ---------------------------------------

template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr C<0> operator*(C<0>, T) noexcept { return {}; }
template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr C<0> operator*(T, C<0>) noexcept { return {}; }
template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr T operator*(C<1>, T t) noexcept { return t; }
template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr T operator*(T t, C<1>) noexcept { return t; }
template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr T operator/(T t, C<1>) noexcept { return t; }
template <class T, class = std::enable_if_t<is_std_integral<T>::value>>
CUTE_HOST_DEVICE constexpr C<0> operator%(T, C<1>) noexcept { return {}; }

// ---- aliases ----------------------------------------------------------------------------------

using _m1 = Int<-1>;
using _0 = Int<0>;
using _1 = Int<1>;
using _2 = Int<2>;
using _3 = Int<3>;
using _4 = Int<4>;
using _5 = Int<5>;
using _6 = Int<6>;
using _7 = Int<7>;
using _8 = Int<8>;
using _9 = Int<9>;
using _10 = Int<10>;
using _11 = Int<11>;
using _12 = Int<12>;
using _13 = Int<13>;
using _14 = Int<14>;
using _15 = Int<15>;
using _16 = Int<16>;
using _17 = Int<17>;
using _18 = Int<18>;
using _19 = Int<19>;
using _20 = Int<20>;
using _24 = Int<24>;
using _28 = Int<28>;
using _30 = Int<30>;
using _32 = Int<32>;
using _40 = Int<40>;
using _48 = Int<48>;
using _56 = Int<56>;
using _64 = Int<64>;
using _80 = Int<80>;
using _96 = Int<96>;
using _112 = Int<112>;
using _128 = Int<128>;
using _160 = Int<160>;
using _192 = Int<192>;
using _224 = Int<224>;
using _256 = Int<256>;
using _384 = Int<384>;
using _512 = Int<512>;
using _768 = Int<768>;
using _1024 = Int<1024>;
using _2048 = Int<2048>;
using _4096 = Int<4096>;
using _8192 = Int<8192>;
using _16384 = Int<16384>;
using _32768 = Int<32768>;
using _65536 = Int<65536>;

}  // namespace cute
