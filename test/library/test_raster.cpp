/// The persistent tile order's run-time raster (cutlass/gemm/kernel/sm90_tile_scheduler.h) and
/// the cost model's HBM bytes of the default order (src/library/gemm_raster.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "gemm_raster.h"
#include "gemm_selection.h"
#include "selection_test_util.h"

namespace {

using cutlass::gemm::RasterOrder;
using namespace cutlass::library;
using selection_test::bf16_tn_call;
using selection_test::sm90_bf16;

/// Every (unit, rank) of a ClusterM x ClusterN scheduler over an m x n x batch grid of tiles, in
/// order `order` with bands of `swizzle` tiles, lands on a distinct tile of the grid padded to
/// whole clusters, and together they cover it.
template <int ClusterM, int ClusterN>
void expect_every_tile_once(int m_tiles, int n_tiles, int batch, RasterOrder order, int swizzle) {
  cutlass::gemm::kernel::Sm90TileScheduler<ClusterM, ClusterN> s;
  s.m_tiles = m_tiles;
  s.n_tiles = n_tiles;
  s.batch = batch;
  s.set_raster(order, swizzle);
  int const rows = s.cluster_rows() * ClusterM, columns = s.cluster_columns() * ClusterN;
  std::vector<int> seen(size_t(rows) * columns * batch, 0);
  for (int u = 0; u < s.unit_count(); ++u) {
    for (int rm = 0; rm < ClusterM; ++rm) {
      for (int rn = 0; rn < ClusterN; ++rn) {
        int m = -1, n = -1, l = -1;
        s.coordinates(u, rm, rn, m, n, l);
        ASSERT_TRUE(m >= 0 && m < rows && n >= 0 && n < columns && l >= 0 && l < batch)
            << "unit " << u << " -> (" << m << ", " << n << ", " << l << ")";
        ++seen[(size_t(l) * columns + n) * rows + m];
      }
    }
  }
  for (int v : seen) ASSERT_EQ(1, v);
}

TEST(Raster, EveryOrderAndWidthCoversEveryTileOnce) {
  struct Grid {
    int m, n, batch;
  };
  for (Grid const g : {Grid{1, 1, 1}, Grid{3, 5, 1}, Grid{17, 4, 1}, Grid{8, 64, 1}, Grid{64, 8, 1}, Grid{7, 7, 2},
                       Grid{1, 33, 3}, Grid{33, 1, 1}})
  for (RasterOrder order : {RasterOrder::kAlongN, RasterOrder::kAlongM, RasterOrder::kHeuristic})
  for (int swizzle : {0, 1, 2, 4, 8}) {
    SCOPED_TRACE(std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.batch) + " order " +
                 std::to_string(int(order)) + " swizzle " + std::to_string(swizzle));
    expect_every_tile_once<1, 1>(g.m, g.n, g.batch, order, swizzle);
    expect_every_tile_once<2, 1>(g.m, g.n, g.batch, order, swizzle);
    expect_every_tile_once<1, 2>(g.m, g.n, g.batch, order, swizzle);
  }
}

/// Along N: bands of tile rows, M fastest inside a band (the kernels' default, bands of 8); along
/// M: bands of tile columns, N fastest.
TEST(Raster, OrdersWalkTheirBands) {
  cutlass::gemm::kernel::Sm90TileScheduler<1, 1> s;
  s.m_tiles = 16;
  s.n_tiles = 16;
  s.batch = 1;
  auto at = [&](int u) {
    int m = 0, n = 0, l = 0;
    s.coordinates(u, 0, 0, m, n, l);
    return std::to_string(m) + "," + std::to_string(n);
  };
  EXPECT_EQ("1,0", at(1)) << "default: M fastest";
  EXPECT_EQ("0,1", at(8)) << "default: bands of 8 rows";
  s.set_raster(RasterOrder::kHeuristic, 0);
  EXPECT_EQ("0,1", at(8));
  s.set_raster(RasterOrder::kAlongN, 4);
  EXPECT_EQ("0,1", at(4));
  EXPECT_EQ("4,0", at(64)) << "the second band of 4 rows";
  s.set_raster(RasterOrder::kAlongM, 2);
  EXPECT_EQ("0,1", at(1)) << "along M: N fastest";
  EXPECT_EQ("1,0", at(2));
  EXPECT_EQ("0,2", at(32)) << "the second band of 2 columns";
  // a cluster of 2 rows counts a band of 8 tile rows as 4 cluster rows
  cutlass::gemm::kernel::Sm90TileScheduler<2, 1> c;
  c.m_tiles = 16;
  c.n_tiles = 16;
  c.batch = 1;
  c.set_raster(RasterOrder::kAlongN, 8);
  EXPECT_EQ(4, c.band);
  c.set_raster(RasterOrder::kAlongN, 1);
  EXPECT_EQ(1, c.band) << "at least one cluster";
}

TEST(Raster, ValidValuesAreCutlasss) {
  for (int w : {0, 1, 2, 4, 8}) EXPECT_TRUE(cutlass::gemm::raster_is_valid(RasterOrder::kAlongM, w)) << w;
  for (int w : {-1, 3, 5, 16}) EXPECT_FALSE(cutlass::gemm::raster_is_valid(RasterOrder::kAlongN, w)) << w;
  EXPECT_FALSE(cutlass::gemm::raster_is_valid(RasterOrder::kInvalid, 0));
  EXPECT_FALSE(cutlass::gemm::raster_is_valid(RasterOrder(7), 0));
}

/// The bytes the model charges: one wave reads A and B once; 8192^3 on the 128x128 tile reads a
/// window of 8 x 17 tiles per wave, 32 waves (about 1.7 GB); kernels outside the model: 0.
TEST(Raster, HbmBytesOfTheWindowModel) {
  GemmCall const one_wave = bf16_tn_call(1024, 1024, 8192);
  double const operands = (1024.0 * 8192 + 8192.0 * 1024) * 2;
  EXPECT_DOUBLE_EQ(operands, raster_hbm_bytes(sm90_bf16(128, 128), one_wave, 132));
  double const waves = 32, window = (8 * 128 + 17 * 128) * 2.0 * 8192;
  EXPECT_DOUBLE_EQ(waves * window, raster_hbm_bytes(sm90_bf16(128, 128), bf16_tn_call(8192, 8192, 8192), 132));
  // a tile wider than tall in the same default order (bands of 8 tile rows): 8 x 17 tiles, 16 waves
  double const wide_window = (8 * 128 + 17 * 256) * 2.0 * 8192;
  EXPECT_DOUBLE_EQ(16 * wide_window, raster_hbm_bytes(sm90_bf16(128, 256), bf16_tn_call(8192, 8192, 8192), 132));
  EXPECT_EQ(0, raster_hbm_bytes(sm90_bf16(128, 128, TileSchedulerType::kGrouped), one_wave, 132));
}

}  // namespace
