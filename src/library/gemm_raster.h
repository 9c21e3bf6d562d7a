/// @file src/library/gemm_raster.h
/// The tile order the handle runs an sm90 persistent kernel in (internal): the raster order and
/// band width (CUTLASS's raster_order / swizzle_size, cutlass/gemm/gemm_arguments.h), chosen per
/// call by the bytes the CTAs running at once pull from HBM, and those bytes for the cost model.
///
/// Window model: the ~SM-count CTAs that run at once cover a window of the tile grid, r tile rows
/// by c tile columns (a band of `swizzle_size` rows walked along N covers r = swizzle_size, c =
/// CTAs / r; along M the mirror; a band shorter than the CTAs spans several bands). Each window
/// reads its r A row panels and c B column panels from HBM once (the CTAs sharing a panel run its
/// k-blocks at about the same time, so all but the first find it in L2) and nothing of it
/// survives into the next wave once the operands exceed L2. Bytes per wave and k-block:
/// (r x tile M x size(A) + c x tile N x size(B)) x tile K; the least such window is the best
/// order (r ~ sqrt(CTAs x tile N / tile M)): square tiles tie, a 128x256 tile prefers bands of
/// columns walked along M (4224 against 5376 rows of K per wave at 132 CTAs).
/// The model is this file's alone: NOT yet fitted on a GPU (docs/NOTES.md, s32). So the choice
/// leaves the kernels' measured default (bands of 8 tile rows walked along N, the order of every
/// earlier measurement) unless another order's window is at least kRasterGain smaller.
#pragma once

#include "gemm_call.h"

namespace cutlass {
namespace library {

/// A raster order and band width for an Operation's GemmUniversalArguments.
struct RasterChoice {
  RasterOrder order = RasterOrder::kHeuristic;   ///< kHeuristic: the kernel's default (kAlongN)
  int swizzle_size = 0;                          ///< 0: the kernel's default (8)
};

/// The order for `desc` on `call` (column-major output) on `sm_count` SMs (0: 132): the least
/// window of the model above among along N / along M x 8, 4, 2, 1 tiles, when it is at least
/// kRasterGain below the default's; the default otherwise, and for every kernel but the sm90
/// persistent and stream-K ones with both tile sides of at least 64 (which alone read the order
/// in the caller's terms: the swap-AB tiles' default is along M, and they run one tile row but
/// for split-K slices, so the model leaves them alone).
RasterChoice choose_raster(GemmDescription const &desc, GemmCall const &call, int sm_count);

/// Bytes `desc` pulls from HBM for `call` under choose_raster's order by the window model: waves x
/// the window's bytes per k-block x k-blocks (0 for kernels the model does not cover). The cost
/// model (estimated_time) takes it as a floor on the memory time.
double raster_hbm_bytes(GemmDescription const &desc, GemmCall const &call, int sm_count);

}  // namespace library
}  // namespace cutlass
