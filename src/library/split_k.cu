/// @file src/library/split_k.cu
#include "split_k.h"

#include <climits>

#include "cutlass/library/util.h"
#include "cutlass/numeric_conversion.h"

namespace cutlass {
namespace library {

namespace {

float const kOne = 1.0f;
float const kZero = 0.0f;

/// Groups of threads that sum interleaved slices of one element (blockDim.y).
constexpr int kReduceGroups = 8;

/// D(i, j) = alpha * sum_s partials[s](i, j) + beta * C(i, j) for 32 consecutive elements of the
/// column-major M x N result per block: group y sums slices y, y + 8, ... in order, then group 0
/// adds the 8 group sums in order, so the bits never depend on timing. beta == 0 reads no C.
template <typename Element>
__global__ void split_k_reduce_kernel(int64_t m, int64_t n, int splits, float const *partials, float alpha_value,
                                      float const *alpha_ptr, float beta_value, float const *beta_ptr,
                                      Element const *C, int64_t ldc, Element *D, int64_t ldd) {
  __shared__ float group_sums[kReduceGroups][32];
  int64_t const elements = m * n;
  int64_t const index = int64_t(blockIdx.x) * 32 + threadIdx.x;
  float sum = 0.f;
  if (index < elements) {
#pragma unroll 4
    for (int s = int(threadIdx.y); s < splits; s += kReduceGroups) sum += partials[int64_t(s) * elements + index];
  }
  group_sums[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y != 0 || index >= elements) return;
  float total = 0.f;
#pragma unroll
  for (int g = 0; g < kReduceGroups; ++g) total += group_sums[g][threadIdx.x];
  float const alpha = alpha_ptr ? *alpha_ptr : alpha_value;
  float const beta = beta_ptr ? *beta_ptr : beta_value;
  int64_t const i = index % m, j = index / m;
  float x = alpha * total;
  if (beta != 0.f) x += beta * NumericConverter<float, Element>::convert(C[i + j * ldc]);
  D[i + j * ldd] = NumericConverter<Element, float>::convert(x);
}

template <typename Element>
bool launch_reduce(SplitKPlan const &plan, GemmCall const &call, cudaStream_t stream) {
  bool const device = call.pointer_mode == ScalarPointerMode::kDevice;
  float const *alpha_ptr = device ? static_cast<float const *>(call.alpha) : nullptr;
  float const *beta_ptr = device ? static_cast<float const *>(call.beta) : nullptr;
  float const alpha = device ? 0.f : *static_cast<float const *>(call.alpha);
  float const beta = device ? 0.f : *static_cast<float const *>(call.beta);
  int64_t const blocks = (call.m * call.n + 31) / 32;
  split_k_reduce_kernel<Element><<<dim3(unsigned(blocks)), dim3(32, kReduceGroups), 0, stream>>>(
      call.m, call.n, plan.splits, static_cast<float const *>(plan.sliced.D), alpha, alpha_ptr, beta, beta_ptr,
      static_cast<Element const *>(call.C), call.ldc, static_cast<Element *>(call.D), call.ldd);
  return cudaGetLastError() == cudaSuccess;
}

int64_t bytes_of(NumericTypeID t) { return int64_t(library::sizeof_bits(t)) / 8; }

}  // namespace

bool split_k_applies(GemmCall const &c) {
  bool const output = c.element_D == NumericTypeID::kF16 || c.element_D == NumericTypeID::kBF16 ||
                      c.element_D == NumericTypeID::kF32;
  // block scales index the whole K (a slice's k-blocks are not the call's)
  bool const block_scales =
      epilogue::is_block_scale(c.epilogue.scale_a_mode) || epilogue::is_block_scale(c.epilogue.scale_b_mode);
  return c.batch_count == 1 && !c.epilogue.kind.fused() && !block_scales && c.element_scalar == NumericTypeID::kF32 && output &&
         c.element_C == c.element_D && c.layout_C == LayoutTypeID::kColumnMajor &&
         c.layout_D == LayoutTypeID::kColumnMajor && bytes_of(c.element_A) > 0 && bytes_of(c.element_B) > 0;
}

bool plan_split_k(GemmCall const &call, int splits, void *workspace, SplitKPlan *plan) {
  if (splits < 2 || call.k % splits != 0 || call.m * call.n > INT32_MAX) return false;
  int64_t const slice = call.k / splits;
  // a K-major operand (A row-major, B column-major) steps `slice` elements per slice, an MN-major
  // one `slice` leading dimensions; TMA needs each slice's start 16-byte aligned
  int64_t const step_a = call.layout_A == LayoutTypeID::kRowMajor ? slice : slice * call.lda;
  int64_t const step_b = call.layout_B == LayoutTypeID::kColumnMajor ? slice : slice * call.ldb;
  if ((step_a * bytes_of(call.element_A)) % 16 != 0 || (step_b * bytes_of(call.element_B)) % 16 != 0) return false;
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
  s.split_k_slices = true;
  plan->sliced = s;
  plan->splits = splits;
  plan->workspace_bytes = size_t(splits) * size_t(call.m * call.n) * sizeof(float);
  return true;
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
