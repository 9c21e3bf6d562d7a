/// GPU tests of the contiguous grouped GEMM (cutlassLibGemmGroupedContiguousEx): a
/// mixture-of-experts layer whose per-expert column ranges come from a device array. Every
/// group's columns against the device reference, every byte of C outside them unchanged
/// (skipped groups, columns past the last end, the padding rows), beta == 0 over NaN, and the
/// call captured into a CUDA graph and replayed with new offsets written on the device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#include "grouped_fused_check.h"
#include "tn_product_check.h"

namespace {

using namespace cutlass::library;
using cutlass_lib_test::DeviceBuffer;
namespace ref = cutlass::reference;

constexpr int64_t kBytes = 2;   // bf16 C (and A, B unless the test sets e4m3 inputs)

/// Whether the build has a grouped bf16 kernel for A row-major (transa = T), B column-major on
/// this device.
bool build_has_grouped_tn() {
  return cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor,
                                                    LayoutTypeID::kColumnMajor, NumericTypeID::kBF16);
}

/// An expert layer: `experts` weights W_g (M x K, row-major: transa = T, lda = K + 16 bytes,
/// strideA = M * lda + 64 elements), tokens B (K x N column-major, ldb = lda) and C (M x N
/// column-major, bf16, ldc = M + 8, random, or NaN with beta == 0), offsets on the device. W and
/// the tokens are bf16, or e4m3 where a test sets `input`.
class ExpertLayer : public ::testing::Test {
 protected:
  int64_t M = 200, N = 300, K = 136, experts = 8;
  NumericTypeID input = NumericTypeID::kBF16;
  int64_t lda = 0, ldb = 0, ldc = 0, stride_A = 0;
  float alpha = 1.25f, beta = -0.5f;
  DeviceBuffer A, B, C, C_before, offsets;
  cutlassLibHandle_t handle = nullptr;
  /// The handle's fused epilogue, when a test sets one: the activation, a bf16 bias (PER_ROW:
  /// expert g's M values at bias + g * bias_stride; PER_COLUMN: one per packed column) and the
  /// M x N bf16 aux matrix (ld M + 4, NaN before the call) when `aux` is set.
  struct Fused {
    cutlass::epilogue::ActivationKind activation = cutlass::epilogue::ActivationKind::kIdentity;
    DeviceBuffer bias;
    bool per_row = true;
    int64_t bias_stride = 0;
    DeviceBuffer aux, aux_before;
    int64_t ldaux = 0;
  };
  Fused const *fused = nullptr;

  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!build_has_grouped_tn()) NO_KERNEL_FOR("a grouped bf16 TN GEMM");
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  }
  void TearDown() override {
    if (handle) cutlassLibDestroy(handle);
  }

  /// The operands for the current sizes; C poisoned (beta == 0) or random.
  void make_operands(uint64_t seed) {
    lda = K + 16 / input_bytes(), ldb = lda, ldc = M + 8, stride_A = M * lda + 64;
    A = DeviceBuffer(size_t(stride_A * experts * input_bytes()));
    B = DeviceBuffer(size_t(ldb * N * input_bytes()));
    C = DeviceBuffer(size_t(ldc * N * kBytes));
    C_before = DeviceBuffer(size_t(ldc * N * kBytes));
    offsets = DeviceBuffer(size_t(experts) * sizeof(int));
    ASSERT_TRUE(ref::fill_uniform(input, A.get(), stride_A * experts, seed));
    ASSERT_TRUE(ref::fill_uniform(input, B.get(), ldb * N, seed + 1));
    if (beta == 0) {
      ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, C.get(), ldc * N));
    } else {
      ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, C.get(), ldc * N, seed + 2));
    }
    ASSERT_EQ(cudaSuccess, cudaMemcpy(C_before.get(), C.get(), size_t(ldc * N * kBytes), cudaMemcpyDeviceToDevice));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  }

  void set_offsets(std::vector<int> const &ends) {
    ASSERT_EQ(size_t(experts), ends.size());
    ASSERT_EQ(cudaSuccess, cudaMemcpy(offsets.get(), ends.data(), ends.size() * sizeof(int), cudaMemcpyHostToDevice));
  }

  int64_t input_bytes() const { return input == NumericTypeID::kBF16 ? 2 : 1; }
  cudaDataType input_type() const { return input == NumericTypeID::kBF16 ? CUDA_R_16BF : CUDA_R_8F_E4M3; }

  cutlassLibStatus_t call() {
    return cutlassLibGemmGroupedContiguousEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, M, N, K, &alpha, A.get(),
                                             input_type(), lda, stride_A, B.get(), input_type(), ldb, &beta, C.get(),
                                             CUDA_R_16BF, ldc, experts, static_cast<int const *>(offsets.get()),
                                             CUTLASS_LIB_COMPUTE_32F);
  }

  /// call() captured into a CUDA graph on `stream` (the handle's), then instantiated.
  void capture(cudaStream_t stream, cudaGraph_t *graph, cudaGraphExec_t *exec) {
    ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    cutlassLibStatus_t const captured = call();
    ASSERT_EQ(cudaSuccess, cudaStreamEndCapture(stream, graph));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, captured);
    ASSERT_EQ(cudaSuccess, cudaGraphInstantiate(exec, *graph, 0));
  }

  /// A stream of its own for the handle, the call on the groups `ends` defines once outside a
  /// capture (the workspace grows there), then captured into a CUDA graph on that stream
  /// (capture); release_graph undoes it.
  void graph_on_own_stream(std::vector<int> const &ends, cudaStream_t *stream, cudaGraph_t *graph,
                           cudaGraphExec_t *exec) {
    ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle, *stream));
    set_offsets(ends);
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, call());
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(*stream));
    ASSERT_NO_FATAL_FAILURE(capture(*stream, graph, exec));
  }
  void release_graph(cudaStream_t stream, cudaGraph_t graph, cudaGraphExec_t exec) {
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cutlassLibSetStream(handle, nullptr);
    cudaStreamDestroy(stream);
  }

  /// The call on the groups `ends` defines (written to the offsets first), then its results.
  void run_and_expect(std::vector<int> const &ends) {
    set_offsets(ends);
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, call());
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    expect_results(ends, C_before);
  }

  /// C against the reference for the groups `ends` defines (begin = the largest end before, a
  /// group ending before it or past N skipped), from `before` (C as it was before the call), and
  /// every other byte of C as it was.
  void expect_results(std::vector<int> const &ends, DeviceBuffer const &before) {
    size_t const bytes = size_t(ldc * N * kBytes);
    DeviceBuffer expected(bytes);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(expected.get(), before.get(), bytes, cudaMemcpyDeviceToDevice));
    int begin = 0, written = 0;
    for (int64_t g = 0; g < experts; ++g) {
      int const end = ends[size_t(g)];
      int const columns = end >= begin && end <= N ? end - begin : 0;
      std::string const where = "expert " + std::to_string(g) + " columns [" + std::to_string(begin) + ", " +
                                std::to_string(begin + columns) + ")";
      if (columns > 0) {
        ref::GemmProblem r;
        r.m = M, r.n = columns, r.k = K;
        r.element_A = r.element_B = input;
        r.element_C = NumericTypeID::kBF16;
        r.layout_A = LayoutTypeID::kRowMajor, r.layout_B = LayoutTypeID::kColumnMajor;
        r.alpha = alpha, r.beta = beta;
        r.A = A.bytes_ptr() + g * stride_A * input_bytes(), r.lda = lda;
        r.B = B.bytes_ptr() + begin * ldb * input_bytes(), r.ldb = ldb;
        r.C = before.bytes_ptr() + begin * ldc * kBytes, r.ldc = ldc;
        r.D = expected.bytes_ptr() + begin * ldc * kBytes, r.ldd = ldc;
        char const *got = C.bytes_ptr() + begin * ldc * kBytes;
        if (fused) {
          cutlass_lib_test::FusedRegion region;
          region.product = r;
          region.activation = fused->activation;
          region.alpha = alpha, region.beta = beta;
          region.before = r.C, region.got = got, region.ldc = ldc;
          char const *bias = fused->bias.bytes_ptr();
          if (fused->per_row) {
            region.row_bias = bias + g * fused->bias_stride * kBytes;
          } else {
            region.column_bias = bias + begin * kBytes;
          }
          if (fused->aux.get()) region.aux = fused->aux.bytes_ptr() + begin * fused->ldaux * kBytes, region.ldaux = fused->ldaux;
          EXPECT_TRUE(cutlass_lib_test::fused_region_matches(region)) << where;
        } else {
          ASSERT_TRUE(ref::reference_gemm(r)) << where;
          ref::Comparison const cmp = ref::compare(NumericTypeID::kBF16, M, columns, 1, got, ldc, 0, r.D, ldc, 0);
          ASSERT_TRUE(cmp.ok) << where;
          EXPECT_EQ(0, cmp.nonfinite) << where << ": elements left unwritten, or NaN read from C";
          EXPECT_LE(cmp.relative_error, ref::error_bound(input, NumericTypeID::kBF16, K)) << where;
        }
        // the group's M x columns region as computed, so the byte comparison sees only the rest
        ASSERT_EQ(cudaSuccess, cudaMemcpy2D(r.D, ldc * kBytes, got, ldc * kBytes, M * kBytes, columns,
                                            cudaMemcpyDeviceToDevice));
        if (fused && fused->aux.get()) {   // likewise the group's aux columns
          char *aux = fused->aux_before.bytes_ptr() + begin * fused->ldaux * kBytes;
          ASSERT_EQ(cudaSuccess, cudaMemcpy2D(aux, fused->ldaux * kBytes, fused->aux.bytes_ptr() + begin * fused->ldaux * kBytes,
                                              fused->ldaux * kBytes, M * kBytes, columns, cudaMemcpyDeviceToDevice));
        }
        written += columns;
      }
      begin = end > begin ? end : begin;
    }
    EXPECT_GT(written, 0) << "the offsets left every group empty: the test checks nothing";
    EXPECT_TRUE(ref::bytes_equal(expected.get(), C.get(), bytes)) << "the call wrote outside its groups' columns";
    if (fused && fused->aux.get()) {
      EXPECT_TRUE(ref::bytes_equal(fused->aux_before.get(), fused->aux.get(), size_t(fused->ldaux * N * kBytes)))
          << "the call wrote aux outside its groups' columns";
    }
  }
};

/// Empty experts, an expert whose end lies before an earlier end (skipped), several column tiles
/// per expert, M past one 128-row tile, the last 10 columns of C owned by no expert.
std::vector<int> const kEnds = {40, 40, 100, 90, 170, 250, 250, 290};

TEST_F(ExpertLayer, GroupsMatchTheReferenceAndNothingElseIsWritten) {
  make_operands(11);
  run_and_expect(kEnds);
}

TEST_F(ExpertLayer, BetaZeroNeverReadsC) {
  beta = 0;
  make_operands(21);
  std::vector<int> const ends = {0, 64, 64, 129, 200, 230, 300, 300};   // up to the last column
  run_and_expect(ends);
}

/// Offsets past N: the expert that crosses N and every later one are skipped.
TEST_F(ExpertLayer, AGroupPastNIsSkipped) {
  make_operands(31);
  std::vector<int> const ends = {50, 120, 310, 320, 330, 340, 350, 360};
  run_and_expect(ends);
}

/// An fp8 layer (e4m3 weights and tokens, bf16 out) where the build has an e4m3 grouped kernel:
/// prefill-sized and decode-sized experts, the K a multiple of 16 (TMA's 16 bytes).
TEST_F(ExpertLayer, Fp8ExpertsMatchTheReference) {
  if (!cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor,
                                                  LayoutTypeID::kColumnMajor, NumericTypeID::kBF16)) {
    NO_KERNEL_FOR("a grouped e4m3 TN GEMM with bf16 out (opt-in: \"*e4m3_e4m3_f32_bf16_bf16*_grouped*\")");
  }
  input = NumericTypeID::kFE4M3;
  M = 256, K = 272;
  make_operands(81);
  run_and_expect(kEnds);
  M = 1024, N = 24, K = 512, experts = 16;
  make_operands(82);
  run_and_expect({0, 3, 3, 3, 4, 9, 9, 9, 9, 16, 16, 17, 17, 17, 24, 24});
}

/// Decode: a few tokens per expert over a wide weight (M = 1024), many experts idle.
TEST_F(ExpertLayer, DecodeTokenCounts) {
  M = 1024, N = 24, K = 512, experts = 16;
  make_operands(41);
  std::vector<int> const ends = {0, 3, 3, 3, 4, 9, 9, 9, 9, 16, 16, 17, 17, 17, 24, 24};
  run_and_expect(ends);
}

/// The C++ Handle's call (Handle::gemm_grouped_contiguous) on the same layer.
TEST_F(ExpertLayer, TheCppHandleRunsTheSameCall) {
  make_operands(71);
  set_offsets(kEnds);
  Handle cpp;
  ASSERT_EQ(cutlass::Status::kSuccess,
            cpp.gemm_grouped_contiguous(int(M), int(N), int(K), NumericTypeID::kF32, NumericTypeID::kF32, &alpha,
                                        NumericTypeID::kBF16, LayoutTypeID::kRowMajor, A.get(), lda, stride_A,
                                        NumericTypeID::kBF16, B.get(), ldb, &beta, NumericTypeID::kBF16, C.get(), ldc,
                                        C.get(), ldc, experts, static_cast<int const *>(offsets.get())));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  expect_results(kEnds, C_before);
  EXPECT_NE(nullptr, cpp.get_last_operation());
}

/// More experts than the prologue's 1024 threads (three rounds): the running end and the tile
/// sums carry across rounds; ends step by 0-3 tokens, now and then one end falls back (skipped)
/// and the later ones run past N (skipped).
TEST_F(ExpertLayer, ManyExpertsCarryAcrossPrologueRounds) {
  M = 64, N = 3000, K = 64, experts = 2500;
  make_operands(61);
  std::vector<int> ends;
  uint32_t state = 12345;
  int end = 0;
  for (int64_t g = 0; g < experts; ++g) {
    state = state * 1664525u + 1013904223u;
    if (g % 97 == 50) {
      ends.push_back(end - 1);   // before the last end: skipped, the running end unchanged
      continue;
    }
    end += int(state >> 30);     // 0-3 tokens
    ends.push_back(end);
  }
  ASSERT_GT(end, N) << "the last experts should run past N";
  run_and_expect(ends);
}

/// The handle's fused epilogue over the experts: a PER_ROW bias per expert (batch entry g of the
/// handle's bias, batchStride M + 8), then a PER_COLUMN bias (one per packed token), with GELU,
/// ReLU or none, on prefill-sized and decode-sized layers; then GELU with the aux output over the
/// packed columns (the opt-in "..._grouped_..._bias_gelu_aux" kernel) where the build has it.
TEST_F(ExpertLayer, FusedBiasPerExpertAndPerToken) {
  using cutlass::epilogue::ActivationKind;
  struct Variant {
    cutlassLibEpilogue_t epilogue;
    ActivationKind activation;
    bool aux;
  };
  Variant const variants[] = {{CUTLASS_LIB_EPILOGUE_GELU_BIAS, ActivationKind::kGELU, false},
                              {CUTLASS_LIB_EPILOGUE_RELU_BIAS, ActivationKind::kReLU, false},
                              {CUTLASS_LIB_EPILOGUE_BIAS, ActivationKind::kIdentity, false},
                              {CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS, ActivationKind::kGELU, true}};
  int ran = 0;
  uint64_t seed = 300;
  for (Variant const &v : variants) {
    EpilogueDescription d;
    d.activation = v.activation;
    d.element_bias = NumericTypeID::kBF16;
    if (v.aux) d.element_aux = NumericTypeID::kBF16;
    if (!cutlass_lib_test::build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor,
                                                    LayoutTypeID::kColumnMajor, NumericTypeID::kBF16, d)) {
      continue;   // (the opt-in aux kernel; the test fails below if no variant ran)
    }
    for (bool const per_row : {true, false}) {
      for (bool const decode : {false, true}) {
        SCOPED_TRACE(std::string(cutlass::library::to_string(v.activation)) + (v.aux ? " aux" : "") +
                     (per_row ? " per-row bias" : " per-column bias") + (decode ? ", decode" : ", prefill"));
        std::vector<int> ends = kEnds;
        if (decode) {
          M = 1024, N = 24, K = 512, experts = 16;
          ends = {0, 3, 3, 3, 4, 9, 9, 9, 9, 16, 16, 17, 17, 17, 24, 24};
        } else {
          M = 200, N = 300, K = 136, experts = 8;
        }
        make_operands(seed++);
        Fused f;
        f.activation = v.activation;
        f.per_row = per_row;
        f.bias_stride = M + 8;
        int64_t const bias_count = per_row ? experts * f.bias_stride : N;
        f.bias = DeviceBuffer(size_t(bias_count * kBytes));
        ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, f.bias.get(), bias_count, seed++));
        ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle, v.epilogue));
        ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                  cutlassLibSetEpilogueBias(handle, f.bias.get(), CUDA_R_16BF,
                                            per_row ? CUTLASS_LIB_VECTOR_PER_ROW : CUTLASS_LIB_VECTOR_PER_COLUMN,
                                            per_row ? f.bias_stride : 0));
        if (v.aux) {
          f.ldaux = M + 4;
          f.aux = DeviceBuffer(size_t(f.ldaux * N * kBytes));
          f.aux_before = DeviceBuffer(size_t(f.ldaux * N * kBytes));
          ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, f.aux.get(), f.ldaux * N));
          ASSERT_EQ(cudaSuccess, cudaMemcpy(f.aux_before.get(), f.aux.get(), size_t(f.ldaux * N * kBytes),
                                            cudaMemcpyDeviceToDevice));
          ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle, f.aux.get(), CUDA_R_16BF, f.ldaux, 0));
        }
        fused = &f;
        ASSERT_NO_FATAL_FAILURE(run_and_expect(ends));
        fused = nullptr;
        ++ran;
      }
    }
  }
  if (ran == 0) NO_KERNEL_FOR("a grouped bf16 TN GEMM with a fused bias (\"*_grouped_*_epi_tma_bias*\")");
}

/// cutlassLibGemmGroupedContiguousExSelect names the grouped kernel the call runs and the
/// workspace it needs: a caller workspace of exactly that size runs it (in a graph, as a
/// framework would capture it), 256 bytes less answers WORKSPACE_TOO_SMALL and writes nothing.
TEST_F(ExpertLayer, SelectGivesTheKernelAndTheExactWorkspace) {
  make_operands(61);
  set_offsets(kEnds);
  char const *name = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmGroupedContiguousExSelect(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, M, N, K, &alpha,
                                                    A.get(), CUDA_R_16BF, lda, stride_A, B.get(), CUDA_R_16BF, ldb,
                                                    &beta, C.get(), CUDA_R_16BF, ldc, experts,
                                                    static_cast<int const *>(offsets.get()), CUTLASS_LIB_COMPUTE_32F,
                                                    &name, &bytes));
  ASSERT_NE(nullptr, name);
  EXPECT_NE(std::string::npos, std::string(name).find("_grouped")) << name;
  ASSERT_GT(bytes, 256u);
  DeviceBuffer workspace(bytes);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, workspace.get(), bytes - 256));
  EXPECT_EQ(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL, call());
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(ref::bytes_equal(C_before.get(), C.get(), size_t(ldc * N * kBytes))) << "a refused call wrote C";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, workspace.get(), bytes));
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle, stream));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_NO_FATAL_FAILURE(capture(stream, &graph, &exec)) << "the first call is the captured one: no workspace to grow";
  ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
  ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  expect_results(kEnds, C_before);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cutlassLibSetStream(handle, nullptr);
  cutlassLibSetWorkspace(handle, nullptr, 0);
  cudaStreamDestroy(stream);
}

/// The call captured into a CUDA graph on the handle's stream, then replayed twice, each time
/// after new offsets were written into the same device array (C reset in between): each replay
/// computes the groups its offsets define.
TEST_F(ExpertLayer, AGraphReplaysWithNewOffsets) {
  make_operands(51);
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_NO_FATAL_FAILURE(graph_on_own_stream(kEnds, &stream, &graph, &exec));
  for (std::vector<int> const &ends : {std::vector<int>{10, 80, 80, 200, 210, 211, 280, 300},
                                       std::vector<int>{0, 0, 0, 150, 150, 150, 150, 151}}) {
    ASSERT_EQ(cudaSuccess, cudaMemcpy(C.get(), C_before.get(), size_t(ldc * N * kBytes), cudaMemcpyDeviceToDevice));
    set_offsets(ends);
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());   // the copies ran on the legacy stream
    ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
    expect_results(ends, C_before);
  }
  release_graph(stream, graph, exec);
}

/// The handle skips the memset of a stream-K kernel's flags while its own workspace still holds
/// them zero (WorkspaceState): a graph of this call, whose prologue writes the group table over
/// the workspace's start on every replay, must end that. A bf16 TN stream-K GEMM (16 tokens),
/// the graph replayed, the same GEMM again: its output against the reference each time.
TEST_F(ExpertLayer, AGraphReplayBetweenStreamKCallsKeepsThemExact) {
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) {
    NO_KERNEL_FOR("a bf16 TN GEMM");
  }
  make_operands(71);
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_NO_FATAL_FAILURE(graph_on_own_stream(kEnds, &stream, &graph, &exec));
  int64_t const m = 14336, n = 16, k = 4096;   // 64x16 stream-K in the default set: every tile split
  DeviceBuffer w(size_t(m * k * kBytes)), x(size_t(k * n * kBytes)), y(size_t(m * n * kBytes));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, w.get(), m * k, 81));
  ASSERT_TRUE(ref::fill_uniform(NumericTypeID::kBF16, x.get(), k * n, 82));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  auto gemm_and_check = [&](char const *when) {
    float const alpha = float(1.0 / std::sqrt(double(k))), beta = 0;
    ASSERT_EQ(cudaSuccess, cudaMemsetAsync(y.get(), 0xFF, y.size(), stream));   // bf16 NaN
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, w.get(), CUDA_R_16BF, k,
                               x.get(), CUDA_R_16BF, k, &beta, y.get(), CUDA_R_16BF, m, CUTLASS_LIB_COMPUTE_32F));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
    cutlass_lib_test::expect_tn_product(w.get(), k, x.get(), k, y.get(), m, n, k, when);
  };
  ASSERT_NO_FATAL_FAILURE(gemm_and_check("before the replay"));
  for (int replay = 0; replay < 2; ++replay) {
    ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
    ASSERT_NO_FATAL_FAILURE(gemm_and_check(replay == 0 ? "after the first replay" : "after the second replay"));
  }
  release_graph(stream, graph, exec);
}

}  // namespace
