/// @file cute/tensor.hpp
/// The entry header of the layout algebra (layouts, swizzles) plus a minimal Tensor: an
/// iterator (a pointer) and a layout, indexed by coordinates and sliced, tiled and partitioned
/// through the algebra (03_tensor.md): local_tile takes a CTA's tile out of a global tensor,
/// local_partition a thread's elements out of a tile.
#pragma once

#include <type_traits>
#include <utility>

#include "cute/algorithm/tuple_algorithms.hpp"
#include "cute/config.hpp"
#include "cute/container/tuple.hpp"
#include "cute/int_tuple.hpp"
#include "cute/layout.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/stride.hpp"
#include "cute/swizzle.hpp"
#include "cute/swizzle_layout.hpp"
#include "cute/underscore.hpp"
#include "cute/util/print.hpp"

namespace cute {

/// A view: element c is data()[layout()(c)]. Iterator is a pointer; L a Layout or ComposedLayout.
template <class Iterator, class L>
struct Tensor : private tuple<Iterator, L> {
  using iterator = Iterator;
  using layout_type = L;
  using reference = decltype(*std::declval<Iterator const&>());
  using value_type = std::remove_cv_t<std::remove_reference_t<reference>>;

  CUTE_HOST_DEVICE constexpr Tensor(Iterator const& data = {}, L const& l = {}) : tuple<Iterator, L>(data, l) {}

  CUTE_HOST_DEVICE constexpr decltype(auto) data() const { return get<0>(static_cast<tuple<Iterator, L> const&>(*this)); }
  CUTE_HOST_DEVICE constexpr decltype(auto) layout() const { return get<1>(static_cast<tuple<Iterator, L> const&>(*this)); }
  CUTE_HOST_DEVICE constexpr decltype(auto) shape() const { return layout().shape(); }
  CUTE_HOST_DEVICE constexpr auto size() const { return cute::size(layout()); }

  /// The element at coordinate c (1-D, R-D or natural).
  template <class Coord>
  CUTE_HOST_DEVICE constexpr reference operator[](Coord const& c) const {
    return data()[layout()(c)];
  }
  /// The element at c, or, with `_` in c, the sub-tensor it selects: tensor(_, k) is column k.
  template <class Coord>
  CUTE_HOST_DEVICE constexpr decltype(auto) operator()(Coord const& c) const {
    if constexpr (has_underscore<Coord>()) {
      auto sliced = slice_and_offset(c, layout());
      return Tensor<Iterator, remove_cvref_t<decltype(get<0>(sliced))>>(data() + get<1>(sliced), get<0>(sliced));
    } else {
      return data()[layout()(c)];
    }
  }
  template <class C0, class C1, class... Cs>
  CUTE_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }
};

/// A tensor over `data` (a pointer, or an array, which decays to one) with the given layout (a
/// Layout or ComposedLayout).
template <class Iterator, class L, std::enable_if_t<!is_int_tuple<L>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto make_tensor(Iterator data, L const& l) {
  return Tensor<Iterator, L>(data, l);
}
/// A tensor over `data` of the given shape, column-major.
template <class Iterator, class S, std::enable_if_t<is_int_tuple<S>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto make_tensor(Iterator data, S const& shape) {
  return make_tensor(data, make_layout(shape));
}
/// A tensor over `data` of the given shape and stride.
template <class Iterator, class S, class D>
CUTE_HOST_DEVICE constexpr auto make_tensor(Iterator data, S const& shape, D const& stride) {
  return make_tensor(data, make_layout(shape, stride));
}

template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto shape(Tensor<I, L> const& t) {
  return shape<Is...>(t.layout());
}
template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto stride(Tensor<I, L> const& t) {
  return stride<Is...>(t.layout());
}
template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto rank(Tensor<I, L> const& t) {
  return rank<Is...>(t.layout());
}
template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto depth(Tensor<I, L> const& t) {
  return depth<Is...>(t.layout());
}
template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto size(Tensor<I, L> const& t) {
  return size<Is...>(t.layout());
}
template <class I, class L>
CUTE_HOST_DEVICE constexpr auto cosize(Tensor<I, L> const& t) {
  return cosize(t.layout());
}
/// The tensor of mode I... (same data, sub-layout).
template <int... Is, class I, class L>
CUTE_HOST_DEVICE constexpr auto layout(Tensor<I, L> const& t) {
  return layout<Is...>(t.layout());
}

/// Tiling a tensor is tiling its layout (the data pointer stays).
template <class I, class L, class Tiler>
CUTE_HOST_DEVICE constexpr auto composition(Tensor<I, L> const& t, Tiler const& tiler) {
  return make_tensor(t.data(), composition(t.layout(), tiler));
}
template <class I, class L, class Tiler>
CUTE_HOST_DEVICE constexpr auto logical_divide(Tensor<I, L> const& t, Tiler const& tiler) {
  return make_tensor(t.data(), logical_divide(t.layout(), tiler));
}
template <class I, class L, class Tiler>
CUTE_HOST_DEVICE constexpr auto zipped_divide(Tensor<I, L> const& t, Tiler const& tiler) {
  return make_tensor(t.data(), zipped_divide(t.layout(), tiler));
}
template <class I, class L, class Tiler>
CUTE_HOST_DEVICE constexpr auto tiled_divide(Tensor<I, L> const& t, Tiler const& tiler) {
  return make_tensor(t.data(), tiled_divide(t.layout(), tiler));
}
template <class I, class L, class Tiler>
CUTE_HOST_DEVICE constexpr auto flat_divide(Tensor<I, L> const& t, Tiler const& tiler) {
  return make_tensor(t.data(), flat_divide(t.layout(), tiler));
}

namespace detail {
// `_` for every top-level mode of shape s: (_,_,...) for a tuple, _ for an integer.
template <class S>
CUTE_HOST_DEVICE constexpr auto all_modes(S const&) {
  if constexpr (is_tuple<S>::value) {
    return tuple_repeat<tuple_size<S>::value>(Underscore{});
  } else {
    return Underscore{};
  }
}
// The coordinate c completed with `_` to the rank of shape s (or c itself for an integer shape).
template <class S, class Crd>
CUTE_HOST_DEVICE constexpr auto complete_with_underscores(S const&, Crd const& c) {
  if constexpr (is_tuple<S>::value) {
    return append<tuple_size<S>::value>(c, Underscore{});
  } else {
    return unwrap(c);
  }
}
// For each top-level mode of thread layout l, the 1-D coordinate of thread idx within that mode.
template <class S, class D, class Idx>
CUTE_HOST_DEVICE constexpr auto flat_coord(Layout<S, D> const& l, Idx const& idx) {
  auto s = wrap(l.shape());
  auto hier = idx2crd(idx, s, wrap(l.stride()));
  return transform(hier, s, [](auto const& c, auto const& sh) { return crd2idx(c, sh, compact_col_major(sh)); });
}
}  // namespace detail

/// The tile at `coord` of the tiling of t by `tiler` (a CTA's tile of a global tensor):
/// zipped_divide(t, tiler)((_,...), coord), with the coordinate completed by `_` over the
/// remaining modes.
/// @post shape(result) is the tile shape followed by the modes coord leaves as `_`.
/// Example: t of shape (M,K), tiler (_128,_32): local_tile(t, tiler, make_coord(m, _)) has shape
///          (_128,_32,K/32), the m-th row of tiles.
template <class I, class L, class Tiler, class Crd>
CUTE_HOST_DEVICE constexpr auto local_tile(Tensor<I, L> const& t, Tiler const& tiler, Crd const& coord) {
  auto z = zipped_divide(t, tiler);
  return z(make_coord(detail::all_modes(shape<0>(z)), detail::complete_with_underscores(shape<1>(z), coord)));
}
/// local_tile with a projection: the modes where proj is X are dropped from tiler and coord
/// (local_tile(mA, make_shape(BM,BN,BK), make_coord(m,n,_), Step<_1,X,_1>{}) tiles A by (BM,BK)).
template <class I, class L, class Tiler, class Crd, class Proj>
CUTE_HOST_DEVICE constexpr auto local_tile(Tensor<I, L> const& t, Tiler const& tiler, Crd const& coord,
                                           Proj const& proj) {
  return local_tile(t, dice(proj, tiler), dice(proj, coord));
}

/// The elements of t that thread thr_idx owns when the threads, arranged by thr_layout, are
/// repeated over t: t is divided into tiles of thr_layout's shape and each thread takes its
/// position in every tile. @post shape(result) == the shape of the tiles' arrangement.
/// Example: t of shape (_128,_32), thr_layout (_16,_8):(_8,_1) (256 threads, row-major):
///          local_partition(t, thr_layout, 9) has shape (_8,_4), elements (1 + 16 i, 1 + 8 j).
template <class I, class L, class TS, class TD, class Idx>
CUTE_HOST_DEVICE constexpr auto local_partition(Tensor<I, L> const& t, Layout<TS, TD> const& thr_layout,
                                                Idx const& thr_idx) {
  auto z = zipped_divide(t, product_each(thr_layout.shape()));
  return z(make_coord(detail::flat_coord(thr_layout, thr_idx), detail::all_modes(shape<1>(z))));
}
/// local_partition with a projection: the modes where proj is X are dropped from the thread
/// layout's tile and coordinate.
template <class I, class L, class TS, class TD, class Idx, class Proj>
CUTE_HOST_DEVICE constexpr auto local_partition(Tensor<I, L> const& t, Layout<TS, TD> const& thr_layout,
                                                Idx const& thr_idx, Proj const& proj) {
  auto z = zipped_divide(t, dice(proj, product_each(thr_layout.shape())));
  return z(make_coord(dice(proj, detail::flat_coord(thr_layout, thr_idx)), detail::all_modes(shape<1>(z))));
}

/// Prints `ptr o layout`.
template <class I, class L>
CUTE_HOST_DEVICE void print(Tensor<I, L> const& t) {
  printf("ptr[%p] o ", static_cast<void const*>(t.data()));
  print(t.layout());
}

}  // namespace cute
