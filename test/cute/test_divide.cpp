// logical_divide and its zipped / tiled / flat arrangements.
// Source: CuTe documentation, media/docs/cpp/cute/02_layout_algebra.md, "Division (Tiling)",
// "Logical Divide 1-D Example", "Logical Divide 2-D Example", "Zipped, Tiled, Flat Divides"
// (NVIDIA/cutlass). The documented examples are checked in test_cute_docs.cpp; here the
// properties: layout<0>(zipped_divide(A, B)) == composition(A, B), and a divide by a tiler that
// tiles A's domain is a bijection onto A's codomain (a permutation of A's domain).
#include <gtest/gtest.h>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::sorted;
using cute_test::values;

namespace {
// The prime factors of n (n is a product of 2s and 3s here).
std::vector<int> factors(int n) {
  std::vector<int> f;
  for (int p : {2, 3}) {
    for (; n % p == 0; n /= p) f.push_back(p);
  }
  return f;
}

// A tiler for a domain of size n: two of the three modes of a random permuted compact
// factorization of n, in random order. (B, complement(B, n)) is then a permutation of [0, n).
auto random_tiler(cute_test::Rng& rng, int n) {
  std::vector<int> f = factors(n);
  rng.shuffle(f);
  std::vector<int> s(3, 1);
  for (int p : f) s[static_cast<std::size_t>(rng.uniform(0, 2))] *= p;
  std::vector<int> order = {0, 1, 2};
  rng.shuffle(order);
  std::vector<int> d(3);
  int stride = 1;
  for (int m : order) {
    d[static_cast<std::size_t>(m)] = stride;
    stride *= s[static_cast<std::size_t>(m)];
  }
  int const skip = rng.uniform(0, 2);
  std::vector<int> bs, bd;
  for (int m : order) {
    if (m == skip) continue;
    bs.push_back(s[static_cast<std::size_t>(m)]);
    bd.push_back(d[static_cast<std::size_t>(m)]);
  }
  return make_layout(make_shape(bs[0], bs[1]), make_stride(bd[0], bd[1]));
}

// A layout of profile ((int,int),int) with mode sizes n0 and n1 and random strides.
auto random_matrix_layout(cute_test::Rng& rng, int n0, int n1) {
  std::vector<int> f = factors(n0);
  int a = 1;
  for (int p : f) a *= rng.uniform(0, 1) ? p : 1;
  std::vector<int> strides = {0, 1, 2, 3, 5, 12, 40};
  return make_layout(make_shape(make_shape(a, n0 / a), n1),
                     make_stride(make_stride(rng.pick(strides), rng.pick(strides)), rng.pick(strides)));
}

template <class A, class B>
bool divide_admissible(A const& a, B const& b) {
  return cute_test::composition_admissible(a, make_layout(b, complement(b, size(a))));
}
}  // namespace

TEST(CuteDivide, Examples) {
  // A Shape tiler: 128x64 tiles of an (M,N) column-major matrix with leading dimension M.
  auto mat = make_layout(make_shape(512, 256));
  auto tiles = zipped_divide(mat, make_shape(_128{}, _64{}));
  EXPECT_EQ(printed(tiles), "((_128,_64),(4,4)):((_1,512),(_128,32768))");
  EXPECT_EQ(tiles(make_coord(3, 2), make_coord(1, 2)), mat(128 + 3, 2 * 64 + 2));
  EXPECT_EQ(printed(tiled_divide(mat, make_shape(_128{}, _64{}))), "((_128,_64),4,4):((_1,512),_128,32768)");
  EXPECT_EQ(printed(flat_divide(mat, make_shape(_128{}, _64{}))), "(_128,_64,4,4):(_1,512,_128,32768)");
  // A static tile of a static layout stays static.
  auto s = zipped_divide(Layout<Shape<_128, _32>>{}, make_shape(_16{}, _8{}));
  static_assert(std::is_empty<decltype(s)>::value, "");
  EXPECT_EQ(printed(s), "((_16,_8),(_8,_4)):((_1,_128),(_16,_1024))");
}

// 1-D: A divided by a layout that tiles [0, size(A)) is a permutation of A's domain.
TEST(CuteDivide, LogicalDivide1DProperty) {
  cute_test::Rng rng(6);
  int admissible = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int const n0 = rng.pick({2, 3, 4, 6}), n1 = rng.pick({2, 4, 6}), n2 = rng.pick({1, 2, 3});
    std::vector<int> strides = {1, 2, 5, 7, 24};
    auto a = make_layout(make_shape(n0, n1, n2), make_stride(rng.pick(strides), rng.pick(strides), rng.pick(strides)));
    auto b = random_tiler(rng, n0 * n1 * n2);
    EXPECT_EQ(sorted(values(make_layout(b, complement(b, size(a))))), cute_test::iota(size(a))) << printed(b);
    if (!divide_admissible(a, b)) continue;
    ++admissible;
    auto d = logical_divide(a, b);
    EXPECT_EQ(sorted(values(d)), sorted(values(a))) << printed(a) << " / " << printed(b) << " = " << printed(d);
    for (int t = 0; t < size(b); ++t) EXPECT_EQ(d(t, 0), a(b(t))) << printed(a) << " / " << printed(b);
  }
  EXPECT_GE(admissible, 50);
}

// 2-D by-mode: bijection onto A's codomain, the tile is composition(A, B), and the zipped,
// tiled and flat arrangements are the same function of 1-D coordinates.
TEST(CuteDivide, TilerProperty) {
  cute_test::Rng rng(8);
  int admissible = 0;
  for (int trial = 0; trial < 600; ++trial) {
    int const n0 = rng.pick({4, 6, 8, 12, 24}), n1 = rng.pick({2, 4, 6, 12});
    auto a = random_matrix_layout(rng, n0, n1);
    auto tiler = make_tile(random_tiler(rng, n0), random_tiler(rng, n1));
    if (!divide_admissible(layout<0>(a), get<0>(tiler)) || !divide_admissible(layout<1>(a), get<1>(tiler))) continue;
    ++admissible;
    std::string const what = printed(a) + " / " + printed(tiler);
    auto ld = logical_divide(a, tiler);
    auto zd = zipped_divide(a, tiler);
    EXPECT_EQ(sorted(values(ld)), sorted(values(a))) << what;
    EXPECT_EQ(printed(layout<0>(zd)), printed(composition(a, tiler))) << what;
    EXPECT_EQ(values(layout<0>(zd)), values(composition(a, tiler))) << what;
    EXPECT_EQ(values(zd), values(tiled_divide(a, tiler))) << what;
    EXPECT_EQ(values(zd), values(flat_divide(a, tiler))) << what;
  }
  EXPECT_GE(admissible, 50);
}
