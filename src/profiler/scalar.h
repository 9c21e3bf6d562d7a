/// @file src/profiler/scalar.h
/// alpha and beta as host values of the type a kernel or the Handle reads them in.
#pragma once

#include <cstdint>

#include "cutlass/library/types.h"

namespace cutlass {
namespace profiler {

/// One host scalar of a run-time type: f16, bf16, f32, f64 or s32 (rounded to nearest).
class HostScalar {
 public:
  HostScalar(library::NumericTypeID type, double value);

  /// Points at the value in `type`'s representation (what Operation::run and Handle read).
  void const *data() const { return &storage_; }

 private:
  union Storage {
    uint16_t bits16;
    float f32;
    double f64;
    int32_t s32;
  } storage_;
};

}  // namespace profiler
}  // namespace cutlass
