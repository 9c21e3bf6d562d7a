/// @file src/profiler/operand_buffers.h
/// Device memory of one problem: the operands in enough copies that each timed launch reads
/// inputs that are not in L2 (DESIGN.md "Performance rules"), plus the reference outputs.
#pragma once

#include <cstddef>
#include <string>
#include <cuda_runtime_api.h>

#include "gemm_spec.h"

namespace cutlass {
namespace profiler {

/// Owns one cudaMalloc allocation.
class DeviceAllocation {
 public:
  DeviceAllocation() = default;
  ~DeviceAllocation();
  DeviceAllocation(DeviceAllocation const &) = delete;
  DeviceAllocation &operator=(DeviceAllocation const &) = delete;

  /// Frees what is held and allocates `bytes` (at least 1). False when cudaMalloc fails.
  bool reset(size_t bytes);
  char *data() const { return data_; }
  size_t size() const { return size_; }

 private:
  char *data_ = nullptr;
  size_t size_ = 0;
};

class OperandBuffers {
 public:
  /// Allocates max(2, floor(2 * l2_bytes / bytes per copy) + 1) copies of A, B, C, D (fewer,
  /// at least one, when device memory is short) and fills copy i with uniform values from
  /// seeds derived from i: [-1, 1], integers [-2, 2]. With beta == 0, C is poisoned (NaN /
  /// 0x5A bytes) instead, so a kernel that reads C when it must not fails verification. D holds
  /// finite values (in-place cuBLAS timing with beta != 0 reads it as C). Synchronizes.
  bool initialize(GemmSpec const &spec, size_t l2_bytes, cudaStream_t stream, std::string *error);

  int copies() const { return copies_; }
  /// Pointers of copy `index` (0 <= index < copies()).
  OperandPointers copy(int index) const;
  /// The copy after the one last returned: every launch, whatever its provider, takes the next.
  OperandPointers next();
  /// Output buffers of the reference GEMM and of cuBLAS's verification run (D's size and layout).
  void *reference_D() const { return memory_.data(); }
  void *cublas_D() const { return memory_.data() + reference_bytes_; }
  /// Bytes of one copy of A, B, C and D.
  size_t bytes_per_copy() const { return copy_bytes_; }

 private:
  DeviceAllocation memory_;
  GemmSpec spec_;
  int copies_ = 0;
  int rotation_ = 0;
  size_t reference_bytes_ = 0;   ///< one D, rounded up; two of them open the allocation
  size_t offset_B_ = 0, offset_C_ = 0, offset_D_ = 0, copy_bytes_ = 0;
};

}  // namespace profiler
}  // namespace cutlass
