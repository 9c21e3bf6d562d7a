/// @file cutlass/epilogue/epilogue_types.h
/// The enums that name a fused epilogue's pieces, shared by the kernel templates
/// (thread/linear_combination.h, thread/activation.h) and the library's descriptions.
#pragma once

namespace cutlass {
namespace epilogue {

/// The activation of a fused epilogue; formulas and sources in thread/activation.h.
enum class ActivationKind { kIdentity, kReLU, kGELU, kGELUErf, kSiLU, kSigmoid, kClamp, kInvalid };

/// Which index of D an epilogue vector follows: kPerRow = element m (the vector has M
/// entries; cuBLASLt's bias orientation), kPerColumn = element n (N entries).
enum class VectorBroadcast { kPerRow, kPerColumn };

/// The broadcast of the same vector in the transposed output (rows of D^T are columns of D).
constexpr VectorBroadcast transposed(VectorBroadcast b) {
  return b == VectorBroadcast::kPerRow ? VectorBroadcast::kPerColumn : VectorBroadcast::kPerRow;
}

}  // namespace epilogue
}  // namespace cutlass
