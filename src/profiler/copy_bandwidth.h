/// @file src/profiler/copy_bandwidth.h
/// The device-to-device copy bandwidth of the current device, measured the way the profiler and
/// cutlass_bench time kernels (CUDA events, warm-up, median): the ceiling bandwidth-bound GEMMs
/// are held to.
#pragma once

#include <string>

namespace cutlass {
namespace profiler {

/// GB/s (10^9 bytes per second, bytes read plus bytes written) of cudaMemcpyAsync between two
/// 1 GiB device buffers: the median of 20 copies after 5 warm-ups. NaN with `error` set when the
/// buffers cannot be allocated or a call fails.
double measure_copy_bandwidth(std::string *error);

}  // namespace profiler
}  // namespace cutlass
