/// @file cutlass/device_once.h
/// Host-side results computed once per CUDA device. Function attributes
/// (cudaFuncSetAttribute) and device limits belong to a device's context, so a process that
/// uses several GPUs needs each once per device, and a launch path should not repeat them.
#pragma once

#include <mutex>
#include <utility>

namespace cutlass {

/// Device ids with a cache slot; larger ids compute their result at every call.
constexpr int kOnceCachedDevices = 64;

/// `f()` for device `device`: computed at the first call for that device (thread-safe: other
/// callers wait for it) and returned from then on. One cache per call site, as each lambda has
/// its own type. The result type must be default-constructible and copyable.
template <typename F>
auto once_per_device(int device, F f) -> decltype(f()) {
  using Result = decltype(f());
  if (device < 0 || device >= kOnceCachedDevices) return f();
  static std::once_flag once[kOnceCachedDevices];
  static Result result[kOnceCachedDevices];
  std::call_once(once[device], [&] { result[device] = f(); });
  return result[device];
}

}  // namespace cutlass
