/// @file cute/stride.hpp
/// The two maps of a layout (01_layout.md, "Layouts Coordinates"): idx2crd takes any coordinate
/// compatible with a shape to the natural (hierarchical) coordinate, crd2idx takes it through the
/// strides to an index. Also the compact stride generators: LayoutLeft (generalized column-major,
/// the default) and LayoutRight (generalized row-major).
#pragma once

#include <cstddef>
#include <utility>

#include "cute/algorithm/tuple_algorithms.hpp"
#include "cute/config.hpp"
#include "cute/int_tuple.hpp"

namespace cute {

namespace detail {
template <std::size_t I, class Coord, class S, class D>
CUTE_HOST_DEVICE constexpr auto crd2idx_split(Coord const& c, S const& s, D const& d);
template <std::size_t I, class Idx, class S>
CUTE_HOST_DEVICE constexpr auto idx2crd_split(Idx const& i, S const& s);
}  // namespace detail

/// Index of coordinate c: the natural coordinate of c in `shape`, inner product with `stride`.
/// An integer coordinate into a tuple shape is split colexicographically (first mode fastest);
/// the last mode takes the remainder, so coordinates past the end continue the last mode.
/// Static when the coordinate, shape and stride are.
/// Example: for (3,(2,3)):(3,(12,1)), crd2idx(16, ...) == crd2idx((1,5), ...) == 17.
template <class Coord, class S, class D>
CUTE_HOST_DEVICE constexpr auto crd2idx(Coord const& c, S const& shape, D const& stride) {
  if constexpr (is_tuple<Coord>::value) {
    static_assert(is_tuple<S>::value && tuple_size<Coord>::value == tuple_size<S>::value,
                  "crd2idx: the coordinate must be an integer or have the shape's rank");
    return detail::crd2idx_split<0>(c, shape, stride);
  } else if constexpr (is_tuple<S>::value) {
    return detail::crd2idx_split<0>(c, shape, stride);
  } else {
    return c * stride;
  }
}

namespace detail {
template <std::size_t I, class Coord, class S, class D>
CUTE_HOST_DEVICE constexpr auto crd2idx_split(Coord const& c, S const& s, D const& d) {
  constexpr std::size_t R = tuple_size<S>::value;
  if constexpr (is_tuple<Coord>::value) {  // one sub-coordinate per mode: sum the modes
    if constexpr (I + 1 == R) {
      return crd2idx(get<I>(c), get<I>(s), get<I>(d));
    } else {
      return crd2idx(get<I>(c), get<I>(s), get<I>(d)) + crd2idx_split<I + 1>(c, s, d);
    }
  } else if constexpr (I + 1 == R) {  // integer coordinate: the last mode takes the rest
    return crd2idx(c, get<I>(s), get<I>(d));
  } else {
    auto n = size(get<I>(s));
    return crd2idx(c % n, get<I>(s), get<I>(d)) + crd2idx_split<I + 1>(c / n, s, d);
  }
}
}  // namespace detail

/// The natural coordinate (congruent to `shape`) of any coordinate compatible with `shape`.
/// Example: for shape (_3,(_2,_3)), idx2crd(16, shape) == (1,(1,2)), idx2crd(_16{}, shape) ==
/// (_1,(_1,_2)) and idx2crd((_1,5), shape) == (_1,(1,2)).
template <class Idx, class S>
CUTE_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape) {
  if constexpr (is_tuple<Idx>::value) {
    static_assert(is_tuple<S>::value && tuple_size<Idx>::value == tuple_size<S>::value,
                  "idx2crd: the coordinate must be an integer or have the shape's rank");
    return transform(idx, shape, [](auto const& i, auto const& s) { return idx2crd(i, s); });
  } else if constexpr (is_tuple<S>::value) {
    return detail::idx2crd_split<0>(idx, shape);
  } else {
    return idx;
  }
}

namespace detail {
template <std::size_t I, class Idx, class S>
CUTE_HOST_DEVICE constexpr auto idx2crd_split(Idx const& i, S const& s) {
  if constexpr (I + 1 == tuple_size<S>::value) {
    return make_tuple(idx2crd(i, get<I>(s)));
  } else {
    auto n = size(get<I>(s));
    // The remainder is computed before the quotient (the order the hand-written `i % n, i / n`
    // takes); the order of the two reaches the generated code (sm80 warp grid, see gemm_sm80.h).
    auto const head = idx2crd(i % n, get<I>(s));
    return prepend(idx2crd_split<I + 1>(i / n, s), head);
  }
}
}  // namespace detail

/// The coordinate that a compact layout (shape):(stride), e.g. a permutation of a column-major
/// layout, maps to idx: each leaf is (idx / stride) % shape.
/// Example: for the row-major (2,3):(3,1), idx2crd(5, shape, stride) == (1,2).
template <class Idx, class S, class D>
CUTE_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape, D const& stride) {
  static_assert(is_integral<Idx>::value, "idx2crd(idx, shape, stride): idx must be an integer");
  if constexpr (is_tuple<S>::value) {
    return transform(shape, stride, [&](auto const& s, auto const& d) { return idx2crd(idx, s, d); });
  } else {
    return idx / stride % shape;
  }
}

/// Generalized column-major strides: the exclusive prefix product of the shape's leaves in
/// order, starting at `current`, ignoring the nesting.
/// Example: compact_col_major((2,(2,2))) == (_1,(2,4)); compact_col_major((_2,4)) == (_1,_2).
template <class S, class Current = C<1>>
CUTE_HOST_DEVICE constexpr auto compact_col_major(S const& shape, Current const& current = {}) {
  if constexpr (is_tuple<S>::value) {
    auto result = fold(shape, make_tuple(tuple<>{}, current), [](auto const& acc, auto const& s) {
      return make_tuple(append(get<0>(acc), compact_col_major(s, get<1>(acc))), get<1>(acc) * size(s));
    });
    return get<0>(result);
  } else {
    return current;
  }
}

namespace detail {
// Strides of modes [0, I) of `shape`, row-major, given that the modes >= I use `current` elements.
template <std::size_t I, class S, class Current>
CUTE_HOST_DEVICE constexpr auto row_major_modes(S const& shape, Current const& current);
}  // namespace detail

/// Generalized row-major strides: the exclusive prefix product from the last leaf to the first.
/// Example: compact_row_major((_2,4)) == (4,_1); compact_row_major((2,(2,2))) == (4,(2,_1)).
template <class S, class Current = C<1>>
CUTE_HOST_DEVICE constexpr auto compact_row_major(S const& shape, Current const& current = {}) {
  if constexpr (is_tuple<S>::value) {
    return detail::row_major_modes<tuple_size<S>::value>(shape, current);
  } else {
    return current;
  }
}

namespace detail {
template <std::size_t I, class S, class Current>
CUTE_HOST_DEVICE constexpr auto row_major_modes(S const& shape, Current const& current) {
  if constexpr (I == 0) {
    return tuple<>{};
  } else {
    auto last = compact_row_major(get<I - 1>(shape), current);
    return append(row_major_modes<I - 1>(shape, current * size(get<I - 1>(shape))), last);
  }
}
}  // namespace detail

/// Tag: strides are compact_col_major(shape) (the default of make_layout).
struct LayoutLeft {
  template <class S>
  using Apply = decltype(compact_col_major(std::declval<S>()));
};

/// Tag: strides are compact_row_major(shape).
struct LayoutRight {
  template <class S>
  using Apply = decltype(compact_row_major(std::declval<S>()));
};

/// CuTe's other names for the two tags.
using GenColMajor = LayoutLeft;
using GenRowMajor = LayoutRight;

}  // namespace cute
