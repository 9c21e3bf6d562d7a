/// @file cutlass/gemm/kernel/output_block.h
/// The end of the bandwidth kernels (gemv.h, gemm_skinny_sm80.h), whose CTAs each own a fixed
/// block of outputs, at most N per thread: the serial split-K hand-off and the per-element epilogue.
///
/// Split-K (splits > 1, grid y = split): each CTA stores its partial sums at
/// partials[((block * splits) + split) * slots + slot], counts itself in on its block's counter
/// (atomicAdd after a fence), and the last CTA of the block adds the splits' partials in split
/// order 0, 1, ... (the same bits on every run, whatever order the CTAs finish in), then runs the
/// epilogue and clears the counter for the next launch: the threadFenceReduction pattern of the
/// CUDA samples. Counters must be zero before the first launch on a workspace.
/// Epilogue: D(m, n) = op(acc, C(m, n)) with column-major C and D (thread/linear_combination.h);
/// C is read only when the operator needs it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace kernel {

/// Multiprocessors of the current device (1 when the query fails).
inline int current_device_sm_count() {
  int device = 0, value = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || value < 1) {
    cudaGetLastError();
    return 1;
  }
  return value;
}

/// How many K splits to give `blocks` output blocks on a GPU where `slots` CTAs are resident at
/// once: none while the blocks fill at least half of the slots; otherwise enough to fill half
/// (ceil(slots / 2 / blocks)), at most max_splits. From a sweep of forced splits on the H200
/// (docs/NOTES.md, 2026-12-01): for the GEMV dot form and the skinny kernels one split was best
/// or within 2% of it on every shape that fills half the GPU (11008x1x4096: 0.896 vs 0.70 at 2
/// splits; 16x8192x8192: 0.865 vs 0.79), and 2 splits won where the blocks filled less
/// (skinny 4096x1x11008: 0.976 vs 0.900).
inline int plan_splits(int64_t blocks, int64_t slots, int max_splits) {
  // CUTLASS_LIB_SPLIT_K=<n> forces n splits (a measurement aid: docs/NOTES.md records the sweeps
  // the rule below comes from); unset or 0, the rule decides.
  static int const forced = env_int_in("CUTLASS_LIB_SPLIT_K", 1, INT32_MAX, 0);
  if (forced > 0) return forced;
  int64_t const half = slots / 2;
  if (blocks <= 0 || slots <= 0 || blocks >= half) return 1;
  int64_t const splits = (half + blocks - 1) / blocks;
  return int(splits < max_splits ? splits : (max_splits > 1 ? max_splits : 1));
}

template <typename Accumulator>
struct SplitKSerial {
  Accumulator *partials = nullptr;   ///< [blocks][splits][slots]
  int *counters = nullptr;           ///< [blocks]
  int splits = 1;
  int slots = 0;                     ///< outputs of one block

  /// Workspace bytes for `blocks` blocks: counters (rounded to 256 bytes), then partial sums.
  CUTLASS_HOST_DEVICE static int64_t counter_bytes(int64_t blocks) { return (blocks * 4 + 255) / 256 * 256; }
  CUTLASS_HOST_DEVICE static int64_t workspace_bytes(int64_t blocks, int splits, int slots) {
    return splits <= 1 ? 0 : counter_bytes(blocks) + blocks * splits * slots * int64_t(sizeof(Accumulator));
  }
  /// The workspace's sync bytes (gemm_arguments.h): the counters, zero before the first launch
  /// on a workspace and left zero by every launch; none without a split.
  CUTLASS_HOST_DEVICE static int64_t sync_bytes(int64_t blocks, int splits) {
    return splits <= 1 ? 0 : counter_bytes(blocks);
  }
  /// Points the fields into `workspace` (workspace_bytes of it).
  CUTLASS_HOST_DEVICE void place(void *workspace, int64_t blocks) {
    counters = static_cast<int *>(workspace);
    partials = reinterpret_cast<Accumulator *>(static_cast<char *>(workspace) + counter_bytes(blocks));
  }

#if defined(__CUDACC__)
  /// For block `block` and split `split`: true for the CTA that finishes the block, whose
  /// value[] then hold the ordered sums of every split; false (and nothing left to do) for the
  /// others. Called once by every thread of the CTA; owner[j] marks the slots this thread holds.
  template <int N>
  CUTLASS_DEVICE bool reduce(bool const (&owner)[N], int const (&slot)[N], Accumulator (&value)[N], int64_t block,
                             int split) const {
    if (splits <= 1) return true;
    Accumulator *mine = partials + (block * splits + split) * slots;
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) {
      if (owner[j]) mine[slot[j]] = value[j];
    }
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) {
      last = atomicAdd(counters + block, 1) == splits - 1;
      if (last) counters[block] = 0;   // every split has counted in: ready for the next launch
    }
    __syncthreads();
    if (!last) return false;
    __threadfence();
    Accumulator const *all = partials + block * splits * slots;
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) {
      if (!owner[j]) continue;
      value[j] = Accumulator(0);
      for (int s = 0; s < splits; ++s) value[j] += __ldcg(all + int64_t(s) * slots + slot[j]);
    }
    return true;
  }
#endif
};

/// Where a kernel's C and D are (column-major, elements) and the epilogue's parameters.
template <typename ElementC, typename OutputParams>
struct OutputOperands {
  ElementC const *c = nullptr;
  int64_t ldc = 0, batch_stride_c = 0;
  ElementC *d = nullptr;
  int64_t ldd = 0, batch_stride_d = 0;
  OutputParams op;

  /// C, D and the epilogue of a kernel's GemmArguments (gemm_arguments.h).
  template <typename Arguments>
  static OutputOperands of(Arguments const &args) {
    OutputOperands out;
    out.c = args.ptr_C;
    out.ldc = args.ldc;
    out.batch_stride_c = args.batch_stride_C;
    out.d = args.ptr_D;
    out.ldd = args.ldd;
    out.batch_stride_d = args.batch_stride_D;
    out.op = args.epilogue;
    return out;
  }
};

#if defined(__CUDACC__)
/// D(m[j], n[j]) of batch entry l from value[j] for the outputs this thread owns; every thread of
/// every warp calls it (the operator's amax reduction is warp-wide).
template <typename OutputOp, typename ElementC, typename Accumulator, int N>
CUTLASS_DEVICE void store_outputs(OutputOperands<ElementC, typename OutputOp::Params> const &out, int l,
                                  bool const (&owner)[N], int const (&m)[N], int const (&n)[N],
                                  Accumulator const (&value)[N]) {
  OutputOp op(out.op);
  op.set_batch(l);
  bool const source = out.c != nullptr && op.is_source_needed();
  CUTLASS_PRAGMA_UNROLL
  for (int j = 0; j < N; ++j) {
    if (!owner[j]) continue;
    auto const rt = op.row_terms(m[j]);
    auto const ct = op.column_terms(n[j]);
    ElementC *d = out.d + int64_t(l) * out.batch_stride_d + m[j] + int64_t(n[j]) * out.ldd;
    ElementC const c = source ? out.c[int64_t(l) * out.batch_stride_c + m[j] + int64_t(n[j]) * out.ldc] : ElementC();
    *d = op(value[j], source, c, rt, ct, m[j], n[j]);
  }
  op.end_tile();
}
#endif

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
