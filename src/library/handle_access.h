/// @file src/library/handle_access.h
/// Runs a GemmCall on a Handle's device, stream and workspace (internal; shared by the C++
/// Handle methods and the C API).
#pragma once

#include "cutlass/library/handle.h"
#include "gemm_call.h"

namespace cutlass {
namespace library {

struct HandleAccess {
  /// gemm_call() with the handle's device made current; records the chosen kernel when executing.
  static GemmOutcome call(Handle &handle, GemmCall const &call, bool execute);
};

}  // namespace library
}  // namespace cutlass
