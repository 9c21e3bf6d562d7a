/// @file src/profiler/device.cpp
#include "device.h"

#include <cuda_runtime_api.h>

#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

DeviceOpen open_device(int index) {
  DeviceOpen result;
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();
    result.error = std::string("no CUDA device is available (") +
                   (status != cudaSuccess ? cudaGetErrorString(status) : "cudaGetDeviceCount found none") + ")";
    result.exit_status = 4;
    return result;
  }
  if (index >= count) {
    result.error = "--device=" + std::to_string(index) + ": this machine has " + std::to_string(count) +
                   " CUDA device(s), numbered from 0";
    result.exit_status = 2;
    return result;
  }
  cudaDeviceProp prop{};
  int l2 = 0;
  if (cudaSetDevice(index) != cudaSuccess || cudaGetDeviceProperties(&prop, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, index) != cudaSuccess) {
    result.error = std::string("cannot use CUDA device ") + std::to_string(index) + ": " +
                   cudaGetErrorString(cudaGetLastError());
    result.exit_status = 4;
    return result;
  }
  if (!reference::has_code_for_current_device()) {
    // the operand fills and the verification kernels, like the GEMM kernels, are SASS for
    // CUTLASS_NVCC_ARCHS only (an 80-only build has no code for an sm_90 device)
    result.error = std::string("this build has no code for device ") + std::to_string(index) + " (" + prop.name +
                   ", sm_" + std::to_string(prop.major * 10 + prop.minor) +
                   "): configure with its architecture in CUTLASS_NVCC_ARCHS";
    result.exit_status = 4;
    return result;
  }
  result.facts.index = index;
  result.facts.name = prop.name;
  result.facts.compute_capability = prop.major * 10 + prop.minor;
  result.facts.sm_count = prop.multiProcessorCount;
  result.facts.l2_bytes = size_t(l2);
  result.facts.memory_bytes = prop.totalGlobalMem;
  return result;
}

std::string describe(DeviceFacts const &device) {
  return "device " + std::to_string(device.index) + ": " + device.name + ", sm_" +
         std::to_string(device.compute_capability) + ", " + std::to_string(device.sm_count) + " SMs, L2 " +
         std::to_string(device.l2_bytes >> 20) + " MiB, " + std::to_string(device.memory_bytes >> 30) + " GiB";
}

}  // namespace profiler
}  // namespace cutlass
