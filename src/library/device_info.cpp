/// @file src/library/device_info.cpp
#include "device_info.h"

#include <atomic>
#include <cuda_runtime_api.h>

#include "scale.h"

namespace cutlass {
namespace library {

namespace {

constexpr int kMaxDevices = 64;

/// A device attribute of the current device, cached per device (0 = not yet queried,
/// -1 = no usable device); `query` returns the value or -1.
template <typename Query>
int cached_device_value(std::atomic<int> (&cache)[kMaxDevices], Query query) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0) {
    cudaGetLastError();   // clear the error this call may have set
    return 0;
  }
  if (device < kMaxDevices) {
    int cached = cache[device].load(std::memory_order_relaxed);
    if (cached != 0) return cached < 0 ? 0 : cached;
  }
  int value = query(device);
  if (device < kMaxDevices) cache[device].store(value, std::memory_order_relaxed);
  return value < 0 ? 0 : value;
}

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return value;
}

}  // namespace

int current_device_compute_capability() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_device_value(cache, [](int device) {
    int const major = attribute(cudaDevAttrComputeCapabilityMajor, device);
    int const minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
    return major < 0 || minor < 0 ? -1 : major * 10 + minor;
  });
}

bool current_device_has_library_code() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_device_value(cache, [](int) { return scale_kernel_has_code() ? 1 : -1; }) > 0;
}

int current_device_sm_count() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_device_value(cache, [](int device) { return attribute(cudaDevAttrMultiProcessorCount, device); });
}

}  // namespace library
}  // namespace cutlass
