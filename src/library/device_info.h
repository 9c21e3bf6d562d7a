/// @file src/library/device_info.h
/// Cached facts of the current CUDA device (internal).
#pragma once

namespace cutlass {
namespace library {

/// Compute capability of the calling thread's current device as major*10 + minor (e.g. 90),
/// or 0 when there is no usable device. Cached per device after the first query.
int current_device_compute_capability();

/// Multiprocessor count of the calling thread's current device, or 0 when there is no usable
/// device. Cached per device after the first query.
int current_device_sm_count();

}  // namespace library
}  // namespace cutlass
