/// @file src/library/gemm_raster.cpp
/// The window model of the default tile order (gemm_raster.h states it).
#include "gemm_raster.h"

#include <algorithm>
#include <cmath>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "gemm_selection.h"
#include "cutlass/library/util.h"

namespace cutlass {
namespace library {

namespace {

/// The kernels' default band width, in tiles (swizzle_size 0).
constexpr int kDefaultWidth = cutlass::gemm::kernel::Sm90TileScheduler<>::kGroupM;

/// The kernels the model covers: sm90 persistent and stream-K, both tile sides at least 64.
bool in_model(GemmDescription const &d) {
  TileDescription const &t = d.tile_description;
  bool const persistent = t.tile_scheduler == TileSchedulerType::kPersistent || t.tile_scheduler == TileSchedulerType::kStreamK;
  return persistent && t.minimum_compute_capability >= 90 && d.max_small_extent == 0 && t.threadblock_shape.m() >= 64 &&
         t.threadblock_shape.n() >= 64;
}

/// The shape of one batch's tile grid and how many of its tiles run at once.
struct Grid {
  double m_tiles = 0, n_tiles = 0, running = 0;
};

Grid grid_of(GemmDescription const &d, GemmCall const &c, int sm_count) {
  auto const &tile = d.tile_description.threadblock_shape;
  Grid g;
  g.m_tiles = std::ceil(double(c.m) / tile.m());
  g.n_tiles = std::ceil(double(c.n) / tile.n());
  g.running = std::min(g.m_tiles * g.n_tiles, double(sm_count > 0 ? sm_count : kDefaultSmCount));
  return g;
}

/// Bytes the default order's window reads per k-block: its rows tile rows of A and columns tile
/// columns of B, tile K deep (bands of kDefaultWidth tile rows, or the cluster's rows if more,
/// walked along N).
double window_bytes(GemmDescription const &d, Grid const &g) {
  auto const &tile = d.tile_description.threadblock_shape;
  double const band = std::min(double(std::max(kDefaultWidth, d.tile_description.cluster_shape.m())), g.m_tiles);
  double rows, columns;
  if (band * g.n_tiles >= g.running) {
    rows = band;
    columns = std::ceil(g.running / band);
  } else {   // the window spans several whole bands
    columns = g.n_tiles;
    rows = std::min(g.m_tiles, std::ceil(g.running / g.n_tiles));
  }
  return (rows * tile.m() * double(bytes_of(d.A.element)) + columns * tile.n() * double(bytes_of(d.B.element))) *
         tile.k();
}

}  // namespace

double raster_hbm_bytes(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  if (!in_model(desc)) return 0;
  Grid const g = grid_of(desc, call, sm_count);
  if (g.running <= 0) return 0;
  double const waves = std::ceil(g.m_tiles * g.n_tiles * double(call.batch_count) / g.running);
  // (one wave's window is the whole grid: each tile row of A and column of B once)
  double const k_blocks = std::ceil(double(call.k) / desc.tile_description.threadblock_shape.k());
  return waves * window_bytes(desc, g) * k_blocks;
}

}  // namespace library
}  // namespace cutlass
