// logical_product, blocked / raked products, the zipped / tiled / flat arrangements, and
// tile_to_shape.
// Source: CuTe documentation, media/docs/cpp/cute/02_layout_algebra.md, "Product (Tiling)",
// "Logical Product 1-D Example", "Blocked and Raked Products", "Zipped and Tiled Products"
// (NVIDIA/cutlass). The documented examples are checked in test_cute_docs.cpp.
#include <gtest/gtest.h>

#include <set>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::sorted;
using cute_test::values;

// @post compatible(A, layout<0>(R)); compatible(B, layout<1>(R)); R(i, j) == A(i) + A*(B(j)),
// A* = complement(A, size(A) * cosize(B)); R is injective for injective A and B.
TEST(CuteProduct, LogicalProductProperty) {
  cute_test::Rng rng(9);
  int admissible = 0;
  for (int trial = 0; trial < 400; ++trial) {
    auto a = cute_test::random_injective_layout<tuple<int, int>>(rng, {1, 2, 3, 4}, false);
    auto b = cute_test::random_injective_layout<tuple<int, int>>(rng, {1, 2, 3}, trial % 2 == 0);
    auto astar = complement(a, size(a) * cosize(b));
    if (!cute_test::composition_admissible(astar, b)) continue;
    ++admissible;
    auto r = logical_product(a, b);
    std::string const what = printed(a) + " x " + printed(b) + " = " + printed(r);
    EXPECT_TRUE(compatible(a.shape(), shape<0>(r))) << what;
    EXPECT_TRUE(compatible(b.shape(), shape<1>(r))) << what;
    for (int i = 0; i < size(a); ++i)
      for (int j = 0; j < size(b); ++j) EXPECT_EQ(r(i, j), a(i) + astar(b(j))) << what;
    std::vector<long long> const v = values(r);
    EXPECT_EQ(std::set<long long>(v.begin(), v.end()).size(), v.size()) << what;
  }
  EXPECT_GE(admissible, 50);
}

// Compact A and B: the product is a bijection onto [0, size(A) * size(B)), and blocked_product
// keeps A's blocks contiguous where raked_product interleaves them:
//   blocked(i + a0 j, k + a1 l) == raked(j + b0 i, l + b1 k) == A(i, k) + size(A) * B(j, l).
TEST(CuteProduct, BlockedAndRakedProperty) {
  cute_test::Rng rng(10);
  for (int trial = 0; trial < 100; ++trial) {
    auto a = cute_test::random_injective_layout<tuple<int, int>>(rng, {1, 2, 3, 4}, true);
    auto b = cute_test::random_injective_layout<tuple<int, int>>(rng, {1, 2, 3}, true);
    std::string const what = printed(a) + " x " + printed(b);
    EXPECT_EQ(sorted(values(logical_product(a, b))), cute_test::iota(size(a) * size(b))) << what;
    auto blocked = blocked_product(a, b);
    auto raked = raked_product(a, b);
    int const a0 = size<0>(a), a1 = size<1>(a), b0 = size<0>(b), b1 = size<1>(b);
    for (int i = 0; i < a0; ++i)
      for (int j = 0; j < b0; ++j)
        for (int k = 0; k < a1; ++k)
          for (int l = 0; l < b1; ++l) {
            EXPECT_EQ(blocked(i + a0 * j, k + a1 * l), a(i, k) + size(a) * b(j, l)) << what;
            EXPECT_EQ(raked(j + b0 * i, l + b1 * k), a(i, k) + size(a) * b(j, l)) << what;
          }
  }
}

TEST(CuteProduct, FlavorsAreTheSameFunction) {
  cute_test::Rng rng(12);
  for (int trial = 0; trial < 100; ++trial) {
    auto a = cute_test::random_injective_layout<tuple<int, int, int>>(rng, {1, 2, 3}, true);
    auto tiler = make_tile(cute_test::random_injective_layout<int>(rng, {1, 2, 3}, true),
                           cute_test::random_injective_layout<int>(rng, {1, 2, 4}, true));
    auto z = zipped_product(a, tiler);
    EXPECT_EQ(values(z), values(tiled_product(a, tiler))) << printed(a);
    EXPECT_EQ(values(z), values(flat_product(a, tiler))) << printed(a);
    EXPECT_EQ(sorted(values(z)), sorted(values(logical_product(a, tiler)))) << printed(a);
  }
}

TEST(CuteProduct, OrderedLayoutAndTileToShape) {
  EXPECT_EQ(printed(make_ordered_layout(make_shape(_2{}, _3{}, _4{}), Step<_2, _0, _1>{})), "(_2,_3,_4):(_12,_1,_3)");
  EXPECT_EQ(printed(make_ordered_layout(make_shape(_2{}, 3), Step<_1, _0>{})), "(_2,3):(3,_1)");
  // A 8x8 row-major block repeated over 32x16: blocks column-major by default.
  auto block = Layout<Shape<_8, _8>, Stride<_8, _1>>{};
  auto full = tile_to_shape(block, make_shape(_32{}, _16{}));
  EXPECT_EQ(printed(full), "(_32,(_8,_2)):(_8,(_1,_256))");  // (8,4):(8,64) coalesces to 32:8
  for (int m = 0; m < 32; ++m)
    for (int n = 0; n < 16; ++n) EXPECT_EQ(full(m, n), block(m % 8, n % 8) + 64 * (m / 8 + 4 * (n / 8)));
  // Blocks along N first.
  auto by_rows = tile_to_shape(block, make_shape(_32{}, _16{}), Step<_2, _1>{});
  for (int m = 0; m < 32; ++m)
    for (int n = 0; n < 16; ++n) EXPECT_EQ(by_rows(m, n), block(m % 8, n % 8) + 64 * (n / 8 + 2 * (m / 8)));
  // A stage mode: (_16,_8) blocks over (_32,_8,_3).
  auto staged = tile_to_shape(Layout<Shape<_16, _8>>{}, make_shape(_32{}, _8{}, _3{}));
  EXPECT_EQ(printed(staged), "((_16,_2),_8,_3):((_1,_128),_16,_256)");
}
