/// @file src/profiler/copy_bandwidth.cpp
#include "copy_bandwidth.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace cutlass {
namespace profiler {

double measure_copy_bandwidth(std::string *error) {
  constexpr size_t kBytes = size_t(1) << 30;
  constexpr int kWarmup = 5, kTimed = 20;
  void *source = nullptr, *destination = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<float> ms;
  auto const fail = [&](cudaError_t status) {
    *error = std::string("the copy-bandwidth measurement failed: ") + cudaGetErrorString(status);
    cudaGetLastError();
    return NAN;
  };
  cudaError_t status = cudaMalloc(&source, kBytes);
  if (status == cudaSuccess) status = cudaMalloc(&destination, kBytes);
  if (status == cudaSuccess) status = cudaMemset(source, 0x5a, kBytes);   // written memory, not lazily mapped
  if (status == cudaSuccess) status = cudaEventCreate(&start);
  if (status == cudaSuccess) status = cudaEventCreate(&stop);
  for (int i = 0; status == cudaSuccess && i < kWarmup + kTimed; ++i) {
    status = cudaEventRecord(start);
    if (status == cudaSuccess) status = cudaMemcpyAsync(destination, source, kBytes, cudaMemcpyDeviceToDevice);
    if (status == cudaSuccess) status = cudaEventRecord(stop);
    if (status == cudaSuccess) status = cudaEventSynchronize(stop);
    float elapsed = 0;
    if (status == cudaSuccess) status = cudaEventElapsedTime(&elapsed, start, stop);
    if (status == cudaSuccess && i >= kWarmup) ms.push_back(elapsed);
  }
  double result = NAN;
  if (status == cudaSuccess) {
    std::sort(ms.begin(), ms.end());
    result = 2.0 * double(kBytes) / (double(ms[ms.size() / 2]) * 1e-3) / 1e9;
  } else {
    result = fail(status);
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  cudaFree(source);
  cudaFree(destination);
  return result;
}

}  // namespace profiler
}  // namespace cutlass
