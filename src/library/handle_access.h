/// @file src/library/handle_access.h
/// Runs a GemmCall (or a grouped call) on a Handle's device, stream and workspace (internal;
/// shared by the C++ Handle methods and the C API).
#pragma once

#include "cutlass/library/handle.h"
#include "gemm_call.h"
#include "gemm_grouped.h"

namespace cutlass {
namespace library {

struct HandleAccess {
  /// gemm_call() with the handle's device made current; records the chosen kernel when executing.
  static GemmOutcome call(Handle &handle, GemmCall const &call, bool execute);
  /// copy_device_pointer_arrays() on the handle's device and stream (before the grouped checks).
  static GemmGroupedOutcome copy_pointer_arrays(Handle &handle, GemmGroupedCall *call, PointerArrayCopies *copies);
  /// gemm_grouped() with the handle's device made current; records the last kernel that ran.
  static GemmGroupedOutcome grouped(Handle &handle, GemmGroupedCall const &call, bool execute = true);
  /// gemm_grouped_contiguous() with the handle's device made current; records the kernel.
  static GemmGroupedOutcome contiguous(Handle &handle, GemmContiguousCall const &call, bool execute = true);
  /// gemm_grouped_device() with the handle's device made current; records the kernel.
  static GemmGroupedOutcome device_sized(Handle &handle, GemmGroupedDeviceCall const &call, bool execute = true);

 private:
  /// run(context) with the handle's device current; the kernel it ran recorded when executing.
  template <typename Outcome, typename Run>
  static Outcome on_device(Handle &handle, bool execute, Run &&run);
  /// The handle's device facts, stream and workspace (its device must be current).
  static GemmContext context_of(Handle &handle);
};

}  // namespace library
}  // namespace cutlass
