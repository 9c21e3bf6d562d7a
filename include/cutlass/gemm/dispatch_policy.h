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

}  // namespace gemm
}  // namespace cutlass
