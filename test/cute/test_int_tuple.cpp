// Static integers, tuples and IntTuple measures; the coordinate maps idx2crd / crd2idx.
// Answer key: CuTe documentation, media/docs/cpp/cute/01_layout.md, sections "Integers",
// "IntTuple" and "Coordinate Mapping" / "Index Mapping" (NVIDIA/cutlass).
#include <gtest/gtest.h>

#include <type_traits>

#include "cute_test_util.hpp"
#include "cute/int_tuple.hpp"
#include "cute/stride.hpp"

using namespace cute;
using cute_test::printed;

TEST(CuteIntTuple, StaticArithmeticStaysStatic) {
  static_assert(std::is_same<decltype(_4{} * _8{}), C<32>>::value, "static * static is static");
  static_assert(std::is_same<decltype(_7{} % _4{}), C<3>>::value, "static % static is static");
  static_assert(std::is_same<decltype(_0{} * 5), C<0>>::value, "_0 * x is _0");
  static_assert(std::is_same<decltype(5 * _1{}), int>::value, "x * _1 is x");
  static_assert(std::is_same<decltype(5 % _1{}), C<0>>::value, "x % _1 is _0");
  static_assert(std::is_same<decltype(_3{} * 5), int>::value, "static * dynamic is dynamic");
  static_assert(std::is_empty<Int<42>>::value && is_static<_1>::value && !is_static<int>::value, "");
  static_assert(is_integral<_3>::value && is_integral<long>::value && !is_integral<tuple<int>>::value, "");
  static_assert(is_constant<3, _3>::value && !is_constant<3, int>::value, "");
  static_assert(std::is_same<decltype(shape_div(_8{}, _2{})), C<4>>::value, "");
  static_assert(std::is_same<decltype(shape_div(_2{}, _8{})), C<1>>::value, "");
  static_assert(std::is_same<decltype(ceil_div(_10{}, _4{})), C<3>>::value, "");
  EXPECT_EQ(shape_div(6, 2), 3);
  EXPECT_EQ(shape_div(2, 6), 1);
  EXPECT_EQ(ceil_div(10, 4), 3);
  EXPECT_EQ(printed(_8{}), "_8");
  EXPECT_EQ(printed(8), "8");
}

TEST(CuteIntTuple, EmptyWhenStatic) {
  static_assert(std::is_empty<tuple<_1, tuple<_2, _3>>>::value, "a tuple of static integers is empty");
  static_assert(sizeof(tuple<int, _1, int>) == 2 * sizeof(int), "static elements take no space");
  auto t = make_tuple(1, _2{}, make_tuple(_3{}, 4));
  EXPECT_EQ(printed(t), "(1,_2,(_3,4))");
  EXPECT_EQ(get<0>(t), 1);
  EXPECT_EQ(int(get<2, 1>(t)), 4);
  auto [a, b, c] = t;  // structured bindings
  EXPECT_EQ(a, 1);
  EXPECT_EQ(int(b), 2);
  EXPECT_EQ(printed(c), "(_3,4)");
}

// 01_layout.md, "IntTuple": rank, depth, size; "Layout compatibility".
TEST(CuteIntTuple, RankDepthSize) {
  auto t = make_shape(3, make_shape(6, 2), 8);
  EXPECT_EQ(int(rank(t)), 3);
  EXPECT_EQ(int(depth(t)), 2);
  EXPECT_EQ(int(size(t)), 288);
  EXPECT_EQ(int(rank(6)), 1);
  EXPECT_EQ(int(depth(6)), 0);
  EXPECT_EQ(int(depth(make_shape(4, 3))), 1);
  EXPECT_EQ(int(size<1>(t)), 12);
  EXPECT_EQ(int(rank<1>(t)), 2);
  static_assert(decltype(congruent(make_shape(2, make_shape(3, 4)), make_shape(1, make_shape(5, 6))))::value, "");
  static_assert(!decltype(congruent(make_shape(2, 3), 6))::value, "");
}

TEST(CuteIntTuple, Compatible) {
  EXPECT_FALSE(compatible(24, 32));
  EXPECT_TRUE(compatible(24, make_shape(4, 6)));
  EXPECT_TRUE(compatible(make_shape(4, 6), make_shape(make_shape(2, 2), 6)));
  EXPECT_TRUE(compatible(make_shape(make_shape(2, 2), 6), make_shape(make_shape(2, 2), make_shape(3, 2))));
  EXPECT_TRUE(compatible(24, make_shape(make_shape(2, 2), make_shape(3, 2))));
  EXPECT_TRUE(compatible(24, make_shape(make_shape(2, 3), 4)));
  EXPECT_FALSE(compatible(make_shape(make_shape(2, 3), 4), make_shape(make_shape(2, 2), make_shape(3, 2))));
  EXPECT_FALSE(compatible(make_shape(make_shape(2, 2), make_shape(3, 2)), make_shape(make_shape(2, 3), 4)));
  EXPECT_TRUE(compatible(24, make_shape(24)));
  EXPECT_FALSE(compatible(make_shape(24), 24));
  EXPECT_FALSE(compatible(make_shape(24), make_shape(4, 6)));
}

// 01_layout.md, "Coordinate Mapping": the 1-D / 2-D / natural coordinates of shape (3,(2,3)).
// (The printed idx2crd / crd2idx examples are checked in test_cute_docs.cpp.)
TEST(CuteIntTuple, Idx2CrdTable) {
  auto shape = Shape<_3, Shape<_2, _3>>{};
  for (int i = 0; i < 18; ++i) {
    auto natural = idx2crd(i, shape);
    EXPECT_EQ(natural, make_coord(i % 3, make_coord((i / 3) % 2, i / 6))) << i;
    EXPECT_EQ(idx2crd(make_coord(i % 3, i / 3), shape), natural) << i;
  }
}

// 01_layout.md, "Index Mapping": the table of (3,(2,3)):(3,(12,1)), by 2-D and 1-D coordinates.
TEST(CuteIntTuple, Crd2IdxTable) {
  auto shape = Shape<_3, Shape<_2, _3>>{};
  auto stride = Stride<_3, Stride<_12, _1>>{};
  int const table[3][6] = {{0, 12, 1, 13, 2, 14}, {3, 15, 4, 16, 5, 17}, {6, 18, 7, 19, 8, 20}};
  for (int m = 0; m < 3; ++m) {
    for (int n = 0; n < 6; ++n) {
      EXPECT_EQ(int(crd2idx(make_coord(m, n), shape, stride)), table[m][n]) << m << "," << n;
      EXPECT_EQ(int(crd2idx(m + 3 * n, shape, stride)), table[m][n]) << m << "," << n;
    }
  }
  static_assert(decltype(crd2idx(_16{}, shape, stride))::value == 17, "static coordinates give a static index");
}

// idx2crd is the inverse of the colexicographic numbering, for every coordinate of random shapes.
TEST(CuteIntTuple, Idx2CrdInvertsCrd2IdxProperty) {
  cute_test::Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> v = {rng.uniform(1, 5), rng.uniform(1, 5), rng.uniform(1, 5), rng.uniform(1, 5)};
    auto shape = cute_test::from_leaves<tuple<int, tuple<int, int>, int>>(v);
    auto colmajor = compact_col_major(shape);
    for (int i = 0; i < size(shape); ++i) {
      EXPECT_EQ(crd2idx(idx2crd(i, shape), shape, colmajor), i);
    }
  }
}

TEST(CuteIntTuple, CompactStrides) {
  EXPECT_EQ(printed(compact_col_major(make_shape(2, make_shape(2, 2)))), "(_1,(2,4))");
  EXPECT_EQ(printed(compact_col_major(make_shape(_2{}, 4))), "(_1,_2)");
  EXPECT_EQ(printed(compact_row_major(make_shape(_2{}, 4))), "(4,_1)");
  EXPECT_EQ(printed(compact_row_major(Shape<_2, Shape<_3, _4>>{})), "(_12,(_4,_1))");
  EXPECT_EQ(idx2crd(5, make_shape(2, 3), make_stride(3, 1)), make_coord(1, 2));
}
