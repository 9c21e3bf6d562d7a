/// @file cute/algorithm/tuple_algorithms.hpp
/// Structural operations on tuples (and on integers, which act as rank-1 leaves): transform,
/// for_each, fold, concatenation (tuple_cat, append, prepend), mode selection (take, select,
/// replace, group), flatten, wrap/unwrap and repetition (tuple_repeat). All constexpr, host and device.
#pragma once

#include <cstddef>
#include <utility>

#include "cute/config.hpp"
#include "cute/container/tuple.hpp"

namespace cute {

namespace detail {
template <class T, class F, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto transform_impl(T const& t, F& f, std::index_sequence<I...>) {
  return make_tuple(f(get<I>(t))...);
}
template <class T0, class T1, class F, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto transform_impl(T0 const& t0, T1 const& t1, F& f,
                                               std::index_sequence<I...>) {
  return make_tuple(f(get<I>(t0), get<I>(t1))...);
}
template <class T, class F, std::size_t... I>
CUTE_HOST_DEVICE constexpr void for_each_impl(T const& t, F& f, std::index_sequence<I...>) {
  (f(get<I>(t)), ...);
}
template <std::size_t I, class T, class V, class F>
CUTE_HOST_DEVICE constexpr auto fold_impl(T const& t, V const& v, F& f) {
  if constexpr (I == tuple_size<T>::value) {
    return v;
  } else {
    return fold_impl<I + 1>(t, f(v, get<I>(t)), f);
  }
}
template <class A, class B, std::size_t... I, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto tuple_cat_impl(A const& a, B const& b, std::index_sequence<I...>,
                                               std::index_sequence<J...>) {
  return make_tuple(get<I>(a)..., get<J>(b)...);
}
template <std::size_t Begin, class T, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto take_impl(T const& t, std::index_sequence<I...>) {
  return make_tuple(get<Begin + I>(t)...);
}
template <std::size_t N, class X, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto repeat_impl(X const& x, std::index_sequence<I...>) {
  return make_tuple(((void)I, x)...);
}
template <std::size_t K, class T, class X, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto replace_impl(T const& t, X const& x, std::index_sequence<I...>) {
  return make_tuple([&]() {
    if constexpr (I == K) {
      return x;
    } else {
      return get<I>(t);
    }
  }()...);
}
}  // namespace detail

namespace detail {
// The number of top-level modes of a tuple type (1 for a leaf), as a std::size_t.
template <class T>
CUTE_HOST_DEVICE constexpr std::size_t modes_of() {
  if constexpr (is_tuple<T>::value) {
    return tuple_size<remove_cvref_t<T>>::value;
  } else {
    return 1;
  }
}
}  // namespace detail

/// (f(t0), f(t1), ...) for a tuple, f(t) for a leaf.
template <class T, class F>
CUTE_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  if constexpr (is_tuple<T>::value) {
    return detail::transform_impl(t, f, std::make_index_sequence<tuple_size<T>::value>{});
  } else {
    return f(t);
  }
}

/// (f(a0,b0), f(a1,b1), ...) over the modes of a (b must have at least as many); f(a,b) for leaves.
template <class T0, class T1, class F>
CUTE_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple<T0>::value) {
    static_assert(is_tuple<T1>::value && tuple_size<T1>::value >= tuple_size<T0>::value,
                  "transform: the second tuple has fewer modes than the first");
    return detail::transform_impl(t0, t1, f, std::make_index_sequence<tuple_size<T0>::value>{});
  } else {
    return f(t0, t1);
  }
}

/// Calls f on each element of a tuple in order (on the value itself for a leaf).
template <class T, class F>
CUTE_HOST_DEVICE constexpr void for_each(T const& t, F&& f) {
  if constexpr (is_tuple<T>::value) {
    detail::for_each_impl(t, f, std::make_index_sequence<tuple_size<T>::value>{});
  } else {
    f(t);
  }
}

/// Left fold: f(...f(f(init, t0), t1)..., tn).
template <class T, class V, class F>
CUTE_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  if constexpr (is_tuple<T>::value) {
    return detail::fold_impl<0>(t, init, f);
  } else {
    return f(init, t);
  }
}

/// Concatenation of tuples: tuple_cat((a,b),(c)) == (a,b,c).
template <class A>
CUTE_HOST_DEVICE constexpr auto tuple_cat(A const& a) {
  return a;
}
template <class A, class B, class... Rest>
CUTE_HOST_DEVICE constexpr auto tuple_cat(A const& a, B const& b, Rest const&... rest) {
  return tuple_cat(detail::tuple_cat_impl(a, b, std::make_index_sequence<tuple_size<A>::value>{},
                                          std::make_index_sequence<tuple_size<B>::value>{}),
                   rest...);
}

/// x as a tuple: a tuple stays, a leaf becomes (x).
template <class T>
CUTE_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple<T>::value) {
    return t;
  } else {
    return make_tuple(t);
  }
}

/// Strips rank-1 tuples: unwrap(((a))) == a; other values are returned as they are.
template <class T>
CUTE_HOST_DEVICE constexpr auto unwrap(T const& t) {
  if constexpr (is_tuple<T>::value) {
    if constexpr (tuple_size<T>::value == 1) {
      return unwrap(get<0>(t));
    } else {
      return t;
    }
  } else {
    return t;
  }
}

/// Adds x as the last mode: append((a,b), x) == (a,b,x); append(a, x) == (a,x).
template <class T, class X>
CUTE_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  return tuple_cat(wrap(t), make_tuple(x));
}

/// Pads t with copies of x up to rank N: append<3>((a), x) == (a,x,x).
template <std::size_t N, class T, class X>
CUTE_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  constexpr std::size_t R = detail::modes_of<T>();
  static_assert(R <= N, "append<N>: the tuple already has more than N modes");
  return tuple_cat(wrap(t), detail::repeat_impl<N - R>(x, std::make_index_sequence<N - R>{}));
}

/// Adds x as the first mode: prepend((a,b), x) == (x,a,b).
template <class T, class X>
CUTE_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  return tuple_cat(make_tuple(x), wrap(t));
}

/// Modes [Begin, End): take<1,3>((a,b,c,d)) == (b,c).
template <std::size_t Begin, std::size_t End, class T>
CUTE_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(Begin <= End && End <= detail::modes_of<T>(), "take<Begin,End>: modes out of range");
  return detail::take_impl<Begin>(wrap(t), std::make_index_sequence<End - Begin>{});
}

/// The listed modes, in the listed order: select<2,0>((a,b,c)) == (c,a).
template <std::size_t... I, class T>
CUTE_HOST_DEVICE constexpr auto select(T const& t) {
  return make_tuple(get<I>(t)...);
}

/// t with mode K replaced by x.
template <std::size_t K, class T, class X>
CUTE_HOST_DEVICE constexpr auto replace(T const& t, X const& x) {
  static_assert(K < detail::modes_of<T>(), "replace<K>: mode out of range");
  return detail::replace_impl<K>(wrap(t), x, std::make_index_sequence<detail::modes_of<T>()>{});
}

/// Modes [Begin, End) gathered into one mode: group<0,2>((a,b,c)) == ((a,b),c).
template <std::size_t Begin, std::size_t End, class T>
CUTE_HOST_DEVICE constexpr auto group(T const& t) {
  constexpr std::size_t R = detail::modes_of<T>();
  return tuple_cat(take<0, Begin>(t), make_tuple(take<Begin, End>(t)), take<End, R>(t));
}

/// N copies of x: tuple_repeat<3>(x) == (x,x,x).
template <std::size_t N, class X>
CUTE_HOST_DEVICE constexpr auto tuple_repeat(X const& x) {
  return detail::repeat_impl<N>(x, std::make_index_sequence<N>{});
}

/// All leaves of t in a flat tuple; a leaf becomes (leaf).
template <class T>
CUTE_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple<T>::value) {
    return fold(t, tuple<>{}, [](auto const& acc, auto const& e) {
      return tuple_cat(acc, flatten_to_tuple(e));
    });
  } else {
    return make_tuple(t);
  }
}

/// All leaves of t in a flat tuple; a leaf stays a leaf: flatten((a,(b,c))) == (a,b,c).
template <class T>
CUTE_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple<T>::value) {
    return flatten_to_tuple(t);
  } else {
    return t;
  }
}

}  // namespace cute
