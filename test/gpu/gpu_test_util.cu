/// The device-code probe of gpu_test_util.h.
#include "gpu_test_util.h"

namespace cutlass_lib_test {
namespace {
__global__ void code_probe() {}
}  // namespace

bool has_code_for_device() {
  static bool const present = [] {
    cudaFuncAttributes attributes;
    bool const ok = cudaFuncGetAttributes(&attributes, code_probe) == cudaSuccess;
    cudaGetLastError();
    return ok;
  }();
  return present;
}

}  // namespace cutlass_lib_test
