/// @file src/profiler/scalar.cpp
#include "scalar.h"

#include <cmath>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cutlass {
namespace profiler {

HostScalar::HostScalar(library::NumericTypeID type, double value) {
  std::memset(&storage_, 0, sizeof(storage_));
  switch (type) {
    case library::NumericTypeID::kF16: {
      __half h = __double2half(value);
      std::memcpy(&storage_.bits16, &h, sizeof(h));
      break;
    }
    case library::NumericTypeID::kBF16: {
      __nv_bfloat16 b = __double2bfloat16(value);
      std::memcpy(&storage_.bits16, &b, sizeof(b));
      break;
    }
    case library::NumericTypeID::kF64: storage_.f64 = value; break;
    case library::NumericTypeID::kS32: storage_.s32 = int32_t(std::llround(value)); break;
    default: storage_.f32 = float(value); break;   // f32 and tf32
  }
}

}  // namespace profiler
}  // namespace cutlass
