/// @file cute/int_tuple.hpp
/// IntTuple: an integer (static or dynamic) or a tuple of IntTuples, e.g. `6`, `(4,3)`,
/// `(3,(6,2),8)`. Shapes, strides, coordinates and steps are IntTuples. This header names them
/// (`Shape<...>`, `Stride<...>`, `Coord<...>`, `Step<...>`, `Tile<...>`, `make_shape`, ...) and
/// defines the measures of the CuTe documentation (01_layout.md, "IntTuple"): rank, depth, size
/// (product), plus congruent / compatible and the by-mode ceil_div / shape_div.
#pragma once

#include <cstddef>
#include <type_traits>

#include "cute/algorithm/tuple_algorithms.hpp"
#include "cute/config.hpp"
#include "cute/container/tuple.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/numeric/math.hpp"

namespace cute {

/// An IntTuple: an integer or a tuple (of IntTuples). Layouts and tensors are not IntTuples.
template <class T>
struct is_int_tuple : std::bool_constant<is_integral<T>::value || is_tuple<T>::value> {};

template <class... T>
using Shape = tuple<T...>;
template <class... T>
using Stride = tuple<T...>;
template <class... T>
using Coord = tuple<T...>;
template <class... T>
using Step = tuple<T...>;
template <class... T>
using Tile = tuple<T...>;

template <class... T>
CUTE_HOST_DEVICE constexpr Shape<T...> make_shape(T const&... t) {
  return {t...};
}
template <class... T>
CUTE_HOST_DEVICE constexpr Stride<T...> make_stride(T const&... t) {
  return {t...};
}
template <class... T>
CUTE_HOST_DEVICE constexpr Coord<T...> make_coord(T const&... t) {
  return {t...};
}
template <class... T>
CUTE_HOST_DEVICE constexpr Step<T...> make_step(T const&... t) {
  return {t...};
}
/// A tiler: a tuple of layouts, shapes or further tilers, one per mode it tiles.
template <class... T>
CUTE_HOST_DEVICE constexpr Tile<T...> make_tile(T const&... t) {
  return {t...};
}

/// Number of top-level modes: a tuple's size, 1 for an integer. rank<I...>(t) is rank(get<I...>(t)).
/// Example: rank((3,(6,2),8)) is _3.
template <int... Is, class T, std::enable_if_t<is_int_tuple<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto rank(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    if constexpr (is_tuple<T>::value) {
      return C<int(tuple_size<T>::value)>{};
    } else {
      return C<1>{};
    }
  } else {
    return rank(get<Is...>(t));
  }
}

/// Nesting depth: 0 for an integer, 1 for a tuple of integers, 2 for a tuple holding a tuple...
/// Example: depth((3,(6,2),8)) is _2.
template <int... Is, class T, std::enable_if_t<is_int_tuple<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto depth(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    if constexpr (is_tuple<T>::value) {
      return fold(t, C<1>{}, [](auto const& d, auto const& e) { return max(d, C<1>{} + depth(e)); });
    } else {
      return C<0>{};
    }
  } else {
    return depth(get<Is...>(t));
  }
}

/// Product of all leaves; static when every leaf is. product((2,(3,4))) is 24.
template <class T, std::enable_if_t<is_int_tuple<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple<T>::value) {
    return fold(t, C<1>{}, [](auto const& p, auto const& e) { return p * product(e); });
  } else {
    return t;
  }
}

/// Product of each top-level mode: product_each((2,(3,4))) == (2,12).
template <class T>
CUTE_HOST_DEVICE constexpr auto product_each(T const& t) {
  return transform(wrap(t), [](auto const& e) { return product(e); });
}

/// Size of a shape: the product of its leaves. size<I...>(t) is size(get<I...>(t)).
template <int... Is, class T, std::enable_if_t<is_int_tuple<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto size(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    return product(t);
  } else {
    return product(get<Is...>(t));
  }
}

/// Sum of a . b over congruent IntTuples (the index of a natural coordinate under a stride).
template <class A, class B>
CUTE_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value) {
    static_assert(is_tuple<B>::value && tuple_size<A>::value == tuple_size<B>::value,
                  "inner_product: the IntTuples are not congruent");
    auto products = transform(a, b, [](auto const& x, auto const& y) { return inner_product(x, y); });
    return fold(products, C<0>{}, [](auto const& s, auto const& x) { return s + x; });
  } else {
    static_assert(!is_tuple<B>::value, "inner_product: the IntTuples are not congruent");
    return a * b;
  }
}

/// True (as a static bool) when a and b have the same profile (nesting), values aside.
/// Example: congruent((2,(3,4)), (1,(5,6))) is true; congruent((2,3), 6) is false.
template <class A, class B>
CUTE_HOST_DEVICE constexpr auto congruent(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value && is_tuple<B>::value) {
    if constexpr (tuple_size<A>::value != tuple_size<B>::value) {
      return false_type{};
    } else {
      return fold(transform(a, b, [](auto const& x, auto const& y) { return congruent(x, y); }),
                  true_type{}, [](auto const& acc, auto const& c) { return acc && c; });
    }
  } else {
    return bool_constant<!is_tuple<A>::value && !is_tuple<B>::value>{};
  }
}

/// Shape a is compatible with shape b when size(a) == size(b) and every coordinate of a is a
/// coordinate of b (01_layout.md, "Layout compatibility").
/// Examples: compatible(24, (4,6)) and compatible((4,6), ((2,2),6)) are true;
/// compatible((24), (4,6)) and compatible((2,3), 6) are false.
template <class A, class B>
CUTE_HOST_DEVICE constexpr bool compatible(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value && is_tuple<B>::value) {
    if constexpr (tuple_size<A>::value != tuple_size<B>::value) {
      return false;
    } else {
      return fold(transform(a, b, [](auto const& x, auto const& y) { return compatible(x, y); }),
                  true, [](bool acc, bool c) { return acc && c; });
    }
  } else if constexpr (is_tuple<A>::value) {
    return false;
  } else {
    return a == size(b);
  }
}

/// By-mode ceil_div of congruent shapes (an integer by a tuple divides by the tuple's size).
/// Example: ceil_div((10,(6,4)), (4,(2,3))) == (3,(3,2)).
template <class A, class B,
          std::enable_if_t<is_tuple<A>::value || is_tuple<B>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value) {
    static_assert(is_tuple<B>::value && tuple_size<A>::value == tuple_size<B>::value,
                  "ceil_div: a tuple can only be divided by a tuple of the same rank");
    return transform(a, b, [](auto const& x, auto const& y) { return ceil_div(x, y); });
  } else {
    return ceil_div(a, size(b));
  }
}

/// By-mode shape_div of congruent shapes (see shape_div of integers).
template <class A, class B,
          std::enable_if_t<is_tuple<A>::value || is_tuple<B>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple<A>::value) {
    static_assert(is_tuple<B>::value && tuple_size<A>::value == tuple_size<B>::value,
                  "shape_div: a tuple can only be divided by a tuple of the same rank");
    return transform(a, b, [](auto const& x, auto const& y) { return shape_div(x, y); });
  } else {
    return shape_div(a, size(b));
  }
}

}  // namespace cute
