/// @file cutlass/arch/arch.h
/// Tags naming the instruction class and math operation of a kernel.
#pragma once

namespace cutlass {
namespace arch {

struct OpClassSimt {};       ///< scalar FMA on CUDA cores (FFMA / DFMA)
struct OpClassTensorOp {};   ///< tensor-core MMA (mma.sync, wgmma)

struct OpMultiplyAdd {};     ///< D = A * B + C in the accumulator type (integers wrap, no saturation)

}  // namespace arch
}  // namespace cutlass
