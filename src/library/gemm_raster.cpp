/// @file src/library/gemm_raster.cpp
/// The raster choice and the window model (gemm_raster.h states them).
#include "gemm_raster.h"

#include <algorithm>
#include <cmath>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "gemm_selection.h"
#include "cutlass/library/util.h"

namespace cutlass {
namespace library {

namespace {

/// How much smaller (a fraction of the default's) another order's window must be to be chosen.
constexpr double kRasterGain = 0.10;
/// The kernels' default band width, in tiles (swizzle_size 0).
constexpr int kDefaultWidth = cutlass::gemm::kernel::Sm90TileScheduler<>::kGroupM;

bool reads_raster(GemmDescription const &d) {
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

/// Bytes the window of `choice` reads per k-block: its r tile rows of A and c tile columns of B,
/// tile K deep.
double window_bytes(GemmDescription const &d, Grid const &g, RasterChoice choice) {
  auto const &tile = d.tile_description.threadblock_shape;
  auto const &cluster = d.tile_description.cluster_shape;
  bool const along_m = choice.order == RasterOrder::kAlongM;
  double const walk = along_m ? g.m_tiles : g.n_tiles;    // tiles along the walk
  double const side = along_m ? g.n_tiles : g.m_tiles;    // tiles across it (the band's side)
  int const tiles = choice.swizzle_size > 0 ? choice.swizzle_size : kDefaultWidth;
  double const width = std::max(tiles, along_m ? cluster.n() : cluster.m());
  double const band = std::min(width, side);
  double across, along;
  if (band * walk >= g.running) {
    across = band;
    along = std::ceil(g.running / band);
  } else {   // the window spans several whole bands
    along = walk;
    across = std::min(side, std::ceil(g.running / walk));
  }
  double const rows = along_m ? along : across, columns = along_m ? across : along;
  return (rows * tile.m() * double(bytes_of(d.A.element)) + columns * tile.n() * double(bytes_of(d.B.element))) *
         tile.k();
}

}  // namespace

RasterChoice choose_raster(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  RasterChoice const kernel_default;
  if (!reads_raster(desc)) return kernel_default;
  Grid const g = grid_of(desc, call, sm_count);
  double const default_bytes = window_bytes(desc, g, RasterChoice{RasterOrder::kAlongN, kDefaultWidth});
  RasterChoice best = kernel_default;
  double best_bytes = default_bytes * (1.0 - kRasterGain);
  for (int width : {8, 4, 2, 1}) {
    for (RasterOrder order : {RasterOrder::kAlongN, RasterOrder::kAlongM}) {
      RasterChoice const candidate{order, width};
      double const bytes = window_bytes(desc, g, candidate);
      if (bytes < best_bytes) {
        best = candidate;
        best_bytes = bytes;
      }
    }
  }
  return best;
}

double raster_hbm_bytes(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  if (!reads_raster(desc)) return 0;
  Grid const g = grid_of(desc, call, sm_count);
  if (g.running <= 0) return 0;
  double const waves = std::ceil(g.m_tiles * g.n_tiles * double(call.batch_count) / g.running);
  auto const &tile = desc.tile_description.threadblock_shape;
  double const k_blocks = std::ceil(double(call.k) / tile.k());
  if (waves == 1) {   // one wave: every order reads each tile row of A and column of B once (no ranking)
    return (g.m_tiles * tile.m() * double(bytes_of(desc.A.element)) +
            g.n_tiles * tile.n() * double(bytes_of(desc.B.element))) *
           tile.k() * k_blocks;
  }
  return waves * window_bytes(desc, g, choose_raster(desc, call, sm_count)) * k_blocks;
}

}  // namespace library
}  // namespace cutlass
