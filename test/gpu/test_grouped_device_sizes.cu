/// GPU tests of cutlassLibGemmGroupedDeviceSizesEx (and Handle::gemm_grouped_device_sizes): every
/// group's sizes, leading dimensions and pointers in device memory. Each group against the device
/// reference with the shared C buffer unchanged outside the groups' M x N regions; K == 0 and
/// empty groups; groups the kernels must skip (negative sizes, a misaligned leading dimension)
/// leave their C untouched; the handle's bias + activation per group; e4m3 groups; a CUDA graph
/// captured once and replayed with new sizes and pointers; the argument checks a device is needed
/// for. Host-side statuses: test/c_api/test_grouped_api.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass/library/singleton.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#include "grouped_problems.h"

namespace {

using namespace cutlass::library;
using cutlass_lib_test::DeviceBuffer;
using namespace cutlass_lib_test::grouped;
namespace ref = cutlass::reference;

/// The per-group device arrays of a call: one group per problem of `problems` (their sizes,
/// leading dimensions and pointers), then `extra` groups appended as given.
struct DeviceGroups {
  struct Extra {
    int32_t m, n, k;
    void const *A, *B;
    void *C;
    int64_t lda, ldb, ldc;
  };
  std::vector<int32_t> sizes;
  std::vector<void const *> A, B;
  std::vector<void *> C;
  std::vector<int64_t> lda, ldb, ldc;
  DeviceBuffer d_sizes, d_A, d_B, d_C, d_lda, d_ldb, d_ldc;
  cudaDataType input_type, output_type;   ///< A's and B's, C's (the problems')

  DeviceGroups(GroupedProblems const &problems, std::vector<Extra> const &extra = {})
      : input_type(problems.input_type()), output_type(problems.output_type()) {
    std::vector<int64_t> const m = problems.m(), n = problems.n(), k = problems.k();
    std::vector<int64_t> const glda = problems.lda(), gldb = problems.ldb(), gldc = problems.ldc();
    A = problems.A(), B = problems.B(), C = problems.C();
    for (size_t g = 0; g < m.size(); ++g) {   // (every group of size 1)
      sizes.insert(sizes.end(), {int32_t(m[g]), int32_t(n[g]), int32_t(k[g])});
      lda.push_back(glda[g]), ldb.push_back(gldb[g]), ldc.push_back(gldc[g]);
    }
    for (Extra const &e : extra) {
      sizes.insert(sizes.end(), {e.m, e.n, e.k});
      A.push_back(e.A), B.push_back(e.B), C.push_back(e.C);
      lda.push_back(e.lda), ldb.push_back(e.ldb), ldc.push_back(e.ldc);
    }
    d_sizes = DeviceBuffer(sizes.size() * sizeof(int32_t));
    d_A = DeviceBuffer(A.size() * sizeof(void *)), d_B = DeviceBuffer(B.size() * sizeof(void *));
    d_C = DeviceBuffer(C.size() * sizeof(void *));
    d_lda = DeviceBuffer(lda.size() * sizeof(int64_t)), d_ldb = DeviceBuffer(ldb.size() * sizeof(int64_t));
    d_ldc = DeviceBuffer(ldc.size() * sizeof(int64_t));
    upload_into(*this);
  }

  /// Copies these arrays' contents into `to`'s device arrays (the same group count).
  void upload_into(DeviceGroups const &to) const {
    auto copy = [](DeviceBuffer const &d, void const *h, size_t bytes) {
      EXPECT_EQ(cudaSuccess, cudaMemcpy(d.get(), h, bytes, cudaMemcpyHostToDevice));
    };
    copy(to.d_sizes, sizes.data(), sizes.size() * sizeof(int32_t));
    copy(to.d_A, A.data(), A.size() * sizeof(void *));
    copy(to.d_B, B.data(), B.size() * sizeof(void *));
    copy(to.d_C, C.data(), C.size() * sizeof(void *));
    copy(to.d_lda, lda.data(), lda.size() * sizeof(int64_t));
    copy(to.d_ldb, ldb.data(), ldb.size() * sizeof(int64_t));
    copy(to.d_ldc, ldc.data(), ldc.size() * sizeof(int64_t));
  }

  int64_t count() const { return int64_t(sizes.size() / 3); }

  /// cutlassLibGemmGroupedDeviceSizesExSelect of the call run() makes.
  cutlassLibStatus_t select(cutlassLibHandle_t handle, float alpha, float beta, char const **name,
                            size_t *bytes) const {
    return cutlassLibGemmGroupedDeviceSizesExSelect(
        handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, static_cast<int32_t const *>(d_sizes.get()), &alpha,
        static_cast<void const *const *>(d_A.get()), input_type, static_cast<int64_t const *>(d_lda.get()),
        static_cast<void const *const *>(d_B.get()), input_type, static_cast<int64_t const *>(d_ldb.get()), &beta,
        static_cast<void *const *>(d_C.get()), output_type, static_cast<int64_t const *>(d_ldc.get()), count(), 0,
        CUTLASS_LIB_COMPUTE_32F, name, bytes);
  }

  cutlassLibStatus_t run(cutlassLibHandle_t handle, float alpha, float beta, int64_t max_n = 0) const {
    return cutlassLibGemmGroupedDeviceSizesEx(
        handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, static_cast<int32_t const *>(d_sizes.get()), &alpha,
        static_cast<void const *const *>(d_A.get()), input_type, static_cast<int64_t const *>(d_lda.get()),
        static_cast<void const *const *>(d_B.get()), input_type, static_cast<int64_t const *>(d_ldb.get()), &beta,
        static_cast<void *const *>(d_C.get()), output_type, static_cast<int64_t const *>(d_ldc.get()), count(), max_n,
        CUTLASS_LIB_COMPUTE_32F);
  }
};

/// TN bf16 groups, one problem each, sharing the call's scalars (alpha 1.25 and beta 0.5 unless
/// given): e.g. an empty output (m == 0), a K == 0 group (beta * C), a 7-column group.
std::vector<Group> tn_groups(std::vector<std::vector<int64_t>> const &mnk, float alpha = 1.25f, float beta = 0.5f) {
  std::vector<Group> groups;
  for (auto const &s : mnk) groups.push_back({CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, s[0], s[1], s[2], alpha, beta, 1});
  return groups;
}
std::vector<Group> const kGroups = tn_groups({{96, 80, 72}, {0, 64, 32}, {48, 40, 0}, {72, 56, 40}, {40, 24, 136},
                                              {128, 7, 64}, {256, 192, 264}});

class DeviceSizesGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor,
                                                    LayoutTypeID::kColumnMajor, NumericTypeID::kBF16)) {
      NO_KERNEL_FOR("a grouped bf16 TN GEMM");
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override {
    if (handle_) cutlassLibDestroy(handle_);
  }
  cutlassLibHandle_t handle_ = nullptr;
};

TEST_F(DeviceSizesGpu, GroupsMatchTheReferenceAndBadGroupsAreSkipped) {
  GroupedProblems problems(kGroups, /*device_scalars=*/false, 700);
  // groups the kernels must skip, writing into a poisoned buffer that must keep its bytes: a
  // negative M (large enough to give a negative tile count), a negative K, a null A with K > 0,
  // and an ldc (17) off the 16-byte rule
  DeviceBuffer operand(64 * 64 * 2), poisoned(64 * 64 * 2), before(64 * 64 * 2);
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, operand.get(), 64 * 64, 7));
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, poisoned.get(), 64 * 64));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(before.get(), poisoned.get(), poisoned.size(), cudaMemcpyDeviceToDevice));
  void const *const a = operand.get();
  DeviceGroups const groups(problems, {{-1000, 16, 16, a, a, poisoned.get(), 16, 16, 16},
                                       {16, 16, -16, a, a, poisoned.get(), 16, 16, 16},
                                       {16, 16, 16, nullptr, a, poisoned.get(), 16, 16, 16},
                                       {16, 16, 16, a, a, poisoned.get(), 16, 16, 17}});
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, groups.run(handle_, 1.25f, 0.5f));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
  EXPECT_TRUE(ref::bytes_equal(before.get(), poisoned.get(), poisoned.size())) << "a skipped group wrote its C";
}

/// Decode-sized groups (1-16 tokens, one empty) with max_n = 16, through the C++ Handle.
TEST_F(DeviceSizesGpu, DecodeGroupsThroughTheCppHandle) {
  std::vector<Group> const decode = tn_groups({{256, 3, 512}, {256, 16, 512}, {256, 0, 512}, {256, 1, 512}});
  GroupedProblems problems(decode, /*device_scalars=*/false, 800);
  DeviceGroups const groups(problems);
  Handle h;
  float const alpha = 1.25f, beta = 0.5f;
  GroupedDeviceArrays arrays;
  arrays.sizes = static_cast<int const *>(groups.d_sizes.get());
  arrays.A = static_cast<void const *const *>(groups.d_A.get());
  arrays.B = static_cast<void const *const *>(groups.d_B.get());
  arrays.C = static_cast<void *const *>(groups.d_C.get());
  arrays.lda = static_cast<int64_t const *>(groups.d_lda.get());
  arrays.ldb = static_cast<int64_t const *>(groups.d_ldb.get());
  arrays.ldc = static_cast<int64_t const *>(groups.d_ldc.get());
  ASSERT_EQ(cutlass::Status::kSuccess,
            h.gemm_grouped_device_sizes(NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kBF16,
                                        LayoutTypeID::kRowMajor, NumericTypeID::kBF16, LayoutTypeID::kColumnMajor,
                                        NumericTypeID::kBF16, &alpha, &beta, groups.count(), arrays, /*max_n=*/16));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  ASSERT_NE(nullptr, h.get_last_operation());
  problems.expect_results();
  bool token_tile_built = false;   // then max_n = 16 must have picked it
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    std::string const name = Singleton::get().manifest.operations()[i]->description().name;
    std::string const plain = "_epi_tma";   // (fused kernels' names go on)
    token_tile_built |= name.find("bf16_bf16_f32_bf16_bf16_64x32x64") != std::string::npos &&
                        name.find("_tnn_") != std::string::npos && name.find("_grouped_") != std::string::npos &&
                        name.size() > plain.size() && name.compare(name.size() - plain.size(), plain.size(), plain) == 0;
  }
  if (token_tile_built) {
    EXPECT_NE(std::string::npos, std::string(h.get_last_operation()->description().name).find("_64x32x64_"))
        << h.get_last_operation()->description().name;
  }
}

/// beta == 0 (C is NaN: never read; a K == 0 group writes zeros) and, with host scalars, alpha
/// == 0 (every group C = beta * C, A and B not read: their pointers are null here).
TEST_F(DeviceSizesGpu, BetaZeroAndAlphaZero) {
  GroupedProblems zero_beta(tn_groups({{96, 80, 72}, {48, 40, 0}, {128, 7, 64}}, 1.25f, 0.0f), false, 1100);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, DeviceGroups(zero_beta).run(handle_, 1.25f, 0.0f));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  zero_beta.expect_results();
  GroupedProblems zero_alpha(tn_groups({{96, 80, 72}, {48, 40, 0}, {128, 7, 64}}, 0.0f, 0.5f), false, 1200);
  DeviceGroups without_ab(zero_alpha);
  std::fill(without_ab.A.begin(), without_ab.A.end(), nullptr);
  std::fill(without_ab.B.begin(), without_ab.B.end(), nullptr);
  without_ab.upload_into(without_ab);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, without_ab.run(handle_, 0.0f, 0.5f));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  zero_alpha.expect_results();
}

/// More groups than one prologue round (1024): the tile count carried across rounds, empty and
/// K == 0 groups around the round's edge.
TEST_F(DeviceSizesGpu, ManyGroupsAcrossPrologueRounds) {
  std::vector<std::vector<int64_t>> mnk;
  for (int g = 0; g < 2100; ++g) {
    mnk.push_back({16 + 8 * (g % 3), g % 7 == 3 ? 0 : 1 + g % 9, (g >= 1020 && g < 1030) ? 0 : 16 + 8 * (g % 2)});
  }
  GroupedProblems problems(tn_groups(mnk), false, 1300);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, DeviceGroups(problems).run(handle_, 1.25f, 0.5f, /*max_n=*/16));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
}

/// One capture, two replays: the graph reads the arrays when it runs, so new sizes and pointers
/// written before a replay (routing that changes every step) give that step's results.
/// cutlassLibGemmGroupedDeviceSizesExSelect names the grouped kernel and the exact workspace
/// without running: a caller workspace 256 bytes short answers WORKSPACE_TOO_SMALL and writes
/// nothing, one of exactly that size runs the groups.
TEST_F(DeviceSizesGpu, SelectGivesTheKernelAndTheExactWorkspace) {
  GroupedProblems problems(kGroups, /*device_scalars=*/false, 950);
  DeviceGroups const groups(problems);
  char const *name = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, groups.select(handle_, 1.25f, 0.5f, &name, &bytes));
  ASSERT_NE(nullptr, name);
  EXPECT_NE(std::string::npos, std::string(name).find("_grouped")) << name;
  ASSERT_GT(bytes, 256u);
  EXPECT_LT(bytes, 1024u * size_t(groups.count()) + 512) << "the header's bound";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, groups.select(handle_, 1.25f, 0.5f, nullptr, &bytes));
  DeviceBuffer workspace(bytes);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, workspace.get(), bytes - 256));
  EXPECT_EQ(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL, groups.run(handle_, 1.25f, 0.5f));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, workspace.get(), bytes));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, groups.run(handle_, 1.25f, 0.5f));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results();
  cutlassLibSetWorkspace(handle_, nullptr, 0);
}

TEST_F(DeviceSizesGpu, ACapturedGraphReplaysWithNewSizes) {
  GroupedProblems first(kGroups, /*device_scalars=*/false, 900);
  GroupedProblems second(tn_groups({{64, 8, 128}, {128, 33, 64}, {32, 16, 0}, {0, 8, 8}, {200, 100, 48},
                                    {8, 1, 8}, {96, 130, 72}}),
                         /*device_scalars=*/false, 950);
  DeviceGroups const groups(first);
  DeviceGroups const next(second);
  DeviceBuffer workspace(1 << 20);   // outlives the graph
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, workspace.get(), workspace.size()));
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, stream));
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cutlassLibStatus_t const captured = groups.run(handle_, 1.25f, 0.5f);
  ASSERT_EQ(cudaSuccess, cudaStreamEndCapture(stream, &graph));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, captured);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaSuccess, cudaGraphInstantiate(&exec, graph, 0));
  ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  first.expect_results();
  next.upload_into(groups);   // the second step's sizes and pointers, in the captured arrays
  ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  second.expect_results();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, nullptr));
  cudaStreamDestroy(stream);
}

/// The handle's bias + activation on every group: group g adds batch entry g's bias (bias + g *
/// batchStride; PER_ROW, and PER_COLUMN for bias+GELU) before the activation, on prefill-sized
/// groups (beta != 0) and on decode-sized ones with max_n = 16 (the 64x32 grouped tile, when
/// built; beta == 0 over NaN). A K == 0 group is skipped with a fused epilogue: its poisoned C
/// keeps its bytes.
TEST_F(DeviceSizesGpu, FusedBiasAndActivationPerGroup) {
  std::string const missing = missing_bias_epilogue_kernel();
  if (!missing.empty()) NO_KERNEL_FOR(missing);
  constexpr int64_t kStride = 264;   // elements from one group's bias to the next: >= every M and N
  DeviceBuffer bias(size_t(8 * kStride * kBf16Bytes));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, bias.get(), 8 * kStride, 78));
  DeviceBuffer operand(64 * 64 * 2), poisoned(64 * 64 * 2), before(64 * 64 * 2);
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, operand.get(), 64 * 64, 8));
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, poisoned.get(), 64 * 64));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(before.get(), poisoned.get(), poisoned.size(), cudaMemcpyDeviceToDevice));
  void const *const a = operand.get();
  struct Round {
    std::vector<Group> groups;   // (one alpha and beta for all: the call's)
    int64_t max_n;
  };
  Round const rounds[] = {{tn_groups({{96, 80, 72}, {72, 56, 40}, {40, 24, 136}, {256, 192, 264}}), 0},
                          {tn_groups({{256, 3, 512}, {256, 16, 512}, {128, 1, 64}}, 1.0f, 0.0f), 16}};
  uint64_t seed = 1400;
  struct Case {
    BiasEpilogue epilogue;
    bool per_column;
  };
  std::vector<Case> cases;
  for (BiasEpilogue const &v : kBiasEpilogues) cases.push_back({v, false});
  cases.push_back({kBiasEpilogues[2], true});   // bias+GELU, PER_COLUMN
  for (Case const &k : cases) {
    BiasEpilogue const &v = k.epilogue;
    SCOPED_TRACE(std::string(cutlass::library::to_string(v.activation)) + (k.per_column ? " per column" : " per row"));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, v.epilogue));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibSetEpilogueBias(handle_, bias.get(), CUDA_R_16BF,
                                        k.per_column ? CUTLASS_LIB_VECTOR_PER_COLUMN : CUTLASS_LIB_VECTOR_PER_ROW,
                                        kStride));
    GroupedProblems::Fused const fused{v.activation, bias.bytes_ptr(), kStride, k.per_column};
    for (Round const &r : rounds) {
      GroupedProblems problems(r.groups, /*device_scalars=*/false, seed++);
      DeviceGroups const groups(problems, {{16, 16, 0, a, a, poisoned.get(), 16, 16, 16}});
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, groups.run(handle_, r.groups[0].alpha, r.groups[0].beta, r.max_n));
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      problems.expect_results(1.0, &fused);
      EXPECT_TRUE(ref::bytes_equal(before.get(), poisoned.get(), poisoned.size())) << "the K == 0 group wrote its C";
    }
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
}

/// The handle's alpha vector on every group: group g scales row i of its product by alpha *
/// alphaVector[g * stride + i] (PER_ROW, m_g values, as batch entry g of a strided call), alone
/// (the alphavec grouped kernels) and with a bias + ReLU (alphavec_bias_relu); opt-in kernels, so
/// a default build skips. beta != 0, and a K == 0 group, skipped with a fused epilogue.
TEST_F(DeviceSizesGpu, AlphaVectorPerGroup) {
  constexpr int64_t kStride = 264;   // >= every group's M
  DeviceBuffer alpha_vector(size_t(8 * kStride * 4)), bias(size_t(8 * kStride * kBf16Bytes));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kF32, alpha_vector.get(), 8 * kStride, 91, 0.5, 1.5));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, bias.get(), 8 * kStride, 92));
  float const *const alphas = static_cast<float const *>(alpha_vector.get());
  DeviceBuffer operand(64 * 64 * 2), poisoned(64 * 64 * 2), before(64 * 64 * 2);
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, operand.get(), 64 * 64, 9));
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, poisoned.get(), 64 * 64));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(before.get(), poisoned.get(), poisoned.size(), cudaMemcpyDeviceToDevice));
  struct Case {
    cutlassLibEpilogue_t epilogue;
    GroupedProblems::Fused fused;
  };
  Case const cases[] = {
      {CUTLASS_LIB_EPILOGUE_DEFAULT, {cutlass::epilogue::ActivationKind::kIdentity, nullptr, 0, false, alphas, kStride}},
      {CUTLASS_LIB_EPILOGUE_RELU_BIAS,
       {cutlass::epilogue::ActivationKind::kReLU, bias.bytes_ptr(), kStride, false, alphas, kStride}}};
  std::vector<Group> const groups = tn_groups({{96, 80, 72}, {72, 56, 40}, {40, 24, 136}, {256, 192, 264}}, 1.25f, 0.5f);
  int ran = 0;
  uint64_t seed = 1450;
  for (Case const &c : cases) {
    if (!cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor,
                                                    LayoutTypeID::kColumnMajor, NumericTypeID::kBF16,
                                                    c.fused.description())) {
      continue;
    }
    SCOPED_TRACE(c.fused.bias ? "alpha vector, bias + ReLU" : "alpha vector");
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, c.epilogue));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueBias(handle_, c.fused.bias ? bias.get() : nullptr,
                                                                    CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, kStride));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibSetEpilogueAlphaVector(handle_, alphas, CUTLASS_LIB_VECTOR_PER_ROW, kStride));
    GroupedProblems problems(groups, /*device_scalars=*/false, seed++);
    void const *const a = operand.get();
    DeviceGroups const device_groups(problems, {{16, 16, 0, a, a, poisoned.get(), 16, 16, 16}});
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, device_groups.run(handle_, groups[0].alpha, groups[0].beta));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    problems.expect_results(1.0, &c.fused);
    EXPECT_TRUE(ref::bytes_equal(before.get(), poisoned.get(), poisoned.size())) << "the K == 0 group wrote its C";
    ++ran;
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAlphaVector(handle_, nullptr, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  if (ran == 0) GTEST_SKIP() << "the grouped bf16 TN alphavec kernels are opt-in and not in this build";
}

/// e4m3 groups (the grouped e4m3 TN kernels) with the handle's per-tensor operand scales (device
/// scalars) on every group, and a K == 0 group (beta * C).
TEST_F(DeviceSizesGpu, E4m3GroupsWithOperandScales) {
  if (!cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor,
                                                  LayoutTypeID::kColumnMajor, NumericTypeID::kBF16)) {
    NO_KERNEL_FOR("a grouped e4m3 TN GEMM");
  }
  float const scales[2] = {0.5f, 0.25f};
  DeviceBuffer scale_buffer(sizeof(scales));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scale_buffer.get(), scales, sizeof(scales), cudaMemcpyHostToDevice));
  float const *const scale_device = static_cast<float const *>(scale_buffer.get());
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scale_device, scale_device + 1));
  GroupedProblems problems(tn_groups({{256, 17, 512}, {128, 8, 0}, {384, 200, 512}, {256, 129, 1040}}),
                           /*device_scalars=*/false, 1500, NumericTypeID::kFE4M3);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, DeviceGroups(problems).run(handle_, 1.25f, 0.5f));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  problems.expect_results(double(scales[0]) * scales[1]);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, nullptr, nullptr));
}

/// What a device tells: arrays in pageable host memory are refused, not read; a D scale / amax
/// is not offered; nothing runs for either.
TEST_F(DeviceSizesGpu, HostArraysAndTheDScaleLaunchNothing) {
  GroupedProblems problems(kGroups, /*device_scalars=*/false, 1000);
  DeviceGroups const groups(problems);
  float const alpha = 1.25f, beta = 0.5f;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibGemmGroupedDeviceSizesEx(
                handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, groups.sizes.data(), &alpha,
                static_cast<void const *const *>(groups.d_A.get()), CUDA_R_16BF,
                static_cast<int64_t const *>(groups.d_lda.get()), static_cast<void const *const *>(groups.d_B.get()),
                CUDA_R_16BF, static_cast<int64_t const *>(groups.d_ldb.get()), &beta,
                static_cast<void *const *>(groups.d_C.get()), CUDA_R_16BF,
                static_cast<int64_t const *>(groups.d_ldc.get()), groups.count(), 0, CUTLASS_LIB_COMPUTE_32F))
      << "sizes in pageable host memory";
  DeviceBuffer amax(sizeof(float));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueScaleAmax(handle_, nullptr, static_cast<float *>(amax.get())));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, groups.run(handle_, alpha, beta));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(problems.c_untouched());
}

}  // namespace
