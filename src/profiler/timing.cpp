/// @file src/profiler/timing.cpp
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpu_sleep.h"

namespace cutlass {
namespace profiler {

namespace {
/// Host time per round assumed without warm-up rounds, and the longest GPU sleep (microseconds).
constexpr double kDefaultRoundUs = 100.0;
constexpr double kMaxSleepUs = 500000.0;
/// Timed sets per measurement at most, and how much longer each next set's sleep is.
constexpr int kMaxAttempts = 4;
constexpr double kSleepGrowth = 4.0;
}  // namespace

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
                      std::string *error, int calls_per_pair) {
  std::vector<Launch const *> launches{&first};
  if (second) launches.push_back(second);
  std::vector<std::vector<float>> all;
  times->first.clear();
  times->second.clear();
  if (!time(launches, warmup, iterations, &all, error, calls_per_pair)) return false;
  times->first = std::move(all[0]);
  if (second) times->second = std::move(all[1]);
  return true;
}

bool EventTimer::time(std::vector<Launch const *> const &launches, int warmup, int iterations,
                      std::vector<std::vector<float>> *times, std::string *error, int calls_per_pair) {
  int const calls = calls_per_pair > 1 ? calls_per_pair : 1;
  times->assign(launches.size(), {});
  size_t const per_round = 2 * launches.size();
  if (!reserve(per_round * size_t(iterations) + 1)) {   // + the sleep's end
    *error = "cudaEventCreate failed";
    return false;
  }
  auto const warmup_start = std::chrono::steady_clock::now();
  for (int i = 0; i < warmup; ++i) {
    for (Launch const *launch : launches) {
      if (!(*launch)()) {
        *error = "a warm-up launch failed";
        return false;
      }
    }
  }
  // Hold the GPU while the host queues every timed round (gpu_sleep.h): the warm-up rounds'
  // host time, scaled to the timed rounds with a margin, capped at kMaxSleepUs. When the sleep
  // has ended before the last round is queued, the GPU may have waited on the host inside a
  // timed pair: the rounds run again behind a sleep kSleepGrowth times longer, up to the cap.
  double const warmup_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - warmup_start).count();
  double const round_us = warmup > 0 ? warmup_us / warmup : kDefaultRoundUs;
  double sleep_us = std::min(kMaxSleepUs, 1.5 * round_us * iterations * calls + 20.0);
  cudaEvent_t const sleep_end = events_[per_round * size_t(iterations)];
  for (int attempt = 1;; ++attempt) {
    if (!enqueue_gpu_sleep(stream_, sleep_us) || cudaEventRecord(sleep_end, stream_) != cudaSuccess) {
      *error = "the GPU sleep kernel failed to launch";
      return false;
    }
    for (int i = 0; i < iterations; ++i) {
      cudaEvent_t const *e = events_.data() + per_round * size_t(i);
      for (size_t j = 0; j < launches.size(); ++j) {
        bool ok = cudaEventRecord(e[2 * j], stream_) == cudaSuccess;
        for (int c = 0; ok && c < calls; ++c) ok = (*launches[j])();
        ok = ok && cudaEventRecord(e[2 * j + 1], stream_) == cudaSuccess;
        if (!ok) {
          *error = "a timed launch failed";
          return false;
        }
      }
    }
    bool const outlasted = cudaEventQuery(sleep_end) == cudaErrorNotReady;
    if (outlasted) cudaGetLastError();   // (not an error: the runtime may still report it as the last one)
    cudaError_t const status = cudaStreamSynchronize(stream_);
    if (status != cudaSuccess) {
      *error = std::string("the timed launches failed: ") + cudaGetErrorString(status);
      return false;
    }
    if (outlasted) break;
    if (attempt == kMaxAttempts || sleep_us >= kMaxSleepUs) {
      ++host_bound_sets_;
      break;
    }
    ++repeated_sets_;
    sleep_us = std::min(kMaxSleepUs, sleep_us * kSleepGrowth);
  }
  for (int i = 0; i < iterations; ++i) {
    cudaEvent_t const *e = events_.data() + per_round * size_t(i);
    for (size_t j = 0; j < launches.size(); ++j) {
      float ms = 0;
      if (cudaEventElapsedTime(&ms, e[2 * j], e[2 * j + 1]) != cudaSuccess) {
        *error = "cudaEventElapsedTime failed";
        return false;
      }
      (*times)[j].push_back(ms / float(calls));
    }
  }
  return true;
}

}  // namespace profiler
}  // namespace cutlass
