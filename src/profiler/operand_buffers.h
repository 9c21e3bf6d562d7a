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
  /// Allocates max(2, floor(2 * l2_bytes / bytes per copy) + 1) copies of A, B, C, D, rounded
  /// up to a count that is neither even nor a multiple of 3 (so providers taking turns each
  /// visit every copy; fewer, at least one, when device memory is short) and fills them with uniform values: [-1, 1],
  /// integers [-2, 2], each operand from its own seed, each copy different. With beta == 0, C
  /// is poisoned (NaN / 0x5A bytes) instead, so a kernel that reads C when it must not fails
  /// verification. D holds finite values (in-place cuBLAS timing with beta != 0 reads it as C).
  /// The fp8 operand scales the spec asks for (ScalingSpec), f32 uniform in [0.5, 1.5], one set
  /// for every copy. Synchronizes.
  bool initialize(GemmSpec const &spec, size_t l2_bytes, cudaStream_t stream, std::string *error);

  int copies() const { return copies_; }
  /// Pointers of copy `index` (0 <= index < copies()).
  OperandPointers copy(int index) const;
  /// The next copy in rotation (0, 1, ..., copies() - 1, 0, ...): every timed launch, whatever
  /// its provider, takes the next one, so no launch finds its inputs in L2.
  OperandPointers next();
  /// Output buffers of the reference GEMM and of cuBLAS's verification run (D's size and layout).
  void *reference_D() const { return memory_.data(); }
  void *cublas_D() const { return memory_.data() + stride_C_; }
  /// Bytes of one copy of A, B, C and D.
  size_t bytes_per_copy() const { return copy_bytes_; }

 private:
  /// Memory: [reference D][cuBLAS D][copies of A][copies of B][copies of C][copies of D], every
  /// matrix starting on a 256-byte boundary; copy i of X is at X's region + i * stride_X.
  DeviceAllocation memory_;
  DeviceAllocation scales_;   ///< [A's scales][B's scales], each on a 256-byte boundary
  float const *scale_A_ = nullptr, *scale_B_ = nullptr;
  int copies_ = 0;
  int rotation_ = 0;
  size_t stride_A_ = 0, stride_B_ = 0, stride_C_ = 0;   ///< bytes from one copy to the next (D: stride_C_)
  size_t copy_bytes_ = 0;
};

}  // namespace profiler
}  // namespace cutlass
