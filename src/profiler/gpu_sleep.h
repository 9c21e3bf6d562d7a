/// @file src/profiler/gpu_sleep.h
/// A kernel that holds the stream for a given wall time, enqueued before timed launches so the
/// host can queue them all while the GPU is busy: each event pair then measures GPU time, not
/// the host's enqueue latency (a launch whose host path is slower than its kernel would
/// otherwise be timed by its host path; the same method as `torch.cuda._sleep`).
#pragma once

#include <cuda_runtime_api.h>

namespace cutlass {
namespace profiler {

/// Enqueues one single-thread kernel on `stream` that returns once `microseconds` of wall time
/// (the %globaltimer clock, PTX ISA "Special registers: %globaltimer") have passed since it
/// started. False when the launch failed.
bool enqueue_gpu_sleep(cudaStream_t stream, double microseconds);

}  // namespace profiler
}  // namespace cutlass
