/// @file src/library/split_k.h
/// The parallel split-K route (internal), for problems whose output tiles cannot fill the GPU
/// but whose K is long (e.g. 128 x 128 x 65536: one 128x128 tile, 33.5 MB of bf16 operands). K is
/// cut into `splits` equal slices; one batched GEMM computes every slice's product in f32 into
/// the workspace (batch entry s is slice s: each operand's batch stride steps K / splits along K),
/// so all SMs stream the operands; then the reduction kernel sums the slices of each element in a
/// fixed order (the same bits on every run) and writes D = alpha * sum + beta * C.
/// The operand scales of fp8 calls stay with the sliced GEMM (they are linear in each slice).
/// Layout of the workspace: splits column-major M x N f32 matrices, ld = M, M * N apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

#include "gemm_call.h"

namespace cutlass {
namespace library {

struct SplitKPlan {
  GemmCall sliced;             ///< the batched f32 call over the slices (C = D = the workspace)
  int splits = 0;
  size_t workspace_bytes = 0;  ///< the slices' f32 products, rounded up to 256 bytes
};

/// Calls the route takes (column-major output): one batch entry, the plain epilogue, host or
/// device f32 scalars, no block scales (they index the whole K), and an f16, bf16 or f32 output.
/// With `epilogue_in_reduction` (the unfused epilogue route) also a fused epilogue whose pieces
/// the reduction applies: no D scale / amax, bias and aux of the output's type.
bool split_k_applies(GemmCall const &call, bool epilogue_in_reduction = false);

/// The unfused epilogue route (opt-in while it has not run on a GPU: CUTLASS_LIB_UNFUSED_EPILOGUE=1
/// in the environment, read at each use): a fused call (column-major output) for which the build
/// has no fused kernel runs the plain f32-output kernel into the workspace (the split-K route
/// with one slice), and the reduction applies alpha, the alpha vector, beta * C, the bias, the
/// aux output and the activation per element, in f32, as linear_combination.h's formula does.
/// True when it is on, split_k_applies(call, true) takes the call and the build has plain
/// f32-output kernels for its types and layouts.
bool unfused_epilogue_applies(GemmCall const &call);

/// The sliced call of `call` for `splits` slices (1: the unfused epilogue route) with the
/// workspace at `workspace`; false when
/// K is not a multiple of `splits`, a slice's offset breaks 16-byte alignment of A or B, or the
/// partials would pass INT32_MAX elements per slice.
bool plan_split_k(GemmCall const &call, int splits, void *workspace, SplitKPlan *plan);

/// Why a call cannot run the split-K route with `splits` slices (a caller's request), or null
/// when it can: split_k_applies and plan_split_k of its column-major form, at most 65535 slices.
char const *split_k_refusal(GemmCall const &call, int splits);

/// Launches the reduction (D = alpha * sum of the slices + beta * C, and a fused call's pieces:
/// unfused_epilogue_applies) on `stream`; false if the launch failed.
bool reduce_split_k(SplitKPlan const &plan, GemmCall const &call, cudaStream_t stream);

}  // namespace library
}  // namespace cutlass
