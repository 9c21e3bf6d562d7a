// complement: the layout of the part of [0, size(cotarget)) a layout does not reach.
// Source: CuTe documentation, media/docs/cpp/cute/02_layout_algebra.md, "Complement" (the @post
// conditions: bounded, ordered, disjoint) and "Complement Examples" (NVIDIA/cutlass). The
// documented examples are checked in test_cute_docs.cpp.
#include <gtest/gtest.h>

#include <set>

#include "cute_test_util.hpp"
#include "cute/layout.hpp"

using namespace cute;
using cute_test::printed;
using cute_test::values;

namespace {
// @post cosize(make_layout(A, R)) >= size(cotarget); R(i-1) < R(i); R(i) != A(j) for i >= 1.
template <class A, class T>
void expect_complement_post(A const& a, T const& cotarget) {
  auto r = complement(a, cotarget);
  std::string const what = printed(a) + " against " + printed(cotarget) + ": " + printed(r);
  EXPECT_GE(cosize(make_layout(a, r)), size(cotarget)) << what;
  std::vector<long long> const image = values(a);
  std::set<long long> const image_set(image.begin(), image.end());
  for (int i = 1; i < size(r); ++i) {
    EXPECT_LT(r(i - 1), r(i)) << what << " at " << i;
    EXPECT_EQ(image_set.count(r(i)), 0u) << what << " at " << i;
  }
}
}  // namespace

TEST(CuteComplement, Examples) {
  // Stride-0 and size-1 modes take no room in the codomain.
  EXPECT_EQ(printed(complement(Layout<Shape<_4, _3>, Stride<_1, _0>>{}, _16{})), "_4:_4");
  EXPECT_EQ(printed(complement(Layout<Shape<_1, _4>, Stride<_9, _2>>{}, _16{})), "(_2,_2):(_1,_8)");
  // A shape as cotarget counts by its size; a dynamic cotarget gives a dynamic repeat count.
  EXPECT_EQ(printed(complement(Layout<_4, _1>{}, make_shape(_4{}, _6{}))), "_6:_4");
  EXPECT_EQ(printed(complement(Layout<_4, _1>{}, 24)), "6:_4");
  // complement(l) fills the holes below cosize(l).
  EXPECT_EQ(printed(complement(Layout<Shape<_2, _2>, Stride<_1, _6>>{})), "_3:_2");
}

// Static strides are sorted at compile time, dynamic ones at run time: same function.
TEST(CuteComplement, StaticAndDynamicAgree) {
  auto check = [](auto a, auto cotarget) {
    expect_complement_post(a, cotarget);
    auto r = complement(a, cotarget);
    auto rd = complement(cute_test::to_dynamic(a), int(cotarget));
    EXPECT_EQ(values(r), values(rd)) << printed(a) << ": " << printed(r) << " vs " << printed(rd);
  };
  check(Layout<_4, _2>{}, _24{});
  check(Layout<Shape<_2, _4>, Stride<_1, _6>>{}, _24{});
  check(Layout<Shape<_2, _2>, Stride<_1, _6>>{}, _24{});
  check(Layout<Shape<_4, _6>, Stride<_1, _4>>{}, _24{});
  check(Layout<Shape<_3, _2, _2>, Stride<_8, _1, _48>>{}, Int<192>{});
  check(Layout<Shape<Shape<_2, _2>, _2>, Stride<Stride<_16, _2>, _64>>{}, Int<256>{});
}

// Random injective layouts whose modes do not overlap, with holes and gaps, against random
// cotargets; and permuted compact layouts, whose complement against k*size completes them to a
// bijection onto [0, k*size).
TEST(CuteComplement, RandomLayoutsProperty) {
  cute_test::Rng rng(4);
  std::vector<int> shapes = {1, 2, 3, 4, 5};
  for (int trial = 0; trial < 300; ++trial) {
    auto a1 = cute_test::random_injective_layout<int>(rng, shapes, false);
    expect_complement_post(a1, rng.uniform(1, 2 * cosize(a1) + 4));
    auto a2 = cute_test::random_injective_layout<tuple<int, int>>(rng, shapes, false);
    expect_complement_post(a2, rng.uniform(1, 2 * cosize(a2) + 4));
    auto a3 = cute_test::random_injective_layout<tuple<int, tuple<int, int>>>(rng, shapes, false);
    expect_complement_post(a3, rng.uniform(1, 2 * cosize(a3) + 4));

    auto c = cute_test::random_injective_layout<tuple<tuple<int, int>, int>>(rng, shapes, true);
    int const k = rng.uniform(1, 3);
    auto rest = complement(c, k * size(c));
    EXPECT_EQ(size(rest), k);
    EXPECT_EQ(cute_test::sorted(values(make_layout(c, rest))), cute_test::iota(k * size(c))) << printed(c);
  }
}
