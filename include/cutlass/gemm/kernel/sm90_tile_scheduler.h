/// @file cutlass/gemm/kernel/sm90_tile_scheduler.h
/// Persistent tile order: CTA b walks tiles b, b + gridDim.x, ... Tiles are numbered batch-major;
/// within a batch they go in groups of kGroupM tile rows, M fastest inside a group, so the
/// ~132 tiles in flight at once share a few A row panels and B column panels in L2
/// (grouped raster order, as CUTLASS's swizzled scheduler and Triton's grouped ordering).
#pragma once

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace kernel {

struct Sm90TileScheduler {
  static constexpr int kGroupM = 8;

  int m_tiles = 0, n_tiles = 0, batch = 0;

  CUTLASS_HOST_DEVICE int tile_count() const { return m_tiles * n_tiles * batch; }

  /// The (m, n, batch) tile coordinates of linear tile `t`.
  CUTLASS_HOST_DEVICE void coordinates(int t, int &m_block, int &n_block, int &l) const {
    int const per_batch = m_tiles * n_tiles;
    l = t / per_batch;
    int r = t - l * per_batch;
    int const group_tiles = kGroupM * n_tiles;
    int const group = r / group_tiles;
    int const first_m = group * kGroupM;
    int const group_m = (m_tiles - first_m) < kGroupM ? (m_tiles - first_m) : kGroupM;
    r -= group * group_tiles;
    m_block = first_m + r % group_m;
    n_block = r / group_m;
  }
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
