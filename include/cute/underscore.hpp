/// @file cute/underscore.hpp
/// `_` (Underscore) marks the modes a coordinate keeps when it slices a layout or tensor:
/// `tensor(_, k)` is column k. `X` (the same type) marks the modes a projection step drops.
/// slice(c, t) keeps the parts of t where c has `_`; dice(c, t) keeps the parts where it does not.
#pragma once

#include <type_traits>

#include "cute/algorithm/tuple_algorithms.hpp"
#include "cute/config.hpp"
#include "cute/container/tuple.hpp"

namespace cute {

/// The "whole mode" marker of slicing coordinates and projection steps.
struct Underscore {};
using X = Underscore;

// A namespace-scope object used by reference in device code must live in device memory.
#if defined(__CUDA_ARCH__)
static __device__ Underscore const _{};
#else
static constexpr Underscore _{};
#endif

template <class T>
struct is_underscore : std::is_same<remove_cvref_t<T>, Underscore> {};

/// True when `_` appears anywhere in the (possibly nested) coordinate.
template <class T>
CUTE_HOST_DEVICE constexpr bool has_underscore() {
  if constexpr (is_tuple<T>::value) {
    return fold(remove_cvref_t<T>{}, false,
                [](bool acc, auto const& e) { return acc || has_underscore<decltype(e)>(); });
  } else {
    return is_underscore<T>::value;
  }
}

namespace detail {
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto slice_mode(Crd const& c, T const& t);
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto dice_mode(Crd const& c, T const& t);
}  // namespace detail

/// The parts of t that c marks with `_`, one level flattened:
/// slice((_,2), (M,N)) == (M); slice(((_,_),(3,_)), ((a,b),(c,d))) == (a,b,d).
/// @pre c is congruent to t down to its `_` and integer leaves.
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t) {
  if constexpr (is_tuple<Crd>::value) {
    static_assert(is_tuple<T>::value && tuple_size<Crd>::value == tuple_size<T>::value,
                  "slice: the coordinate's rank must match the sliced tuple's rank");
    return fold(transform(c, t, [](auto const& ci, auto const& ti) { return detail::slice_mode(ci, ti); }),
                tuple<>{}, [](auto const& acc, auto const& e) { return tuple_cat(acc, e); });
  } else if constexpr (is_underscore<Crd>::value) {
    return t;
  } else {
    return tuple<>{};
  }
}

/// The parts of t that c does not mark with `_`, one level flattened:
/// dice((_1,X,_1), (a,b,c)) == (a,c).
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto dice(Crd const& c, T const& t) {
  if constexpr (is_tuple<Crd>::value) {
    static_assert(is_tuple<T>::value && tuple_size<Crd>::value == tuple_size<T>::value,
                  "dice: the coordinate's rank must match the diced tuple's rank");
    return fold(transform(c, t, [](auto const& ci, auto const& ti) { return detail::dice_mode(ci, ti); }),
                tuple<>{}, [](auto const& acc, auto const& e) { return tuple_cat(acc, e); });
  } else if constexpr (is_underscore<Crd>::value) {
    return tuple<>{};
  } else {
    return t;
  }
}

namespace detail {
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto slice_mode(Crd const& c, T const& t) {
  if constexpr (is_underscore<Crd>::value) {
    return make_tuple(t);
  } else if constexpr (is_tuple<Crd>::value) {
    return slice(c, t);
  } else {
    return tuple<>{};
  }
}
template <class Crd, class T>
CUTE_HOST_DEVICE constexpr auto dice_mode(Crd const& c, T const& t) {
  if constexpr (is_underscore<Crd>::value) {
    return tuple<>{};
  } else if constexpr (is_tuple<Crd>::value) {
    return dice(c, t);
  } else {
    return make_tuple(t);
  }
}
}  // namespace detail

/// The coordinate with every `_` replaced by _0: the origin of the slice it selects.
template <class Crd>
CUTE_HOST_DEVICE constexpr auto underscore_to_zero(Crd const& c) {
  if constexpr (is_tuple<Crd>::value) {
    return transform(c, [](auto const& e) { return underscore_to_zero(e); });
  } else if constexpr (is_underscore<Crd>::value) {
    return C<0>{};
  } else {
    return c;
  }
}

/// Prints `_`.
CUTE_HOST_DEVICE void print(Underscore) { printf("_"); }

}  // namespace cute
