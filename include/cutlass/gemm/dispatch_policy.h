/// @file cutlass/gemm/dispatch_policy.h
/// Tags that name a kernel's schedule (CUTLASS 3.x spellings, so names and habits carry over).
#pragma once

namespace cutlass {
namespace gemm {

/// sm90: one producer warpgroup (TMA) and two consumer warpgroups (wgmma) that split each CTA
/// tile between them; persistent over output tiles.
struct KernelTmaWarpSpecializedCooperative {};

/// sm90: one producer warpgroup (TMA) and two consumer warpgroups that take alternate CTA tiles,
/// so one consumer's epilogue runs while the other's wgmma mainloop keeps the tensor cores busy;
/// persistent over output tiles.
struct KernelTmaWarpSpecializedPingpong {};

/// sm90, fp8 operands: the cooperative schedule whose consumers promote every 128-deep k-block's
/// partial sum into f32 registers, multiplied by the operands' block scales of that k-block
/// (collective/sm90_block_scales.h): cuBLASLt's VEC128_32F / BLK128x128_32F scales and its
/// precise (not FAST_ACCUM) accumulation. Persistent scheduler only.
struct KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum {};

/// sm90 tile schedulers (CUTLASS 3.x spellings).
/// Persistent: each CTA (cluster) takes whole output tiles, grid-strided, in grouped raster order.
struct PersistentScheduler {};

/// Stream-K (Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense Matrix
/// Multiplication on the GPU", PPoPP 2023, arXiv 2301.03598), data-parallel + stream-K hybrid:
/// the tiles of the whole waves run whole, and the k-blocks of the last partial wave's tiles plus
/// one whole wave are split evenly over all CTAs, which add their partial sums through a device
/// workspace. Needs a workspace (get_workspace_size) and every CTA of the grid resident at once.
struct StreamKScheduler {};

/// Grouped: one persistent launch over many problems (a grouped GEMM's groups), each with its
/// own operands, M, N and K; tiles are walked group after group
/// (Sm90GroupedTileScheduler). Run with the kernel's Grouped::run_grouped (gemm_sm90_grouped.h), not run.
struct GroupedScheduler {};

}  // namespace gemm
}  // namespace cutlass
