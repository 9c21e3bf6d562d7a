/// @file cutlass/gemm/kernel/gemm_sm80.h
/// The sm80 tensor-op GEMM kernel family: cp.async multistage mainloop + mma.sync, with a
/// shared-memory-staged epilogue. Runs on sm_80 and later (Ampere, Ada, Hopper, Blackwell);
/// on Hopper it is the fallback under the sm90 wgmma family.
///
///     D[l] = alpha * A[l] * B[l] + beta * C[l],  l = blockIdx.z
///
/// Meets the kernel contract of cutlass/gemm/gemm_arguments.h. Supported instances:
///   f16 x f16 -> f16 | f32, bf16 x bf16 -> bf16 | f32   (accumulate f32; m16n8k16; all 4 layouts)
///   tf32 x tf32 -> f32  (memory holds fp32; mma reads the top 19 bits: truncation; m16n8k8; all layouts)
///   s8 x s8 -> s32      (accumulate s32, wraps; m16n8k32; TN only: A row-major, B column-major)
/// Alignments (elements): 16-bit 8/4/2 (cp.async 16/8/4 B) and 1 (register path);
/// tf32 4/2/1 (cp.async 16/8/4 B); s8 16/8/4 (cp.async) and 2/1 (register path).
///
/// Structure: grid (x, y) -> output tile via Sm80ThreadblockSwizzle, z = batch. Each CTA runs
/// threadblock::Sm80MmaMultistage (sm80_mma_multistage.h) over K, then
/// epilogue::threadblock::Sm80EpilogueStaged (sm80_epilogue_staged.h) reusing the same shared memory.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <cuda_runtime_api.h>

#include "cutlass/arch/arch.h"
#include "cutlass/arch/memory_sm80.h"
#include "cutlass/cutlass.h"
#include "cutlass/device_once.h"
#include "cutlass/epilogue/threadblock/sm80_epilogue_staged.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/threadblock/sm80_mma_multistage.h"
#include "cutlass/gemm/threadblock/sm80_threadblock_swizzle.h"
#include "cutlass/gemm_coord.h"
#include "cutlass/layout/matrix.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace gemm {
namespace kernel {

namespace detail {

/// What the sm80 family needs to know of a device, queried once per device.
struct Sm80DeviceLimits {
  cudaError_t error = cudaSuccess;
  int compute_capability = 0;   ///< major * 10 + minor
  int max_smem_optin = 0;       ///< cudaDevAttrMaxSharedMemoryPerBlockOptin, bytes
};

inline Sm80DeviceLimits sm80_query_device_limits(int device) {
  Sm80DeviceLimits limits;
  int major = 0, minor = 0;
  limits.error = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (limits.error == cudaSuccess) limits.error = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (limits.error == cudaSuccess)
    limits.error = cudaDeviceGetAttribute(&limits.max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  limits.compute_capability = major * 10 + minor;
  return limits;
}

/// The limits of `device`, queried once per device (once_per_device).
inline Sm80DeviceLimits sm80_device_limits(int device) {
  return once_per_device(device, [device] { return sm80_query_device_limits(device); });
}

}  // namespace detail

template <typename Gemm>
__global__ void __launch_bounds__(Gemm::kThreads, 1) gemm_sm80_kernel(typename Gemm::Params const params);

template <typename ElementA_, typename LayoutA_, int AlignmentA, typename ElementB_, typename LayoutB_, int AlignmentB,
          typename ElementC_, int AlignmentC, typename ElementAccumulator_, typename ThreadblockShape_,
          typename WarpShape_, typename InstructionShape_, typename EpilogueOutputOp_, int Stages>
struct GemmSm80 {
  // ---- kernel contract (cutlass/gemm/gemm_arguments.h) ----
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using LayoutA = LayoutA_;
  using LayoutB = LayoutB_;
  using ThreadblockShape = ThreadblockShape_;
  using WarpShape = WarpShape_;
  using InstructionShape = InstructionShape_;
  using OperatorClass = arch::OpClassTensorOp;
  using MathOperator = arch::OpMultiplyAdd;
  static constexpr int kStages = Stages;
  static constexpr int kAlignmentA = AlignmentA;
  static constexpr int kAlignmentB = AlignmentB;
  static constexpr int kAlignmentC = AlignmentC;
  static constexpr int kMinComputeCapability = 80;
  static constexpr int kMaxComputeCapability = 1000;
  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;

  // ---- configuration rules ----
  static_assert(std::is_same<LayoutA, layout::RowMajor>::value || std::is_same<LayoutA, layout::ColumnMajor>::value,
                "GemmSm80: LayoutA must be layout::RowMajor or layout::ColumnMajor");
  static_assert(std::is_same<LayoutB, layout::RowMajor>::value || std::is_same<LayoutB, layout::ColumnMajor>::value,
                "GemmSm80: LayoutB must be layout::RowMajor or layout::ColumnMajor");
  /// K-major operands: A row-major ("t"), B column-major ("n").
  static constexpr bool kAKMajor = std::is_same<LayoutA, layout::RowMajor>::value;
  static constexpr bool kBKMajor = std::is_same<LayoutB, layout::ColumnMajor>::value;

  using Instruction = typename threadblock::Sm80MmaTraits<ElementA, ElementB, ElementAccumulator>::Instruction;
  static_assert(InstructionShape::kM == Instruction::Shape::kM && InstructionShape::kN == Instruction::Shape::kN &&
                    InstructionShape::kK == Instruction::Shape::kK,
                "GemmSm80: InstructionShape must be 16x8x16 for f16/bf16, 16x8x8 for tf32, 16x8x32 for s8");
  static_assert(sizeof(ElementA) != 1 || (kAKMajor && kBKMajor),
                "GemmSm80: s8 supports only TN (A layout::RowMajor, B layout::ColumnMajor)");
  static_assert(sizeof(ElementA) != 2 || AlignmentA == 8 || AlignmentA == 4 || AlignmentA == 2 || AlignmentA == 1,
                "GemmSm80: 16-bit AlignmentA must be 8, 4, 2 or 1");
  static_assert(sizeof(ElementB) != 2 || AlignmentB == 8 || AlignmentB == 4 || AlignmentB == 2 || AlignmentB == 1,
                "GemmSm80: 16-bit AlignmentB must be 8, 4, 2 or 1");
  static_assert(sizeof(ElementA) != 4 || AlignmentA == 4 || AlignmentA == 2 || AlignmentA == 1,
                "GemmSm80: tf32 AlignmentA must be 4, 2 or 1");
  static_assert(sizeof(ElementB) != 4 || AlignmentB == 4 || AlignmentB == 2 || AlignmentB == 1,
                "GemmSm80: tf32 AlignmentB must be 4, 2 or 1");
  static_assert(sizeof(ElementA) != 1 || AlignmentA == 16 || AlignmentA == 8 || AlignmentA == 4 ||
                    AlignmentA == 2 || AlignmentA == 1,
                "GemmSm80: s8 AlignmentA must be 16, 8, 4, 2 or 1");
  static_assert(sizeof(ElementB) != 1 || AlignmentB == 16 || AlignmentB == 8 || AlignmentB == 4 ||
                    AlignmentB == 2 || AlignmentB == 1,
                "GemmSm80: s8 AlignmentB must be 16, 8, 4, 2 or 1");
  static_assert(std::is_same<typename EpilogueOutputOp::ElementOutput, ElementC>::value,
                "GemmSm80: EpilogueOutputOp::ElementOutput must be ElementC");
  static_assert(std::is_same<typename EpilogueOutputOp::ElementAccumulator, ElementAccumulator>::value,
                "GemmSm80: EpilogueOutputOp::ElementAccumulator must be ElementAccumulator");

  using Mma = threadblock::Sm80MmaMultistage<ElementA, kAKMajor, AlignmentA, ElementB, kBKMajor, AlignmentB,
                                             ElementAccumulator, ThreadblockShape, WarpShape, Stages>;
  using Epilogue = epilogue::threadblock::Sm80EpilogueStaged<ElementC, AlignmentC, ElementAccumulator, EpilogueOutputOp,
                                                              ThreadblockShape::kM, ThreadblockShape::kN,
                                                              WarpShape::kM, WarpShape::kN>;
  using Swizzle = threadblock::Sm80ThreadblockSwizzle;

  static constexpr int kThreads = Mma::kThreads;
  /// Dynamic shared memory, bytes: the pipeline ring, reused by the epilogue slab.
  static constexpr int kSmemBytes = Mma::kSmemBytes > Epilogue::kSmemBytes ? Mma::kSmemBytes : Epilogue::kSmemBytes;
  static_assert(kSmemBytes <= 232448, "GemmSm80: shared memory exceeds 227 KB (sm90 opt-in limit); lower Stages");

  /// Kernel parameters, passed by value.
  struct Params {
    GemmCoord problem_size;
    int tiles_m = 0;
    int tiles_n = 0;
    int swizzle_log = 0;
    typename EpilogueOutputOp::Params epilogue;
    ElementA const *ptr_A = nullptr;
    int64_t lda = 0, batch_stride_A = 0;
    ElementB const *ptr_B = nullptr;
    int64_t ldb = 0, batch_stride_B = 0;
    ElementC const *ptr_C = nullptr;
    int64_t ldc = 0, batch_stride_C = 0;
    ElementC *ptr_D = nullptr;
    int64_t ldd = 0, batch_stride_D = 0;
  };

  static Params make_params(Arguments const &args) {
    Params p;
    p.problem_size = args.problem_size;
    p.tiles_m = (args.problem_size.m() + ThreadblockShape::kM - 1) / ThreadblockShape::kM;
    p.tiles_n = (args.problem_size.n() + ThreadblockShape::kN - 1) / ThreadblockShape::kN;
    p.swizzle_log = Swizzle::log_group(p.tiles_n);
    p.epilogue = args.epilogue;
    p.ptr_A = args.ptr_A;
    p.lda = args.lda;
    p.batch_stride_A = args.batch_stride_A;
    p.ptr_B = args.ptr_B;
    p.ldb = args.ldb;
    p.batch_stride_B = args.batch_stride_B;
    p.ptr_C = args.ptr_C;
    p.ldc = args.ldc;
    p.batch_stride_C = args.batch_stride_C;
    p.ptr_D = args.ptr_D;
    p.ldd = args.ldd;
    p.batch_stride_D = args.batch_stride_D;
    return p;
  }

  /// kSuccess when this kernel runs `args` on the current device. Besides can_implement_common:
  /// kErrorNotSupported when the grid would exceed CUDA's limits (y <= 65535 N-tile groups,
  /// batch_count <= 65535) or kSmemBytes exceeds the device's opt-in shared memory per block;
  /// kErrorArchMismatch below compute capability 8.0; kErrorInternal when the device cannot be queried.
  static Status can_implement(Arguments const &args) {
    Status status = can_implement_common<GemmSm80>(args);
    if (status != Status::kSuccess) return status;
    Params const p = make_params(args);
    if (Swizzle::grid_x(p.tiles_m, p.swizzle_log) > INT_MAX || Swizzle::grid_y(p.tiles_n, p.swizzle_log) > 65535 ||
        args.batch_count > 65535) {
      return Status::kErrorNotSupported;
    }
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return Status::kErrorInternal;
    detail::Sm80DeviceLimits const limits = detail::sm80_device_limits(device);
    if (limits.error != cudaSuccess) return Status::kErrorInternal;
    if (limits.compute_capability < kMinComputeCapability || limits.compute_capability > kMaxComputeCapability) {
      return Status::kErrorArchMismatch;
    }
    if (kSmemBytes > limits.max_smem_optin) return Status::kErrorNotSupported;
    return Status::kSuccess;
  }

  static size_t get_workspace_size(Arguments const &) { return 0; }
  static size_t get_workspace_sync_bytes(Arguments const &) { return 0; }
  static Status initialize_workspace(Arguments const &, void *, cudaStream_t) { return Status::kSuccess; }

  /// Launches one kernel on `stream`. @pre can_implement(args) == kSuccess.
  static Status run(Arguments const &args, void * /*workspace*/, cudaStream_t stream) {
    Params const params = make_params(args);
    if (allow_large_smem() != cudaSuccess) return Status::kErrorInternal;
    dim3 const grid(unsigned(Swizzle::grid_x(params.tiles_m, params.swizzle_log)),
                    unsigned(Swizzle::grid_y(params.tiles_n, params.swizzle_log)), unsigned(args.batch_count));
    gemm_sm80_kernel<GemmSm80><<<grid, kThreads, kSmemBytes, stream>>>(params);
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

  /// The work of one CTA (device side of run()).
  CUTLASS_DEVICE static void run_cta(Params const &params, uint8_t *smem) {
    int const tile_m = Swizzle::tile_m(int(blockIdx.x), params.swizzle_log);
    int const tile_n = Swizzle::tile_n(int(blockIdx.x), int(blockIdx.y), params.swizzle_log);
    if (tile_m >= params.tiles_m || tile_n >= params.tiles_n) return;   // whole CTA, before any barrier

    int64_t const batch = blockIdx.z;
    int const thread = int(threadIdx.x);
    int const lane = thread % 32;
    int const warp = __shfl_sync(0xffffffffu, thread / 32, 0);   // warp-uniform in a register
    auto const warp_mn = cute::idx2crd(warp, typename Mma::WarpGridShape{});   // (warp_m, warp_n), M fastest
    int const warp_m = cute::get<0>(warp_mn);
    int const warp_n = cute::get<1>(warp_mn);
    int const m0 = tile_m * ThreadblockShape::kM;
    int const n0 = tile_n * ThreadblockShape::kN;
    GemmCoord const problem = params.problem_size;

    EpilogueOutputOp output_op(params.epilogue);
    output_op.set_batch(batch);
    typename Mma::LoaderA loader_a(params.ptr_A + batch * params.batch_stride_A, params.lda, problem.m(), m0, thread);
    typename Mma::LoaderB loader_b(params.ptr_B + batch * params.batch_stride_B, params.ldb, problem.n(), n0, thread);

    typename Mma::Accumulators acc;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < Mma::kMTiles; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < Mma::kNTiles; ++j) {
        CUTLASS_PRAGMA_UNROLL
        for (int v = 0; v < 4; ++v) acc[i][j][v] = ElementAccumulator(0);
      }
    }
    Mma::run(acc, arch::shared_address(smem), loader_a, loader_b, problem.k(), lane, warp_m, warp_n);

    ElementC const *ptr_c = params.ptr_C ? params.ptr_C + batch * params.batch_stride_C : nullptr;
    Epilogue::store(acc, output_op, smem, ptr_c, params.ldc, params.ptr_D + batch * params.batch_stride_D, params.ldd,
                    problem.m(), problem.n(), m0, n0, thread, lane, warp_m, warp_n);
  }

 private:
  /// Raises the kernel's dynamic shared memory limit when it needs more than the default 48 KB,
  /// once per device (cudaFuncSetAttribute acts on the current device's context).
  static cudaError_t allow_large_smem() {
    if constexpr (kSmemBytes <= 48 * 1024) {
      return cudaSuccess;
    } else {
      int device = 0;
      cudaError_t error = cudaGetDevice(&device);
      if (error != cudaSuccess) return error;
      return once_per_device(device, [] {
        return cudaFuncSetAttribute(gemm_sm80_kernel<GemmSm80>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    kSmemBytes);
      });
    }
  }
};

/// Kernel entry: one CTA per (output tile, batch). Compiled to an empty body below sm_80,
/// where can_implement() never admits it.
template <typename Gemm>
__global__ void __launch_bounds__(Gemm::kThreads, 1) gemm_sm80_kernel(typename Gemm::Params const params) {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
  extern __shared__ __align__(128) uint8_t gemm_sm80_smem[];
  Gemm::run_cta(params, gemm_sm80_smem);
#endif
}

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
