/// @file cutlass/gemm/threadblock/simt_threadblock_swizzle.h
/// The SIMT kernel's map from blockIdx to (tile_m, tile_n, batch entry l). Grid x runs over M
/// tiles, y over N tiles, z over the batch, with groups of 2^log N tiles folded into x:
///
///     blockIdx.x = tile_m * 2^log + (tile_n % 2^log)
///     blockIdx.y = tile_n / 2^log                          (group_n, 0 .. groups_n-1)
///     blockIdx.z = l
///
/// CTAs launch in blockIdx.x-fastest order, so a wave sweeps the M tiles of 2^log adjacent N
/// tiles: those CTAs share 2^log B panels and each A panel is reused 2^log times while it is hot
/// in L2 (the grouping of CUTLASS's GemmIdentityThreadblockSwizzle).
///
/// Batches of more than 65535 entries (CUDA's grid.z limit) continue in slices along grid y:
/// blockIdx.y = slice * 2^slice_shift + group_n and l = slice * 65535 + blockIdx.z, with
/// 2^slice_shift >= groups_n. Powers of two keep the decode to shifts and masks (no integer
/// division in the kernel). Without slicing slice_shift is
/// 31 and every blockIdx.y is a group_n. CTAs whose tile_n or l lies past the problem do nothing,
/// so every CTA computes at most one tile and the kernel needs no loop over the batch.

#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

struct SimtThreadblockSwizzle {
  /// The largest grid.y and grid.z a CUDA launch accepts.
  static constexpr int kMaxGridYZ = 65535;
  /// At most 2^3 = 8 N tiles per group.
  static constexpr int kMaxLog = 3;

  int tiles_m = 0;
  int tiles_n = 0;
  int batch_count = 0;
  int log = 0;               ///< N tiles per group = 2^log, never more than tiles_n
  int groups_n = 0;          ///< ceil(tiles_n / 2^log)
  int slice_shift = 31;      ///< blockIdx.y bits of group_n (31: no batch slices)
  unsigned group_mask = ~0u; ///< 2^slice_shift - 1

  SimtThreadblockSwizzle() = default;

  CUTLASS_HOST SimtThreadblockSwizzle(int tiles_m_, int tiles_n_, int batch_count_)
      : tiles_m(tiles_m_), tiles_n(tiles_n_), batch_count(batch_count_) {
    while (log < kMaxLog && (2 << log) <= tiles_n) ++log;
    groups_n = int((int64_t(tiles_n) + (1 << log) - 1) >> log);
    if (batch_slices() > 1) {
      slice_shift = 0;
      while ((int64_t(1) << slice_shift) < groups_n) ++slice_shift;
      group_mask = (1u << slice_shift) - 1;
    }
  }

  /// Number of 65535-entry slices of the batch.
  CUTLASS_HOST int64_t batch_slices() const { return (int64_t(batch_count) + kMaxGridYZ - 1) / kMaxGridYZ; }

  CUTLASS_HOST int64_t grid_y() const {
    return batch_slices() > 1 ? (batch_slices() << slice_shift) : int64_t(groups_n);
  }

  /// Whether the grid fits CUDA's limits (grid.x < 2^31, grid.y <= 65535).
  CUTLASS_HOST bool fits() const {
    return (int64_t(tiles_m) << log) <= int64_t(0x7fffffff) && grid_y() <= kMaxGridYZ;
  }

  CUTLASS_HOST dim3 grid_shape() const {
    return dim3(unsigned(tiles_m) << log, unsigned(grid_y()),
                unsigned(batch_count < kMaxGridYZ ? batch_count : kMaxGridYZ));
  }

#if defined(__CUDACC__)
  /// This CTA's tile and batch entry, and whether they lie inside the problem.
  CUTLASS_DEVICE bool get_tile(int &tile_m, int &tile_n, int &batch) const {
    int const group_n = int(blockIdx.y & group_mask);
    int const slice = int(blockIdx.y >> slice_shift);
    tile_m = int(blockIdx.x >> log);
    tile_n = (group_n << log) | int(blockIdx.x & ((1u << log) - 1));
    batch = slice * kMaxGridYZ + int(blockIdx.z);
    return tile_n < tiles_n && batch < batch_count;
  }
#endif
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
