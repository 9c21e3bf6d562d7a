/// @file src/library/gemm_selection.h
/// Kernel selection for a checked GEMM call (internal): which kernels fit the call's types,
/// alignment and device, and which of them should run, by a cost model.
///
/// Cost model (estimated_time, microseconds on the device; constants measured on the H200 and
/// recorded in docs/NOTES.md):
///   time = max(compute, memory)
///   compute = waves x the time of one tile: 2 x tile M x tile N x K flops at the family's rate per
///             SM (wave_cost counts the waves, with the measured stream-K and small-tile factors)
///   memory  = TMA kernels (sm90): the largest of the bytes the call must move (A, B and D once, C
///             when read) over the fraction of its tiles' rows inside the problem (rows past M or
///             N cost copy-engine time as if loaded) at the device's HBM bandwidth, and the bytes
///             the busiest CTA streams into shared memory (its whole tiles' A rows and B columns
///             over K, re-reads included; stream-K: its whole tiles plus its run of split
///             k-blocks) at one CTA's measured rate (100 GB/s on the H200), so a tile that
///             re-reads a large operand many times (a 64-wide tile over a big weight) costs what
///             it streams, and the operand panels every wave re-reads from HBM in the default
///             tile order (raster_hbm_bytes, gemm_raster.h) at HBM bandwidth.
///             Other tiled kernels (sm80 cp.async, SIMT): the bytes over
///             min(HBM bandwidth, min(tiles, 2 x SMs) x 12.5 GB/s)
/// Kernels that take only problems with a small side (GEMV: M or N == 1; the skinny family:
/// min(M, N) <= 8 / 16) are bandwidth kernels: their time is the bytes over the fraction of
/// HBM bandwidth they reach, or their tensor-core work when it is larger. Selection ranks every
/// fitting tiled kernel by estimated time (ties: wave cost, then preference order), and puts a
/// bandwidth kernel first when its estimate beats the tiled choice's.
#pragma once

#include "gemm_call.h"
#include "split_k.h"

namespace cutlass {
namespace library {

/// The SM count the cost model assumes when it is given none: the H200's.
constexpr int kDefaultSmCount = 132;

/// True when the environment variable CUTLASS_LIB_LOG is set (not "0"): selection explains
/// itself on stderr.
bool selection_log_enabled();

/// The GEMM description of a GEMM operation (description().kind == kGemm).
GemmDescription const &gemm_description(Operation const *op);

/// Bytes of one element of type `t` (at least 1: sub-byte types count a byte).
int64_t bytes_of(NumericTypeID t);

/// The largest alignment any operand of `d` needs (its alignment group).
int max_alignment(GemmDescription const &d);

/// The largest alignment, in elements of `element` (a power of two, at most 16 bytes' worth), that
/// the operand's pointer, leading dimension, batch stride (when batch_count > 1) and contiguous
/// extent all allow. Never divides by zero; 1 for unknown element sizes.
int operand_alignment(NumericTypeID element, void const *ptr, int64_t ld, int64_t batch_stride, int64_t batch_count,
                      int64_t contiguous_extent);

/// The selection rule on descriptions alone: the kernel's compute-capability range holds `cc`,
/// each operand's alignment (operand_alignment) is at least the kernel's, the call's smaller
/// side is within the kernel's max_small_extent (when it has one), and N within the tile's for
/// the sm90 few-token tile (tile N under 64), M within the tile's for the swap-AB tiles (tile M
/// under 64), except on the split-K route's slices
/// (GemmCall::split_k_slices). `call` must be column-major in C/D. On false, *why names the first
/// unmet condition.
bool description_fits(GemmDescription const &desc, GemmCall const &call, int cc, char const **why);

/// Kernels of one group share the minimum compute capability and the alignment.
bool same_group(GemmDescription const &a, GemmDescription const &b);

/// Estimated time of `desc` on `call` in units of CTA-tile area: waves x tile M x tile N /
/// efficiency, with waves = ceil(tiles / sm_count) (one CTA per SM: the persistent kernels' and
/// the large tiles' occupancy) and efficiency 0.8 for tiles under 128x128 (measured). Smaller
/// tiles win when they fill more SMs in as many waves (few tiles, small M). A stream-K kernel
/// counts its whole waves plus its split tiles per CTA (no rounding up) at 2x, plus 8 k-blocks
/// per run (both measured): it wins when there are far fewer tiles than SMs and K is long
/// (128 x 4096 x 14336: 32 tiles of 224 k-blocks), and ties (nothing to split) keep the
/// persistent kernel.
double wave_cost(GemmDescription const &desc, GemmCall const &call, int sm_count);

/// The cost model's time of `desc` on `call` (see the file comment), in microseconds, on a
/// device of `sm_count` SMs (0: 132, the H200's).
double estimated_time(GemmDescription const &desc, GemmCall const &call, int sm_count);

/// The cost model's time of the grouped kernel `desc` (one persistent launch, gemm_kind ==
/// kGrouped) on `count` problems (each with M, N, K > 0), in microseconds: the grouped scheduler
/// deals all problems' tiles over the SMs, so the busiest CTA takes ceil(tiles / SMs) tiles of
/// the problems' mean k-blocks per tile, at the per-SM compute rate of estimated_time and a
/// per-CTA streaming rate of its own (lower than a dense raster's); against HBM, each problem's bytes (A, B, D, and C when read) over the
/// fraction of its tiles' rows inside it (a 128x128 tile over 8 tokens loads, or zero-fills, 16x the token rows). Decode MoE
/// (a few tokens per expert) ranks the token-sized tile first, prefill the 256x128 one where it is
/// built (a quarter fewer bytes per flop than 128x128), else 128x128.
double estimated_grouped_time(GemmDescription const &desc, GemmUniversalArguments const *problems, int count,
                              int sm_count);

/// The key the grouped calls rank their kernels by: estimated_grouped_time, and with
/// CUTLASS_LIB_GROUPED_KERNEL set (a measurement aid, read once) every kernel whose name does not
/// hold its value after every one that does, so one build can time each grouped tile (e.g.
/// "_2x1x1_" for the opt-in cluster tile) while calls that tile cannot take still find another.
double grouped_rank(GemmDescription const &desc, GemmUniversalArguments const *problems, int count, int sm_count);

/// Whether the grouped kernel `desc` should be ranked for `problems` at all: a token tile (tile N
/// under 64, as description_fits' rule for the dense few-token tile) only when every problem's N
/// is at most twice its tile N (measured on the H200 up to 37 tokens per expert, s12; beyond that
/// it re-streams each expert's weights once per 32 tokens).
bool grouped_tile_fits(GemmDescription const &desc, GemmUniversalArguments const *problems, int count);

/// The cost model's time of the packing route's copies (staging.h), in microseconds: `copies`
/// launches of a copy or fill (about 2 us each on the H200, launch and tail) and `bytes` of
/// staged operands each read and written once at the HBM bandwidth.
double estimated_staging_time(size_t bytes, int copies);

/// The split-K route (split_k.h) for `call`, when the cost model says it beats `direct`, the
/// kernel chosen for the call itself: the split count among 2, 4, ..., 256 (at most one slice per
/// SM, at most SMs x 64 KB of f32 partial sums: one wave of 128x128 tiles) whose batched kernel
/// (stream-K kernels left out) estimate plus the reduction's (a 2 us launch, the partials read and
/// D written at HBM bandwidth) is least. Only for calls split_k_applies() takes whose output has
/// at most 8 tiles of 128x128 and K >= 16384 (measured; the rest pays no planning); the partials
/// and the slice kernel's workspace fit `workspace_limit` (a caller's fixed workspace,
/// packing_limit(); SIZE_MAX when the handle owns it).
/// The slices may run on the few-token tiles at any N (s18: the 64x32 tile's 16-32 slices ran
/// 128 x 128 x 65536 at 0.94-0.97x cuBLAS, the 64x64 tile's 0.84-0.89x). The sliced kernels are
/// asked (can_implement) with `ask_kernel`, as in select_kernel. On true, *plan (its workspace at
/// `workspace`) and *kernel are the route's. CUTLASS_LIB_SPLIT_K_ROUTE=<splits>[:<name part>] (a
/// measurement aid) forces the split count, and the first slice kernel whose name contains the
/// part, wherever the route applies.
/// The split-K route with the caller's slice count (call.split_k_request > 1, which
/// split_k_refusal accepted), or with one slice for the unfused epilogue route
/// (split_k_request == 1, unfused_epilogue_applies): the slice kernel select_kernel ranks first for the sliced call
/// (stream-K kernels left out), asked with `ask_kernel`. On true, *plan (its workspace at
/// `workspace`) and *kernel; on false *any_for_device tells a misfit from an architecture mismatch.
bool choose_requested_split_k(GemmCall const &call, int cc, int sm_count, bool ask_kernel, void *workspace,
                              SplitKPlan *plan, Operation const **kernel, bool *any_for_device);

bool choose_split_k(GemmCall const &call, Operation const *direct, int cc, int sm_count, bool ask_kernel,
                    size_t workspace_limit, void *workspace, SplitKPlan *plan, Operation const **kernel);

/// The kernel for `call` among `candidates` (in preference order): every fitting kernel ranked
/// by estimated_time; on a tie a tiled kernel before a bandwidth kernel (max_small_extent > 0),
/// then the smaller wave_cost, then preference order. With `ask_kernel`, the first of these whose can_implement() accepts
/// the problem; otherwise the first. Null if none. *any_for_device is set when some candidate
/// runs on this compute capability.
Operation const *select_kernel(GemmOperationVector const &candidates, GemmCall const &call, int cc, int sm_count,
                               bool ask_kernel, bool *any_for_device);

/// The most preferred kernel that runs on compute capability `cc`, whatever the alignment.
Operation const *first_for_device(GemmOperationVector const &candidates, int cc);

/// The configuration and the arguments of the Operation interface for a column-major-output call.
GemmUniversalConfiguration configuration_of(GemmCall const &c);
GemmUniversalArguments arguments_of(GemmCall const &c);

}  // namespace library
}  // namespace cutlass
