/// @file cutlass/library/types.h
/// Enumerations of the instance library, spelled as in CUTLASS's cutlass/library/types.h so
/// code written against CUTLASS's library compiles unchanged.
#pragma once

#include <cstdint>

namespace cutlass {
namespace library {

/// Element types. Names follow CUTLASS's NumericTypeID (f16, bf16, tf32, f32, f64, s8, s32, ...).
enum class NumericTypeID {
  kUnknown,
  kVoid,
  kB1,
  kU2, kU4, kU8, kU16, kU32, kU64,
  kS2, kS4, kS8, kS16, kS32, kS64,
  kFE4M3, kFE5M2,
  kF16, kBF16, kTF32, kF32, kF64,
  kCF16, kCBF16, kCF32, kCTF32, kCF64,
  kInvalid
};

/// Matrix layouts. kColumnMajor is "n" in kernel names, kRowMajor is "t".
enum class LayoutTypeID {
  kUnknown,
  kColumnMajor,
  kRowMajor,
  kInvalid
};

/// Complex conjugation of an operand; real kernels accept only kNone.
enum class ComplexTransform { kNone, kConjugate, kInvalid };

/// Who implements an operation.
enum class Provider { kNone, kCUTLASS, kReferenceHost, kReferenceDevice, kCUBLAS, kCUDNN, kInvalid };

/// Kind of operation (this library registers only kGemm).
enum class OperationKind { kGemm, kRankK, kRank2K, kTrmm, kSymm, kConv2d, kConv3d, kEqGemm, kSparseGemm, kReduction, kInvalid };

/// The instructions a kernel's math is built from.
enum class OpcodeClassID { kSimt, kTensorOp, kWmmaTensorOp, kSparseTensorOp, kInvalid };

/// How products are accumulated.
enum class MathOperationID {
  kAdd,
  kMultiplyAdd,
  kMultiplyAddSaturate,
  kMultiplyAddMixedInputUpcast,
  kMultiplyAddFastBF16,
  kMultiplyAddFastF16,
  kMultiplyAddFastF32,
  kMultiplyAddComplex,
  kMultiplyAddComplexFastF32,
  kMultiplyAddGaussianComplex,
  kXorPopc,
  kInvalid
};

/// GEMM kinds. Every kernel of this library registers as kUniversal, except the grouped kernels
/// (one launch over many problems: Operation::run_grouped), which register as kGrouped;
/// Handle::gemm and Handle::gemm_universal look kernels up under kUniversal, the grouped C API
/// under kGrouped first.
enum class GemmKind { kGemm, kSparse, kUniversal, kPlanarComplex, kPlanarComplexArray, kGrouped, kInvalid };

/// Split-K mode of a kernel.
enum class SplitKMode { kNone, kSerial, kParallel, kInvalid };

/// How a kernel hands out output tiles: kDefault (one CTA per tile, the 2.x kernels), kPersistent
/// (a grid of one CTA per SM walking the tiles), kStreamK (persistent, the last waves' k-blocks
/// split evenly over the CTAs; kernel names end their alignment with "_stream_k"), kGrouped
/// (persistent over the tiles of many problems, group after group; names "_grouped").
enum class TileSchedulerType { kDefault, kPersistent, kStreamK, kGrouped, kInvalid };

/// Where alpha and beta live: host memory (read before the launch) or device memory.
enum class ScalarPointerMode { kHost, kDevice, kInvalid };

/// How an fp8 GEMM sums over K (cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM: 1 = kFast): kFast,
/// the tensor core's own accumulation (about 14 bits kept across K); kPrecise, each 128-deep
/// k-block's partial sum promoted into f32 registers (the block-scaled sm90 kernels only).
enum class AccumulationMode { kFast, kPrecise };

}  // namespace library
}  // namespace cutlass
