/// @file src/profiler/device.h
/// The facts of the CUDA device the profiler runs on.
#pragma once

#include <cstddef>
#include <string>

namespace cutlass {
namespace profiler {

struct DeviceFacts {
  int index = 0;
  std::string name;
  int compute_capability = 0;   ///< major * 10 + minor, e.g. 90
  int sm_count = 0;
  size_t l2_bytes = 0;          ///< cudaDevAttrL2CacheSize (H200: 60 MiB)
  size_t memory_bytes = 0;
};

/// Outcome of opening a device: exit status 4 (no GPU, or none this build has code for) or 2 (no
/// such device index) on failure.
struct DeviceOpen {
  DeviceFacts facts;
  std::string error;   ///< empty on success
  int exit_status = 0;
};

/// Makes device `index` current and reads its facts.
DeviceOpen open_device(int index);

/// "device 0: NVIDIA H200, sm_90, 132 SMs, L2 60 MiB, 140 GiB".
std::string describe(DeviceFacts const &device);

}  // namespace profiler
}  // namespace cutlass
