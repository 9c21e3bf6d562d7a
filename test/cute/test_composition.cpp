// composition: R = A o B, R(c) = A(B(c)), with layouts, tilers and shapes as B.
// Source: CuTe documentation, media/docs/cpp/cute/02_layout_algebra.md, "Composition",
// "Computing Composition" (the divisibility conditions), "By-mode Composition", "Composition
// Tilers" (NVIDIA/cutlass). The documented examples are checked in test_cute_docs.cpp.
#include <gtest/gtest.h>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::values;

namespace {
// @post compatible(B, R); R(i) == A(B(i)) for 0 <= i < size(B).
template <class A, class B>
void expect_composition_post(A const& a, B const& b) {
  auto r = composition(a, b);
  EXPECT_TRUE(compatible(b.shape(), r.shape())) << printed(a) << " o " << printed(b) << " = " << printed(r);
  for (int i = 0; i < size(b); ++i) {
    EXPECT_EQ(r(i), a(b(i))) << printed(a) << " o " << printed(b) << " = " << printed(r) << " at " << i;
  }
}

// Random A of profile PA and B of profile PB; returns how many pairs were admissible.
template <class PA, class PB>
int random_compositions(cute_test::Rng& rng, int trials) {
  int admissible = 0;
  for (int t = 0; t < trials; ++t) {
    auto a = cute_test::random_layout<PA>(rng, {1, 2, 3, 4, 6, 8}, {0, 1, 2, 3, 5, 8, 16});
    auto b = cute_test::random_layout<PB>(rng, {1, 2, 3, 4, 6}, {1, 2, 3, 4, 6, 8, 12});
    if (!cute_test::composition_admissible(a, b)) continue;
    ++admissible;
    expect_composition_post(a, b);
  }
  return admissible;
}
}  // namespace

TEST(CuteComposition, Examples) {
  // Integral A: the first s elements of A strided by d.
  EXPECT_EQ(printed(composition(Layout<_20, _2>{}, Layout<_5, _4>{})), "_5:_8");
  // Size-1 and stride-0 right-hand layouts.
  EXPECT_EQ(printed(composition(Layout<Shape<_4, _3>>{}, Layout<_1, _5>{})), "_1:_5");
  EXPECT_EQ(printed(composition(Layout<Shape<_4, _3>>{}, Layout<_6, _0>{})), "_6:_0");
  // B reaching past size(A) continues A's last mode.
  EXPECT_EQ(printed(composition(Layout<Shape<_4, _2>, Stride<_1, _8>>{}, Layout<_4, _2>{})), "(_2,_2):(_2,_8)");
  // A shape as tiler: each integer n means n:_1; `_` keeps a mode.
  auto a = Layout<Shape<_8, _6, _2>>{};
  EXPECT_EQ(printed(composition(a, make_tile(_4{}, _, Layout<_1, _0>{}))), "(_4,_6,_1):(_1,_8,_0)");
}

TEST(CuteComposition, StaticAndDynamicAgree) {
  auto check = [](auto a, auto b) {
    expect_composition_post(a, b);
    EXPECT_EQ(values(composition(a, b)), values(composition(cute_test::to_dynamic(a), cute_test::to_dynamic(b))));
  };
  check(Layout<Shape<_6, _2>, Stride<_8, _2>>{}, Layout<Shape<_4, _3>, Stride<_3, _1>>{});
  check(Layout<Shape<_10, _2>, Stride<_16, _4>>{}, Layout<Shape<_5, _4>, Stride<_1, _5>>{});
  check(Layout<Shape<_3, _6, _2, _8>, Stride<_1, _3, _18, Int<36>>>{}, Layout<_16, _9>{});
  check(Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{}, Layout<Shape<_4, Shape<_2, _3>>, Stride<_2, Stride<_1, _8>>>{});
  check(Layout<Shape<Shape<_4, _4>, _8>, Stride<Stride<_32, _1>, _4>>{}, Layout<Shape<_8, _8>, Stride<_2, _16>>{});
}

// Every admissible pair of random layouts (shapes 1..8, strides 0..16) over several profiles.
TEST(CuteComposition, RandomLayoutsProperty) {
  cute_test::Rng rng(2);
  EXPECT_GE((random_compositions<int, int>(rng, 100)), 50);
  EXPECT_GE((random_compositions<tuple<int, int>, int>(rng, 300)), 50);
  EXPECT_GE((random_compositions<tuple<int, int>, tuple<int, int>>(rng, 400)), 50);
  EXPECT_GE((random_compositions<tuple<int, int, int>, tuple<int, int>>(rng, 600)), 50);
  EXPECT_GE((random_compositions<tuple<int, tuple<int, int>>, tuple<tuple<int, int>, int>>(rng, 1000)), 50);
  EXPECT_GE((random_compositions<tuple<int, int, int, int>, int>(rng, 800)), 50);
}

// By-mode composition with a tiler: R(m, n) == A(B0(m), B1(n)).
TEST(CuteComposition, TilerProperty) {
  cute_test::Rng rng(3);
  int admissible = 0;
  for (int t = 0; t < 600; ++t) {
    auto a = cute_test::random_layout<tuple<tuple<int, int>, int>>(rng, {1, 2, 3, 4}, {1, 2, 3, 7, 19});
    auto b0 = cute_test::random_layout<tuple<int, int>>(rng, {1, 2, 3}, {1, 2, 3});
    auto b1 = cute_test::random_layout<int>(rng, {1, 2, 3}, {1, 2});
    if (!cute_test::composition_admissible(layout<0>(a), b0) || !cute_test::composition_admissible(layout<1>(a), b1)) continue;
    ++admissible;
    auto r = composition(a, make_tile(b0, b1));
    for (int m = 0; m < size(b0); ++m)
      for (int n = 0; n < size(b1); ++n) EXPECT_EQ(r(m, n), a(b0(m), b1(n))) << printed(a) << printed(b0) << printed(b1);
  }
  EXPECT_GE(admissible, 50);
}
