/// @file cutlass/gemm/threadblock/sm80_mma_traits.h
/// Which sm80 mma.sync instruction a (ElementA, ElementB, ElementAccumulator) triple uses, and
/// the facts about an operand element the sm80 tiles need. The instructions themselves are in
/// cutlass/arch/mma_sm80.h.
///
/// Every instruction of this family consumes 32 bytes of K per k-step (16 x 16-bit, 8 x tf32,
/// 32 x s8), i.e. two 16-byte chunks, which is what lets one smem layout and one ldmatrix
/// pattern serve all element types for K-major operands.
#pragma once

#include <cstdint>
#include <type_traits>
#include "cutlass/arch/mma_sm80.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

template <typename ElementA, typename ElementB, typename ElementAccumulator>
struct Sm80MmaTraits {
  static_assert(sizeof(ElementA) == 0,
                "GemmSm80: no mma.sync instruction for these types; supported (A, B, accumulator): "
                "(f16, f16, f32), (bf16, bf16, f32), (tf32, tf32, f32), (s8, s8, s32)");
};

template <>
struct Sm80MmaTraits<half_t, half_t, float> {
  using Instruction = arch::Mma16816F32F16F16F32;
};
template <>
struct Sm80MmaTraits<bfloat16_t, bfloat16_t, float> {
  using Instruction = arch::Mma16816F32Bf16Bf16F32;
};
template <>
struct Sm80MmaTraits<tfloat32_t, tfloat32_t, float> {
  using Instruction = arch::Mma1688F32Tf32Tf32F32;
};
template <>
struct Sm80MmaTraits<int8_t, int8_t, int32_t> {
  using Instruction = arch::Mma16832S32S8S8S32;
};

/// How a warp reads fragments of an operand tile from shared memory.
enum class Sm80FragmentRead {
  kLdsm,        ///< K-major tile: ldmatrix (any element size; rows are 16 bytes of K)
  kLdsmTrans,   ///< MN-major 16-bit tile: ldmatrix .trans
  kLds32        ///< MN-major 32-bit (tf32) tile: one ld.shared.b32 per element (ldmatrix .trans is 16-bit only)
};

/// The fragment read for an operand of `kElementBytes` stored K-major or not.
template <int kElementBytes, bool kKMajor>
constexpr Sm80FragmentRead sm80_fragment_read() {
  return kKMajor ? Sm80FragmentRead::kLdsm
                 : (kElementBytes == 2 ? Sm80FragmentRead::kLdsmTrans : Sm80FragmentRead::kLds32);
}

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
