/// @file cutlass/gemm/kernel/gemv.h
/// Gemv: the GEMMs with M == 1 or N == 1 (matrix-vector products, what LLM decoding at one token
/// runs), for every element type and layout and any alignment, on CUDA cores. Such a GEMM reads
/// its matrix once and does 2 flops per element read, so it is bound by memory bandwidth: the
/// kernel's job is to keep enough bytes in flight on every SM (16-byte loads, several per thread
/// before the first use, enough CTAs) and to read the matrix exactly once.
///
/// The problem as one matrix-vector product y = Mat * x of L outputs and K terms:
///   N == 1: y = D(:, 0), Mat = A (M x K), x = B(:, 0);
///   M == 1: y = D(0, :), Mat = B^T (N x K), x = A(0, :) (taken when N > 1 or N == 1 also fails);
/// Mat is "K-major" when its K elements are contiguous (A row-major, or B column-major): the dot
/// form, one warp per output, lanes striding along K, then a warp sum. Otherwise Mat is "L-major"
/// (A column-major, B row-major): the axpy form, each lane owning V consecutive outputs (one
/// 16-byte vector) and the 8 warps of a CTA taking interleaved k, summed through shared memory.
/// The x entries a CTA needs are read straight from global memory in vectors when x is contiguous
/// and aligned (dot form), else staged in shared memory once (any stride).
///
/// Split-K: when the outputs alone cannot fill the GPU (few CTAs per SM), K is cut into equal
/// runs (grid y), and the CTAs of one output block meet in the workspace (output_block.h:
/// deterministic, counters cleared by initialize_workspace() once and by every launch after).
/// Vector loads (16 bytes) need Mat's pointer and leading dimension (and batch stride) aligned to
/// 16 bytes; otherwise the same loops run with one element per load. Accumulation is in
/// ElementAccumulator (f32 for 16-bit, tf32 and f32 inputs, f64, s32 for s8), summed in a fixed
/// order. The epilogue is the output operator every family uses (thread/linear_combination.h),
/// so the fused pieces (bias, activation, aux, scale and amax) work at one token too.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cutlass/arch/arch.h"
#include "cutlass/device_once.h"
#include "cutlass/gemm/gemm_arguments.h"
#include "cutlass/gemm/kernel/output_block.h"
#include "cutlass/layout/matrix.h"
#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace gemm {
namespace kernel {

/// The launch of one GEMV: which form, how K is split, where everything is (elements).
template <typename Element, typename ElementC, typename Accumulator, typename OutputParams>
struct GemvParams {
  Element const *mat = nullptr;
  int64_t mat_ld = 0;            ///< dot form: Mat(i, k) = mat[i * ld + k]; axpy form: mat[i + k * ld]
  int64_t mat_batch_stride = 0;
  Element const *x = nullptr;
  int64_t x_stride = 0;          ///< x(k) = x[k * x_stride]
  int64_t x_batch_stride = 0;
  int length = 0;                ///< L: outputs per batch entry
  int k = 0;
  bool n_is_one = true;          ///< output i is D(i, 0); else D(0, i)
  int k_per_split = 0;           ///< K elements per run (a multiple of the vector width)
  SplitKSerial<Accumulator> split;   ///< splits = grid y; blocks = batch x grid x
  OutputOperands<ElementC, OutputParams> out;
};

/// kXDirect (dot form with vector loads only): x read from global memory in vectors, not staged
/// (a contiguous, 16-byte-aligned x run; Gemv::run decides), a compile-time choice so the step's
/// loop carries one x path; its occupancy bound is Gemv::kXDirectMinBlocks.
template <typename Kernel, bool kDot, bool kVector, bool kXDirect = false>
__global__ void __launch_bounds__(256, kXDirect ? Kernel::kXDirectMinBlocks : 0)
    gemv_kernel(typename Kernel::Params const params) {
  if constexpr (kDot) {
    Kernel::template run_dot<kVector, kXDirect>(params);
  } else {
    Kernel::template run_axpy<kVector>(params);
  }
}

template <typename ElementA_, typename LayoutA_, typename ElementB_, typename LayoutB_, typename ElementC_,
          typename ElementAccumulator_, typename EpilogueOutputOp_>
struct Gemv {
  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB = ElementB_;
  using LayoutB = LayoutB_;
  using ElementC = ElementC_;
  using ElementAccumulator = ElementAccumulator_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using ElementCompute = typename EpilogueOutputOp::ElementCompute;
  using OperatorClass = arch::OpClassSimt;
  using MathOperator = arch::OpMultiplyAdd;
  static_assert(std::is_same<ElementA, ElementB>::value, "Gemv: A and B have the same type");
  using Element = ElementA;

  static constexpr int kThreads = 256;
  static constexpr int kWarps = kThreads / 32;
  /// Elements of one 16-byte vector load.
  static constexpr int kVector = 16 / int(sizeof(Element)) > 0 ? 16 / int(sizeof(Element)) : 1;
  /// Outputs of one CTA: the dot form's warps own one each; the axpy form's lanes own kVector each.
  static constexpr int kDotRows = kWarps;
  /// Dot form: 16-byte vectors a lane loads per step of its row (see run_dot): when x is read
  /// straight from global memory, 4 for 16-bit types (s39; s38's first 4-vector loop took 71
  /// registers, 3 CTAs per SM, and ran a second partial wave) and 3 for the others; 2 when x is
  /// staged in shared memory.
  template <bool kXDirect>
  static constexpr int kDotVectors = !kXDirect ? 2 : sizeof(Element) == 2 ? 4 : 3;
  /// The kXDirect kernel's __launch_bounds__ CTAs per SM: 16-bit types are held to 64 registers,
  /// 4 CTAs per SM, the occupancy s38's split plans were measured at (without the bound ptxas
  /// took 80 for their 4-vector step; with it bf16 spills nothing and f16 28 bytes, stored at
  /// entry and loaded in the epilogue, none in the loop); the others (3 vectors) keep ptxas's
  /// choice (held to 64, the f32, tf32, f64 and fp8 kernels spilled 28-44 bytes; host ptxas,
  /// nvcc 13.0, s39).
  static constexpr int kXDirectMinBlocks = sizeof(Element) == 2 ? 4 : 0;
  static constexpr int kAxpyRows = 32 * kVector;
  static constexpr int kAxpyPerThread = (kAxpyRows + kThreads - 1) / kThreads;
  /// Shared memory for x: at most this many bytes of one K run (longer K is split).
  static constexpr int kMaxStagedBytes = 24 * 1024;   // + the axpy form's sums: under 48 KB
  static constexpr int kMaxKPerSplit = kMaxStagedBytes / int(sizeof(Element));

  using ThreadblockShape = GemmShape<kThreads, 1, 1>;   ///< threads of a CTA (the name's tile)
  using WarpShape = GemmShape<32, 1, 1>;
  using InstructionShape = GemmShape<1, 1, 1>;
  static constexpr int kStages = 1;
  static constexpr int kAlignmentA = 1;   ///< any alignment (vector loads where it allows)
  static constexpr int kAlignmentB = 1;
  static constexpr int kAlignmentC = 1;
  static constexpr int kMinComputeCapability = 50;
  static constexpr int kMaxComputeCapability = 1000;
  static constexpr int kMaxSmallExtent = 1;      ///< M == 1 or N == 1 problems only
  static constexpr bool kSerialSplitK = true;    ///< splits K over CTAs (workspace)

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, typename EpilogueOutputOp::Params>;
  using Params = GemvParams<Element, ElementC, ElementAccumulator, typename EpilogueOutputOp::Params>;

  // ---- host --------------------------------------------------------------------------------

  static constexpr bool kRowMajorA = std::is_same<LayoutA, layout::RowMajor>::value;
  static constexpr bool kColumnMajorB = std::is_same<LayoutB, layout::ColumnMajor>::value;

  /// The matrix-vector form of `args` (see the file comment); split fields left at 1.
  static Params make_params(Arguments const &args) {
    auto const &p = args.problem_size;
    Params params;
    params.n_is_one = p.n() == 1;
    params.k = p.k();
    params.out = decltype(params.out)::of(args);
    if (params.n_is_one) {
      params.length = p.m();
      params.mat = args.ptr_A;
      params.mat_ld = args.lda;
      params.mat_batch_stride = args.batch_stride_A;
      params.x = args.ptr_B;
      params.x_stride = kColumnMajorB ? 1 : args.ldb;   // B(k, 0)
      params.x_batch_stride = args.batch_stride_B;
    } else {
      params.length = p.n();
      params.mat = args.ptr_B;
      params.mat_ld = args.ldb;
      params.mat_batch_stride = args.batch_stride_B;
      params.x = args.ptr_A;
      params.x_stride = kRowMajorA ? 1 : args.lda;      // A(0, k)
      params.x_batch_stride = args.batch_stride_A;
    }
    return params;
  }

  /// True when Mat's K elements are contiguous (the dot form).
  static bool dot_form(Params const &params) { return params.n_is_one ? kRowMajorA : kColumnMajorB; }

  /// True when every row (dot) or column (axpy) of Mat starts 16-byte aligned.
  static bool vector_loads(Params const &params, int batch_count) {
    return reinterpret_cast<uintptr_t>(params.mat) % 16 == 0 && params.mat_ld % kVector == 0 &&
           (batch_count <= 1 || params.mat_batch_stride % kVector == 0);
  }

  /// CTAs along the outputs for `params`'s form.
  static int64_t row_blocks(Params const &params) {
    int64_t const rows = dot_form(params) ? kDotRows : kAxpyRows;
    return (int64_t(params.length) + rows - 1) / rows;
  }

  /// CTAs of the form's kernel resident on one SM (occupancy query, once per device and form; 4 if
  /// it fails). The dot form counts its x-direct kernel (the one a call with a contiguous,
  /// 16-byte-aligned x run takes), which stages nothing (its staged twin takes fewer registers: 44
  /// against 64 for bf16, s39); the axpy form counts its kernel with the largest x buffer.
  static int resident_ctas(bool dot) {
    int device = 0;
    cudaGetDevice(&device);
    auto const query = [](auto kernel, size_t shared) {
      int ctas = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, kernel, kThreads, shared) != cudaSuccess ||
          ctas < 1) {
        cudaGetLastError();
        ctas = 4;
      }
      return ctas;
    };
    return dot ? once_per_device(device, [&] { return query(gemv_kernel<Gemv, true, true, true>, 0); })
               : once_per_device(device, [&] { return query(gemv_kernel<Gemv, false, true>, kMaxStagedBytes); });
  }

  /// K runs. Dot form: output_block.h's plan_splits, each run at least 4 vectors per lane (the
  /// s9-s35 loop's step, kept when the step became 2, 3 or 4 vectors: kDotVectors). Axpy form (few CTAs of
  /// 32 x kVector outputs each): one wave of CTAs, runs of at least 512 k (H200 sweep,
  /// docs/NOTES.md: 1x8192x8192 0.98x cuBLAS at 8 splits of 1024, 0.87x at 21 of 390; 4096x1x11008
  /// 1.05x at 42 splits of 262, 0.91x at 12). No run longer than the x buffer.
  static void plan_splits(Params &params, int batch_count, int sm_count) {
    bool const dot = dot_form(params);
    int64_t const k = params.k;
    if (k < 1) {   // nothing to plan (the kernel is not run on empty problems)
      params.k_per_split = 0;
      params.split.splits = 1;
      return;
    }
    int64_t const slots = int64_t(sm_count > 0 ? sm_count : 1) * resident_ctas(dot);
    int64_t const blocks = row_blocks(params) * batch_count;
    int64_t splits = 1;
    if (dot) {
      splits = kernel::plan_splits(blocks, slots, int(std::max<int64_t>(1, std::min<int64_t>(k / (32 * 4 * kVector), 64))));
    } else if (blocks < slots) {
      splits = std::max<int64_t>(1, std::min<int64_t>((slots + blocks - 1) / blocks, k / 512));
    }
    // no run longer than the x buffer, whether or not this call stages x: the plan (and so the
    // workspace) must depend on the shape alone, as initialize_workspace sees only the shape
    int64_t const by_staging = (k + kMaxKPerSplit - 1) / kMaxKPerSplit;
    if (splits < by_staging) splits = by_staging;
    // equal runs, rounded up to whole vectors (so every run but the last starts aligned)
    int64_t run = (k + splits - 1) / splits;
    run = (run + kVector - 1) / kVector * kVector;
    params.k_per_split = int(run);
    params.split.splits = int((k + run - 1) / run);
    params.split.slots = dot ? kDotRows : kAxpyRows;
  }


  /// The launch plan; it depends on the problem's shape alone (initialize_workspace sees only that).
  static Params planned(Arguments const &args, int sm_count) {
    Params params = make_params(args);
    plan_splits(params, args.batch_count, sm_count);
    return params;
  }

  static Status can_implement(Arguments const &args) {
    Status status = can_implement_common<Gemv>(args);
    if (status != Status::kSuccess) return status;
    auto const &p = args.problem_size;
    if (p.m() != 1 && p.n() != 1) return Status::kErrorNotSupported;   // a GEMV: M == 1 or N == 1
    if (args.batch_count > 65535) return Status::kErrorNotSupported;   // grid z
    // grid y holds the K runs: runs of at most one x buffer, for hundreds of millions of elements, need more
    if (planned(args, current_device_sm_count()).split.splits > 65535) return Status::kErrorNotSupported;
    return Status::kSuccess;
  }

  static int64_t blocks(Params const &params, int batch_count) { return row_blocks(params) * batch_count; }

  static size_t get_workspace_size(Arguments const &args) {
    Params const params = planned(args, current_device_sm_count());
    return size_t(decltype(params.split)::workspace_bytes(blocks(params, args.batch_count), params.split.splits,
                                                          params.split.slots));
  }

  /// Bytes at the workspace's start that initialize_workspace zeroes and every launch leaves zero
  /// (the split counters; 0 without a split).
  static size_t get_workspace_sync_bytes(Arguments const &args) {
    Params const params = planned(args, current_device_sm_count());
    return size_t(decltype(params.split)::sync_bytes(blocks(params, args.batch_count), params.split.splits));
  }

  static Status initialize_workspace(Arguments const &args, void *workspace, cudaStream_t stream) {
    return zero_workspace_sync_bytes(workspace, get_workspace_sync_bytes(args), stream);
  }

  static Status run(Arguments const &args, void *workspace, cudaStream_t stream) {
    Params params = planned(args, current_device_sm_count());
    if (params.split.splits > 1) {
      if (workspace == nullptr) return Status::kErrorWorkspaceNull;
      params.split.place(workspace, blocks(params, args.batch_count));
    }
    bool const dot = dot_form(params);
    bool const vector = vector_loads(params, args.batch_count);
    bool const x_direct = dot && vector && params.x_stride == 1 && reinterpret_cast<uintptr_t>(params.x) % 16 == 0 &&
                          (args.batch_count <= 1 || params.x_batch_stride % kVector == 0);
    dim3 const grid(unsigned(row_blocks(params)), unsigned(params.split.splits), unsigned(args.batch_count));
    size_t const shared = x_direct ? 0 : size_t(params.k_per_split) * sizeof(Element);
    if (dot) {
      if (x_direct) {
        gemv_kernel<Gemv, true, true, true><<<grid, kThreads, shared, stream>>>(params);
      } else if (vector) {
        gemv_kernel<Gemv, true, true><<<grid, kThreads, shared, stream>>>(params);
      } else {
        gemv_kernel<Gemv, true, false><<<grid, kThreads, shared, stream>>>(params);
      }
    } else {
      if (vector) {
        gemv_kernel<Gemv, false, true><<<grid, kThreads, shared, stream>>>(params);
      } else {
        gemv_kernel<Gemv, false, false><<<grid, kThreads, shared, stream>>>(params);
      }
    }
    return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

#if defined(__CUDACC__)
  // ---- device ------------------------------------------------------------------------------

  struct alignas(16) Vector {
    Element e[kVector];
  };

  static_assert(sizeof(Vector) == 16, "Gemv: a vector is 16 bytes");

  /// One 16-byte vector of Mat, streamed (evict-first: Mat is read once, x stays in L1).
  CUTLASS_DEVICE static Vector load_vector(Element const *p) {
    uint4 const bits = __ldcs(reinterpret_cast<uint4 const *>(p));
    Vector v;
    memcpy(&v, &bits, sizeof(Vector));
    return v;
  }

  /// A vector of x: from global memory through L1 (direct), or from the shared-memory copy.
  template <bool kDirect>
  CUTLASS_DEVICE static Vector load_x(Element const *p) {
    if constexpr (kDirect) {
      uint4 const bits = __ldg(reinterpret_cast<uint4 const *>(p));
      Vector v;
      memcpy(&v, &bits, sizeof(Vector));
      return v;
    }
    return *reinterpret_cast<Vector const *>(p);
  }

  CUTLASS_DEVICE static ElementAccumulator to_accumulator(Element x) {
    return NumericConverter<ElementAccumulator, Element>::convert(x);
  }

  /// x(k_begin .. k_begin + count - 1) of batch entry l into `staged` (all threads of the CTA).
  CUTLASS_DEVICE static void stage_x(Params const &params, Element *staged, int l, int64_t k_begin, int count) {
    Element const *x = params.x + int64_t(l) * params.x_batch_stride;
    for (int k = threadIdx.x; k < count; k += kThreads) staged[k] = x[(k_begin + k) * params.x_stride];
    __syncthreads();
  }

  /// Dot form: warp w of CTA (bx, split, l) computes output bx * kWarps + w over its K run; x from
  /// global memory when kXDirect, else staged in shared memory.
  template <bool kVectorLoads, bool kXDirect>
  CUTLASS_DEVICE static void run_dot(Params const &params) {
    extern __shared__ __align__(16) unsigned char shared_raw[];
    Element *staged = reinterpret_cast<Element *>(shared_raw);
    int const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int const l = blockIdx.z;
    int64_t const k_begin = int64_t(blockIdx.y) * params.k_per_split;
    int const count = int(min(int64_t(params.k_per_split), int64_t(params.k) - k_begin));
    // x straight from global memory (L1 serves the CTA's warps) or staged once in shared memory
    Element const *xs = kXDirect ? params.x + int64_t(l) * params.x_batch_stride + k_begin : staged;
    if constexpr (!kXDirect) stage_x(params, staged, l, k_begin, count);

    int64_t const i = int64_t(blockIdx.x) * kDotRows + warp;
    ElementAccumulator acc = ElementAccumulator(0);
    if (i < params.length) {
      Element const *row = params.mat + int64_t(l) * params.mat_batch_stride + i * params.mat_ld + k_begin;
      if constexpr (!kVectorLoads) {
        for (int k = lane; k < count; k += 32) acc += to_accumulator(row[k]) * to_accumulator(xs[k]);
      } else {
        // Steps of kSteps (kDotVectors) vectors per lane, 32 lanes side by side, each vector with its own
        // sum, the products taken element by element across the step's vectors: every load of a
        // step feeds its first products, so all are issued together. (With the products taken
        // vector by vector into one sum, ptxas issued each load just before its products, about
        // one 16-byte load in flight per lane; H200, s36: this order ran the dot-form rows 7-9%
        // faster. Four vectors per step, with x's two paths in one kernel, took 90 registers, 2
        // CTAs per SM, and ran 4% slower. With x direct as its own kernel (kXDirect), three took
        // 64 registers: H200, s38, the dot-form rows +1.5-5% over two; the s38 GEMV
        // microbenchmark's fastest loops kept 4 x 16 B of the matrix in flight per lane, which
        // the kXDirect kernel does for 16-bit types since s39.)
        constexpr int kSteps = kDotVectors<kXDirect>;
        constexpr int kStride = 32 * kVector;   // elements from one of a lane's vectors to its next
        int const vectors = count / kVector;
        // this lane's vectors: lane, lane + 32, ... < vectors, walked by two pointers and a count
        // (indices from the row's start kept the row, x and the K run live through the loop: at
        // 4 vectors per step, 3 of them spilled inside it; host ptxas, s39)
        int left = lane < vectors ? (vectors - lane + 31) / 32 : 0;
        Element const *pa = row + lane * kVector;
        Element const *px = xs + lane * kVector;
        ElementAccumulator sums[kSteps];
        CUTLASS_PRAGMA_UNROLL
        for (int u = 0; u < kSteps; ++u) sums[u] = ElementAccumulator(0);
        // the elements past the whole vectors (fewer than kVector <= 16: one per lane at most) go in
        // first, so only the sums and the two pointers stay live through the loop (bf16: 4 vectors
        // per step in 64 registers without spills; host ptxas, s39)
        int const done = vectors * kVector;
        if (done + lane < count) sums[0] = to_accumulator(row[done + lane]) * to_accumulator(xs[done + lane]);
        for (; left >= kSteps; left -= kSteps, pa += kSteps * kStride, px += kSteps * kStride) {
          Vector a[kSteps], b[kSteps];
          CUTLASS_PRAGMA_UNROLL
          for (int u = 0; u < kSteps; ++u) a[u] = load_vector(pa + u * kStride);
          CUTLASS_PRAGMA_UNROLL
          for (int u = 0; u < kSteps; ++u) b[u] = load_x<kXDirect>(px + u * kStride);
          CUTLASS_PRAGMA_UNROLL
          for (int e = 0; e < kVector; ++e) {
            CUTLASS_PRAGMA_UNROLL
            for (int u = 0; u < kSteps; ++u) sums[u] += to_accumulator(a[u].e[e]) * to_accumulator(b[u].e[e]);
          }
        }
        CUTLASS_PRAGMA_UNROLL
        for (int u = 0; u < kSteps; ++u) acc += sums[u];
        CUTLASS_PRAGMA_NO_UNROLL
        for (; left > 0; --left, pa += kStride, px += kStride) {
          Vector const a = load_vector(pa);
          Vector const b = load_x<kXDirect>(px);
          CUTLASS_PRAGMA_UNROLL
          for (int e = 0; e < kVector; ++e) acc += to_accumulator(a.e[e]) * to_accumulator(b.e[e]);
        }
      }
      CUTLASS_PRAGMA_UNROLL
      for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    }
    // lane 0 of each warp holds its output
    bool const owner[1] = {lane == 0 && i < params.length};
    int64_t const index[1] = {i};
    int const slot[1] = {warp};
    ElementAccumulator value[1] = {acc};
    finish<1>(params, owner, index, slot, value, l);
  }

  /// Axpy form: lane t of every warp owns outputs bx * kAxpyRows + t * kVector + (0 .. kVector-1);
  /// warp w takes k = w, w + 8, ... of the CTA's K run; the 8 warps' sums meet in shared memory.
  template <bool kVectorLoads>
  CUTLASS_DEVICE static void run_axpy(Params const &params) {
    extern __shared__ __align__(16) unsigned char shared_raw[];
    Element *staged = reinterpret_cast<Element *>(shared_raw);
    __shared__ ElementAccumulator sums[kWarps][kAxpyRows];
    int const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int const l = blockIdx.z;
    int64_t const k_begin = int64_t(blockIdx.y) * params.k_per_split;
    int const count = int(min(int64_t(params.k_per_split), int64_t(params.k) - k_begin));
    stage_x(params, staged, l, k_begin, count);

    int64_t const i0 = int64_t(blockIdx.x) * kAxpyRows + lane * kVector;
    Element const *column = params.mat + int64_t(l) * params.mat_batch_stride + i0 + k_begin * params.mat_ld;
    ElementAccumulator acc[kVector];
    CUTLASS_PRAGMA_UNROLL
    for (int e = 0; e < kVector; ++e) acc[e] = ElementAccumulator(0);
    bool const whole = kVectorLoads && i0 + kVector <= params.length;
    if (whole) {
      constexpr int kUnroll = 4;
      int k = warp;
      for (; k + kWarps * (kUnroll - 1) < count; k += kWarps * kUnroll) {
        Vector a[kUnroll];
        CUTLASS_PRAGMA_UNROLL
        for (int u = 0; u < kUnroll; ++u) {
          a[u] = load_vector(column + int64_t(k + kWarps * u) * params.mat_ld);
        }
        CUTLASS_PRAGMA_UNROLL
        for (int u = 0; u < kUnroll; ++u) {
          ElementAccumulator const xk = to_accumulator(staged[k + kWarps * u]);
          CUTLASS_PRAGMA_UNROLL
          for (int e = 0; e < kVector; ++e) acc[e] += to_accumulator(a[u].e[e]) * xk;
        }
      }
      for (; k < count; k += kWarps) {
        Vector const a = load_vector(column + int64_t(k) * params.mat_ld);
        ElementAccumulator const xk = to_accumulator(staged[k]);
        CUTLASS_PRAGMA_UNROLL
        for (int e = 0; e < kVector; ++e) acc[e] += to_accumulator(a.e[e]) * xk;
      }
    } else {
      for (int k = warp; k < count; k += kWarps) {
        ElementAccumulator const xk = to_accumulator(staged[k]);
        Element const *c = column + int64_t(k) * params.mat_ld;
        CUTLASS_PRAGMA_UNROLL
        for (int e = 0; e < kVector; ++e) {
          if (i0 + e < params.length) acc[e] += to_accumulator(c[e]) * xk;
        }
      }
    }
    CUTLASS_PRAGMA_UNROLL
    for (int e = 0; e < kVector; ++e) sums[warp][lane * kVector + e] = acc[e];
    __syncthreads();
    // thread t sums outputs t, t + kThreads, ... of the CTA over the warps, in warp order
    bool owner[kAxpyPerThread];
    int64_t index[kAxpyPerThread];
    int slot[kAxpyPerThread];
    ElementAccumulator value[kAxpyPerThread];
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < kAxpyPerThread; ++j) {
      int const r = int(threadIdx.x) + j * kThreads;
      index[j] = int64_t(blockIdx.x) * kAxpyRows + r;
      slot[j] = r;
      owner[j] = r < kAxpyRows && index[j] < params.length;
      value[j] = ElementAccumulator(0);
      if (r < kAxpyRows) {
        CUTLASS_PRAGMA_UNROLL
        for (int w = 0; w < kWarps; ++w) value[j] += sums[w][r];
      }
    }
    finish<kAxpyPerThread>(params, owner, index, slot, value, l);
  }

  /// The split-K hand-off and the epilogue of the N outputs index[j] (slot[j] of the CTA's block)
  /// that this thread owns. Every thread of the CTA calls it once.
  template <int N>
  CUTLASS_DEVICE static void finish(Params const &params, bool const (&owner)[N], int64_t const (&index)[N],
                                    int const (&slot)[N], ElementAccumulator (&value)[N], int l) {
    int64_t const block = int64_t(l) * gridDim.x + blockIdx.x;
    if (!params.split.reduce(owner, slot, value, block, int(blockIdx.y))) return;
    int m[N], n[N];
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) {
      m[j] = params.n_is_one ? int(index[j]) : 0;
      n[j] = params.n_is_one ? 0 : int(index[j]);
    }
    store_outputs<EpilogueOutputOp>(params.out, l, owner, m, n, value);
  }
#endif
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
