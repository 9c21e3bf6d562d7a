/// @file src/library/workspace.h
/// The handle's device workspace between calls (internal): grown on demand, and what is known of
/// its contents, so a kernel whose split counters or stream-K flags an earlier kernel left zero
/// is launched without its initialize() memset.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gemm_call.h"

namespace cutlass {
namespace library {

/// What a handle knows of its own workspace between calls, in its stream's order (workspace.cpp).
struct WorkspaceState {
  /// Bytes at the workspace's start known to be zero: the split counters or stream-K flags that
  /// the last kernel to write the workspace zeroed (or found zero) and left zero
  /// (Operation::get_device_workspace_sync_bytes). A call whose kernel needs no more skips the
  /// kernel's initialize(), a memset of ~2 us on the H200 before each stream-K or split GEMV
  /// launch (s37, docs/NOTES.md).
  size_t zero_bytes = 0;
  /// A call on this workspace was captured into a CUDA graph: its replays may write the workspace
  /// between later calls, so nothing is known until the workspace is replaced.
  bool captured = false;
};

/// Makes the handle's workspace (context.workspace) at least `bytes`: a larger one is allocated
/// after the stream's work that may use the old one (and nothing is known of it); false when the
/// allocation fails, or when it would have to grow while context.stream is being captured into a
/// CUDA graph.
bool ensure_workspace(GemmContext const &context, size_t bytes);

/// Forgets what the handle knew of its workspace's contents (WorkspaceState::zero_bytes), and
/// everything for good when the stream is being captured into a CUDA graph: for a caller about
/// to write it other than through gemm_call (the grouped calls' tables).
void workspace_overwritten(GemmContext const &context);

/// Whether a kernel's sync words, the first `sync_bytes` of its part of the workspace at offset
/// `route_bytes` (Operation::get_device_workspace_sync_bytes), are known to be zero in the
/// stream's order, so its initialize() can be skipped: the handle's own workspace, the kernel's
/// part at its start, and no call on it ever captured into a CUDA graph (a capture now makes
/// nothing known, for good).
bool sync_words_known_zero(GemmContext const &context, size_t route_bytes, uint64_t sync_bytes);

/// What the handle knows of its workspace after a call's launches (`launched`: all of them were
/// queued): a kernel that wrote its part at the workspace's start left its sync words zero (and
/// wrote past them); a route wrote from the start; nothing written, nothing changed; a failed
/// launch, nothing known.
void note_workspace(GemmContext const &context, bool launched, size_t route_bytes, size_t kernel_bytes,
                    uint64_t sync_bytes);

}  // namespace library
}  // namespace cutlass
