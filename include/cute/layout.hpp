/// @file cute/layout.hpp
/// Layout: a (Shape, Stride) pair of congruent IntTuples, read as a function from coordinates to
/// indices (01_layout.md), and the layout algebra on it (02_layout_algebra.md). The banner
/// sections follow the order of that document: construction and access, coalesce, composition,
/// complement, inverses, divides, products.
///
/// Notation in the comments: `s:d` is a layout of shape s and stride d; `_N` is a static integer.
/// A layout whose shape and stride are static is an empty type and every operation on it is a
/// compile-time computation, so a kernel pays nothing for the algebra on static layouts.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "cute/algorithm/tuple_algorithms.hpp"
#include "cute/config.hpp"
#include "cute/container/tuple.hpp"
#include "cute/int_tuple.hpp"
#include "cute/numeric/integral_constant.hpp"
#include "cute/numeric/math.hpp"
#include "cute/stride.hpp"
#include "cute/underscore.hpp"
#include "cute/util/print.hpp"

namespace cute {

// =================================================================================================
// Layout, construction and access
// =================================================================================================

/// A function from coordinates to indices: coordinate -> natural coordinate (by Shape) -> inner
/// product with Stride. The stride defaults to the compact column-major strides of the shape.
/// Layout<Shape<_4,Shape<_3,_6>>>{} is (_4,(_3,_6)):(_1,(_4,_12)).
template <class Shape, class Stride = LayoutLeft::Apply<Shape>>
struct Layout : private tuple<Shape, Stride> {
  using shape_type = Shape;
  using stride_type = Stride;

  CUTE_HOST_DEVICE constexpr Layout(Shape const& shape = {}, Stride const& stride = {})
      : tuple<Shape, Stride>(shape, stride) {}

  CUTE_HOST_DEVICE constexpr decltype(auto) shape() const {
    return get<0>(static_cast<tuple<Shape, Stride> const&>(*this));
  }
  CUTE_HOST_DEVICE constexpr decltype(auto) stride() const {
    return get<1>(static_cast<tuple<Shape, Stride> const&>(*this));
  }

  /// The index of a 1-D, R-D or natural coordinate; with `_` in the coordinate, the sliced
  /// sub-layout (its offset is dropped: see slice_and_offset).
  template <class Coord>
  CUTE_HOST_DEVICE constexpr auto operator()(Coord const& c) const {
    if constexpr (has_underscore<Coord>()) {
      return slice(c, *this);
    } else {
      return crd2idx(c, shape(), stride());
    }
  }
  /// layout(m, n, ...) == layout(make_coord(m, n, ...)).
  template <class C0, class C1, class... Cs>
  CUTE_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }
};

template <class T>
struct is_layout : std::false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <class T>
struct is_layout<T const> : is_layout<T> {};
template <class T>
struct is_layout<T&> : is_layout<T> {};

/// Layout of the given shape and stride. @pre shape and stride are congruent.
/// Example: make_layout(make_shape(_2{},4), make_stride(_12{},_1{})) is (_2,4):(_12,_1).
template <class S, class D,
          std::enable_if_t<is_int_tuple<S>::value && is_int_tuple<D>::value, int> = 0>
CUTE_HOST_DEVICE constexpr Layout<S, D> make_layout(S const& shape, D const& stride) {
  static_assert(decltype(congruent(shape, stride))::value,
                "make_layout: the shape and the stride must be congruent (the same nesting)");
  return Layout<S, D>(shape, stride);
}

/// Layout of the given shape with compact column-major strides: make_layout(8) is 8:_1,
/// make_layout(make_shape(_2{},4)) is (_2,4):(_1,_2).
template <class S, std::enable_if_t<is_int_tuple<S>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto make_layout(S const& shape) {
  return make_layout(shape, compact_col_major(shape));
}
template <class S>
CUTE_HOST_DEVICE constexpr auto make_layout(S const& shape, LayoutLeft) {
  return make_layout(shape, compact_col_major(shape));
}
/// Row-major strides: make_layout(make_shape(_2{},4), LayoutRight{}) is (_2,4):(4,_1).
template <class S>
CUTE_HOST_DEVICE constexpr auto make_layout(S const& shape, LayoutRight) {
  return make_layout(shape, compact_row_major(shape));
}

/// Concatenation: each layout becomes one mode of the result.
/// Example: make_layout(3:1, 4:3) is (3,4):(1,3); make_layout(3:1) is (3):(1).
template <class... S, class... D>
CUTE_HOST_DEVICE constexpr auto make_layout(Layout<S, D> const&... l) {
  return Layout<tuple<S...>, tuple<D...>>(make_shape(l.shape()...), make_stride(l.stride()...));
}

/// Shape (or its sub-shape get<I...>) of a layout; an IntTuple is its own shape.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto shape(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.shape();
  } else {
    return get<Is...>(l.shape());
  }
}
template <int... Is, class T, std::enable_if_t<is_int_tuple<T>::value, int> = 0>
CUTE_HOST_DEVICE constexpr auto shape(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    return t;
  } else {
    return get<Is...>(t);
  }
}

/// Stride (or its sub-stride get<I...>) of a layout.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto stride(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.stride();
  } else {
    return get<Is...>(l.stride());
  }
}

/// Number of modes of the layout (of its sub-layout I...).
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(shape<Is...>(l));
}
/// Depth of the layout's shape.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(shape<Is...>(l));
}
/// Size of the domain: the product of the shape. size<1>(l) is the size of mode 1.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return size(shape<Is...>(l));
}

/// The sub-layout of mode I... : layout<1,0>((4,(3,6)):(1,(4,12))) is 3:4; layout<>(l) is l.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l;
  } else {
    return make_layout(get<Is...>(l.shape()), get<Is...>(l.stride()));
  }
}

/// get<I...>(layout) is layout<I...>(layout).
template <std::size_t I0, std::size_t... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto get(Layout<S, D> const& l) {
  return layout<int(I0), int(Is)...>(l);
}

/// Size of the codomain: l(size(l) - 1) + 1 (the largest index plus one, for strides >= 0).
/// Example: cosize((2,4):(1,6)) == 20.
template <int... Is, class S, class D>
CUTE_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  auto sub = layout<Is...>(l);
  return sub(size(sub) - C<1>{}) + C<1>{};
}

/// size(L{}) and cosize(L{}) of a static layout type, as constants (e.g. for a shared-memory
/// array of cosize_v<SmemLayout> elements).
template <class L>
constexpr auto size_v = decltype(size(std::declval<L const&>()))::value;
template <class L>
constexpr auto cosize_v = decltype(cosize(std::declval<L const&>()))::value;

/// Same shape and stride (values compared; static and dynamic integers may be mixed).
template <class S0, class D0, class S1, class D1>
CUTE_HOST_DEVICE constexpr bool operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return detail::equal(a.shape(), b.shape()) && detail::equal(a.stride(), b.stride());
}
template <class S0, class D0, class S1, class D1>
CUTE_HOST_DEVICE constexpr bool operator!=(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return !(a == b);
}

/// The listed modes: select<1,3>((2,3,5,7):(1,2,6,30)) is (3,7):(2,30).
template <std::size_t... I, class S, class D>
CUTE_HOST_DEVICE constexpr auto select(Layout<S, D> const& l) {
  return make_layout(select<I...>(wrap(l.shape())), select<I...>(wrap(l.stride())));
}
/// Modes [Begin, End): take<1,3>((2,3,5,7):(1,2,6,30)) is (3,5):(2,6).
template <std::size_t Begin, std::size_t End, class S, class D>
CUTE_HOST_DEVICE constexpr auto take(Layout<S, D> const& l) {
  static_assert(Begin < End, "take<Begin,End>: empty layouts are not allowed");
  return make_layout(take<Begin, End>(l.shape()), take<Begin, End>(l.stride()));
}
/// Modes [Begin, End) grouped into one: group<0,2>((2,3,5,7):(1,2,6,30)) is ((2,3),5,7):((1,2),6,30).
template <std::size_t Begin, std::size_t End, class S, class D>
CUTE_HOST_DEVICE constexpr auto group(Layout<S, D> const& l) {
  return make_layout(group<Begin, End>(l.shape()), group<Begin, End>(l.stride()));
}
/// All leaves as top-level modes: flatten(((2,3),5):((1,2),6)) is (2,3,5):(1,2,6).
template <class S, class D>
CUTE_HOST_DEVICE constexpr auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}
/// b as a new last mode: append(3:1, 4:3) is (3,4):(1,3).
template <class S, class D, class S1, class D1>
CUTE_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S1, D1> const& b) {
  return make_layout(append(l.shape(), b.shape()), append(l.stride(), b.stride()));
}
/// Pads l with copies of b up to rank N (l itself when it has rank N already).
template <std::size_t N, class S, class D, class S1, class D1>
CUTE_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S1, D1> const& b) {
  if constexpr (decltype(rank(l))::value == N) {
    return l;
  } else {
    return make_layout(append<N>(l.shape(), b.shape()), append<N>(l.stride(), b.stride()));
  }
}
/// b as a new first mode: prepend(3:1, 4:3) is (4,3):(3,1).
template <class S, class D, class S1, class D1>
CUTE_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S1, D1> const& b) {
  return make_layout(prepend(l.shape(), b.shape()), prepend(l.stride(), b.stride()));
}
/// Mode K replaced by b: replace<2>((3,4,(3,4)):(1,3,(1,3)), 4:3) is (3,4,4):(1,3,3).
template <std::size_t K, class S, class D, class S1, class D1>
CUTE_HOST_DEVICE constexpr auto replace(Layout<S, D> const& l, Layout<S1, D1> const& b) {
  return make_layout(replace<K>(l.shape(), b.shape()), replace<K>(l.stride(), b.stride()));
}

/// The modes a slicing coordinate marks with `_`: slice((_,2), (M,N):(1,M)) is (M):(1).
template <class Crd, class S, class D>
CUTE_HOST_DEVICE constexpr auto slice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(slice(c, l.shape()), slice(c, l.stride()));
}
/// The modes a coordinate does not mark with `_`.
template <class Crd, class S, class D>
CUTE_HOST_DEVICE constexpr auto dice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(dice(c, l.shape()), dice(c, l.stride()));
}
/// (slice(c, l), index of the slice's origin): l(c) == sliced(rest of c) + offset.
/// Example: slice_and_offset((_,2), (4,3):(1,4)) is ((4):(1), 8).
template <class Crd, class S, class D>
CUTE_HOST_DEVICE constexpr auto slice_and_offset(Crd const& c, Layout<S, D> const& l) {
  return make_tuple(slice(c, l), crd2idx(underscore_to_zero(c), l.shape(), l.stride()));
}

/// Prints `shape:stride`, e.g. `(_2,4):(_1,_2)`.
template <class S, class D>
CUTE_HOST_DEVICE void print(Layout<S, D> const& l) {
  print(l.shape());
  print(":");
  print(l.stride());
}

namespace detail {
CUTE_HOST_DEVICE constexpr int num_digits(long long x) {
  int n = 1;
  for (x = x < 0 ? -x : x; x >= 10; x /= 10) ++n;
  return n;
}

// A rank-1 or rank-2 layout-like object as a table of its indices (rows: mode 0).
template <class L>
CUTE_HOST_DEVICE void print_layout_table(L const& l) {
  constexpr bool rank1 = decltype(rank(l))::value == 1;
  long long const rows = static_cast<long long>(size<0>(l));
  long long const cols = rank1 ? 1 : static_cast<long long>(size(l)) / rows;
  long long largest = cols - 1;
  for (long long i = 0; i < rows * cols; ++i) {
    long long v = static_cast<long long>(l(i));
    largest = v > largest ? v : largest;
  }
  int const w = num_digits(largest);
  int const lw = num_digits(rows - 1) > 2 ? num_digits(rows - 1) : 2;
  auto rule = [&]() {
    printf("\n%*s", lw + 2, "");
    for (long long n = 0; n < cols; ++n) {
      printf("+");
      for (int k = 0; k < w + 2; ++k) printf("-");
    }
    printf("+");
  };
  print(l);
  printf("\n%*s", lw + 2, "");
  for (long long n = 0; n < cols; ++n) printf(n + 1 < cols ? "  %*lld " : "  %*lld", w, n);
  rule();
  for (long long m = 0; m < rows; ++m) {
    printf("\n%*lld  ", lw, m);
    for (long long n = 0; n < cols; ++n) printf("| %*lld ", w, static_cast<long long>(l(m + rows * n)));
    printf("|");
    rule();
  }
  printf("\n");
}
}  // namespace detail

/// Prints a rank-1 or rank-2 layout as a table of its indices, rows along mode 0, under a line
/// with the layout itself (the format of print_layout in 01_layout.md).
template <class S, class D>
CUTE_HOST_DEVICE void print_layout(Layout<S, D> const& l) {
  static_assert(decltype(rank(l))::value <= 2, "print_layout: the layout must have rank 1 or 2");
  detail::print_layout_table(l);
}

// =================================================================================================
// Helpers shared by the algebra
// =================================================================================================

namespace detail {

// Applies f(layout<i>(l), get<i>(t)) to the modes i < rank(t) and keeps the other modes of l.
template <class L, class T, class F, std::size_t... I, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto by_mode_impl(L const& l, T const& t, F& f, std::index_sequence<I...>,
                                             std::index_sequence<J...>) {
  return make_layout(f(layout<int(I)>(l), get<I>(t))..., layout<int(sizeof...(I) + J)>(l)...);
}
template <class L, class T, class F>
CUTE_HOST_DEVICE constexpr auto by_mode(L const& l, T const& t, F&& f) {
  constexpr std::size_t RL = decltype(rank(l))::value;
  constexpr std::size_t RT = tuple_size<T>::value;
  static_assert(RT <= RL, "by-mode operation: the tiler / profile has more modes than the layout");
  return by_mode_impl(l, t, f, std::make_index_sequence<RT>{}, std::make_index_sequence<RL - RT>{});
}

template <std::size_t N>
struct index_array {
  std::size_t v[N == 0 ? 1 : N];
};

// The value of the static integer type of element I of tuple type T.
template <class T, std::size_t I>
constexpr auto static_value = remove_cvref_t<decltype(get<I>(std::declval<T const&>()))>::value;

// Indices of a flat tuple of static integers, stably sorted by value.
template <class T, std::size_t... I>
CUTE_HOST_DEVICE constexpr index_array<sizeof...(I)> stable_order(std::index_sequence<I...>) {
  constexpr std::size_t N = sizeof...(I);
  long long key[N + 1] = {static_cast<long long>(static_value<T, I>)..., 0};
  index_array<N> r{};
  for (std::size_t i = 0; i < N; ++i) r.v[i] = i;
  for (std::size_t i = 1; i < N; ++i) {
    std::size_t x = r.v[i];
    std::size_t j = i;
    for (; j > 0 && key[r.v[j - 1]] > key[x]; --j) r.v[j] = r.v[j - 1];
    r.v[j] = x;
  }
  return r;
}
template <class T>
struct static_order {
  static constexpr index_array<tuple_size<T>::value> value =
      stable_order<T>(std::make_index_sequence<tuple_size<T>::value>{});
};
// std::index_sequence of the first K indices of T (a flat tuple of static integers) in
// increasing value.
template <class T, std::size_t... K>
CUTE_HOST_DEVICE constexpr auto sorted_indices(std::index_sequence<K...>) {
  return std::index_sequence<static_order<T>::value.v[K]...>{};
}
template <class T>
CUTE_HOST_DEVICE constexpr auto sorted_indices() {
  return sorted_indices<T>(std::make_index_sequence<tuple_size<T>::value>{});
}

// The elements of tuple t at the listed indices.
template <class T, std::size_t... P>
CUTE_HOST_DEVICE constexpr auto gather(T const& t, std::index_sequence<P...>) {
  return make_tuple(get<P>(t)...);
}

// The run-time integer type for a mix of integers: the common type of their dynamic types.
template <class... T>
using common_int_t = std::common_type_t<int, dynamic_type_t<T>...>;
template <class T>
struct flat_common_int;
template <class... T>
struct flat_common_int<tuple<T...>> {
  using type = common_int_t<T...>;
};

// Copies a flat tuple of integers into an array of I.
template <class I, class T, std::size_t... K>
CUTE_HOST_DEVICE constexpr void to_array(T const& t, I* out, std::index_sequence<K...>) {
  ((out[K] = static_cast<I>(get<K>(t))), ...);
}
// Stable insertion sort of idx[0..n) by key[idx[.]].
template <class I>
CUTE_HOST_DEVICE constexpr void sort_by_key(std::size_t* idx, I const* key, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  for (std::size_t i = 1; i < n; ++i) {
    std::size_t x = idx[i];
    std::size_t j = i;
    for (; j > 0 && key[idx[j - 1]] > key[x]; --j) idx[j] = idx[j - 1];
    idx[j] = x;
  }
}
template <class I, std::size_t... K>
CUTE_HOST_DEVICE constexpr auto layout_from_arrays(I const* s, I const* d, std::index_sequence<K...>) {
  return make_layout(make_shape(s[K]...), make_stride(d[K]...));
}

// True (statically) when every leaf of the IntTuple is a static zero.
template <class T>
CUTE_HOST_DEVICE constexpr auto all_zero(T const& t) {
  return fold(flatten_to_tuple(t), true_type{},
              [](auto const& acc, auto const& x) { return acc && (x == C<0>{}); });
}

}  // namespace detail

// =================================================================================================
// Coalesce
// =================================================================================================

namespace detail {
// Walks the flat modes (fs, fd) keeping the finished modes (rs, rd) and the current mode (cs, cd);
// cs == _1 means "no current mode yet". A mode of static size 1 is dropped; a mode whose stride
// is statically cs*cd is merged into the current one.
template <std::size_t I, class FS, class FD, class RS, class RD, class CS, class CD>
CUTE_HOST_DEVICE constexpr auto coalesce_flat(FS const& fs, FD const& fd, RS const& rs, RD const& rd,
                                              CS const& cs, CD const& cd) {
  if constexpr (I == tuple_size<FS>::value) {
    if constexpr (is_constant<1, CS>::value) {
      if constexpr (tuple_size<RS>::value == 0) {
        return Layout<C<1>, C<0>>{};
      } else {
        return make_layout(unwrap(rs), unwrap(rd));
      }
    } else if constexpr (tuple_size<RS>::value == 0) {
      return make_layout(cs, cd);
    } else {
      return make_layout(append(rs, cs), append(rd, cd));
    }
  } else {
    auto s = get<I>(fs);
    auto d = get<I>(fd);
    using Next = decltype(cs * cd);
    if constexpr (is_constant<1, decltype(s)>::value) {
      return coalesce_flat<I + 1>(fs, fd, rs, rd, cs, cd);
    } else if constexpr (is_constant<1, CS>::value) {
      return coalesce_flat<I + 1>(fs, fd, rs, rd, s, d);
    } else if constexpr (is_static<Next>::value && is_static<decltype(d)>::value) {
      if constexpr (Next::value == decltype(d)::value) {
        return coalesce_flat<I + 1>(fs, fd, rs, rd, cs * s, cd);
      } else {
        return coalesce_flat<I + 1>(fs, fd, append(rs, cs), append(rd, cd), s, d);
      }
    } else {
      return coalesce_flat<I + 1>(fs, fd, append(rs, cs), append(rd, cd), s, d);
    }
  }
}
}  // namespace detail

/// The same function on 1-D coordinates with the fewest modes: flattens, drops modes of static
/// size 1 and merges neighbours s0:d0, s1:d1 where d1 == s0*d0 is known statically.
/// @post size(result) == size(l); depth(result) <= 1; result(i) == l(i) for 0 <= i < size(l).
/// Example: coalesce((_2,(_1,_6)):(_1,(_6,_2))) is _12:_1.
template <class S, class D>
CUTE_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  return detail::coalesce_flat<0>(fs, fd, tuple<>{}, tuple<>{}, C<1>{}, C<0>{});
}

/// By-mode coalesce: coalesces each sub-layout at the leaves of `profile` (the values of the
/// profile are only flags) and keeps the modes beyond the profile.
/// @post result(c) == l(c) for every coordinate c of l's shape down to the profile's leaves.
/// Example: coalesce((_2,(_1,_6)):(_1,(_6,_2)), Step<_1,_1>{}) is (_2,_6):(_1,_2).
template <class S, class D, class Profile>
CUTE_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l, Profile const& profile) {
  if constexpr (is_tuple<Profile>::value) {
    return detail::by_mode(l, profile, [](auto const& sub, auto const& p) { return coalesce(sub, p); });
  } else {
    return coalesce(l);
  }
}

// =================================================================================================
// Composition
// =================================================================================================

namespace detail {

// Divides the stride `rest` out of modes [0, R-1) of the flat layout (as, ad).
template <std::size_t I, class AS, class AD, class RS, class RD, class Rest>
CUTE_HOST_DEVICE constexpr auto divide_out(AS const& as, AD const& ad, RS const& rs, RD const& rd,
                                           Rest const& rest) {
  if constexpr (I + 1 == tuple_size<AS>::value) {
    return make_tuple(rs, rd, rest);
  } else {
    auto a = get<I>(as);
    if constexpr (is_static<decltype(a)>::value && is_static<Rest>::value) {
      static_assert(decltype(a)::value % Rest::value == 0 || Rest::value % decltype(a)::value == 0,
                    "composition: stride divisibility condition violated: the stride of the right "
                    "layout must divide, or be a multiple of, each mode of the left layout it passes");
    }
    return divide_out<I + 1>(as, ad, append(rs, shape_div(a, rest)), append(rd, get<I>(ad) * rest),
                             shape_div(rest, a));
  }
}

// Keeps the first `rest` elements of the divided modes cs.
template <std::size_t I, class CS, class RS, class Rest>
CUTE_HOST_DEVICE constexpr auto mod_out(CS const& cs, RS const& rs, Rest const& rest) {
  if constexpr (I == tuple_size<CS>::value) {
    return make_tuple(rs, rest);
  } else {
    auto c = get<I>(cs);
    if constexpr (is_static<decltype(c)>::value && is_static<Rest>::value) {
      static_assert(decltype(c)::value % Rest::value == 0 || Rest::value % decltype(c)::value == 0,
                    "composition: shape divisibility condition violated: the shape of the right "
                    "layout must divide, or be a multiple of, each mode of the left layout it spans");
    }
    return mod_out<I + 1>(cs, append(rs, min(c, rest)), shape_div(rest, c));
  }
}

// a o s:d for a coalesced layout a and integral s, d. The last mode of a is unbounded: the
// result may run past size(a) along it.
template <class AS, class AD, class S, class D>
CUTE_HOST_DEVICE constexpr auto compose_1d(Layout<AS, AD> const& a, S const& s, D const& d) {
  if constexpr (is_constant<0, D>::value) {
    return make_layout(s, C<0>{});
  } else if constexpr (!is_tuple<AS>::value) {
    return make_layout(s, a.stride() * d);
  } else {
    constexpr std::size_t R = tuple_size<AS>::value;
    auto divided = divide_out<0>(a.shape(), a.stride(), tuple<>{}, tuple<>{}, d);
    auto modded = mod_out<0>(get<0>(divided), tuple<>{}, s);
    return coalesce(make_layout(append(get<0>(modded), get<1>(modded)),
                                append(get<1>(divided), get<R - 1>(a.stride()) * get<2>(divided))));
  }
}

template <class L, class B, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto compose_modes(L const& a, B const& b, std::index_sequence<I...>);

}  // namespace detail

/// Functional composition R = A o B, R(c) = A(B(c)). B is a Layout (composed as a function of
/// 1-D coordinates, mode by mode of B), a tiler (a tuple whose mode i is applied to mode i of A;
/// `_` keeps the mode) or a Shape (each integer n means n:_1).
/// @pre For each integral mode s:d of B, d and s satisfy the stride and shape divisibility
///      conditions on A's modes (static_assert when static); dynamic strides of B are nonzero.
///      When coalesce(A) has several modes, B's modes sorted by stride do not overlap (each
///      stride >= shape*stride of the one before), so that the offsets of B's modes add
///      without carrying from one mode of A into the next (A o B is then A o B_0, A o B_1, ...).
/// @post compatible(B, R) (for a Layout B); R(i) == A(B(i)) for 0 <= i < size(B).
/// Example: composition((_10,_2):(_16,_4), (_5,_4):(_1,_5)) is (_5,(_2,_2)):(_16,(_80,_4)).
template <class AS, class AD, class B>
CUTE_HOST_DEVICE constexpr auto composition(Layout<AS, AD> const& a, B const& b) {
  if constexpr (is_layout<B>::value) {
    if constexpr (is_tuple<typename B::shape_type>::value) {
      return detail::compose_modes(
          a, b, std::make_index_sequence<tuple_size<typename B::shape_type>::value>{});
    } else {
      return detail::compose_1d(coalesce(a), b.shape(), b.stride());
    }
  } else if constexpr (is_tuple<B>::value) {
    return detail::by_mode(a, b, [](auto const& sub, auto const& t) { return composition(sub, t); });
  } else if constexpr (is_underscore<B>::value) {
    return a;
  } else {
    static_assert(is_integral<B>::value, "composition: the tiler must be a layout, a tuple or a shape");
    return composition(a, make_layout(b));
  }
}

namespace detail {
template <class L, class B, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto compose_modes(L const& a, B const& b, std::index_sequence<I...>) {
  return make_layout(composition(a, layout<int(I)>(b))...);
}
}  // namespace detail

// =================================================================================================
// Complement
// =================================================================================================

namespace detail {

// The modes that occupy the codomain: static size-1 and static stride-0 modes are dropped.
template <class FS, class FD>
CUTE_HOST_DEVICE constexpr auto drop_empty_modes(FS const& fs, FD const& fd) {
  auto keep = transform(fs, fd, [](auto const& s, auto const& d) {
    if constexpr (is_constant<1, decltype(s)>::value || is_constant<0, decltype(d)>::value) {
      return make_tuple(tuple<>{}, tuple<>{});
    } else {
      return make_tuple(make_tuple(s), make_tuple(d));
    }
  });
  return fold(keep, make_tuple(tuple<>{}, tuple<>{}), [](auto const& acc, auto const& k) {
    return make_tuple(tuple_cat(get<0>(acc), get<0>(k)), tuple_cat(get<1>(acc), get<1>(k)));
  });
}

// Complement of modes (ss, ds) sorted by stride: fills the gap below each mode, then repeats.
template <std::size_t I, class SS, class DS, class RS, class RD, class Cur, class N>
CUTE_HOST_DEVICE constexpr auto complement_sorted(SS const& ss, DS const& ds, RS const& rs, RD const& rd,
                                                  Cur const& cur, N const& n) {
  if constexpr (I == tuple_size<SS>::value) {
    return coalesce(make_layout(append(rs, ceil_div(n, cur)), append(rd, cur)));
  } else {
    auto s = get<I>(ss);
    auto d = get<I>(ds);
    if constexpr (is_static<decltype(d)>::value && is_static<Cur>::value) {
      static_assert(decltype(d)::value % Cur::value == 0 && decltype(d)::value >= Cur::value,
                    "complement: the layout's modes overlap: each stride must be a multiple of the "
                    "extent (shape * stride) of the modes with smaller strides");
    }
    return complement_sorted<I + 1>(ss, ds, append(rs, d / cur), append(rd, cur), s * d, n);
  }
}

// The same with strides known only at run time: the modes are sorted at run time and the
// result has one mode per input mode plus one (size-1 modes where a mode covers nothing).
template <class KS, class KD, class N>
CUTE_HOST_DEVICE constexpr auto complement_runtime(KS const& ks, KD const& kd, N const& n) {
  constexpr std::size_t R = tuple_size<KS>::value;
  using I = common_int_t<N, typename flat_common_int<KS>::type, typename flat_common_int<KD>::type>;
  I s[R] = {}, d[R] = {}, rs[R + 1] = {}, rd[R + 1] = {};
  std::size_t order[R] = {};
  to_array(ks, s, std::make_index_sequence<R>{});
  to_array(kd, d, std::make_index_sequence<R>{});
  sort_by_key(order, d, R);
  I cur = 1;
  for (std::size_t k = 0; k < R; ++k) {
    I const sk = s[order[k]];
    I const dk = d[order[k]];
    rd[k] = cur;
    if (sk == 1 || dk == 0) {
      rs[k] = 1;
    } else {
      rs[k] = dk / cur;
      cur = sk * dk;
    }
  }
  rs[R] = (static_cast<I>(n) + cur - 1) / cur;
  rd[R] = cur;
  return layout_from_arrays(rs, rd, std::make_index_sequence<R + 1>{});
}

}  // namespace detail

/// The layout of the "rest" of the codomain [0, size(cotarget)) that l does not reach: R is
/// ordered (strides positive and increasing), its codomain is disjoint from l's (but for 0), and
/// (l, R) reaches at least size(cotarget). With static strides the modes are sorted at compile
/// time and the result is coalesced; with dynamic strides they are sorted at run time.
/// @pre l is injective and its modes do not overlap (static_assert when its strides are static).
/// @post cosize(make_layout(l, R)) >= size(cotarget); R(i-1) < R(i) for 1 <= i < size(R);
///       R(i) != l(j) for 1 <= i < size(R), 0 <= j < size(l).
/// Example: complement((2,2):(1,6), 24) is (3,2):(2,12); complement(4:2, 24) is (2,3):(1,8).
template <class S, class D, class CoTarget>
CUTE_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l, CoTarget const& cotarget) {
  auto kept = detail::drop_empty_modes(flatten_to_tuple(l.shape()), flatten_to_tuple(l.stride()));
  using KD = remove_cvref_t<decltype(get<1>(kept))>;
  auto n = size(cotarget);
  if constexpr (tuple_size<KD>::value <= 1) {
    return detail::complement_sorted<0>(get<0>(kept), get<1>(kept), tuple<>{}, tuple<>{}, C<1>{}, n);
  } else if constexpr (is_static<KD>::value) {
    constexpr auto order = detail::sorted_indices<KD>();
    return detail::complement_sorted<0>(detail::gather(get<0>(kept), order),
                                        detail::gather(get<1>(kept), order), tuple<>{}, tuple<>{},
                                        C<1>{}, n);
  } else {
    return detail::complement_runtime(get<0>(kept), get<1>(kept), n);
  }
}

/// complement(l, cosize(l)): the holes of l's codomain.
/// Example: complement(4:2) is _2:_1.
template <class S, class D>
CUTE_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l) {
  return complement(l, cosize(l));
}

// =================================================================================================
// Inverses
// =================================================================================================

namespace detail {

// True when mode I of the sorted strides exists and equals the running product Cur.
template <std::size_t I, class DS, class Cur>
CUTE_HOST_DEVICE constexpr bool stride_continues() {
  if constexpr (I < tuple_size<DS>::value) {
    return static_value<DS, I> == Cur::value;
  } else {
    return false;
  }
}

// Walks the modes sorted by stride while each stride equals the product of the shapes before it;
// each such mode s:d contributes s:(its stride in l's 1-D coordinates).
template <std::size_t I, class SS, class DS, class PS, class RS, class RD, class Cur>
CUTE_HOST_DEVICE constexpr auto right_inverse_sorted(SS const& ss, DS const& ds, PS const& ps, RS const& rs,
                                                     RD const& rd, Cur const& cur) {
  if constexpr (stride_continues<I, DS, Cur>()) {
    return right_inverse_sorted<I + 1>(ss, ds, ps, append(rs, get<I>(ss)), append(rd, get<I>(ps)),
                                       cur * get<I>(ss));
  } else if constexpr (tuple_size<RS>::value == 0) {
    return Layout<C<1>, C<0>>{};
  } else {
    return coalesce(make_layout(rs, rd));
  }
}

// Number of static-zero strides in a flat tuple of static strides.
template <class FD, std::size_t... I>
CUTE_HOST_DEVICE constexpr std::size_t count_zero_strides(std::index_sequence<I...>) {
  return (std::size_t(0) + ... + std::size_t(static_value<FD, I> == 0));
}

template <class FS, class FD, class PS>
CUTE_HOST_DEVICE constexpr auto right_inverse_runtime(FS const& fs, FD const& fd, PS const& ps) {
  constexpr std::size_t R = tuple_size<FS>::value;
  using I = common_int_t<typename flat_common_int<FS>::type, typename flat_common_int<FD>::type>;
  I s[R] = {}, d[R] = {}, p[R] = {}, rs[R] = {}, rd[R] = {};
  std::size_t order[R] = {};
  to_array(fs, s, std::make_index_sequence<R>{});
  to_array(fd, d, std::make_index_sequence<R>{});
  to_array(ps, p, std::make_index_sequence<R>{});
  sort_by_key(order, d, R);
  I cur = 1;
  bool chained = true;
  for (std::size_t k = 0; k < R; ++k) {
    std::size_t const m = order[k];
    rs[k] = 1;
    rd[k] = 0;
    if (s[m] == 1 || d[m] == 0) continue;
    chained = chained && d[m] == cur;
    if (chained) {
      rs[k] = s[m];
      rd[k] = p[m];
      cur *= s[m];
    }
  }
  return layout_from_arrays(rs, rd, std::make_index_sequence<R>{});
}

}  // namespace detail

/// A right inverse R of l: l(R(i)) == i for 0 <= i < size(R), where size(R) is the length of the
/// run of indices 0, 1, 2, ... that l reaches through modes of strides 1, s0, s0*s1, ...
/// @post l(R(i)) == i for 0 <= i < size(R).
/// Example: right_inverse((4,2):(2,1)) is (2,4):(4,1); right_inverse(4:2) is _1:_0.
template <class S, class D>
CUTE_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& l) {
  auto c = coalesce(l);
  auto fs = wrap(c.shape());
  auto fd = wrap(c.stride());
  auto ps = compact_col_major(fs);
  if constexpr (is_static<decltype(c)>::value) {
    using FD = remove_cvref_t<decltype(fd)>;
    constexpr auto order = detail::sorted_indices<FD>();
    // Stride-0 modes sort first and reach no new index: the walk starts after them.
    constexpr std::size_t zeros =
        detail::count_zero_strides<FD>(std::make_index_sequence<tuple_size<FD>::value>{});
    return detail::right_inverse_sorted<zeros>(detail::gather(fs, order), detail::gather(fd, order),
                                               detail::gather(ps, order), tuple<>{}, tuple<>{}, C<1>{});
  } else {
    return detail::right_inverse_runtime(fs, fd, ps);
  }
}

/// A left inverse R of an injective l: R(l(i)) == i for 0 <= i < size(l). It is the right
/// inverse of (l, complement(l)), which reaches every index below cosize(l).
/// @pre l is injective and its modes do not overlap.
/// @post R(l(i)) == i for 0 <= i < size(l).
/// Example: left_inverse(4:2) is (2,4):(4,1), so R(2*i) == i.
template <class S, class D>
CUTE_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& l) {
  return right_inverse(make_layout(l, complement(l)));
}

// =================================================================================================
// Divides
// =================================================================================================

namespace detail {
template <class T>
CUTE_HOST_DEVICE constexpr void check_flat_tiler() {
  if constexpr (is_tuple<T>::value) {
    for_each(T{}, [](auto const& t) {
      static_assert(is_layout<decltype(t)>::value || is_integral<decltype(t)>::value,
                    "zipped/tiled/flat divide and product: each mode of the tiler must be a "
                    "layout or an integer");
    });
  }
}

// ((l<0,0>, l<1,0>, ...), (l<0,1>, l<1,1>, ..., l<R>, l<R+1>, ...)) for a layout whose first R
// modes are (tile, rest) pairs.
template <std::size_t R, class L, std::size_t... I, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto zip_modes(L const& l, std::index_sequence<I...>, std::index_sequence<J...>) {
  return make_layout(make_layout(layout<int(I), 0>(l)...),
                     make_layout(layout<int(I), 1>(l)..., layout<int(R + J)>(l)...));
}
template <class T, class L>
CUTE_HOST_DEVICE constexpr auto zip_by_tiler(L const& l) {
  constexpr std::size_t R = tuple_size<T>::value;
  constexpr std::size_t RL = decltype(rank(l))::value;
  return zip_modes<R>(l, std::make_index_sequence<R>{}, std::make_index_sequence<RL - R>{});
}

// (l<0>, l<1,0>, l<1,1>, ...): the second mode's sub-modes become top-level modes.
template <class L, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto unpack_second(L const& l, std::index_sequence<J...>) {
  return make_layout(layout<0>(l), layout<1, int(J)>(l)...);
}
// (l<0,0>, l<0,1>, ..., l<1,0>, l<1,1>, ...): both modes' sub-modes become top-level modes.
template <class L, std::size_t... I, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto unpack_both(L const& l, std::index_sequence<I...>, std::index_sequence<J...>) {
  return make_layout(layout<0, int(I)>(l)..., layout<1, int(J)>(l)...);
}
}  // namespace detail

/// A / B = A o (B, B*), B* = complement(B, size(A)): mode 0 holds the elements B selects (the
/// tile), mode 1 the repetitions of the tile. A tuple tiler divides mode by mode (an integer n
/// means n:_1, `_` keeps the mode).
/// @pre B is injective and A o (B, B*) meets composition's preconditions.
/// @post result == composition(A, make_layout(B, complement(B, size(A)))) (for a Layout B).
/// Example: logical_divide((4,2,3):(2,1,8), 4:2) is ((2,2),(2,3)):((4,1),(2,8)).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto logical_divide(Layout<S, D> const& a, Tiler const& b) {
  if constexpr (is_layout<Tiler>::value) {
    return composition(a, make_layout(b, complement(b, size(a))));
  } else if constexpr (is_tuple<Tiler>::value) {
    return detail::by_mode(a, b, [](auto const& sub, auto const& t) { return logical_divide(sub, t); });
  } else if constexpr (is_underscore<Tiler>::value) {
    return a;
  } else {
    static_assert(is_integral<Tiler>::value, "logical_divide: the tiler must be a layout, a tuple or a shape");
    return logical_divide(a, make_layout(b));
  }
}

/// logical_divide with the tiles gathered in mode 0 and the rests in mode 1:
/// ((TileM,TileN), (RestM,RestN,L,...)).
/// @post layout<0>(zipped_divide(A, B)) == composition(A, B).
/// Example: zipped_divide((_9,(_4,_8)):(_59,(_13,_1)), <_3:_3, (_2,_4):(_1,_8)>) is
///          ((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1))).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto zipped_divide(Layout<S, D> const& a, Tiler const& b) {
  if constexpr (is_tuple<Tiler>::value) {
    detail::check_flat_tiler<Tiler>();
    return detail::zip_by_tiler<Tiler>(logical_divide(a, b));
  } else {
    return logical_divide(a, b);
  }
}

/// zipped_divide with the rest modes unpacked: ((TileM,TileN), RestM, RestN, L, ...).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto tiled_divide(Layout<S, D> const& a, Tiler const& b) {
  auto z = zipped_divide(a, b);
  return detail::unpack_second(z, std::make_index_sequence<decltype(rank<1>(z))::value>{});
}

/// zipped_divide with both modes unpacked: (TileM, TileN, RestM, RestN, L, ...).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto flat_divide(Layout<S, D> const& a, Tiler const& b) {
  auto z = zipped_divide(a, b);
  return detail::unpack_both(z, std::make_index_sequence<decltype(rank<0>(z))::value>{},
                             std::make_index_sequence<decltype(rank<1>(z))::value>{});
}

// =================================================================================================
// Products
// =================================================================================================

/// A (x) B = (A, A* o B), A* = complement(A, size(A) * cosize(B)): mode 0 is A, mode 1 places
/// one copy of A for each element of B, in B's order. A tuple tiler multiplies mode by mode.
/// @pre A is injective; A* o B meets composition's preconditions.
/// @post rank(result) == 2; compatible(A, layout<0>(result)); compatible(B, layout<1>(result)).
/// Example: logical_product((2,2):(4,1), 6:1) is ((2,2),(2,3)):((4,1),(2,8)).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto logical_product(Layout<S, D> const& a, Tiler const& b) {
  if constexpr (is_layout<Tiler>::value) {
    return make_layout(a, composition(complement(a, size(a) * cosize(b)), b));
  } else if constexpr (is_tuple<Tiler>::value) {
    return detail::by_mode(a, b, [](auto const& sub, auto const& t) { return logical_product(sub, t); });
  } else if constexpr (is_underscore<Tiler>::value) {
    return a;
  } else {
    static_assert(is_integral<Tiler>::value, "logical_product: the tiler must be a layout, a tuple or a shape");
    return logical_product(a, make_layout(b));
  }
}

/// logical_product with the blocks gathered in mode 0: ((M,N), (TileM,TileN,L,...)).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto zipped_product(Layout<S, D> const& a, Tiler const& b) {
  if constexpr (is_tuple<Tiler>::value) {
    detail::check_flat_tiler<Tiler>();
    return detail::zip_by_tiler<Tiler>(logical_product(a, b));
  } else {
    return logical_product(a, b);
  }
}

/// zipped_product with the repetition modes unpacked: ((M,N), TileM, TileN, L, ...).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto tiled_product(Layout<S, D> const& a, Tiler const& b) {
  auto z = zipped_product(a, b);
  return detail::unpack_second(z, std::make_index_sequence<decltype(rank<1>(z))::value>{});
}

/// zipped_product with both modes unpacked: (M, N, TileM, TileN, L, ...).
template <class S, class D, class Tiler>
CUTE_HOST_DEVICE constexpr auto flat_product(Layout<S, D> const& a, Tiler const& b) {
  auto z = zipped_product(a, b);
  return detail::unpack_both(z, std::make_index_sequence<decltype(rank<0>(z))::value>{},
                             std::make_index_sequence<decltype(rank<1>(z))::value>{});
}

namespace detail {
// Mode i of the result is (first<i>, second<i>) of the rank-2 product p (or the reverse), each
// mode coalesced.
template <bool BlockFirst, class P, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto interleave_product(P const& p, std::index_sequence<I...>) {
  if constexpr (BlockFirst) {
    return coalesce(make_layout(make_layout(layout<0, int(I)>(p), layout<1, int(I)>(p))...),
                    tuple_repeat<sizeof...(I)>(C<1>{}));
  } else {
    return coalesce(make_layout(make_layout(layout<1, int(I)>(p), layout<0, int(I)>(p))...),
                    tuple_repeat<sizeof...(I)>(C<1>{}));
  }
}
template <bool BlockFirst, class SA, class DA, class SB, class DB>
CUTE_HOST_DEVICE constexpr auto rank_matched_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  constexpr std::size_t RA = decltype(rank(a))::value;
  constexpr std::size_t RB = decltype(rank(b))::value;
  constexpr std::size_t R = RA < RB ? RB : RA;
  auto p = logical_product(append<R>(a, Layout<C<1>, C<0>>{}), append<R>(b, Layout<C<1>, C<0>>{}));
  return interleave_product<BlockFirst>(p, std::make_index_sequence<R>{});
}
}  // namespace detail

/// The block A repeated in the arrangement B, mode by mode: mode i of the result is
/// (A_i, B-repetitions along i), so A's elements stay contiguous blocks. A and B are padded with
/// _1:_0 modes to the same rank; each result mode is coalesced.
/// @pre as for logical_product.
/// @post rank(result) == max(rank(A), rank(B)); size<i>(result) == size<i>(A) * size<i>(B).
/// Example: blocked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) is (_6,(_5,_4)):(_5,(_1,_30)).
template <class SA, class DA, class SB, class DB>
CUTE_HOST_DEVICE constexpr auto blocked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return detail::rank_matched_product<true>(a, b);
}

/// As blocked_product, but mode i is (B-repetitions along i, A_i): the elements of A are
/// interleaved ("raked", a cyclic distribution) with the repetitions.
/// Example: raked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) is ((_3,_2),(_4,_5)):((_10,_5),(_30,_1)).
template <class SA, class DA, class SB, class DB>
CUTE_HOST_DEVICE constexpr auto raked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return detail::rank_matched_product<false>(a, b);
}

namespace detail {
template <class S, std::size_t... J>
CUTE_HOST_DEVICE constexpr auto size_of_modes(S const& s, std::index_sequence<J...>) {
  return (C<1>{} * ... * size(get<J>(s)));
}
template <class Order, std::size_t I>
CUTE_HOST_DEVICE constexpr std::size_t position_in_order() {
  constexpr index_array<tuple_size<Order>::value> order =
      stable_order<Order>(std::make_index_sequence<tuple_size<Order>::value>{});
  std::size_t k = 0;
  while (order.v[k] != I) ++k;
  return k;
}
template <class S, class Order, std::size_t... I>
CUTE_HOST_DEVICE constexpr auto ordered_strides(S const& s, std::index_sequence<I...>) {
  return make_tuple(compact_col_major(
      get<I>(s), size_of_modes(s, sorted_indices<Order>(
                                      std::make_index_sequence<position_in_order<Order, I>()>{})))...);
}
}  // namespace detail

/// A compact layout of `shape` whose modes are laid out in the order of the static values of
/// `order` (smallest first; ties in mode order); each mode is column-major inside.
/// Example: make_ordered_layout((_2,_3,_4), Step<_2,_0,_1>{}) is (_2,_3,_4):(_12,_1,_3).
template <class S, class Order>
CUTE_HOST_DEVICE constexpr auto make_ordered_layout(S const& shape, Order const&) {
  static_assert(is_tuple<S>::value && is_tuple<Order>::value &&
                    tuple_size<S>::value == tuple_size<Order>::value && is_static<Order>::value,
                "make_ordered_layout: the order must be a static tuple with one value per mode");
  return make_layout(shape, detail::ordered_strides<S, Order>(
                                shape, std::make_index_sequence<tuple_size<S>::value>{}));
}

/// Repeats the layout `block` (e.g. a swizzle atom) to fill `target_shape`, the blocks arranged
/// column-major (or in the mode order `order`, e.g. Step<_2,_1,_3>), each result mode coalesced.
/// @pre rank(block) <= rank(target_shape); each mode of the target is a multiple of the block's
///      (static_assert when static).
/// @post product_each(shape(result)) == product_each(target_shape).
/// Example: tile_to_shape((_8,_64):(_64,_1), (_128,_64,_3)) is (_128,_64,_3):(_64,_1,_8192)
///          (16 row blocks of the 8x64 row-major block, merged by the per-mode coalesce).
template <class S, class D, class Target, class Order = LayoutLeft>
CUTE_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, Target const& target_shape,
                                              Order const& order = {}) {
  constexpr std::size_t R = decltype(rank(target_shape))::value;
  static_assert(decltype(rank(block))::value <= R, "tile_to_shape: the block has more modes than the target");
  auto padded = append<R>(block, Layout<C<1>, C<0>>{});
  auto block_shape = product_each(padded.shape());
  auto target = product_each(target_shape);
  if constexpr (is_static<decltype(block_shape)>::value && is_static<decltype(target)>::value) {
    auto remainders = transform(target, block_shape, [](auto const& t, auto const& b) { return t % b; });
    static_assert(decltype(detail::all_zero(remainders))::value,
                  "tile_to_shape: each mode of the target shape must be a multiple of the block's");
  }
  auto repeats = ceil_div(target, block_shape);
  if constexpr (std::is_same<Order, LayoutLeft>::value) {
    return coalesce(blocked_product(padded, make_layout(repeats)), repeats);
  } else {
    return coalesce(blocked_product(padded, make_ordered_layout(repeats, order)), repeats);
  }
}

}  // namespace cute
