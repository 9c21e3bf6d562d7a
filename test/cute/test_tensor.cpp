// Tensor = pointer + layout: element access, slicing with `_`, local_tile (a CTA's tile) and
// local_partition (a thread's elements).
// Source: CuTe documentation, media/docs/cpp/cute/03_tensor.md ("Tensor", slicing, "Partitioning
// a Tensor": inner / outer partitioning) (NVIDIA/cutlass).
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "cute_test_util.hpp"
#include "cute/tensor.hpp"

using namespace cute;
using cute_test::printed;

TEST(CuteTensor, AccessAndSlicing) {
  std::vector<float> buf(8 * 10);
  int const ld = 10;
  auto t = make_tensor(buf.data(), make_shape(6, 10), make_stride(1, ld));  // column-major, ld > M
  for (int m = 0; m < 6; ++m)
    for (int n = 0; n < 10; ++n) EXPECT_EQ(&t(m, n), &buf[static_cast<std::size_t>(m + ld * n)]);
  auto col = t(_, 3);
  EXPECT_EQ(printed(col.layout()), "(6):(1)");
  EXPECT_EQ(&col(4), &t(4, 3));
  auto row = t(2, _);
  EXPECT_EQ(printed(row.layout()), "(10):(10)");
  EXPECT_EQ(&row(7), &t(2, 7));
  EXPECT_EQ(int(size(t)), 60);
  EXPECT_EQ(int(size<1>(t)), 10);
  float array[3][4] = {};  // an array decays to a pointer, as for a __shared__ buffer
  auto ta = make_tensor(&array[0][0] + 0, Layout<Shape<_4, _3>>{});
  auto tb = make_tensor(array[1], make_shape(_4{}));
  static_assert(std::is_same<decltype(tb.data()), float* const&>::value, "");
  EXPECT_EQ(&ta(1, 2), &array[2][1]);
  EXPECT_EQ(&tb(3), &array[1][3]);
}

// Each tile of local_tile addresses the same elements as the whole tensor at the tile's offset.
TEST(CuteTensor, LocalTile) {
  int const M = 64, N = 48, K = 32;
  std::vector<float> a(static_cast<std::size_t>(M * K));
  auto mA = make_tensor(a.data(), make_shape(M, K));
  auto cta_tiler = make_shape(_16{}, _8{}, _8{});  // (BLK_M, BLK_N, BLK_K)
  for (int m_blk = 0; m_blk < M / 16; ++m_blk) {
    auto gA = local_tile(mA, cta_tiler, make_coord(m_blk, 0, _), Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
    EXPECT_EQ(printed(shape(gA)), "(_16,_8,4)");
    for (int m = 0; m < 16; ++m)
      for (int k = 0; k < 8; ++k)
        for (int kb = 0; kb < K / 8; ++kb) EXPECT_EQ(&gA(m, k, kb), &mA(16 * m_blk + m, 8 * kb + k));
  }
  std::vector<float> c(static_cast<std::size_t>(M * N));
  auto mC = make_tensor(c.data(), make_shape(M, N));
  auto gC = local_tile(mC, cta_tiler, make_coord(2, 3, _), Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  EXPECT_EQ(&gC(5, 6), &mC(32 + 5, 24 + 6));
}

// local_partition gives every element of the tile to exactly one thread, at its place in the
// repeated thread layout.
TEST(CuteTensor, LocalPartition) {
  std::vector<int> owner(128 * 32, -1);
  auto tile = make_tensor(owner.data(), Layout<Shape<_128, _32>>{});
  auto threads = Layout<Shape<_16, _8>, Stride<_8, _1>>{};  // 128 threads, row-major
  for (int tid = 0; tid < 128; ++tid) {
    auto mine = local_partition(tile, threads, tid);  // (128/16, 32/8)
    EXPECT_EQ(printed(mine.layout()), "(_8,_4):(_16,_1024)");
    int const tm = tid / 8, tn = tid % 8;  // the thread's position in the row-major 16x8 layout
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j) {
        EXPECT_EQ(&mine(i, j), &tile(tm + 16 * i, tn + 8 * j));
        EXPECT_EQ(mine(i, j), -1);
        mine(i, j) = tid;
      }
  }
  for (int v : owner) EXPECT_NE(v, -1);
  // With a projection: partition the rows only.
  auto rows = local_partition(tile, threads, 9, Step<_1, X>{});
  EXPECT_EQ(printed(shape(rows)), "(_8,_32)");
  EXPECT_EQ(&rows(2, 5), &tile(1 + 16 * 2, 5));
}

TEST(CuteTensor, SwizzledSharedMemoryTile) {
  std::vector<short> smem(128 * 64 * 2);
  auto layout = tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}),
                              make_shape(_128{}, _64{}, _2{}));
  auto sA = make_tensor(smem.data(), layout);
  auto stage1 = sA(_, _, 1);
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k) EXPECT_EQ(&stage1(m, k), &smem[static_cast<std::size_t>(layout(m, k, 1))]);
}
