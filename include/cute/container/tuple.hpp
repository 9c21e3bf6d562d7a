/// @file cute/container/tuple.hpp
/// `cute::tuple`: a tuple that works in host and device code and takes no space for empty
/// (static) elements, so a tuple of static integers, and a layout built from such tuples, is an
/// empty type. Also: `get<I...>` (hierarchical), `make_tuple`, `tuple_size`, `is_tuple`, equality
/// and `print` in the `(a,b,c)` notation.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cute/config.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/util/print.hpp"

namespace cute {

namespace detail {

// One element of a tuple. Empty types are not stored: get returns a fresh value of the type.
// The index I keeps two leaves of the same type distinct base classes.
template <std::size_t I, class T, bool IsEmpty = std::is_empty<T>::value>
struct TupleLeaf {
  T value_;
  CUTE_HOST_DEVICE constexpr TupleLeaf() : value_() {}
  CUTE_HOST_DEVICE constexpr TupleLeaf(T const& t) : value_(t) {}
};

template <std::size_t I, class T>
struct TupleLeaf<I, T, true> {
  CUTE_HOST_DEVICE constexpr TupleLeaf() {}
  CUTE_HOST_DEVICE constexpr TupleLeaf(T const&) {}
};

template <std::size_t I, class T>
CUTE_HOST_DEVICE constexpr T get_leaf(TupleLeaf<I, T, true> const&) {
  return {};
}
template <std::size_t I, class T>
CUTE_HOST_DEVICE constexpr T const& get_leaf(TupleLeaf<I, T, false> const& leaf) {
  return leaf.value_;
}
template <std::size_t I, class T>
CUTE_HOST_DEVICE constexpr T& get_leaf(TupleLeaf<I, T, false>& leaf) {
  return leaf.value_;
}

template <class Indices, class... T>
struct TupleBase;

template <std::size_t... I, class... T>
struct TupleBase<std::index_sequence<I...>, T...> : TupleLeaf<I, T>... {
  CUTE_HOST_DEVICE constexpr TupleBase() {}
  CUTE_HOST_DEVICE constexpr TupleBase(T const&... t) : TupleLeaf<I, T>(t)... {}
};

}  // namespace detail

/// A fixed-size heterogeneous list; elements are value-initialized by default.
template <class... T>
struct tuple : detail::TupleBase<std::make_index_sequence<sizeof...(T)>, T...> {
  CUTE_HOST_DEVICE constexpr tuple() {}
  CUTE_HOST_DEVICE constexpr tuple(T const&... t)
      : detail::TupleBase<std::make_index_sequence<sizeof...(T)>, T...>(t...) {}
};

/// The empty tuple.
template <>
struct tuple<> {};

template <class T>
struct tuple_size;
template <class... T>
struct tuple_size<tuple<T...>> : std::integral_constant<std::size_t, sizeof...(T)> {};
template <class T>
struct tuple_size<T const> : tuple_size<T> {};

/// True for `cute::tuple<...>` (not for integers, not for layouts).
template <class T>
struct is_tuple : std::false_type {};
template <class... T>
struct is_tuple<tuple<T...>> : std::true_type {};
template <class T>
struct is_tuple<T const> : is_tuple<T> {};
template <class T>
struct is_tuple<T&> : is_tuple<T> {};
template <class T>
struct is_tuple<T&&> : is_tuple<T> {};

/// The I-th element; by value for empty (static) elements, by reference otherwise.
template <std::size_t I, class... T>
CUTE_HOST_DEVICE constexpr decltype(auto) get(tuple<T...> const& t) {
  static_assert(I < sizeof...(T), "get<I>: index out of range");
  return detail::get_leaf<I>(t);
}
template <std::size_t I, class... T>
CUTE_HOST_DEVICE constexpr decltype(auto) get(tuple<T...>& t) {
  static_assert(I < sizeof...(T), "get<I>: index out of range");
  return detail::get_leaf<I>(t);
}
template <std::size_t I, class... T>
CUTE_HOST_DEVICE constexpr auto get(tuple<T...>&& t) {
  static_assert(I < sizeof...(T), "get<I>: index out of range");
  return detail::get_leaf<I>(t);
}

/// get<0> of an integer is the integer itself (an integer is a rank-1 IntTuple).
template <std::size_t I, class T, std::enable_if_t<is_integral<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr T get(T const& t) {
  static_assert(I == 0, "get<I> of an integer: only I == 0 exists");
  return t;
}

/// Hierarchical access: get<I0,I1,...>(t) == get<...>(get<I1>(get<I0>(t))).
template <std::size_t I0, std::size_t I1, std::size_t... Is, class T>
CUTE_HOST_DEVICE constexpr auto get(T const& t) {
  return get<I1, Is...>(get<I0>(t));
}

/// A tuple of copies of the arguments.
template <class... T>
CUTE_HOST_DEVICE constexpr tuple<T...> make_tuple(T const&... t) {
  return tuple<T...>(t...);
}

namespace detail {
template <class A, class B>
CUTE_HOST_DEVICE constexpr bool equal(A const& a, B const& b);

template <class A, class B, std::size_t... I>
CUTE_HOST_DEVICE constexpr bool equal_elements(A const& a, B const& b, std::index_sequence<I...>) {
  return (true && ... && equal(get<I>(a), get<I>(b)));
}

template <class A, class B>
CUTE_HOST_DEVICE constexpr bool equal(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value && is_tuple<B>::value) {
    if constexpr (tuple_size<A>::value != tuple_size<B>::value) {
      return false;
    } else {
      return equal_elements(a, b, std::make_index_sequence<tuple_size<A>::value>{});
    }
  } else if constexpr (is_tuple<A>::value || is_tuple<B>::value) {
    return false;
  } else {
    return bool(a == b);
  }
}
}  // namespace detail

/// Same profile and equal values (static and dynamic integers compare by value).
template <class... A, class... B>
CUTE_HOST_DEVICE constexpr bool operator==(tuple<A...> const& a, tuple<B...> const& b) {
  return detail::equal(a, b);
}
template <class... A, class... B>
CUTE_HOST_DEVICE constexpr bool operator!=(tuple<A...> const& a, tuple<B...> const& b) {
  return !detail::equal(a, b);
}

namespace detail {
template <class T, std::size_t... I>
CUTE_HOST_DEVICE void print_elements(T const& t, std::index_sequence<I...>) {
  ((I == 0 ? void() : print(","), print(get<I>(t))), ...);
}
}  // namespace detail

/// Prints `(a,b,...)`, e.g. `(_2,(4,_3))`.
template <class... T>
CUTE_HOST_DEVICE void print(tuple<T...> const& t) {
  print("(");
  detail::print_elements(t, std::index_sequence_for<T...>{});
  print(")");
}

}  // namespace cute

// Structured bindings: auto [m, n] = shape;
template <class... T>
struct std::tuple_size<cute::tuple<T...>> : std::integral_constant<std::size_t, sizeof...(T)> {};
template <std::size_t I, class... T>
struct std::tuple_element<I, cute::tuple<T...>> {
  using type = std::tuple_element_t<I, std::tuple<T...>>;
};
