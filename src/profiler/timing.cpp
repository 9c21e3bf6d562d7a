/// @file src/profiler/timing.cpp
#include "timing.h"

#include <algorithm>
#include <cmath>

namespace cutlass {
namespace profiler {

double median(std::vector<float> samples) {
  if (samples.empty()) return NAN;
  size_t const half = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + half, samples.end());
  double upper = samples[half];
  if (samples.size() % 2 == 1) return upper;
  double lower = *std::max_element(samples.begin(), samples.begin() + half);
  return (lower + upper) / 2;
}

EventTimer::~EventTimer() {
  for (cudaEvent_t event : events_) cudaEventDestroy(event);
}

bool EventTimer::reserve(size_t count) {
  while (events_.size() < count) {
    cudaEvent_t event = nullptr;
    if (cudaEventCreate(&event) != cudaSuccess) return false;
    events_.push_back(event);
  }
  return true;
}

bool EventTimer::time(Launch const &first, Launch const *second, int warmup, int iterations, InterleavedTimes *times,
                      std::string *error) {
  times->first.clear();
  times->second.clear();
  size_t const per_round = second ? 4 : 2;
  if (!reserve(per_round * size_t(iterations))) {
    *error = "cudaEventCreate failed";
    return false;
  }
  for (int i = 0; i < warmup; ++i) {
    if (!first() || (second && !(*second)())) {
      *error = "a warm-up launch failed";
      return false;
    }
  }
  for (int i = 0; i < iterations; ++i) {
    cudaEvent_t const *e = events_.data() + per_round * size_t(i);
    bool ok = cudaEventRecord(e[0], stream_) == cudaSuccess && first() && cudaEventRecord(e[1], stream_) == cudaSuccess;
    if (ok && second) {
      ok = cudaEventRecord(e[2], stream_) == cudaSuccess && (*second)() && cudaEventRecord(e[3], stream_) == cudaSuccess;
    }
    if (!ok) {
      *error = "a timed launch failed";
      return false;
    }
  }
  cudaError_t const status = cudaStreamSynchronize(stream_);
  if (status != cudaSuccess) {
    *error = std::string("the timed launches failed: ") + cudaGetErrorString(status);
    return false;
  }
  for (int i = 0; i < iterations; ++i) {
    cudaEvent_t const *e = events_.data() + per_round * size_t(i);
    float ms = 0;
    if (cudaEventElapsedTime(&ms, e[0], e[1]) != cudaSuccess) {
      *error = "cudaEventElapsedTime failed";
      return false;
    }
    times->first.push_back(ms);
    if (second) {
      if (cudaEventElapsedTime(&ms, e[2], e[3]) != cudaSuccess) {
        *error = "cudaEventElapsedTime failed";
        return false;
      }
      times->second.push_back(ms);
    }
  }
  return true;
}

}  // namespace profiler
}  // namespace cutlass
