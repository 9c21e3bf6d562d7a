/// @file cutlass/gemm/kernel/gemm_skinny_sm80.h
/// GemmSkinnySm80: GEMMs whose smaller output side has at most SmallN entries (2 to 32 tokens of an
/// LLM's linear layer, either orientation), on mma.sync tensor cores (sm_80 and later), A row-major
/// and B column-major (TN: both operands K-major, as frameworks call y = x W^T).
///
/// Such a GEMM reads its large operand W (the weights) once and is bound by memory bandwidth, so the
/// kernel streams W from global memory straight into mma fragments, 16 bytes per load, with no
/// shared-memory pipeline, and keeps the small operand X (the tokens) in L1/L2:
///   orientation (run time): N <= SmallN: W = A (M x K rows), X = B's columns, output (i, j) = D(i, j);
///                           else M <= SmallN: W = B^T (N rows), X = A's rows, output (i, j) = D(j, i).
///   CTA: 8 warps = 2 row fragments (16 rows of W each, 32 per CTA) x 4 K slices; a warp multiplies
///        its 16 rows by the SmallN tokens over its K slice with m16n8k16 MMAs (SmallN / 8 of them
///        per 16 k), kUnroll 32-element k-steps of loads in flight; the 4 slices meet in shared
///        memory, the K splits across CTAs in the workspace (output_block.h, deterministic).
///   Fragments without shared memory: lane (g, c) = (lane / 4, lane % 4) loads W rows g and g + 8 at
///        k0 + 8c .. k0 + 8c + 7 (16 bytes) and token rows g of X at the same k. The MMA's K order
///        is free as long as A and B agree, so these 8 elements are the lane's k slots
///        {2c, 2c + 1, 2c + 8, 2c + 9} of two consecutive m16n8k16 steps (PTX ISA, "Matrix Fragments
///        for mma.m16n8k16": a0..a3 = rows g / g + 8 at k 2c..2c+1 and 2c+8..2c+9; b0, b1 = column
///        g at the same k), registers 0, 1 for the first step and 2, 3 for the second.
/// Requirements: A, B 16-byte aligned, lda, ldb (and batch strides) multiples of 8 elements, so K
/// is a multiple of 8 too (the K-major extent); any M, N within the orientation rule; C and D any
/// alignment (one store per element). The epilogue is the common output operator.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cutlass/arch/arch.h"
#include "cutlass/arch/mma_sm80.h"
#include "cutlass/device_once.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/kernel/output_block.h"
#include "cutlass/layout/matrix.h"

namespace cutlass {
namespace gemm {
namespace kernel {

template <typename Element>
struct SkinnyMma;
template <>
struct SkinnyMma<half_t> {
  using Type = arch::Mma16816F32F16F16F32;
};
template <>
struct SkinnyMma<bfloat16_t> {
  using Type = arch::Mma16816F32Bf16Bf16F32;
};

template <typename Element, typename ElementC, typename OutputParams>
struct SkinnyParams {
  Element const *w = nullptr;   ///< W(i, k) = w[i * ldw + k]
  int64_t ldw = 0, w_batch_stride = 0;
  Element const *x = nullptr;   ///< X(j, k) = x[j * ldx + k]
  int64_t ldx = 0, x_batch_stride = 0;
  int big = 0, small = 0, k = 0;
  bool small_is_n = true;       ///< output (i, j) is D(i, j); else D(j, i)
  int k_per_split = 0;          ///< a multiple of 32 (whole k-steps)
  SplitKSerial<float> split;
  OutputOperands<ElementC, OutputParams> out;
};

template <typename Kernel>
__global__ void __launch_bounds__(256, 2) gemm_skinny_sm80_kernel(typename Kernel::Params const params) {
  Kernel::run_device(params);
}

template <typename Element_, typename ElementC_, typename EpilogueOutputOp_, int SmallN>
struct GemmSkinnySm80 {
  static_assert(SmallN == 8 || SmallN == 16 || SmallN == 32, "GemmSkinnySm80: SmallN is 8, 16 or 32");
  using ElementA = Element_;
  using ElementB = Element_;
  using ElementC = ElementC_;
  using LayoutA = layout::RowMajor;
  using LayoutB = layout::ColumnMajor;
  using ElementAccumulator = float;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using OperatorClass = arch::OpClassTensorOp;
  using MathOperator = arch::OpMultiplyAdd;
  using Element = Element_;
  using Mma = typename SkinnyMma<Element_>::Type;

  static constexpr int kThreads = 256;
  static constexpr int kRowFragments = 2;   ///< 16-row W fragments per CTA
  static constexpr int kSlices = 4;         ///< warps along K
  static constexpr int kRows = 16 * kRowFragments;
  static constexpr int kFragments = SmallN / 8;   ///< n8 MMA columns
  /// 32-element k-steps per load batch; two batches are in flight (the next one's loads are
  /// issued before this one's MMAs), within the 128 registers of 2 CTAs per SM.
  static constexpr int kUnroll = kFragments == 1 ? 3 : kFragments == 2 ? 2 : 1;
  static constexpr int kStep = 32;
  static constexpr int kOutputs = kRows * SmallN;   ///< outputs of a CTA block
  static constexpr int kOutputsPerThread = kOutputs / kThreads > 0 ? kOutputs / kThreads : 1;

  using ThreadblockShape = GemmShape<kRows, SmallN, kSlices * kStep>;
  using WarpShape = GemmShape<16, SmallN, kStep>;
  using InstructionShape = GemmShape<16, 8, 16>;
  static constexpr int kStages = 1;
  static constexpr int kAlignmentA = 8;
  static constexpr int kAlignmentB = 8;
  static constexpr int kAlignmentC = 1;
  static constexpr int kMinComputeCapability = 80;
  static constexpr int kMaxComputeCapability = 1000;
  static constexpr int kMaxSmallExtent = SmallN;   ///< min(M, N) <= SmallN problems only
  static constexpr bool kSerialSplitK = true;      ///< splits K over CTAs (workspace)

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;
  using Params = SkinnyParams<Element_, ElementC, typename EpilogueOutputOp::Params>;

  // ---- host --------------------------------------------------------------------------------

  static Params make_params(Arguments const &args) {
    auto const &p = args.problem_size;
    Params params;
    params.small_is_n = p.n() <= SmallN;
    params.k = p.k();
    if (params.small_is_n) {   // W = A (rows of M), X = B's columns
      params.big = p.m();
      params.small = p.n();
      params.w = args.ptr_A;
      params.ldw = args.lda;
      params.w_batch_stride = args.batch_stride_A;
      params.x = args.ptr_B;
      params.ldx = args.ldb;
      params.x_batch_stride = args.batch_stride_B;
    } else {                   // W = B^T (rows of N), X = A's rows
      params.big = p.n();
      params.small = p.m();
      params.w = args.ptr_B;
      params.ldw = args.ldb;
      params.w_batch_stride = args.batch_stride_B;
      params.x = args.ptr_A;
      params.ldx = args.lda;
      params.x_batch_stride = args.batch_stride_A;
    }
    params.out = decltype(params.out)::of(args);
    params.split.slots = kOutputs;
    return params;
  }

  static int64_t row_blocks(Params const &params) { return (int64_t(params.big) + kRows - 1) / kRows; }
  static int64_t blocks(Params const &params, int batch_count) { return row_blocks(params) * batch_count; }

  /// CTAs of this kernel resident on one SM (occupancy query, once per device; 2 if it fails).
  static int resident_ctas() {
    int device = 0;
    cudaGetDevice(&device);
    return once_per_device(device, [] {
      int ctas = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, gemm_skinny_sm80_kernel<GemmSkinnySm80>, kThreads, 0) !=
              cudaSuccess ||
          ctas < 1) {
        cudaGetLastError();
        ctas = 2;
      }
      return ctas;
    });
  }

  static Params planned(Arguments const &args) {
    Params params = make_params(args);
    if (params.k < 1) {   // nothing to plan (the kernel is not run on empty problems)
      params.k_per_split = 0;
      params.split.splits = 1;
      return params;
    }
    int64_t const slots = int64_t(current_device_sm_count()) * resident_ctas();
    int const max_splits = int(std::max<int64_t>(1, params.k / (kSlices * kStep * 2)));   // >= 2 k-steps a warp
    int const splits = plan_splits(blocks(params, args.batch_count), slots, max_splits);
    int64_t run = (int64_t(params.k) + splits - 1) / splits;
    run = (run + kStep - 1) / kStep * kStep;
    params.k_per_split = int(run);
    params.split.splits = int((params.k + run - 1) / run);
    return params;
  }


  static Status can_implement(Arguments const &args) {
    Status status = can_implement_common<GemmSkinnySm80>(args);
    if (status != Status::kSuccess) return status;
    auto const &p = args.problem_size;
    if (p.m() > SmallN && p.n() > SmallN) return Status::kErrorNotSupported;   // no side small enough
    if (args.batch_count > 65535) return Status::kErrorNotSupported;
    return Status::kSuccess;
  }

  static size_t get_workspace_size(Arguments const &args) {
    Params const params = planned(args);
    return size_t(SplitKSerial<float>::workspace_bytes(blocks(params, args.batch_count), params.split.splits, kOutputs));
  }

  /// Bytes at the workspace's start that initialize_workspace zeroes and every launch leaves zero
  /// (the split counters; 0 without a split).
  static size_t get_workspace_sync_bytes(Arguments const &args) {
    Params const params = planned(args);
    return size_t(SplitKSerial<float>::sync_bytes(blocks(params, args.batch_count), params.split.splits));
  }

  static Status initialize_workspace(Arguments const &args, void *workspace, cudaStream_t stream) {
    return zero_workspace_sync_bytes(workspace, get_workspace_sync_bytes(args), stream);
  }

  static Status run(Arguments const &args, void *workspace, cudaStream_t stream) {
    Params params = planned(args);
    if (params.split.splits > 1) {
      if (workspace == nullptr) return Status::kErrorWorkspaceNull;
      params.split.place(workspace, blocks(params, args.batch_count));
    }
    dim3 const grid(unsigned(row_blocks(params)), unsigned(params.split.splits), unsigned(args.batch_count));
    gemm_skinny_sm80_kernel<GemmSkinnySm80><<<grid, kThreads, 0, stream>>>(params);
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

#if defined(__CUDACC__)
  // ---- device ------------------------------------------------------------------------------

  /// 16 bytes of W, streamed (evict-first: W is read once), or zeros when !valid.
  CUTLASS_DEVICE static uint4 load_w(Element const *p, bool valid) {
    return valid ? __ldcs(reinterpret_cast<uint4 const *>(p)) : make_uint4(0, 0, 0, 0);
  }
  /// 16 bytes of X through L1 (every warp of the CTA reads the same tokens), or zeros.
  CUTLASS_DEVICE static uint4 load_x(Element const *p, bool valid) {
    return valid ? __ldg(reinterpret_cast<uint4 const *>(p)) : make_uint4(0, 0, 0, 0);
  }

  CUTLASS_DEVICE static void run_device(Params const &params) {
    __shared__ float sums[kSlices][kOutputs];
    int const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int const g = lane / 4, c = lane % 4;
    int const fragment = warp % kRowFragments, slice = warp / kRowFragments;
    int const l = blockIdx.z;

    // this warp's K range: the CTA's split, cut into kSlices runs of whole k-steps
    int64_t const k_begin = int64_t(blockIdx.y) * params.k_per_split;
    int64_t const k_end = min(int64_t(params.k), k_begin + params.k_per_split);
    int64_t const per_slice = ((k_end - k_begin + kSlices - 1) / kSlices + kStep - 1) / kStep * kStep;
    int64_t const wk0 = k_begin + slice * per_slice;
    int64_t const wk1 = min(k_end, wk0 + per_slice);

    int64_t const row = int64_t(blockIdx.x) * kRows + fragment * 16 + g;
    bool const row_lo = row < params.big, row_hi = row + 8 < params.big;
    Element const *w_lo = params.w + int64_t(l) * params.w_batch_stride + row * params.ldw + 8 * c;
    Element const *w_hi = w_lo + 8 * params.ldw;
    Element const *x_row[kFragments];
    bool x_valid[kFragments];
    CUTLASS_PRAGMA_UNROLL
    for (int f = 0; f < kFragments; ++f) {
      int const token = 8 * f + g;
      x_valid[f] = token < params.small;
      x_row[f] = params.x + int64_t(l) * params.x_batch_stride + int64_t(x_valid[f] ? token : 0) * params.ldx + 8 * c;
    }

    float acc[kFragments][4];
    CUTLASS_PRAGMA_UNROLL
    for (int f = 0; f < kFragments; ++f) {
      CUTLASS_PRAGMA_UNROLL
      for (int r = 0; r < 4; ++r) acc[f][r] = 0.f;
    }

    // One batch of loads: kUnroll k-steps of W (rows g, g + 8) and X (token rows), predicated on K.
    struct Batch {
      uint4 lo[kUnroll], hi[kUnroll], x[kUnroll][kFragments];
    };
    auto const load_batch = [&](Batch &b, int64_t k0) {
      CUTLASS_PRAGMA_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        int64_t const k = k0 + u * kStep;
        bool const in_k = k + 8 * c < wk1;   // K, the runs and k0 are multiples of 8
        b.lo[u] = load_w(w_lo + k, in_k && row_lo);
        b.hi[u] = load_w(w_hi + k, in_k && row_hi);
        CUTLASS_PRAGMA_UNROLL
        for (int f = 0; f < kFragments; ++f) b.x[u][f] = load_x(x_row[f] + k, in_k && x_valid[f]);
      }
    };
    auto const multiply_batch = [&](Batch const &b) {
      CUTLASS_PRAGMA_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        uint32_t const a0[4] = {b.lo[u].x, b.hi[u].x, b.lo[u].y, b.hi[u].y};   // first m16n8k16 step
        uint32_t const a1[4] = {b.lo[u].z, b.hi[u].z, b.lo[u].w, b.hi[u].w};   // second
        CUTLASS_PRAGMA_UNROLL
        for (int f = 0; f < kFragments; ++f) {
          uint32_t const b0[2] = {b.x[u][f].x, b.x[u][f].y};
          uint32_t const b1[2] = {b.x[u][f].z, b.x[u][f].w};
          Mma::fma(acc[f], a0, b0);
          Mma::fma(acc[f], a1, b1);
        }
      }
    };
    constexpr int64_t kBatchK = kStep * kUnroll;
    Batch current, next;
    load_batch(current, wk0);
    for (int64_t k0 = wk0; k0 < wk1; k0 += 2 * kBatchK) {
      load_batch(next, k0 + kBatchK);   // all predicated off past wk1
      multiply_batch(current);
      if (k0 + kBatchK >= wk1) break;
      load_batch(current, k0 + 2 * kBatchK);
      multiply_batch(next);
    }

    // the slices' sums: accumulator (f, r) is row g (+8 for r >= 2), token 8f + 2c + (r & 1)
    CUTLASS_PRAGMA_UNROLL
    for (int f = 0; f < kFragments; ++f) {
      CUTLASS_PRAGMA_UNROLL
      for (int r = 0; r < 4; ++r) {
        int const out_row = fragment * 16 + g + 8 * (r >> 1);
        int const token = 8 * f + 2 * c + (r & 1);
        sums[slice][out_row * SmallN + token] = acc[f][r];
      }
    }
    __syncthreads();

    bool owner[kOutputsPerThread];
    int slot[kOutputsPerThread], m[kOutputsPerThread], n[kOutputsPerThread];
    float value[kOutputsPerThread];
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < kOutputsPerThread; ++j) {
      slot[j] = int(threadIdx.x) + j * kThreads;
      int const out_row = slot[j] / SmallN, token = slot[j] % SmallN;
      int64_t const i = int64_t(blockIdx.x) * kRows + out_row;
      owner[j] = slot[j] < kOutputs && i < params.big && token < params.small;
      value[j] = 0.f;
      CUTLASS_PRAGMA_UNROLL
      for (int s = 0; s < kSlices; ++s) value[j] += slot[j] < kOutputs ? sums[s][slot[j]] : 0.f;
      m[j] = params.small_is_n ? int(i) : token;
      n[j] = params.small_is_n ? token : int(i);
    }
    int64_t const block = int64_t(l) * gridDim.x + blockIdx.x;
    if (!params.split.reduce(owner, slot, value, block, int(blockIdx.y))) return;
    store_outputs<EpilogueOutputOp>(params.out, l, owner, m, n, value);
  }
#endif
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
