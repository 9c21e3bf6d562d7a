/// @file src/profiler/timing.h
/// Timing by CUDA events, one pair per launch, interleaving two providers so both medians
/// come from the same stretch of time (the H200's clock sags ~10% once it hits its power cap).
/// A GPU sleep kernel (gpu_sleep.h) goes first, so the host queues the timed launches ahead of
/// the GPU and each pair measures GPU time even where a call's host path outlasts its kernel.
#pragma once

#include <functional>
#include <string>
#include <vector>
#include <cuda_runtime_api.h>

namespace cutlass {
namespace profiler {

/// Launches one GEMM on the timing stream (taking the next copy of the operands); false when
/// the launch failed.
using Launch = std::function<bool()>;

/// Per-launch times in milliseconds.
struct InterleavedTimes {
  std::vector<float> first, second;
};

/// Median of `samples` (the mean of the middle two for an even count); NaN when empty.
double median(std::vector<float> samples);

/// Owns the events of the timed launches, reused from one measurement to the next.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {}
  ~EventTimer();
  EventTimer(EventTimer const &) = delete;
  EventTimer &operator=(EventTimer const &) = delete;

  /// `warmup` launches of `first` (each followed by one of `second` when given), then
  /// `iterations` rounds of: record, first, record, [record, second, record]. Waits for the
  /// stream and reads every pair. False with `error` set when a launch or event fails.
  bool time(Launch const &first, Launch const *second, int warmup, int iterations, InterleavedTimes *times,
            std::string *error, int calls_per_pair = 1);

  /// The same for any number of providers: `warmup` rounds of every launch in order, then
  /// `iterations` rounds of [record, launch, record] per launch (ours, cuBLAS, cuBLASLt, ours,
  /// ...). (*times)[i] receives launch i's per-launch milliseconds. The timed rounds run again
  /// behind a longer GPU sleep when the sleep ended before the host had queued them all.
  /// `calls_per_pair` > 1 times that many consecutive launches of one provider per event pair
  /// (back to back, as a framework's stream runs its GEMMs, so a kernel's start may overlap the
  /// previous one's end: programmatic dependent launch) and reports their mean per launch.
  bool time(std::vector<Launch const *> const &launches, int warmup, int iterations,
            std::vector<std::vector<float>> *times, std::string *error, int calls_per_pair = 1);

  /// Timed sets run again because the GPU sleep ended before the host had queued every round,
  /// and sets kept although even the longest sleep did (their pairs may include host time).
  int repeated_sets() const { return repeated_sets_; }
  int host_bound_sets() const { return host_bound_sets_; }

 private:
  bool reserve(size_t count);

  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
  int repeated_sets_ = 0, host_bound_sets_ = 0;
};

}  // namespace profiler
}  // namespace cutlass
