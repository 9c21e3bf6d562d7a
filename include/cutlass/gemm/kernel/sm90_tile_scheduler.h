/// @file cutlass/gemm/kernel/sm90_tile_scheduler.h
/// Persistent tile order, in units of cluster tiles: a cluster of ClusterM x ClusterN CTAs covers
/// ClusterM x ClusterN neighbouring output tiles, and the CTA of rank (rank_m, rank_n) in it takes
/// tile (cluster_row * ClusterM + rank_m, cluster_column * ClusterN + rank_n). So the CTAs of a
/// cluster that share a row of tiles (same M) share A and those that share a column (same N)
/// share B in every iteration. Cluster c (of C launched) walks units c, c + C, ...; every CTA of
/// a cluster walks the same units, so all run the same number of tiles and k-blocks.
/// Units are numbered batch-major; within a batch they go in groups of kGroupM tile rows, M
/// fastest inside a group, so the ~132 tiles in flight at once share a few A row panels and B
/// column panels in L2 (grouped raster order, as CUTLASS's swizzled scheduler and Triton's
/// grouped ordering). With 1x1 clusters a unit is a tile and the order is the plain grouped one.
/// At the M or N edge a partial cluster keeps its shape: a CTA whose tile lies wholly outside the
/// problem still runs it (its loads are zero-filled, its stores clipped by TMA), because its
/// peers need its share of the multicast loads and its barrier arrivals.
#pragma once

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace kernel {

template <int ClusterM = 1, int ClusterN = 1>
struct Sm90TileScheduler {
  static_assert(ClusterM >= 1 && ClusterN >= 1, "Sm90TileScheduler: cluster extents must be positive");
  static constexpr int kGroupM = 8;   ///< tile rows per group
  static constexpr int kGroupRows = kGroupM / ClusterM > 0 ? kGroupM / ClusterM : 1;   ///< in cluster rows

  int m_tiles = 0, n_tiles = 0, batch = 0;   ///< in CTA tiles

  CUTLASS_HOST_DEVICE int cluster_rows() const { return (m_tiles + ClusterM - 1) / ClusterM; }
  CUTLASS_HOST_DEVICE int cluster_columns() const { return (n_tiles + ClusterN - 1) / ClusterN; }

  /// Work units (cluster tiles) of the whole problem.
  CUTLASS_HOST_DEVICE int unit_count() const { return cluster_rows() * cluster_columns() * batch; }

  /// The (m, n, batch) tile coordinates of unit `u` for the CTA of rank (rank_m, rank_n) in its
  /// cluster. m_block may reach past the last tile row (likewise n_block) at a partial cluster.
  CUTLASS_HOST_DEVICE void coordinates(int u, int rank_m, int rank_n, int &m_block, int &n_block, int &l) const {
    int const rows = cluster_rows();
    int const columns = cluster_columns();
    int const per_batch = rows * columns;
    l = u / per_batch;
    int r = u - l * per_batch;
    int const group_units = kGroupRows * columns;
    int const group = r / group_units;
    int const first_row = group * kGroupRows;
    int const group_rows = (rows - first_row) < kGroupRows ? (rows - first_row) : kGroupRows;
    r -= group * group_units;
    m_block = (first_row + r % group_rows) * ClusterM + rank_m;
    n_block = (r / group_rows) * ClusterN + rank_n;
  }
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
