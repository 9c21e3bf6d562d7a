/// GPU tests of the C API's grouped and pointer-array batched GEMMs (cutlassLibGemmGroupedBatchedEx,
/// cutlassLibGemmBatchedEx): every problem against the device reference, every byte of the shared
/// C buffer outside the problems' M x N regions unchanged, the BLAS quick returns per problem,
/// device-side scalars, the handle's stream, pointer arrays in device memory (cuBLAS's
/// convention: copied to the host after the stream's earlier work), and a bad last group
/// launching nothing. The host
/// side (statuses without a device) is test/c_api/test_grouped_api.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#include "grouped_fused_check.h"
#include "grouped_problems.h"

namespace {

using namespace cutlass::library;
using cutlass_lib_test::DeviceBuffer;
using namespace cutlass_lib_test::grouped;
namespace ref = cutlass::reference;

/// cutlassLibGemmGroupedBatchedEx on `problems`, with alpha and beta at `alpha` / `beta` (host or
/// device arrays, as the handle's pointer mode says); with `kernel`, its Select query instead
/// (*kernel: the grouped kernel of a one-launch call, else null).
cutlassLibStatus_t run_grouped(cutlassLibHandle_t handle, GroupedProblems const &problems, void const *alpha,
                               void const *beta, char const **kernel = nullptr) {
  auto const transa = problems.transa(), transb = problems.transb();
  auto const m = problems.m(), n = problems.n(), k = problems.k(), size = problems.size();
  auto const lda = problems.lda(), ldb = problems.ldb(), ldc = problems.ldc();
  auto const A = problems.A(), B = problems.B();
  auto const C = problems.C();
  if (kernel) {
    size_t bytes = 0;
    return cutlassLibGemmGroupedBatchedExSelect(handle, transa.data(), transb.data(), m.data(), n.data(), k.data(),
                                                alpha, A.data(), problems.input_type(), lda.data(), B.data(),
                                                problems.input_type(), ldb.data(), beta, C.data(),
                                                problems.output_type(), ldc.data(), int64_t(size.size()), size.data(), CUTLASS_LIB_COMPUTE_32F,
                                                kernel, &bytes);
  }
  return cutlassLibGemmGroupedBatchedEx(handle, transa.data(), transb.data(), m.data(), n.data(), k.data(), alpha,
                                        A.data(), problems.input_type(), lda.data(), B.data(), problems.input_type(),
                                        ldb.data(), beta,
                                        C.data(), problems.output_type(), ldc.data(), int64_t(size.size()),
                                        size.data(), CUTLASS_LIB_COMPUTE_32F);
}

/// An array of pointers in device memory, as cuBLAS's batched calls take them.
template <typename Pointer>
class DeviceArray {
 public:
  explicit DeviceArray(std::vector<Pointer> const &entries)
      : bytes_(entries.size() * sizeof(Pointer)), buffer_(bytes_) {
    EXPECT_EQ(cudaSuccess, cudaMemcpy(buffer_.get(), entries.data(), bytes_, cudaMemcpyHostToDevice));
  }
  Pointer const *get() const { return static_cast<Pointer const *>(buffer_.get()); }
  /// Copies `from`'s entries (as many as this array holds) over this array's on `stream`.
  bool copy_async(DeviceArray const &from, cudaStream_t stream) {
    return cudaMemcpyAsync(buffer_.get(), from.get(), bytes_, cudaMemcpyDeviceToDevice, stream) == cudaSuccess;
  }

 private:
  size_t bytes_;
  DeviceBuffer buffer_;
};

/// Keeps one thread busy for `cycles` clock cycles: work enqueued behind it on its stream waits.
__global__ void hold_stream(long long cycles) {
  long long const start = clock64();
  while (clock64() - start < cycles) {
  }
}

class CApiGroupedGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override {
    if (handle_) cutlassLibDestroy(handle_);
  }
  /// Skips (kernel subsets) or fails (default set) unless the build has a plain kernel of
  /// `input` in, `output` out on this device for every group's transposes: even empty and k == 0
  /// problems need one (a single call's quick returns do too).
  bool has_kernels_for(std::vector<Group> const &groups, NumericTypeID input = NumericTypeID::kBF16,
                       NumericTypeID output = NumericTypeID::kBF16) {
    for (Group const &g : groups) {
      if (!cutlass_lib_test::build_has_kernel(input, layout_of(g.transa), layout_of(g.transb), output)) {
        missing_ = std::string(input == NumericTypeID::kBF16 ? "bf16" : "e4m3") +
                   (output == NumericTypeID::kF32 ? " -> f32" : "") +
                   " transa=" + (g.transa == CUTLASS_LIB_OP_T ? "T" : "N") +
                   " transb=" + (g.transb == CUTLASS_LIB_OP_T ? "T" : "N");
        return false;
      }
    }
    return true;
  }
  /// One round of TN `groups` (operands of `input` from `seed`, C of `output`, host scalars):
  /// where the build has a grouped kernel for them on this device (with the pieces of `fused`, the
  /// handle's epilogue, when given; bf16 C only), Select names one of those types (one launch, not
  /// problem by problem); then the call against the reference (alpha times `operand_scales`, the
  /// handle's per-tensor scales; the fused reference with `fused`).
  void run_round(std::vector<Group> const &groups, uint64_t seed, NumericTypeID input = NumericTypeID::kBF16,
                 double operand_scales = 1.0, GroupedProblems::Fused const *fused = nullptr,
                 NumericTypeID output = NumericTypeID::kBF16) {
    GroupedProblems problems(groups, /*device_scalars=*/false, seed, input, output);
    std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
    if (cutlass_lib_test::build_has_grouped_kernel(input, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                                   output, fused ? fused->description() : EpilogueDescription())) {
      char const *kernel = nullptr;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha.data(), beta.data(), &kernel));
      ASSERT_NE(nullptr, kernel) << "the problems would run one by one";
      std::string const types = std::string(input == NumericTypeID::kBF16 ? "bf16_bf16_f32_" : "e4m3_e4m3_f32_") +
                                (output == NumericTypeID::kF32 ? "f32_f32" : "bf16_bf16");
      EXPECT_NE(nullptr, std::strstr(kernel, types.c_str())) << kernel;
      EXPECT_NE(nullptr, std::strstr(kernel, "_grouped")) << kernel;
      EXPECT_EQ(fused != nullptr, std::strstr(kernel, "_epi_tma_bias") != nullptr) << kernel;
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha.data(), beta.data()));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    problems.expect_results(operand_scales, fused);
  }
  cutlassLibHandle_t handle_ = nullptr;
  std::string missing_;
};

/// Five groups of different shapes and transposes: an empty output (m == 0), a k == 0 group
/// (C = beta * C, NULL A and B), beta == 0 over NaN C, alpha and beta other than 1 and 0.
std::vector<Group> const kMixedGroups = {
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 96, 80, 72, 1.0f, 0.0f, 2},
    {CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 0, 64, 32, 1.0f, 0.0f, 1},
    {CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_T, 48, 40, 0, 1.0f, 0.5f, 2},
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_T, 72, 56, 40, 0.75f, -1.0f, 1},
    {CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 40, 24, 136, 1.0f, 1.0f, 3},
};

TEST_F(CApiGroupedGpu, MixedGroupsMatchTheReference) {
  if (!has_kernels_for(kMixedGroups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(kMixedGroups, /*device_scalars=*/false, 100);
  std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha.data(), beta.data()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
}

/// The C++ Handle's grouped call (Handle::gemm_grouped) on the same groups, with host pointer
/// arrays, then with device ones.
TEST_F(CApiGroupedGpu, TheCppHandleRunsMixedGroups) {
  if (!has_kernels_for(kMixedGroups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(kMixedGroups, /*device_scalars=*/false, 500);
  auto const m = problems.m(), n = problems.n(), k = problems.k(), size = problems.size();
  auto const lda = problems.lda(), ldb = problems.ldb(), ldc = problems.ldc();
  auto const alpha = problems.alpha(), beta = problems.beta();
  auto const transa = problems.transa(), transb = problems.transb();
  std::vector<Handle::GroupedGemmGroup> groups(kMixedGroups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    groups[g].layout_A = layout_of(transa[g]), groups[g].layout_B = layout_of(transb[g]);
    groups[g].m = m[g], groups[g].n = n[g], groups[g].k = k[g];
    groups[g].lda = lda[g], groups[g].ldb = ldb[g], groups[g].ldc = ldc[g];
    groups[g].alpha = &alpha[g], groups[g].beta = &beta[g];
    groups[g].size = size[g];
  }
  auto const A = problems.A(), B = problems.B();
  auto const C = problems.C();
  Handle handle;
  ASSERT_EQ(cutlass::Status::kSuccess,
            handle.gemm_grouped(NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kBF16, NumericTypeID::kBF16,
                                NumericTypeID::kBF16, groups.data(), int64_t(groups.size()), A.data(), B.data(),
                                C.data()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
  // the same groups on fresh operands, their pointer arrays in device memory (cuBLAS's convention)
  GroupedProblems again(kMixedGroups, /*device_scalars=*/false, 501);
  DeviceArray<void const *> const A_device(again.A()), B_device(again.B());
  DeviceArray<void *> const C_device(again.C());
  ASSERT_EQ(cutlass::Status::kSuccess,
            handle.gemm_grouped(NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kBF16, NumericTypeID::kBF16,
                                NumericTypeID::kBF16, groups.data(), int64_t(groups.size()), A_device.get(),
                                B_device.get(), C_device.get()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  again.expect_results();
}

TEST_F(CApiGroupedGpu, DeviceScalarsArePerGroup) {
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 48, 40, 0.5f, 2.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 32, 72, 56, -1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 24, 16, 0, 1.0f, -0.5f, 1},   // k == 0 reads beta on the device
  };
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(groups, /*device_scalars=*/true, 200);
  std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
  DeviceBuffer scalars(2 * groups.size() * sizeof(float));
  float *const alpha_device = static_cast<float *>(scalars.get());
  float *const beta_device = alpha_device + groups.size();
  ASSERT_EQ(cudaSuccess, cudaMemcpy(alpha_device, alpha.data(), alpha.size() * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(beta_device, beta.data(), beta.size() * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetPointerMode(handle_, CUTLASS_LIB_POINTER_MODE_DEVICE));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha_device, beta_device));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
}

/// An MoE-like call: TN groups of one K with different M and N (the grouped kernel's one launch,
/// when the build has one), plus a host alpha == 0 group and a k == 0 group (both beta * C through
/// the one-GEMM path, NULL A and B for the latter), twice in a row on the handle's workspace.
TEST_F(CApiGroupedGpu, SameKGroupsOfDifferentShapesMatchTheReference) {
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 17, 136, 1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 0, 136, 1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 128, 200, 136, 0.5f, -1.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 40, 136, 0.0f, 2.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 96, 8, 0, 1.0f, 0.5f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 384, 129, 136, 1.0f, 1.0f, 3},
  };
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  for (int round = 0; round < 2; ++round) ASSERT_NO_FATAL_FAILURE(run_round(groups, 400 + round));
}

/// TN groups whose K differ (one launch of the grouped kernel when the build has one: each
/// group's tiles run its own k-blocks), a K == 0 group among them (beta * C apart).
std::vector<Group> const kDifferentKGroups = {
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 17, 1000, 1.0f, 0.0f, 1},
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 128, 200, 8, 0.5f, -1.0f, 2},
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 96, 8, 0, 1.0f, 0.5f, 1},
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 384, 129, 72, 1.0f, 1.0f, 3},
    {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 40, 2056, 1.0f, 0.0f, 1},
};

/// kDifferentKGroups, twice.
TEST_F(CApiGroupedGpu, GroupsOfDifferentKMatchTheReference) {
  if (!has_kernels_for(kDifferentKGroups)) NO_KERNEL_FOR(missing_);
  for (int round = 0; round < 2; ++round) ASSERT_NO_FATAL_FAILURE(run_round(kDifferentKGroups, 600 + round));
}

/// An fp8 MoE layer: e4m3 TN experts (one launch of a grouped e4m3 kernel when the build has one,
/// else one by one), each expert's per-tensor scale folded into its alpha, and the handle's
/// per-tensor operand scales (device scalars) applied to every problem; a K == 0 expert.
TEST_F(CApiGroupedGpu, Fp8GroupsWithPerExpertAlphaMatchTheReference) {
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 17, 512, 0.75f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 0, 512, 1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 384, 200, 512, 0.25f, -1.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 128, 8, 0, 1.0f, 0.5f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 129, 1040, 2.0f, 0.0f, 1},
  };
  if (!has_kernels_for(groups, NumericTypeID::kFE4M3)) NO_KERNEL_FOR(missing_);
  float const scales[2] = {0.5f, 0.25f};
  DeviceBuffer scale_buffer(sizeof(scales));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scale_buffer.get(), scales, sizeof(scales), cudaMemcpyHostToDevice));
  float const *const scale_device = static_cast<float const *>(scale_buffer.get());
  for (int round = 0; round < 2; ++round) {
    bool const scaled = round == 1;
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scaled ? scale_device : nullptr,
                                                                     scaled ? scale_device + 1 : nullptr));
    ASSERT_NO_FATAL_FAILURE(
        run_round(groups, 700 + round, NumericTypeID::kFE4M3, scaled ? double(scales[0]) * scales[1] : 1.0));
  }
}

/// Decode MoE: TN experts of one K with 0-16 tokens each (the grouped 64x32 token tile's one
/// launch when the build has it; test/c_api's CApiGroupedLog checks the route), twice.
TEST_F(CApiGroupedGpu, DecodeMoEGroupsMatchTheReference) {
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 3, 264, 1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 0, 264, 1.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 16, 264, 1.0f, 0.5f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 1, 264, 2.0f, 0.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 9, 264, 1.0f, -1.0f, 1},
  };
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  for (int round = 0; round < 2; ++round) ASSERT_NO_FATAL_FAILURE(run_round(groups, 500 + round));
}

/// kDifferentKGroups with f32 C (Ctype CUDA_R_32F, MoE experts accumulated in f32): one launch of
/// a grouped f32-output kernel when the build has one (the default set's 128x128 and 64x32), else
/// problem by problem; twice.
TEST_F(CApiGroupedGpu, F32OutputGroupsMatchTheReference) {
  if (!has_kernels_for(kDifferentKGroups, NumericTypeID::kBF16, NumericTypeID::kF32)) NO_KERNEL_FOR(missing_);
  for (int round = 0; round < 2; ++round) {
    ASSERT_NO_FATAL_FAILURE(
        run_round(kDifferentKGroups, 800 + round, NumericTypeID::kBF16, 1.0, nullptr, NumericTypeID::kF32));
  }
}

/// The handle's fused epilogue on every problem of a one-launch call: problem e (its entry in the
/// pointer arrays) adds its own PER_ROW bias, batch entry e of the handle's (bias + e * batchStride),
/// then the activation; prefill-sized and decode-sized groups (the 128x128 and the 64x32 grouped
/// tiles), beta != 0 reading C and beta == 0 over NaN.
TEST_F(CApiGroupedGpu, FusedBiasAndActivationPerProblem) {
  std::vector<Group> const prefill = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 96, 80, 72, 1.0f, 0.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 40, 24, 136, 0.5f, 1.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 200, 150, 64, 1.0f, -0.5f, 2},
  };
  std::vector<Group> const decode = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 3, 264, 1.0f, 0.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 256, 8, 128, 1.0f, 0.5f, 3},
  };
  std::string const missing = missing_bias_epilogue_kernel();
  if (!missing.empty()) NO_KERNEL_FOR(missing);
  constexpr int64_t kStride = 520;   // elements from one problem's bias to the next: >= every M
  DeviceBuffer bias(size_t(5 * kStride * kBf16Bytes));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, bias.get(), 5 * kStride, 77));
  uint64_t seed = 900;
  for (BiasEpilogue const &v : kBiasEpilogues) {
    SCOPED_TRACE(cutlass::library::to_string(v.activation));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, v.epilogue));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibSetEpilogueBias(handle_, bias.get(), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, kStride));
    GroupedProblems::Fused const fused{v.activation, bias.bytes_ptr(), kStride};
    ASSERT_NO_FATAL_FAILURE(run_round(prefill, seed++, NumericTypeID::kBF16, 1.0, &fused));
    ASSERT_NO_FATAL_FAILURE(run_round(decode, seed++, NumericTypeID::kBF16, 1.0, &fused));
  }
}

TEST_F(CApiGroupedGpu, PointerArrayBatchedOnTheHandlesStream) {
  std::vector<Group> const groups = {{CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 72, 48, 1.0f, 0.5f, 4}};
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(groups, /*device_scalars=*/false, 300);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, stream));
  Group const &g = groups[0];
  float const alpha = g.alpha, beta = g.beta;
  auto const A = problems.A(), B = problems.B();
  auto const C = problems.C();
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmBatchedEx(handle_, g.transa, g.transb, g.m, g.n, g.k, &alpha, A.data(), CUDA_R_16BF,
                                    problems.lda()[0], B.data(), CUDA_R_16BF, problems.ldb()[0], &beta, C.data(),
                                    CUDA_R_16BF, problems.ldc()[0], g.size, CUTLASS_LIB_COMPUTE_32F));
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  problems.expect_results();
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, nullptr));
  cudaStreamDestroy(stream);
}

TEST_F(CApiGroupedGpu, PointerArraysInDeviceMemoryAsCublasTakesThem) {
  // A, B and C arrays in device memory: the kernel Select names with host arrays, the same
  // results. TN groups around an empty group of 40 problems (one launch where the build has a
  // grouped kernel; only the empty group's first entry is read), then kMixedGroups (empty, k == 0,
  // beta == 0 over NaN; problem by problem)
  std::vector<Group> const tn = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 3, 264, 1.0f, 0.0f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 512, 0, 264, 1.0f, 0.0f, 40},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 96, 80, 72, 1.0f, 0.5f, 3},
  };
  uint64_t seed = 700;
  for (std::vector<Group> const *groups : {&tn, &kMixedGroups}) {
    if (!has_kernels_for(*groups)) NO_KERNEL_FOR(missing_);
    GroupedProblems problems(*groups, /*device_scalars=*/false, seed++);
    auto const transa = problems.transa(), transb = problems.transb();
    auto const m = problems.m(), n = problems.n(), k = problems.k(), size = problems.size();
    auto const lda = problems.lda(), ldb = problems.ldb(), ldc = problems.ldc();
    std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
    DeviceArray<void const *> const A(problems.A()), B(problems.B());
    DeviceArray<void *> const C(problems.C());
    char const *host_kernel = nullptr, *device_kernel = nullptr;
    size_t device_bytes = 0;
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha.data(), beta.data(), &host_kernel));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmGroupedBatchedExSelect(handle_, transa.data(), transb.data(), m.data(), n.data(),
                                                   k.data(), alpha.data(), A.get(), CUDA_R_16BF, lda.data(), B.get(),
                                                   CUDA_R_16BF, ldb.data(), beta.data(), C.get(), CUDA_R_16BF,
                                                   ldc.data(), int64_t(size.size()), size.data(),
                                                   CUTLASS_LIB_COMPUTE_32F, &device_kernel, &device_bytes));
    EXPECT_EQ(std::string(host_kernel ? host_kernel : "(none)"), std::string(device_kernel ? device_kernel : "(none)"));
    if (groups == &tn && cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor,
                                                                    LayoutTypeID::kColumnMajor, NumericTypeID::kBF16,
                                                                    EpilogueDescription())) {
      EXPECT_NE(nullptr, device_kernel) << "the TN problems would run one by one";
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmGroupedBatchedEx(handle_, transa.data(), transb.data(), m.data(), n.data(), k.data(),
                                             alpha.data(), A.get(), CUDA_R_16BF, lda.data(), B.get(), CUDA_R_16BF,
                                             ldb.data(), beta.data(), C.get(), CUDA_R_16BF, ldc.data(),
                                             int64_t(size.size()), size.data(), CUTLASS_LIB_COMPUTE_32F));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    problems.expect_results();
  }
}

TEST_F(CApiGroupedGpu, DeviceArraysWrittenOnTheHandlesStreamAreSeen) {
  // cublasGemmBatchedEx's use: the pointer arrays written on the stream right before the call
  // (the copy waits for them); while the stream is captured the call is NOT_SUPPORTED and
  // launches nothing
  std::vector<Group> const groups = {{CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 72, 48, 1.0f, 0.5f, 5}};
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(groups, /*device_scalars=*/false, 800);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, stream));
  Group const &g = groups[0];
  float const alpha = g.alpha, beta = g.beta;
  // the entries the call needs, and the arrays it gets: null until the stream copies them over
  DeviceArray<void const *> const A_ready(problems.A()), B_ready(problems.B());
  DeviceArray<void *> const C_ready(problems.C());
  DeviceArray<void const *> A(std::vector<void const *>(size_t(g.size), nullptr)),
      B(std::vector<void const *>(size_t(g.size), nullptr));
  DeviceArray<void *> C(std::vector<void *>(size_t(g.size), nullptr));
  auto const call = [&] {
    return cutlassLibGemmBatchedEx(handle_, g.transa, g.transb, g.m, g.n, g.k, &alpha, A.get(), CUDA_R_16BF,
                                   problems.lda()[0], B.get(), CUDA_R_16BF, problems.ldb()[0], &beta, C.get(),
                                   CUDA_R_16BF, problems.ldc()[0], g.size, CUTLASS_LIB_COMPUTE_32F);
  };

  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, call());
  ASSERT_EQ(cudaSuccess, cudaStreamEndCapture(stream, &graph));
  size_t nodes = 0;
  ASSERT_EQ(cudaSuccess, cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT_EQ(0u, nodes) << "the refused call enqueued work";
  cudaGraphDestroy(graph);

  // the entries arrive on the stream after a delay (device to device: the host does not wait),
  // which the library's copy must wait for (else it reads null pointers: INVALID_VALUE)
  hold_stream<<<1, 1, 0, stream>>>(100000000);   // ~50 ms at the H200's clock
  ASSERT_EQ(cudaSuccess, cudaGetLastError());
  ASSERT_TRUE(A.copy_async(A_ready, stream) && B.copy_async(B_ready, stream) && C.copy_async(C_ready, stream));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, call());
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  problems.expect_results();
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, nullptr));
  cudaStreamDestroy(stream);
}

TEST_F(CApiGroupedGpu, ABadLastGroupLaunchesNothing) {
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 48, 40, 1.0f, 0.5f, 2},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 32, 32, 0, 1.0f, 2.0f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 32, 40, 24, 1.0f, 0.5f, 2},
  };
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(groups, /*device_scalars=*/false, 400);
  std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
  auto const transa = problems.transa(), transb = problems.transb();
  auto const m = problems.m(), n = problems.n(), k = problems.k(), size = problems.size();
  auto const ldb = problems.ldb(), ldc = problems.ldc();
  auto lda = problems.lda();
  lda[2] = groups[2].k - 1;   // transa T: lda >= k
  auto const A = problems.A(), B = problems.B();
  auto const C = problems.C();
  auto const call = [&] {
    return cutlassLibGemmGroupedBatchedEx(handle_, transa.data(), transb.data(), m.data(), n.data(), k.data(),
                                          alpha.data(), A.data(), CUDA_R_16BF, lda.data(), B.data(), CUDA_R_16BF,
                                          ldb.data(), beta.data(), C.data(), CUDA_R_16BF, ldc.data(),
                                          int64_t(size.size()), size.data(), CUTLASS_LIB_COMPUTE_32F);
  };
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call());
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(problems.c_untouched()) << "groups 0 and 1 ran before group 2 was checked";

  // the same with the pointer arrays in device memory (as cuBLAS takes them): read, then refused
  DeviceArray<void const *> const A_device(A), B_device(B);
  DeviceArray<void *> const C_device(C);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibGemmGroupedBatchedEx(handle_, transa.data(), transb.data(), m.data(), n.data(), k.data(),
                                           alpha.data(), A_device.get(), CUDA_R_16BF, lda.data(), B_device.get(),
                                           CUDA_R_16BF, ldb.data(), beta.data(), C_device.get(), CUDA_R_16BF,
                                           ldc.data(), int64_t(size.size()), size.data(), CUTLASS_LIB_COMPUTE_32F));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(problems.c_untouched()) << "device pointer arrays: groups ran before group 2 was checked";
  lda = problems.lda();

  // a fused epilogue is refused before anything runs
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, call());
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(problems.c_untouched());

  // and the same call, valid again, runs every group
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, call());
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
}

TEST_F(CApiGroupedGpu, CallerWorkspaceTooSmallLaunchesNothing) {
  // a caller's workspace of 0 bytes: a problem that needs one (the bandwidth kernels' split-K
  // partial sums, stream-K, staging copies) answers WORKSPACE_TOO_SMALL before any problem runs
  std::vector<Group> const groups = {
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 48, 40, 1.0f, 0.5f, 1},
      {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 8, 8, 65536, 1.0f, 0.5f, 1},
  };
  if (!has_kernels_for(groups)) NO_KERNEL_FOR(missing_);
  GroupedProblems problems(groups, /*device_scalars=*/false, 500);
  size_t needed = 0;
  {
    Group const &g = groups[1];
    float const alpha = g.alpha, beta = g.beta;
    auto const A = problems.A(), B = problems.B();
    auto const C = problems.C();
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGetWorkspaceSize(handle_, g.transa, g.transb, g.m, g.n, g.k, &alpha, A[1], CUDA_R_16BF,
                                         problems.lda()[1], 0, B[1], CUDA_R_16BF, problems.ldb()[1], 0, &beta, C[1],
                                         CUDA_R_16BF, problems.ldc()[1], 0, 1, CUTLASS_LIB_COMPUTE_32F, &needed));
  }
  if (needed == 0) GTEST_SKIP() << "the kernel this build selects for 8x8x65536 needs no workspace";
  DeviceBuffer workspace(256);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, workspace.get(), 0));
  std::vector<float> const alpha = problems.alpha(), beta = problems.beta();
  EXPECT_EQ(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL, run_grouped(handle_, problems, alpha.data(), beta.data()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(problems.c_untouched()) << "group 0 ran before group 1's workspace was checked";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, nullptr, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, run_grouped(handle_, problems, alpha.data(), beta.data()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
}

}  // namespace
