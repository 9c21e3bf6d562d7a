// coalesce: the same function on 1-D coordinates with the fewest modes.
// Source: CuTe documentation, media/docs/cpp/cute/02_layout_algebra.md, "Coalesce" (the @post
// conditions and the four merge cases) and "By-mode Coalesce" (NVIDIA/cutlass).
#include <gtest/gtest.h>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::values;

namespace {
// @post size(result) == size(l); depth(result) <= 1; result(i) == l(i) for 0 <= i < size(l).
template <class L>
void expect_coalesce_post(L const& l) {
  auto c = coalesce(l);
  EXPECT_EQ(size(c), size(l)) << printed(l);
  EXPECT_LE(int(depth(c)), 1) << printed(l);
  EXPECT_EQ(values(c), values(l)) << printed(l) << " -> " << printed(c);
}
}  // namespace

// The four cases of the binary rule, each on static modes.
TEST(CuteCoalesce, MergeRules) {
  EXPECT_EQ(printed(coalesce(Layout<Shape<_4, _1>, Stride<_2, _7>>{})), "_4:_2");              // s0:d0 ++ _1:d1
  EXPECT_EQ(printed(coalesce(Layout<Shape<_1, _4>, Stride<_7, _2>>{})), "_4:_2");              // _1:d0 ++ s1:d1
  EXPECT_EQ(printed(coalesce(Layout<Shape<_4, _3>, Stride<_2, _8>>{})), "_12:_2");             // d1 == s0*d0
  EXPECT_EQ(printed(coalesce(Layout<Shape<_4, _3>, Stride<_2, _9>>{})), "(_4,_3):(_2,_9)");   // otherwise
  EXPECT_EQ(printed(coalesce(Layout<Shape<_1, _1>, Stride<_3, _5>>{})), "_1:_0");              // nothing left
  EXPECT_EQ(printed(coalesce(Layout<Shape<_2, _4>, Stride<_0, _0>>{})), "_8:_0");              // broadcast
  EXPECT_EQ(printed(coalesce(make_layout(make_shape(_2{}, 4)))), "8:_1");                      // known stride
  EXPECT_EQ(printed(coalesce(make_layout(make_shape(2, 4)))), "(2,4):(_1,2)");                 // dynamic: kept
}

TEST(CuteCoalesce, ByMode) {
  auto a = Layout<Shape<Shape<_2, _2>, Shape<_1, _6>, _3>, Stride<Stride<_1, _2>, Stride<_6, _4>, _24>>{};
  auto r = coalesce(a, make_step(_1{}, _1{}));
  EXPECT_EQ(printed(r), "(_4,_6,_3):(_1,_4,_24)");
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(r(m, n, k), a(m, n, k));
}

TEST(CuteCoalesce, StaticLayoutsProperty) {
  for_each(make_tuple(Layout<_1, _0>{}, Layout<_8, _1>{}, Layout<Shape<_2, _4>>{},
                      Layout<Shape<_2, _4>, Stride<_4, _1>>{},
                      Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{},
                      Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{},
                      Layout<Shape<Shape<_2, _2>, _3>, Stride<Stride<_1, _6>, _2>>{},
                      Layout<Shape<_3, _1, _4>, Stride<_4, _7, _12>>{},
                      Layout<Shape<_2, _3, _2>, Stride<_0, _1, _3>>{}),
           [](auto l) {
             expect_coalesce_post(l);
             EXPECT_EQ(values(coalesce(l)), values(coalesce(cute_test::to_dynamic(l))));
           });
}

TEST(CuteCoalesce, RandomLayoutsProperty) {
  cute_test::Rng rng(1);
  std::vector<int> shapes = {1, 2, 3, 4}, strides = {0, 1, 2, 3, 4, 6, 8, 12};
  for (int trial = 0; trial < 300; ++trial) {
    expect_coalesce_post(cute_test::random_layout<int>(rng, shapes, strides));
    expect_coalesce_post(cute_test::random_layout<tuple<int, int, int>>(rng, shapes, strides));
    expect_coalesce_post(cute_test::random_layout<tuple<int, tuple<int, int>>>(rng, shapes, strides));
    auto l = cute_test::random_layout<tuple<tuple<int, int>, tuple<int, int>>>(rng, shapes, strides);
    expect_coalesce_post(l);
    auto by_mode = coalesce(l, Step<_1, _1>{});
    for (int m = 0; m < size<0>(l); ++m)
      for (int n = 0; n < size<1>(l); ++n) EXPECT_EQ(by_mode(m, n), l(m, n));
  }
}
