/// @file src/library/workspace.cpp
/// The handle's workspace between calls (workspace.h).
#include "workspace.h"

#include <cuda_runtime_api.h>

namespace cutlass {
namespace library {

namespace {

/// Whether `stream` is being captured into a CUDA graph (a failed query counts as captured).
bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone) return false;
  cudaGetLastError();
  return true;
}

/// Whether context.stream is being captured; if so, the handle's workspace state is given up for
/// good (WorkspaceState::captured): the graph's replays may write the workspace between any later
/// calls.
bool captured_now(GemmContext const &context) {
  if (!capturing(context.stream)) return false;
  if (context.workspace_state) *context.workspace_state = WorkspaceState{0, true};
  return true;
}

}  // namespace

bool ensure_workspace(GemmContext const &context, size_t bytes) {
  if (bytes <= *context.workspace_size) return true;
  // A stream being captured into a CUDA graph cannot take the synchronize, and the graph would
  // keep the old buffer's address: no growing there (the caller answers kAllocFailed).
  if (capturing(context.stream)) return false;
  if (*context.workspace) {
    cudaStreamSynchronize(context.stream);   // in-flight kernels may still use the old workspace
    cudaFree(*context.workspace);
    *context.workspace = nullptr;
    *context.workspace_size = 0;
  }
  if (cudaMalloc(context.workspace, bytes) != cudaSuccess) {
    cudaGetLastError();
    *context.workspace = nullptr;
    return false;
  }
  *context.workspace_size = bytes;
  if (context.workspace_state) *context.workspace_state = WorkspaceState{};   // new memory: nothing known
  return true;
}

void workspace_overwritten(GemmContext const &context) {
  if (context.workspace_state && !captured_now(context)) context.workspace_state->zero_bytes = 0;
}

bool sync_words_known_zero(GemmContext const &context, size_t route_bytes, uint64_t sync_bytes) {
  WorkspaceState *const state = context.workspace_state;
  if (state == nullptr || captured_now(context)) return false;
  return !state->captured && route_bytes == 0 && sync_bytes > 0 && sync_bytes <= state->zero_bytes;
}

void note_workspace(GemmContext const &context, bool launched, size_t route_bytes, size_t kernel_bytes,
                    uint64_t sync_bytes) {
  WorkspaceState *const state = context.workspace_state;
  if (state == nullptr || state->captured) return;
  if (!launched) {
    state->zero_bytes = 0;
  } else if (route_bytes > 0 || kernel_bytes > 0) {
    state->zero_bytes = route_bytes == 0 ? size_t(sync_bytes) : 0;
  }
}

}  // namespace library
}  // namespace cutlass
