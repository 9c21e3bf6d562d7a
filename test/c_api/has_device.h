/// Device presence for the C API tests: the NoDevice tests skip where a device is present (ctest's
/// c_api.no_device runs them with CUDA_VISIBLE_DEVICES=-1).
#pragma once

#include <cuda_runtime_api.h>

namespace cutlass_lib_c_api_test {

inline bool has_device() {
  int count = 0;
  bool const ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError();
  return ok;
}

}  // namespace cutlass_lib_c_api_test
