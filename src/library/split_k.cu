/// @file src/library/split_k.cu
#include "split_k.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "cutlass/epilogue/thread/activation.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace library {

namespace {

float const kOne = 1.0f;
float const kZero = 0.0f;

/// The fused epilogue pieces the reduction applies (the unfused epilogue route, split_k.h):
/// linear_combination.h's formula without the D scale / amax, its vectors and aux of the output's
/// type. Null pointers: the piece is off.
template <typename Element>
struct ReductionEpilogue {
  epilogue::ActivationKind activation = epilogue::ActivationKind::kIdentity;
  float clamp_min = 0.f, clamp_max = 0.f;
  Element const *bias = nullptr;
  bool bias_per_row = true;
  float const *alpha_vector = nullptr;
  bool alpha_vector_per_row = true;
  Element *aux = nullptr;
  int64_t ldaux = 0;
};


/// Threads of a reduction block, and at most this many groups of them summing interleaved slices
/// of the same elements (blockDim = (kReduceThreads / groups, groups)).
constexpr int kReduceThreads = 256;
constexpr int kReduceMaxGroups = 8;
/// Elements per thread: one 16-byte vector of each slice's partial sums.
constexpr int kReduceVector = 4;
/// Groups are added (x2, up to the split count and 8) while the threads stay within this many:
/// about half of what the H200's 132 SMs hold, so a small output with many slices (128 x 128 in
/// 32 slices) still spreads its loads over many threads, and a large one (4096 x 200 in 4) keeps
/// one group that sums every slice of its vector with the loads in flight together.
constexpr int64_t kReduceTargetThreads = int64_t(1) << 17;

/// D(i, j) = alpha * sum_s partials[s](i, j) + beta * C(i, j) for blockDim.x x kReduceVector
/// consecutive elements of the column-major M x N result per block: group y sums slices y,
/// y + blockDim.y, ... in order, then group 0 adds the group sums in order, so the bits depend on
/// the shape and split count alone (reduce_groups), never on timing. kVectorLoads: every slice
/// starts 16-byte aligned (M * N a multiple of 4), so a thread's 4 partials come in one load.
/// beta == 0 reads no C. H200 (s28), 4 slices of 4096 x 200 (13 MB of partials): the version
/// before this one (four elements per thread, min(splits, 8) groups of 32 lanes) took 12.1 us
/// (ncu, cold L2; 1.1 TB/s), against cuBLAS's split-K reduction at 7.5 us for its 6.5 MB; the
/// first (one element per thread in 8 fixed groups) had made the route 11 us slower still (49
/// against 60 us, timed in the suite). Here that output gets one group of 256 lanes.
/// kFused: then `fused`'s pieces (ReductionEpilogue) per element; without it the plain
/// reduction's code is what it was before the unfused route.
template <typename Element, bool kVectorLoads, bool kFused>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce_kernel(int64_t m, int64_t n, int splits, float const *partials, float alpha_value,
                          float const *alpha_ptr, float beta_value, float const *beta_ptr, Element const *C,
                          int64_t ldc, Element *D, int64_t ldd, ReductionEpilogue<Element> fused) {
  __shared__ float group_sums[kReduceVector][kReduceThreads];
  int64_t const elements = m * n;
  int const lanes = int(blockDim.x), groups = int(blockDim.y);
  int64_t const first = (int64_t(blockIdx.x) * lanes + threadIdx.x) * kReduceVector;
  float sum[kReduceVector] = {};
  if (first < elements) {
#pragma unroll 4
    for (int s = int(threadIdx.y); s < splits; s += groups) {
      float const *slice = partials + int64_t(s) * elements + first;
      if constexpr (kVectorLoads) {
        float4 const v = *reinterpret_cast<float4 const *>(slice);
        sum[0] += v.x;
        sum[1] += v.y;
        sum[2] += v.z;
        sum[3] += v.w;
      } else {
#pragma unroll
        for (int e = 0; e < kReduceVector; ++e) {
          if (first + e < elements) sum[e] += slice[e];
        }
      }
    }
  }
  if (groups > 1) {
#pragma unroll
    for (int e = 0; e < kReduceVector; ++e) group_sums[e][threadIdx.y * lanes + threadIdx.x] = sum[e];
    __syncthreads();
    if (threadIdx.y != 0) return;
#pragma unroll
    for (int e = 0; e < kReduceVector; ++e) {
      float total = 0.f;
      for (int g = 0; g < groups; ++g) total += group_sums[e][g * lanes + threadIdx.x];
      sum[e] = total;
    }
  }
  if (first >= elements) return;
  float const alpha = alpha_ptr ? *alpha_ptr : alpha_value;
  float const beta = beta_ptr ? *beta_ptr : beta_value;
#pragma unroll
  for (int e = 0; e < kReduceVector; ++e) {
    int64_t const index = first + e;
    if (index >= elements) break;
    int64_t const i = index % m, j = index / m;
    float scale = alpha;   // (alpha * alpha_vector) * sum, as linear_combination.h orders it
    if constexpr (kFused) {
      if (fused.alpha_vector) scale *= fused.alpha_vector[fused.alpha_vector_per_row ? i : j];
    }
    float x = scale * sum[e];
    if (beta != 0.f) x += beta * NumericConverter<float, Element>::convert(C[i + j * ldc]);
    if constexpr (kFused) {
      if (fused.bias) x += NumericConverter<float, Element>::convert(fused.bias[fused.bias_per_row ? i : j]);
      if (fused.aux) fused.aux[i + j * fused.ldaux] = NumericConverter<Element, float>::convert(x);
      // fast tanh / exp for outputs of at most 16 bits, as the fused epilogues choose
      x = epilogue::thread::apply_activation<sizeof(Element) <= 2>(fused.activation, x, fused.clamp_min,
                                                                   fused.clamp_max);
    }
    D[i + j * ldd] = NumericConverter<Element, float>::convert(x);
  }
}

/// The reduction's groups for `vectors` vectors of kReduceVector elements in `splits` slices:
/// doubled from 1 while they stay within the split count, kReduceMaxGroups and
/// kReduceTargetThreads threads.
int reduce_groups(int64_t vectors, int splits) {
  int groups = 1;
  while (groups * 2 <= std::min(splits, kReduceMaxGroups) && vectors * groups * 2 <= kReduceTargetThreads) groups *= 2;
  return groups;
}

template <typename Element>
bool launch_reduce(SplitKPlan const &plan, GemmCall const &call, cudaStream_t stream) {
  bool const device = call.pointer_mode == ScalarPointerMode::kDevice;
  float const *alpha_ptr = device ? static_cast<float const *>(call.alpha) : nullptr;
  float const *beta_ptr = device ? static_cast<float const *>(call.beta) : nullptr;
  float const alpha = device ? 0.f : *static_cast<float const *>(call.alpha);
  float const beta = device ? 0.f : *static_cast<float const *>(call.beta);
  int64_t const elements = call.m * call.n;
  int64_t const vectors = (elements + kReduceVector - 1) / kReduceVector;
  int const groups = reduce_groups(vectors, plan.splits);
  int const lanes = kReduceThreads / groups;
  int64_t const blocks = (vectors + lanes - 1) / lanes;
  float const *partials = static_cast<float const *>(plan.sliced.D);
  // the workspace is 256-byte aligned (gemm_call.cpp), so with M * N % 4 == 0 every slice is 16-byte aligned
  bool const vector = elements % kReduceVector == 0 && reinterpret_cast<uintptr_t>(partials) % 16 == 0;
  GemmEpilogueArguments const &e = call.epilogue;
  bool const fused_call = e.kind.fused();
  ReductionEpilogue<Element> fused;
  if (fused_call) {
    fused.activation = e.kind.activation;
    fused.clamp_min = e.clamp_min;
    fused.clamp_max = e.clamp_max;
    bool const bias = e.kind.element_bias != NumericTypeID::kInvalid;
    fused.bias = bias ? static_cast<Element const *>(e.bias) : nullptr;
    fused.bias_per_row = e.bias_broadcast == epilogue::VectorBroadcast::kPerRow;
    fused.alpha_vector = e.kind.alpha_vector ? e.alpha_vector : nullptr;
    fused.alpha_vector_per_row = e.alpha_vector_broadcast == epilogue::VectorBroadcast::kPerRow;
    fused.aux = e.kind.element_aux != NumericTypeID::kInvalid ? static_cast<Element *>(e.aux) : nullptr;
    fused.ldaux = e.ldaux;
  }
  auto const kernel = fused_call ? (vector ? split_k_reduce_kernel<Element, true, true>
                                           : split_k_reduce_kernel<Element, false, true>)
                                 : (vector ? split_k_reduce_kernel<Element, true, false>
                                           : split_k_reduce_kernel<Element, false, false>);
  kernel<<<dim3(unsigned(blocks)), dim3(unsigned(lanes), unsigned(groups)), 0, stream>>>(
      call.m, call.n, plan.splits, partials, alpha, alpha_ptr, beta, beta_ptr, static_cast<Element const *>(call.C),
      call.ldc, static_cast<Element *>(call.D), call.ldd, fused);
  return cudaGetLastError() == cudaSuccess;
}

int64_t bytes_of(NumericTypeID t) { return int64_t(library::sizeof_bits(t)) / 8; }

}  // namespace

bool split_k_applies(GemmCall const &c, bool epilogue_in_reduction) {
  bool const output = c.element_D == NumericTypeID::kF16 || c.element_D == NumericTypeID::kBF16 ||
                      c.element_D == NumericTypeID::kF32;
  // block scales index the whole K (a slice's k-blocks are not the call's)
  bool const block_scales =
      epilogue::is_block_scale(c.epilogue.scale_a_mode) || epilogue::is_block_scale(c.epilogue.scale_b_mode);
  EpilogueDescription const &kind = c.epilogue.kind;
  bool const reducible = epilogue_in_reduction && !kind.scale_amax &&
                         (kind.element_bias == NumericTypeID::kInvalid || kind.element_bias == c.element_D) &&
                         (kind.element_aux == NumericTypeID::kInvalid || kind.element_aux == c.element_D);
  return c.batch_count == 1 && (!kind.fused() || reducible) && !block_scales && c.element_scalar == NumericTypeID::kF32 && output &&
         c.element_C == c.element_D && c.layout_C == LayoutTypeID::kColumnMajor &&
         c.layout_D == LayoutTypeID::kColumnMajor && bytes_of(c.element_A) > 0 && bytes_of(c.element_B) > 0;
}

bool unfused_epilogue_applies(GemmCall const &call) {
  if (!call.epilogue.kind.fused()) return false;
  char const *on = std::getenv("CUTLASS_LIB_UNFUSED_EPILOGUE");
  SplitKPlan plan;
  return on && std::strcmp(on, "1") == 0 && split_k_applies(call, /*epilogue_in_reduction=*/true) &&
         plan_split_k(call, 1, nullptr, &plan) &&
         Singleton::get().operation_table.find_gemm(functional_key(plan.sliced)) != nullptr;   // its plain kernels
}

bool plan_split_k(GemmCall const &call, int splits, void *workspace, SplitKPlan *plan) {
  if (splits < 1 || call.k % splits != 0 || call.m * call.n > INT32_MAX) return false;
  int64_t const slice = call.k / splits;
  // a K-major operand (A row-major, B column-major) steps `slice` elements per slice, an MN-major
  // one `slice` leading dimensions; TMA needs each slice's start 16-byte aligned (one slice: no
  // step is taken)
  int64_t const step_a = call.layout_A == LayoutTypeID::kRowMajor ? slice : slice * call.lda;
  int64_t const step_b = call.layout_B == LayoutTypeID::kColumnMajor ? slice : slice * call.ldb;
  if (splits > 1 &&
      ((step_a * bytes_of(call.element_A)) % 16 != 0 || (step_b * bytes_of(call.element_B)) % 16 != 0)) {
    return false;
  }
  GemmCall s = call;
  s.mode = gemm::GemmUniversalMode::kBatched;
  s.batch_count = splits;
  s.k = slice;
  s.batch_stride_A = step_a;
  s.batch_stride_B = step_b;
  s.element_C = s.element_D = NumericTypeID::kF32;
  s.C = s.D = workspace;
  s.ldc = s.ldd = call.m;
  s.batch_stride_C = s.batch_stride_D = call.m * call.n;
  s.alpha = &kOne;
  s.beta = &kZero;
  s.pointer_mode = ScalarPointerMode::kHost;
  // the slices run the plain epilogue (operand scales kept: they are linear in each slice); the
  // reduction applies a fused call's pieces
  s.epilogue.kind = EpilogueDescription();
  s.epilogue.bias = nullptr;
  s.epilogue.alpha_vector = nullptr;
  s.epilogue.aux = nullptr;
  s.split_k_slices = true;
  plan->sliced = s;
  plan->splits = splits;
  // rounded up to 256 bytes, so what follows it in the workspace (a kernel's own) stays aligned
  plan->workspace_bytes = (size_t(splits) * size_t(call.m * call.n) * sizeof(float) + 255) / 256 * 256;
  return true;
}

char const *split_k_refusal(GemmCall const &call, int splits) {
  GemmCall const c = to_column_major_output(call);
  if (!split_k_applies(c)) {
    return "split-K slices need one batch, the plain epilogue, no block scales, f32 scalars and a bf16, f16 or f32 "
           "output of C's type";
  }
  SplitKPlan plan;
  if (splits > 65535 || !plan_split_k(c, splits, nullptr, &plan)) {
    return "split-K slices need K a multiple of the slice count, each slice's start 16-byte aligned, at most 65535 "
           "slices and M x N below 2^31";
  }
  return nullptr;
}

bool reduce_split_k(SplitKPlan const &plan, GemmCall const &call, cudaStream_t stream) {
  switch (call.element_D) {
    case NumericTypeID::kF16: return launch_reduce<half_t>(plan, call, stream);
    case NumericTypeID::kBF16: return launch_reduce<bfloat16_t>(plan, call, stream);
    case NumericTypeID::kF32: return launch_reduce<float>(plan, call, stream);
    default: return false;
  }
}

}  // namespace library
}  // namespace cutlass
