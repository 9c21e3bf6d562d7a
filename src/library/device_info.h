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

/// Whether this build has code for the calling thread's current device: false when
/// CUTLASS_NVCC_ARCHS leaves it out (an sm_80-only build on an sm_90 device, or "80;100" on 9.0,
/// which no description's [minimum, maximum] range can rule out). Cached per device.
bool current_device_has_library_code();

}  // namespace library
}  // namespace cutlass
