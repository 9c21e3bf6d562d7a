/// @file cute/swizzle_layout.hpp
/// ComposedLayout<A, Offset, B>: the function c -> A(Offset + B(c)), where B is a Layout and A an
/// outer function, usually a Swizzle. composition(Swizzle, Layout) makes one; it is how a
/// shared-memory tile is swizzled: B gives the logical (row, column) -> offset map and the
/// swizzle permutes the offsets. The algebra that only reshapes or tiles the domain (composition
/// with a tiler, coalesce, divides, products, tile_to_shape, slicing) acts on B and keeps A and
/// the offset, so a swizzled atom can be tiled to a whole stage buffer and partitioned like any
/// layout.
#pragma once

#include <type_traits>

#include "cute/config.hpp"
#include "cute/container/tuple.hpp"
#include "cute/layout.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/swizzle.hpp"
#include "cute/underscore.hpp"
#include "cute/util/print.hpp"

namespace cute {

/// c -> layout_a(offset + layout_b(c)). Empty when A, Offset and B are static.
template <class LayoutA, class Offset, class LayoutB>
struct ComposedLayout : private tuple<LayoutA, Offset, LayoutB> {
  CUTE_HOST_DEVICE constexpr ComposedLayout(LayoutA const& a = {}, Offset const& offset = {},
                                            LayoutB const& b = {})
      : tuple<LayoutA, Offset, LayoutB>(a, offset, b) {}

  CUTE_HOST_DEVICE constexpr decltype(auto) layout_a() const {
    return get<0>(static_cast<tuple<LayoutA, Offset, LayoutB> const&>(*this));
  }
  CUTE_HOST_DEVICE constexpr decltype(auto) offset() const {
    return get<1>(static_cast<tuple<LayoutA, Offset, LayoutB> const&>(*this));
  }
  CUTE_HOST_DEVICE constexpr decltype(auto) layout_b() const {
    return get<2>(static_cast<tuple<LayoutA, Offset, LayoutB> const&>(*this));
  }
  /// The domain is B's.
  CUTE_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_b().shape(); }

  /// A(offset + B(c)); with `_` in c, the composed layout of the slice of B (offset kept; the
  /// slice's own offset is dropped: see slice_and_offset).
  template <class Coord>
  CUTE_HOST_DEVICE constexpr auto operator()(Coord const& c) const {
    if constexpr (has_underscore<Coord>()) {
      return slice(c, *this);
    } else {
      return layout_a()(offset() + layout_b()(c));
    }
  }
  template <class C0, class C1, class... Cs>
  CUTE_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }
};

template <class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto make_composed_layout(A const& a, O const& offset, B const& b) {
  return ComposedLayout<A, O, B>(a, offset, b);
}

/// A swizzled layout: c -> swizzle(layout(c)).
/// Example: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}) is the 128-byte
/// swizzle atom of a K-major tile of 16-bit elements, Sw<3,3,3> o _0 o (_8,_64):(_64,_1).
template <int B, int M, int S, class LS, class LD>
CUTE_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& swizzle, Layout<LS, LD> const& l) {
  return make_composed_layout(swizzle, C<0>{}, l);
}
/// c -> swizzle(offset + layout(c)).
template <int B, int M, int S, class O, class LS, class LD>
CUTE_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& swizzle, O const& offset,
                                            Layout<LS, LD> const& l) {
  return make_composed_layout(swizzle, offset, l);
}

namespace detail {
// The same outer function and offset around a new inner layout.
template <class A, class O, class B, class NewB>
CUTE_HOST_DEVICE constexpr auto with_inner(ComposedLayout<A, O, B> const& c, NewB const& b) {
  return make_composed_layout(c.layout_a(), c.offset(), b);
}
}  // namespace detail

/// (A o B) o T == A o (B o T): a tiler or layout T reshapes the domain.
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto composition(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, composition(c.layout_b(), t));
}

template <int... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto shape(ComposedLayout<A, O, B> const& c) {
  return shape<Is...>(c.layout_b());
}
template <int... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto rank(ComposedLayout<A, O, B> const& c) {
  return rank<Is...>(c.layout_b());
}
template <int... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto depth(ComposedLayout<A, O, B> const& c) {
  return depth<Is...>(c.layout_b());
}
template <int... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto size(ComposedLayout<A, O, B> const& c) {
  return size<Is...>(c.layout_b());
}
/// cosize of B plus the offset. @pre A maps [0, that) into itself, as a swizzle does when B's
/// codomain is a multiple of 2^(B+M+S) (true of every swizzle atom and its tilings).
template <class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto cosize(ComposedLayout<A, O, B> const& c) {
  return c.offset() + cosize(c.layout_b());
}
/// The composed sub-layout of mode I...: A o offset o layout<I...>(B).
template <int... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto layout(ComposedLayout<A, O, B> const& c) {
  return detail::with_inner(c, layout<Is...>(c.layout_b()));
}
template <std::size_t I0, std::size_t... Is, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto get(ComposedLayout<A, O, B> const& c) {
  return layout<int(I0), int(Is)...>(c);
}

template <class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto coalesce(ComposedLayout<A, O, B> const& c) {
  return detail::with_inner(c, coalesce(c.layout_b()));
}
template <class A, class O, class B, class Profile>
CUTE_HOST_DEVICE constexpr auto coalesce(ComposedLayout<A, O, B> const& c, Profile const& p) {
  return detail::with_inner(c, coalesce(c.layout_b(), p));
}

template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto logical_divide(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, logical_divide(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto zipped_divide(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, zipped_divide(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto tiled_divide(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, tiled_divide(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto flat_divide(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, flat_divide(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto logical_product(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, logical_product(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto zipped_product(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, zipped_product(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto tiled_product(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, tiled_product(c.layout_b(), t));
}
template <class A, class O, class B, class T>
CUTE_HOST_DEVICE constexpr auto flat_product(ComposedLayout<A, O, B> const& c, T const& t) {
  return detail::with_inner(c, flat_product(c.layout_b(), t));
}
template <class A, class O, class B, class TS, class TD>
CUTE_HOST_DEVICE constexpr auto blocked_product(ComposedLayout<A, O, B> const& c, Layout<TS, TD> const& t) {
  return detail::with_inner(c, blocked_product(c.layout_b(), t));
}
template <class A, class O, class B, class TS, class TD>
CUTE_HOST_DEVICE constexpr auto raked_product(ComposedLayout<A, O, B> const& c, Layout<TS, TD> const& t) {
  return detail::with_inner(c, raked_product(c.layout_b(), t));
}

/// A swizzle atom repeated over a whole buffer, e.g.
/// tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_64,_3)) is
/// Sw<3,3,3> o _0 o (_128,_64,_3):(_64,_1,_8192): three 128x64 stages of 16-bit elements.
template <class A, class O, class B, class Target, class Order = LayoutLeft>
CUTE_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<A, O, B> const& c, Target const& target,
                                              Order const& order = {}) {
  return detail::with_inner(c, tile_to_shape(c.layout_b(), target, order));
}

/// The slice of B under the same A and offset.
template <class Crd, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto slice(Crd const& crd, ComposedLayout<A, O, B> const& c) {
  return detail::with_inner(c, slice(crd, c.layout_b()));
}
/// (A o (offset + slice offset) o slice of B, _0): the slice offset cannot move out past a
/// swizzle, so it moves into the composed layout's offset.
template <class Crd, class A, class O, class B>
CUTE_HOST_DEVICE constexpr auto slice_and_offset(Crd const& crd, ComposedLayout<A, O, B> const& c) {
  auto inner = slice_and_offset(crd, c.layout_b());
  return make_tuple(make_composed_layout(c.layout_a(), c.offset() + get<1>(inner), get<0>(inner)), C<0>{});
}

/// Prints `A o offset o B`, e.g. `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)`.
template <class A, class O, class B>
CUTE_HOST_DEVICE void print(ComposedLayout<A, O, B> const& c) {
  print(c.layout_a());
  print(" o ");
  print(c.offset());
  print(" o ");
  print(c.layout_b());
}

/// The table of a rank-1 or rank-2 composed layout (see print_layout of Layout).
template <class A, class O, class B>
CUTE_HOST_DEVICE void print_layout(ComposedLayout<A, O, B> const& c) {
  static_assert(decltype(rank(c))::value <= 2, "print_layout: the layout must have rank 1 or 2");
  detail::print_layout_table(c);
}

}  // namespace cute
