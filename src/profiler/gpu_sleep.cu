/// @file src/profiler/gpu_sleep.cu
#include "gpu_sleep.h"

#include <cstdint>

namespace cutlass {
namespace profiler {

namespace {

__device__ uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void gpu_sleep_kernel(uint64_t nanoseconds) {
  uint64_t const start = global_timer_ns();
  while (global_timer_ns() - start < nanoseconds) __nanosleep(1000);
}

}  // namespace

bool enqueue_gpu_sleep(cudaStream_t stream, double microseconds) {
  if (!(microseconds > 0)) return true;
  gpu_sleep_kernel<<<1, 1, 0, stream>>>(uint64_t(microseconds * 1000.0));
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace profiler
}  // namespace cutlass
