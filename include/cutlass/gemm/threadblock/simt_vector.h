/// @file cutlass/gemm/threadblock/simt_vector.h
/// A 16-byte group of accumulator-type elements, so one shared-memory access of a SIMT fragment
/// chunk is a single 128-bit LDS/STS (the address must be 16-byte aligned).
#pragma once

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename Element, int kCount>
struct alignas(sizeof(Element) * kCount) SimtVector {
  static_assert(sizeof(Element) * kCount == 16, "SimtVector: kCount elements must fill exactly 16 bytes");
  Element data[kCount];

  /// Reads kCount elements from a 16-byte-aligned address.
  CUTLASS_DEVICE static SimtVector load(Element const *ptr) { return *reinterpret_cast<SimtVector const *>(ptr); }
  /// Writes kCount elements to a 16-byte-aligned address.
  CUTLASS_DEVICE void store(Element *ptr) const { *reinterpret_cast<SimtVector *>(ptr) = *this; }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
