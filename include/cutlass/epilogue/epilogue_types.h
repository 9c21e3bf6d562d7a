/// @file cutlass/epilogue/epilogue_types.h
/// The enums that name a fused epilogue's pieces, shared by the kernel templates
/// (thread/linear_combination.h, thread/activation.h) and the library's descriptions.
#pragma once

#include <cstdint>

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

/// How the f32 scale of an fp8 operand is laid out; names and values are cuBLASLt's
/// cublasLtMatmulMatrixScale_t (SCALAR_32F, OUTER_VEC_32F, VEC128_32F, BLK128x128_32F). The
/// epilogue applies kScalar (folded into alpha) and kOuterVector (row / column terms); the block
/// modes multiply each 128-deep k-block's partial sum in the mainloop of the block-scaled sm90
/// kernels (gemm/kernel/gemm_sm90.h, Sm90BlockScales), so the epilogue leaves them alone.
///   kBlock1x128   one value per row of op(A) (or column of op(B)) per 128 elements of K:
///                 scale[(l * KB + kb) * MN + i], KB = ceil(K / 128), MN = M (A) or N (B)
///   kBlock128x128 one value per 128 x 128 block: scale[(l * ceil(MN / 128) + i / 128) * KBp + kb],
///                 KBp = KB rounded up to a multiple of 4 (each block row's k-blocks padded to 16 bytes)
/// (l: batch entry, kb: k-block, i: row of A / column of B; 1x128: MN runs fastest, 128x128: K,
/// both as cuBLASLt reads them: its 128x128 scales' leading dimension is KBp, as PyTorch's
/// torch._scaled_mm checks it; s29 found the unpadded KB disagreeing with cuBLASLt at K = 640).
constexpr int64_t block128x128_ld(int64_t k_blocks) { return (k_blocks + 3) / 4 * 4; }
enum class OperandScaleMode : int { kScalar = 0, kOuterVector = 3, kBlock1x128 = 4, kBlock128x128 = 5 };

/// True for the modes the mainloop applies per k-block.
constexpr bool is_block_scale(OperandScaleMode mode) {
  return mode == OperandScaleMode::kBlock1x128 || mode == OperandScaleMode::kBlock128x128;
}

}  // namespace epilogue
}  // namespace cutlass
