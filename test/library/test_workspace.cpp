/// Host tests of what the handle records about its own workspace between calls (workspace.h):
/// the bytes at its start known to be zero after each kind of call, and when the record is not
/// trusted. The capture query needs the CUDA runtime; the rules after a launch do not.
#include <gtest/gtest.h>

#include "workspace.h"

namespace {

using namespace cutlass::library;

GemmContext context_of(WorkspaceState *state) {
  GemmContext c;
  c.workspace_state = state;
  return c;
}

TEST(WorkspaceState, AKernelAtTheStartLeavesItsSyncWordsZero) {
  WorkspaceState state;
  note_workspace(context_of(&state), true, 0, 1 << 20, 1280);   // stream-K: flags, then partials
  EXPECT_EQ(1280u, state.zero_bytes);
  note_workspace(context_of(&state), true, 0, 0, 0);   // a kernel without workspace: nothing written
  EXPECT_EQ(1280u, state.zero_bytes);
  note_workspace(context_of(&state), true, 0, 8192, 512);   // a split GEMV: fewer counters, then partials
  EXPECT_EQ(512u, state.zero_bytes) << "the bytes past its counters hold its partials";
  note_workspace(context_of(&state), true, 0, 4096, 0);   // a kernel whose workspace has no sync words
  EXPECT_EQ(0u, state.zero_bytes);
}

TEST(WorkspaceState, RoutesFailuresAndOtherWritersForgetIt) {
  WorkspaceState state;
  note_workspace(context_of(&state), true, 0, 1 << 20, 1280);
  note_workspace(context_of(&state), true, 65536, 1 << 20, 1280);   // staged: the copies from byte 0
  EXPECT_EQ(0u, state.zero_bytes);
  note_workspace(context_of(&state), true, 0, 1 << 20, 1280);
  note_workspace(context_of(&state), false, 0, 1 << 20, 1280);   // a launch failed: nothing known
  EXPECT_EQ(0u, state.zero_bytes);
  note_workspace(context_of(&state), true, 0, 1 << 20, 1280);
  workspace_overwritten(context_of(&state));   // (the grouped calls' tables)
  EXPECT_EQ(0u, state.zero_bytes);
}

TEST(WorkspaceState, NothingIsKnownOfACallersWorkspaceOrAfterACapture) {
  note_workspace(context_of(nullptr), true, 0, 1 << 20, 1280);   // a caller's workspace: no record, no crash
  EXPECT_FALSE(sync_words_known_zero(context_of(nullptr), 0, 1280));
  WorkspaceState captured{0, true};
  note_workspace(context_of(&captured), true, 0, 1 << 20, 1280);
  EXPECT_EQ(0u, captured.zero_bytes) << "a captured workspace stays unknown";
  EXPECT_FALSE(sync_words_known_zero(context_of(&captured), 0, 1280));
}

TEST(WorkspaceState, OnlyWordsKnownZeroAtTheStartSkipTheMemset) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    GTEST_SKIP() << "no CUDA device: the capture query fails, which counts as a capture";
  }
  WorkspaceState state{2048, false};   // (the default stream, not capturing)
  EXPECT_TRUE(sync_words_known_zero(context_of(&state), 0, 1280));
  EXPECT_TRUE(sync_words_known_zero(context_of(&state), 0, 2048));
  EXPECT_FALSE(sync_words_known_zero(context_of(&state), 0, 2304)) << "more words than are known zero";
  EXPECT_FALSE(sync_words_known_zero(context_of(&state), 256, 1280)) << "the kernel's part after a route";
  EXPECT_FALSE(sync_words_known_zero(context_of(&state), 0, 0)) << "nothing to skip";
}

}  // namespace
