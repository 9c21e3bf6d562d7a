/// Helpers of the GPU tests: device presence, an owning device buffer, element sizes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>
#include <cuda_runtime_api.h>

#include "cutlass/library/singleton.h"
#include "cutlass/library/types.h"
#include "cutlass/library/util.h"

namespace cutlass_lib_test {

inline bool has_device() {
  static bool const present = [] {
    int count = 0;
    bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
  }();
  return present;
}

#define SKIP_WITHOUT_GPU() \
  if (!::cutlass_lib_test::has_device()) GTEST_SKIP() << "no CUDA device: GPU tests run on the GPU machine"

/// SMs of the current device (0 when the query fails).
inline int device_sm_count() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return sms;
}

/// The manifest indices among `indices` whose kernels use the stream-K tile scheduler.
inline std::vector<size_t> stream_k_only(std::vector<size_t> const &indices) {
  std::vector<size_t> out;
  for (size_t i : indices) {
    auto const &d = static_cast<cutlass::library::GemmDescription const &>(
        cutlass::library::Singleton::get().manifest.operations()[i]->description());
    if (d.tile_description.tile_scheduler == cutlass::library::TileSchedulerType::kStreamK) out.push_back(i);
  }
  return out;
}

inline int64_t element_bytes(cutlass::library::NumericTypeID type) {
  return cutlass::library::sizeof_bits(type) / 8;
}

/// An owning device allocation of `bytes` bytes (zero-size allocations give a null pointer).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes && cudaMalloc(&ptr_, bytes) != cudaSuccess) {
      ptr_ = nullptr;
      ADD_FAILURE() << "cudaMalloc(" << bytes << ") failed";
    }
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(DeviceBuffer const &) = delete;
  DeviceBuffer &operator=(DeviceBuffer const &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  void *get() const { return ptr_; }
  char *bytes_ptr() const { return static_cast<char *>(ptr_); }
  size_t size() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace cutlass_lib_test
