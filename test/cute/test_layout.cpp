// Layout construction and evaluation: static layouts are empty types, the 1-D, R-D and natural
// coordinates of a layout name the same element, cosize, slicing.
// Source: CuTe documentation, media/docs/cpp/cute/01_layout.md ("Layout", "Layouts Coordinates",
// "Coordinate Mapping", "Index Mapping") (NVIDIA/cutlass).
#include <gtest/gtest.h>

#include <type_traits>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;

TEST(CuteLayout, StaticLayoutsAreEmptyConstexprFunctions) {
  using L = Layout<Shape<_4, Shape<_3, _6>>>;
  static_assert(std::is_empty<L>::value, "a static layout holds no data");
  static_assert(std::is_trivially_copyable<L>::value, "layouts pass to kernels by value");
  static_assert(std::is_empty<decltype(composition(L{}, make_shape(_2{}, _6{})))>::value, "");
  constexpr L l{};
  static_assert(l(5) == 5 && l(1, 2) == 9 && l(make_coord(1, make_coord(2, 1))) == 21, "constexpr evaluation");
  static_assert(std::is_same<decltype(l(_5{})), C<5>>::value, "a static coordinate gives a static index");
  static_assert(size_v<L> == 72 && cosize_v<L> == 72, "");
  auto d = make_layout(make_shape(4, 6), make_stride(1, 4));
  static_assert(sizeof(d) == 4 * sizeof(int), "dynamic layouts store their integers");
  EXPECT_EQ(printed(l), "(_4,(_3,_6)):(_1,(_4,_12))");
  EXPECT_EQ(printed(make_layout(make_shape(2, 3), LayoutRight{})), "(2,3):(3,_1)");
  EXPECT_TRUE(make_layout(make_shape(2, 3), GenRowMajor{}) == make_layout(make_shape(2, 3), LayoutRight{}));
  EXPECT_TRUE(make_layout(make_shape(2, 3), GenColMajor{}) == make_layout(make_shape(2, 3)));
}

TEST(CuteLayout, CosizeAndEquality) {
  EXPECT_EQ(int(cosize(make_layout(make_shape(2, 4), make_stride(1, 6)))), 20);
  EXPECT_EQ(int(cosize(Layout<Shape<_2, _3>, Stride<_0, _1>>{})), 3);
  EXPECT_TRUE(make_layout(make_shape(2, 4)) == (Layout<Shape<_2, _4>>{}));
  EXPECT_FALSE(make_layout(make_shape(2, 4), make_stride(4, 1)) == (Layout<Shape<_2, _4>>{}));
}

// Every coordinate compatible with the shape names the same index (01_layout.md, "Layouts
// Coordinates"): l(i) == l(idx2crd(i, shape)) == l(m, n), over random layouts.
TEST(CuteLayout, CoordinateKindsAgreeProperty) {
  cute_test::Rng rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    auto l = cute_test::random_layout<tuple<tuple<int, int>, tuple<int, int>>>(rng, {1, 2, 3, 4}, {0, 1, 2, 5, 7, 16});
    int const m_size = size<0>(l);
    for (int i = 0; i < size(l); ++i) {
      int const expected = inner_product(idx2crd(i, l.shape()), l.stride());
      EXPECT_EQ(l(i), expected);
      EXPECT_EQ(l(i % m_size, i / m_size), expected);
      EXPECT_EQ(l(idx2crd(i, l.shape())), expected);
    }
  }
}

TEST(CuteLayout, SliceAndOffset) {
  auto l = make_layout(make_shape(4, make_shape(3, 2)), make_stride(1, make_stride(4, 12)));
  auto col = l(_, 3);  // column 3 of the 4x6 matrix, origin dropped
  EXPECT_EQ(printed(col), "(4):(1)");
  auto so = slice_and_offset(make_coord(_, 3), l);
  EXPECT_EQ(printed(get<0>(so)), "(4):(1)");
  EXPECT_EQ(get<1>(so), l(0, 3));
  auto inner = slice_and_offset(make_coord(2, make_coord(_, 1)), l);
  EXPECT_EQ(printed(get<0>(inner)), "(3):(4)");
  for (int j = 0; j < 3; ++j) EXPECT_EQ(get<0>(inner)(j) + get<1>(inner), l(2, make_coord(j, 1)));
  EXPECT_EQ(printed(dice(make_coord(2, _), l)), "(4):(1)");
}
