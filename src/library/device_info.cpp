/// @file src/library/device_info.cpp
#include "device_info.h"

#include <atomic>
#include <cuda_runtime_api.h>

namespace cutlass {
namespace library {

int current_device_compute_capability() {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> cache[kMaxDevices];   // 0 = not yet queried, -1 = no usable device
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0) {
    cudaGetLastError();   // clear the sticky-free error state this call may have set
    return 0;
  }
  if (device < kMaxDevices) {
    int cached = cache[device].load(std::memory_order_relaxed);
    if (cached != 0) return cached < 0 ? 0 : cached;
  }
  int major = 0, minor = 0;
  int cc = -1;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess) {
    cc = major * 10 + minor;
  } else {
    cudaGetLastError();
  }
  if (device < kMaxDevices) cache[device].store(cc, std::memory_order_relaxed);
  return cc < 0 ? 0 : cc;
}

}  // namespace library
}  // namespace cutlass
