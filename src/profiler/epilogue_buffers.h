/// @file src/profiler/epilogue_buffers.h
/// Device memory of a fused epilogue's operands for one problem: per copy of the operands
/// (OperandBuffers) a bias vector, an alpha vector and an aux matrix, so every timed launch
/// reads and writes its own; plus what verification needs (the reference GEMM's f32 product,
/// the references' aux outputs, amax slots) and the D scale.
#pragma once

#include <string>
#include <cuda_runtime_api.h>

#include "epilogue_reference.h"
#include "gemm_spec.h"
#include "operand_buffers.h"

namespace cutlass {
namespace profiler {

/// Which amax scalar a run max-reduces into.
enum class AmaxSlot { kOutput, kReference, kCublas, kCublasLt, kTiming, kCount };

class EpilogueBuffers {
 public:
  /// Allocates `copies` copies of the operands the spec's epilogue has and fills them: bias
  /// uniform [-1, 1], alpha vector uniform [0.5, 1.5], aux poisoned, scale_d = EpilogueSpec::kScaleD.
  /// `verifying`: also the f32 product and the references' aux. Nothing for a plain epilogue.
  /// Synchronizes. False with `error` set on failure.
  bool initialize(GemmSpec const &spec, int copies, bool verifying, cudaStream_t stream, std::string *error);

  /// The operands of copy `copy` as the problem sees them (user orientation: bias broadcast as
  /// given, aux in C's layout with ldaux = ldc), max-reducing amax into `slot`. `aux` overrides
  /// the copy's aux matrix (the references write their own).
  reference::EpilogueOperands operands(int copy, AmaxSlot slot, void *aux = nullptr) const;

  float *product() const { return product_; }          ///< the reference GEMM's A*B, f32, D's layout
  void *reference_aux() const { return reference_aux_; }
  void *cublas_aux() const { return cublas_aux_; }
  void *aux(int copy) const;                            ///< null without aux
  float *amax(AmaxSlot slot) const;                     ///< null without amax
  /// Zeroes the amax of `slot` on `stream` (true without amax).
  bool clear_amax(AmaxSlot slot, cudaStream_t stream) const;
  size_t bytes() const { return memory_.size(); }

 private:
  GemmSpec spec_;
  DeviceAllocation memory_;
  int copies_ = 0;
  char *bias_ = nullptr, *alpha_vector_ = nullptr, *aux_ = nullptr;   ///< first copy of each
  size_t stride_bias_ = 0, stride_alpha_vector_ = 0, stride_aux_ = 0;   ///< bytes per copy
  float *product_ = nullptr;
  void *reference_aux_ = nullptr, *cublas_aux_ = nullptr;
  float *scalars_ = nullptr;   ///< [scale_d][amax slots]
};

}  // namespace profiler
}  // namespace cutlass
