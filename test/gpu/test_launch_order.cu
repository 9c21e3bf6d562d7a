/// Calls issued back to back on one stream, with no host synchronization between them, where each
/// reads the output of the call before it: the sm90 kernels launch with programmatic dependent
/// launch (gemm_sm90.h programmatic_launch), so a kernel's CTAs may start while its predecessor
/// runs and must not touch memory before cudaGridDependencySynchronize. A chain of bf16 TN GEMMs
/// X[i + 1] = alpha_i W_i X[i] (W_i row-major m_i x k_i, k_(i+1) = m_i, X column-major k_i x n),
/// the intermediates poisoned with NaN first: a link that read its input early reads NaN or a
/// partial result. Each link is checked against the reference GEMM of the link's own input (after
/// the chain). Decode (n = 16: the token tiles) and prefill (n = 512: the 128x128 persistent and
/// stream-K tiles, whose flag memset sits between the kernels), run directly and captured into a
/// CUDA graph replayed twice.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#include "tn_product_check.h"

namespace {

using cutlass::library::LayoutTypeID;
using cutlass::library::NumericTypeID;
using cutlass_lib_test::DeviceBuffer;
using cutlass_lib_test::expect_tn_product;
namespace ref = cutlass::reference;

constexpr int64_t kBf16 = 2;

/// One chain: n columns (tokens) and the links' output rows; link i's K is the rows before it.
struct Chain {
  int64_t n;
  std::vector<int64_t> rows;   ///< rows[0]: X[0]'s K; rows[i + 1]: link i's M
  char const *name;
};

class LaunchOrderGpu : public ::testing::TestWithParam<Chain> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!cutlass_lib_test::build_has_bf16_tn_kernel()) {
      NO_KERNEL_FOR("a bf16 TN GEMM");
    }
    ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, stream_));
    Chain const &c = GetParam();
    for (size_t i = 0; i < c.rows.size(); ++i) x_.emplace_back(size_t(c.rows[i] * c.n * kBf16));
    for (size_t i = 0; i + 1 < c.rows.size(); ++i) w_.emplace_back(size_t(c.rows[i + 1] * c.rows[i] * kBf16));
    ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, x_[0].get(), c.rows[0] * c.n, 301));
    for (size_t i = 0; i < w_.size(); ++i) {
      ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, w_[i].get(), c.rows[i + 1] * c.rows[i], 311 + i));
    }
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());   // (the fills ran on the default stream)
  }
  void TearDown() override {
    if (handle_) cutlassLibDestroy(handle_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  /// NaN into every intermediate and the output, on the stream (0xFFFF is a bf16 NaN).
  void poison() {
    for (size_t i = 1; i < x_.size(); ++i) ASSERT_EQ(cudaSuccess, cudaMemsetAsync(x_[i].get(), 0xFF, x_[i].size(), stream_));
  }

  /// The links back to back on the stream, no synchronization between them; alpha_i = 1 /
  /// sqrt(k_i) keeps every X of order 1.
  void run_links() {
    Chain const &c = GetParam();
    for (size_t i = 0; i < w_.size(); ++i) {
      int64_t const m = c.rows[i + 1], k = c.rows[i];
      float const alpha = float(1.0 / std::sqrt(double(k))), beta = 0;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, c.n, k, &alpha, w_[i].get(), CUDA_R_16BF,
                                 k, x_[i].get(), CUDA_R_16BF, k, &beta, x_[i + 1].get(), CUDA_R_16BF, m,
                                 CUTLASS_LIB_COMPUTE_32F))
          << "link " << i;
    }
  }

  /// Every link's output against the reference GEMM of its own input (the chain has finished).
  void expect_links(char const *how) {
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream_));
    Chain const &c = GetParam();
    for (size_t i = 0; i < w_.size(); ++i) {
      int64_t const m = c.rows[i + 1], k = c.rows[i];
      ASSERT_NO_FATAL_FAILURE(expect_tn_product(w_[i].get(), k, x_[i].get(), k, x_[i + 1].get(), m, c.n, k,
                                                std::string(how) + ", link " + std::to_string(i)));
    }
  }

  cudaStream_t stream_ = nullptr;
  cutlassLibHandle_t handle_ = nullptr;
  std::vector<DeviceBuffer> x_, w_;
};

TEST_P(LaunchOrderGpu, EachLinkReadsThePreviousOutput) {
  poison();
  run_links();
  expect_links("direct");
}

/// The same chain captured once (the poison's memsets first, then the links) and replayed twice;
/// a first direct run has grown the handle's workspace, which a capture cannot allocate.
TEST_P(LaunchOrderGpu, ACapturedChainReplays) {
  run_links();
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream_));
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  poison();
  run_links();
  ASSERT_EQ(cudaSuccess, cudaStreamEndCapture(stream_, &graph));
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaSuccess, cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream_));
    expect_links(replay == 0 ? "graph, first replay" : "graph, second replay");
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

/// The handle skips a kernel's initialize() (the memset of its split counters or stream-K flags)
/// when an earlier kernel left those words zero and nothing wrote them since (WorkspaceState,
/// gemm_call.cpp). Independent bf16 TN calls on one handle, back to back with no host
/// synchronization, each output poisoned first, twice over: stream-K token tiles of different
/// grids (1-16 and 200 tokens), the GEMV, a call staged through the workspace (a leading dimension
/// TMA cannot take), and the stream-K calls again after each.
TEST(WorkspaceStateGpu, SkippedInitializationsKeepEveryCallExact) {
  SKIP_WITHOUT_GPU();
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) {
    NO_KERNEL_FOR("a bf16 TN GEMM");
  }
  struct Call {
    int64_t m, n, k, ld_pad;   // ld = k + ld_pad for A and B
  };
  Call const calls[] = {{14336, 16, 4096, 0}, {4096, 1, 11008, 0}, {14336, 16, 4096, 0}, {5120, 8, 13824, 0},
                        {4096, 200, 11008, 0}, {13824, 8, 5120, 0},  {2048, 16, 4096, 3},  {14336, 16, 4096, 0}};
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle, stream));
  std::vector<DeviceBuffer> a, b, d;
  for (size_t i = 0; i < std::size(calls); ++i) {
    Call const &c = calls[i];
    int64_t const ld = c.k + c.ld_pad;
    a.emplace_back(size_t(c.m * ld * kBf16));
    b.emplace_back(size_t(c.n * ld * kBf16));
    d.emplace_back(size_t(c.m * c.n * kBf16));
    ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, a.back().get(), c.m * ld, 401 + i));
    ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, b.back().get(), c.n * ld, 501 + i));
  }
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < std::size(calls); ++i) {
      ASSERT_EQ(cudaSuccess, cudaMemsetAsync(d[i].get(), 0xFF, d[i].size(), stream));   // bf16 NaN
    }
    for (size_t i = 0; i < std::size(calls); ++i) {
      Call const &c = calls[i];
      int64_t const ld = c.k + c.ld_pad;
      float const alpha = float(1.0 / std::sqrt(double(c.k))), beta = 0;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, c.m, c.n, c.k, &alpha, a[i].get(),
                                 CUDA_R_16BF, ld, b[i].get(), CUDA_R_16BF, ld, &beta, d[i].get(), CUDA_R_16BF, c.m,
                                 CUTLASS_LIB_COMPUTE_32F))
          << "pass " << pass << ", call " << i;
    }
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
    for (size_t i = 0; i < std::size(calls); ++i) {
      Call const &c = calls[i];
      int64_t const ld = c.k + c.ld_pad;
      ASSERT_NO_FATAL_FAILURE(expect_tn_product(a[i].get(), ld, b[i].get(), ld, d[i].get(), c.m, c.n, c.k,
                                                "pass " + std::to_string(pass) + ", call " + std::to_string(i)));
    }
  }
  cutlassLibDestroy(handle);
  cudaStreamDestroy(stream);
}

INSTANTIATE_TEST_SUITE_P(
    Chains, LaunchOrderGpu,
    ::testing::Values(Chain{16, {4096, 4096, 14336, 4096}, "decode"},        // 64x32 token tiles: 1, 2 waves
                      Chain{512, {5120, 10240, 5120, 4096}, "prefill"}),   // 128x128 stream-K, persistent
    [](::testing::TestParamInfo<Chain> const &info) { return std::string(info.param.name); });

}  // namespace
