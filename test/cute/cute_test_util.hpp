// Helpers of the layout-algebra tests: printing to a string, evaluating a layout over its domain,
// converting a static layout to a dynamic one, and random layout generators.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cute/tensor.hpp"

namespace cute_test {

/// What cute::print writes for x.
template <class T>
std::string printed(T const& x) {
  fflush(stdout);
  testing::internal::CaptureStdout();
  cute::print(x);
  fflush(stdout);
  return testing::internal::GetCapturedStdout();
}

/// The documentation's math notation has no static markers: `(_2,_3):(_1,_8)` -> `(2,3):(1,8)`.
inline std::string without_static_marks(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return s;
}

/// l(i) for every 1-D coordinate i of l's domain.
template <class L>
std::vector<long long> values(L const& l) {
  std::vector<long long> v;
  long long const n = static_cast<long long>(cute::size(l));
  v.reserve(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) v.push_back(static_cast<long long>(l(i)));
  return v;
}

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

inline std::vector<long long> iota(long long n) {
  std::vector<long long> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0LL);
  return v;
}

/// The same IntTuple with every leaf an int.
template <class T>
auto dynamic_int_tuple(T const& t) {
  if constexpr (cute::is_tuple<T>::value) {
    return cute::transform(t, [](auto const& e) { return dynamic_int_tuple(e); });
  } else {
    return static_cast<int>(t);
  }
}

/// The same layout with every integer dynamic: exercises the run-time paths of the algebra.
template <class S, class D>
auto to_dynamic(cute::Layout<S, D> const& l) {
  return cute::make_layout(dynamic_int_tuple(l.shape()), dynamic_int_tuple(l.stride()));
}

/// Number of leaves of an IntTuple profile.
template <class P>
constexpr std::size_t leaf_count() {
  return decltype(cute::rank(cute::flatten_to_tuple(P{})))::value;
}

/// The IntTuple of profile P whose leaves, in order, are v[0], v[1], ...
template <class P>
P from_leaves(std::vector<int> const& v) {
  std::size_t next = 0;
  auto build = [&](auto const& self, auto const& proto) {
    if constexpr (cute::is_tuple<cute::remove_cvref_t<decltype(proto)>>::value) {
      return cute::fold(proto, cute::tuple<>{},
                        [&](auto const& acc, auto const& e) { return cute::append(acc, self(self, e)); });
    } else {
      return v.at(next++);
    }
  };
  if constexpr (cute::is_tuple<P>::value) {
    return build(build, P{});
  } else {
    return v.at(0);
  }
}

/// Random numbers for the property tests (fixed seeds: a failure reproduces).
struct Rng {
  std::mt19937 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  int pick(std::vector<int> const& v) { return v[static_cast<std::size_t>(uniform(0, int(v.size()) - 1))]; }
  template <class T>
  void shuffle(std::vector<T>& v) { std::shuffle(v.begin(), v.end(), gen); }
};

/// A layout of profile P with random shapes from `shapes` and random strides from `strides`.
template <class P>
auto random_layout(Rng& rng, std::vector<int> const& shapes, std::vector<int> const& strides) {
  constexpr std::size_t n = leaf_count<P>();
  std::vector<int> s(n), d(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = rng.pick(shapes);
    d[i] = rng.pick(strides);
  }
  return cute::make_layout(from_leaves<P>(s), from_leaves<P>(d));
}

/// An injective layout of profile P whose modes do not overlap (so it has a complement): the
/// modes, sorted by stride, have strides d0 >= 1 and d(k+1) = s(k) * d(k) * gap(k), gap >= 1;
/// then the modes are put in a random order. gaps of 1 everywhere and d0 = 1 give a bijection
/// onto [0, size) (a permuted compact layout).
template <class P>
auto random_injective_layout(Rng& rng, std::vector<int> const& shapes, bool compact) {
  constexpr std::size_t n = leaf_count<P>();
  std::vector<int> s(n), d(n), order(n);
  std::iota(order.begin(), order.end(), 0);
  rng.shuffle(order);
  int stride = compact ? 1 : rng.pick({1, 1, 2, 3});
  for (std::size_t k = 0; k < n; ++k) {
    int const m = order[k];
    s[static_cast<std::size_t>(m)] = rng.pick(shapes);
    d[static_cast<std::size_t>(m)] = stride;
    stride *= s[static_cast<std::size_t>(m)] * (compact ? 1 : rng.pick({1, 1, 2, 3}));
  }
  return cute::make_layout(from_leaves<P>(s), from_leaves<P>(d));
}

/// True when composition(a, b) meets its preconditions: the divisibility conditions
/// (02_layout_algebra.md, "Computing Composition") for every leaf mode s:d of b, on the modes of
/// coalesce(a) (for dynamic layouts, flatten(a)) as the library walks them; and, when a has
/// several modes, b's leaf modes sorted by stride do not overlap (each stride >= the extent s*d
/// of the one before), so the offsets of b's modes add without carries between a's modes.
template <class A, class B>
bool composition_admissible(A const& a, B const& b) {
  auto ca = cute::coalesce(a);
  std::vector<long long> as;
  cute::for_each(cute::flatten_to_tuple(ca.shape()), [&](auto x) { as.push_back(static_cast<long long>(x)); });
  std::vector<long long> bs, bd;
  cute::for_each(cute::flatten_to_tuple(b.shape()), [&](auto x) { bs.push_back(static_cast<long long>(x)); });
  cute::for_each(cute::flatten_to_tuple(b.stride()), [&](auto x) { bd.push_back(static_cast<long long>(x)); });
  auto divides_either = [](long long x, long long y) { return x % y == 0 || y % x == 0; };
  if (as.size() > 1) {
    std::vector<std::pair<long long, long long>> modes;  // (stride, shape) of the non-trivial modes
    for (std::size_t m = 0; m < bs.size(); ++m) {
      if (bs[m] != 1) modes.emplace_back(bd[m], bs[m]);
    }
    std::sort(modes.begin(), modes.end());
    for (std::size_t m = 1; m < modes.size(); ++m) {
      if (modes[m].first < modes[m - 1].first * modes[m - 1].second) return false;
    }
  }
  for (std::size_t m = 0; m < bs.size(); ++m) {
    if (bd[m] == 0) return false;  // dynamic zero strides are outside the precondition
    if (as.size() <= 1) continue;
    std::vector<long long> c(as.size() - 1);
    long long rest = bd[m];
    for (std::size_t i = 0; i + 1 < as.size(); ++i) {
      if (!divides_either(as[i], rest)) return false;
      c[i] = as[i] < rest ? 1 : as[i] / rest;
      rest = rest < as[i] ? 1 : rest / as[i];
    }
    long long keep = bs[m];
    for (std::size_t i = 0; i + 1 < as.size(); ++i) {
      if (!divides_either(c[i], keep)) return false;
      keep = keep < c[i] ? 1 : keep / c[i];
    }
  }
  return true;
}

}  // namespace cute_test
