/// @file src/library/gemm_raster.h
/// The HBM bytes of an sm90 persistent or stream-K kernel's tile order, for the cost model
/// (internal). The order is the scheduler's raster order and band width (CUTLASS's raster_order /
/// swizzle_size, cutlass/gemm/gemm_arguments.h).
///
/// Window model: the ~SM-count CTAs that run at once cover a window of the tile grid, r tile rows
/// by c tile columns (a band of `swizzle_size` rows walked along N covers r = swizzle_size, c =
/// CTAs / r; a band shorter than the CTAs spans several bands). Each window reads its r A row
/// panels and c B column panels from HBM once (the CTAs sharing a panel run its k-blocks at about
/// the same time, so all but the first find it in L2) and nothing of it survives into the next
/// wave once the operands exceed L2. Bytes per wave and k-block:
/// (r x tile M x size(A) + c x tile N x size(B)) x tile K.
/// The model gives the bytes of the default order (bands of 8 tile rows walked along N) only, for
/// the cost model's floor on HBM time; it does not choose an order. It ranked orders wrong on the
/// H200 (s33, docs/NOTES.md): on the 64x128 ping-pong tile it prefers bands of 8 columns walked
/// along M (21% fewer bytes per wave), which ran 27-30% slower than the default at 4096^3 and
/// 2048 x 8192 x 4096; on the 128x208 stream-K tile at 4096 x 2048 x 11008 it ties the orders,
/// where along M ran 4.6% faster. None of those shapes is HBM-bound: the order changes L2 traffic
/// there, which the model does not see. So the handle runs every call in the kernels' default
/// order (a caller of an Operation, or the profiler's --raster_order / --swizzle_size, can set
/// another).
#pragma once

#include "gemm_call.h"

namespace cutlass {
namespace library {

/// Bytes `desc` pulls from HBM for `call` in the default order by the window model above: waves x the
/// window's bytes per k-block x k-blocks (0 for kernels the model does not cover: all but the sm90
/// persistent and stream-K ones with both tile sides of at least 64). The cost model
/// (estimated_time) takes it as a floor on the memory time.
double raster_hbm_bytes(GemmDescription const &desc, GemmCall const &call, int sm_count);

}  // namespace library
}  // namespace cutlass
