/// @file cutlass/gemm/threadblock/sm80_threadblock_swizzle.h
/// Maps a CTA index to the output tile it computes, in an order that keeps the tiles of one
/// wave close together so their A rows and B columns are shared in L2.
///
/// With kLog = log2(group width G): blockIdx.x = tile_m * G + (tile_n % G),
/// blockIdx.y = tile_n / G. Consecutive CTAs therefore walk G adjacent N tiles of one M tile,
/// then the same G N tiles of the next M tile: a wave of W CTAs touches about W / G M tiles
/// and G N tiles instead of W N tiles of one M row (the grouping CUTLASS calls
/// GemmIdentityThreadblockSwizzle<G>). CTAs whose tile_n falls past the last N tile (when
/// G does not divide the N tile count) have no work and exit.
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

struct Sm80ThreadblockSwizzle {
  /// log2 of the group width for a grid of tiles_n N tiles: 8 when there are at least 8 N
  /// tiles, else the largest power of two not above tiles_n.
  static int log_group(int tiles_n) { return tiles_n >= 8 ? 3 : tiles_n >= 4 ? 2 : tiles_n >= 2 ? 1 : 0; }

  /// Grid extents: x = tiles_m << log, y = ceil(tiles_n / 2^log) (z is the batch, set by the caller).
  static int64_t grid_x(int tiles_m, int log) { return int64_t(tiles_m) << log; }
  static int64_t grid_y(int tiles_n, int log) { return (int64_t(tiles_n) + (1 << log) - 1) >> log; }

  /// Tile coordinates of CTA (block_x, block_y).
  CUTLASS_HOST_DEVICE static int tile_m(int block_x, int log) { return block_x >> log; }
  CUTLASS_HOST_DEVICE static int tile_n(int block_x, int block_y, int log) {
    return (block_y << log) + (block_x & ((1 << log) - 1));
  }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
