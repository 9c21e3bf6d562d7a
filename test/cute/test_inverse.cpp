// right_inverse and left_inverse.
// Source: the @post conditions L(right_inverse(L)(i)) == i and left_inverse(L)(L(i)) == i, as in
// CuTe's layout algebra (include/cute/layout.hpp "right_inverse"/"left_inverse" in NVIDIA/cutlass;
// left_inverse is the right inverse of (L, complement(L))).
#include <gtest/gtest.h>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::values;

namespace {
template <class L>
void expect_right_inverse_post(L const& l) {
  auto r = right_inverse(l);
  for (int i = 0; i < size(r); ++i) EXPECT_EQ(l(r(i)), i) << printed(l) << " with " << printed(r);
}
template <class L>
void expect_left_inverse_post(L const& l) {
  auto r = left_inverse(l);
  for (int i = 0; i < size(l); ++i) EXPECT_EQ(r(l(i)), i) << printed(l) << " with " << printed(r);
}
}  // namespace

TEST(CuteInverse, Examples) {
  EXPECT_EQ(printed(right_inverse(Layout<Shape<_4, _2>, Stride<_2, _1>>{})), "(_2,_4):(_4,_1)");
  EXPECT_EQ(printed(right_inverse(Layout<_4, _2>{})), "_1:_0");
  EXPECT_EQ(printed(right_inverse(Layout<Shape<_2, _4>, Stride<_0, _1>>{})), "_4:_2");
  EXPECT_EQ(printed(right_inverse(Layout<Shape<_8, _4>, Stride<_4, _1>>{})), "(_4,_8):(_8,_1)");
  EXPECT_EQ(printed(left_inverse(Layout<_4, _2>{})), "(_2,_4):(_4,_1)");
  // A thread-value layout (4 threads x 2 values, values contiguous): the inverse maps an element
  // index back to (thread, value) position.
  auto tv = Layout<Shape<_4, _2>, Stride<_2, _1>>{};
  auto inv = right_inverse(tv);
  for (int e = 0; e < 8; ++e) EXPECT_EQ(tv(inv(e)), e);
}

TEST(CuteInverse, StaticAndDynamicAgree) {
  for_each(make_tuple(Layout<Shape<_4, _2>, Stride<_2, _1>>{}, Layout<Shape<_2, _3, _4>, Stride<_12, _4, _1>>{},
                      Layout<Shape<Shape<_2, _2>, _4>, Stride<Stride<_1, _8>, _2>>{},
                      Layout<Shape<_3, _2>, Stride<_1, _6>>{}, Layout<Shape<_2, _4>, Stride<_0, _1>>{}),
           [](auto l) {
             expect_right_inverse_post(l);
             auto r = right_inverse(l);
             auto rd = right_inverse(cute_test::to_dynamic(l));
             EXPECT_EQ(int(size(r)), int(size(rd))) << printed(l);
             EXPECT_EQ(values(r), values(rd)) << printed(l);
           });
}

TEST(CuteInverse, RandomLayoutsProperty) {
  cute_test::Rng rng(5);
  std::vector<int> shapes = {1, 2, 3, 4};
  for (int trial = 0; trial < 300; ++trial) {
    // Any layout: the right inverse covers the run 0, 1, 2, ... the layout reaches.
    expect_right_inverse_post(cute_test::random_layout<tuple<int, tuple<int, int>>>(rng, shapes, {0, 1, 2, 3, 4, 6, 8}));
    // A permuted compact layout is a bijection: its right inverse is a full inverse.
    auto c = cute_test::random_injective_layout<tuple<tuple<int, int>, int>>(rng, shapes, true);
    expect_right_inverse_post(c);
    EXPECT_EQ(size(right_inverse(c)), size(c)) << printed(c);
    // Injective layouts with holes have left inverses.
    expect_left_inverse_post(cute_test::random_injective_layout<tuple<int, int, int>>(rng, shapes, false));
    expect_left_inverse_post(c);
  }
}
