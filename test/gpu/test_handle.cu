/// GPU tests of the C++ Handle and the C API on top of the kernels: selection, every type row
/// of the C API, row-major C, batched, the BLAS quick returns, misaligned fallbacks, device
/// scalars, and the select query agreeing with what runs.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass/library/singleton.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"

namespace {

using namespace cutlass::library;
using cutlass_lib_test::DeviceBuffer;
using cutlass_lib_test::element_bytes;
namespace ref = cutlass::reference;

/// Column-major storage of a (rows x columns) matrix set (batch), filled uniformly.
struct Matrix {
  NumericTypeID type;
  int64_t rows, columns, ld, batch, stride;
  DeviceBuffer buffer;
  Matrix(NumericTypeID t, int64_t r, int64_t c, int64_t ld_, int64_t batch_ = 1, int64_t offset_elements = 0)
      : type(t), rows(r), columns(c), ld(ld_), batch(batch_), stride(ld_ * c),
        buffer(size_t((ld_ * c * batch_ + offset_elements + 16) * element_bytes(t))), offset(offset_elements) {}
  void *ptr() const { return buffer.bytes_ptr() + offset * element_bytes(type); }
  int64_t count() const { return ld * columns * batch; }
  void fill(uint64_t seed) {
    double r = type == NumericTypeID::kS8 ? 2 : 1;
    ASSERT_TRUE(ref::fill_uniform(type, ptr(), count(), seed, -r, r));
  }
  int64_t offset;
};

struct TypeCase {
  cudaDataType_t a, c;
  cutlassLibComputeType_t compute;
  NumericTypeID element_A, element_C;
  char const *name;
  bool k_major_only = false;   ///< kernels TN only (the fp8 rows): other transposes run on K-major copies
};

TypeCase const kTypeCases[] = {
    {CUDA_R_16F, CUDA_R_16F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF16, "f16_f16"},
    {CUDA_R_16F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF16, NumericTypeID::kF32, "f16_f32"},
    {CUDA_R_16BF, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kBF16, "bf16_bf16"},
    {CUDA_R_16BF, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kBF16, NumericTypeID::kF32, "bf16_f32"},
    {CUDA_R_32F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kF32, NumericTypeID::kF32, "f32"},
    {CUDA_R_32F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F_FAST_TF32, NumericTypeID::kTF32, NumericTypeID::kF32, "tf32"},
    {CUDA_R_64F, CUDA_R_64F, CUTLASS_LIB_COMPUTE_64F, NumericTypeID::kF64, NumericTypeID::kF64, "f64"},
    {CUDA_R_8I, CUDA_R_32I, CUTLASS_LIB_COMPUTE_32I, NumericTypeID::kS8, NumericTypeID::kS32, "s8_s32"},
    // sm90 kernels, TN only: K = 72 leaves lda = 72 bytes, off TMA's 16-byte rule, so TN runs on
    // aligned copies and the other transposes on K-major (transposed) copies (the packing route)
    {CUDA_R_8F_E4M3, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3, NumericTypeID::kBF16, "e4m3_bf16",
     true},
    {CUDA_R_8F_E4M3, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3, NumericTypeID::kF32, "e4m3_f32", true},
};

/// Host scalars of a compute type.
struct HostScalars {
  float f[2];
  double d[2];
  int32_t i[2];
  cutlassLibComputeType_t compute;
  HostScalars(cutlassLibComputeType_t c, double alpha, double beta) : compute(c) {
    f[0] = float(alpha), f[1] = float(beta), d[0] = alpha, d[1] = beta, i[0] = int32_t(alpha), i[1] = int32_t(beta);
  }
  void const *alpha() const { return compute == CUTLASS_LIB_COMPUTE_64F ? (void const *)&d[0] : compute == CUTLASS_LIB_COMPUTE_32I ? (void const *)&i[0] : (void const *)&f[0]; }
  void const *beta() const { return compute == CUTLASS_LIB_COMPUTE_64F ? (void const *)&d[1] : compute == CUTLASS_LIB_COMPUTE_32I ? (void const *)&i[1] : (void const *)&f[1]; }
};

class CApiGpu : public ::testing::TestWithParam<TypeCase> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override { cutlassLibDestroy(handle_); }
  cutlassLibHandle_t handle_ = nullptr;
};

/// Every type row, every transpose combination, against the reference.
TEST_P(CApiGpu, EveryTransposeAgainstReference) {
  TypeCase const &t = GetParam();
  int64_t const m = 96, n = 80, k = 72;
  std::string missing;   // transpose combinations without a kernel in this build
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      auto opa = static_cast<cutlassLibOperation_t>(ta), opb = static_cast<cutlassLibOperation_t>(tb);
      LayoutTypeID const layout_A = ta ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
      LayoutTypeID const layout_B = tb ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
      if (!cutlass_lib_test::build_runs_layouts(t.element_A, layout_A, layout_B, t.element_C)) {
        if (t.k_major_only) GTEST_SKIP() << t.name << ": no kernels in this build (or not for this device)";
        missing += std::string(missing.empty() ? "" : ", ") + "transa=" + std::to_string(ta) +
                   " transb=" + std::to_string(tb);
        continue;
      }
      int64_t const lda = ta ? k : m, ldb = tb ? n : k;
      Matrix A(t.element_A, lda, ta ? m : k, lda), B(t.element_A, ldb, tb ? k : n, ldb);
      Matrix C(t.element_C, m, n, m), R(t.element_C, m, n, m);
      A.fill(1), B.fill(2), C.fill(3);
      HostScalars s(t.compute, 1.0, t.element_C == NumericTypeID::kS32 ? 1.0 : 0.5);
      ref::GemmProblem p;
      p.m = m, p.n = n, p.k = k;
      p.element_A = p.element_B = t.element_A, p.element_C = t.element_C;
      p.layout_A = layout_A, p.layout_B = layout_B;
      p.alpha = 1.0, p.beta = t.element_C == NumericTypeID::kS32 ? 1.0 : 0.5;
      p.A = A.ptr(), p.lda = lda, p.B = B.ptr(), p.ldb = ldb, p.C = C.ptr(), p.ldc = m, p.D = R.ptr(), p.ldd = m;
      ASSERT_TRUE(ref::reference_gemm(p));
      char const *selected = nullptr;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibGemmExSelect(handle_, opa, opb, m, n, k, s.alpha(), A.ptr(), t.a, lda, B.ptr(), t.a, ldb,
                                       s.beta(), C.ptr(), t.c, m, t.compute, &selected));
      ASSERT_NE(nullptr, selected);
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibGemmEx(handle_, opa, opb, m, n, k, s.alpha(), A.ptr(), t.a, lda,
                                                             B.ptr(), t.a, ldb, s.beta(), C.ptr(), t.c, m, t.compute))
          << "transa=" << ta << " transb=" << tb;
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      ref::Comparison c = ref::compare(t.element_C, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0);
      EXPECT_EQ(0, c.nonfinite);
      EXPECT_LE(c.relative_error, ref::error_bound(t.element_A, t.element_C, k))
          << t.name << " transa=" << ta << " transb=" << tb << " kernel " << selected;
    }
  }
  // after the combinations that have kernels ran (a failure among them still fails the test)
  if (!missing.empty()) NO_KERNEL_FOR(t.name << " " << missing);
}

INSTANTIATE_TEST_SUITE_P(TypeRows, CApiGpu, ::testing::ValuesIn(kTypeCases),
                         [](::testing::TestParamInfo<TypeCase> const &info) { return std::string(info.param.name); });

/// Every type row and transpose on this device: where the build has kernels for the call but none
/// runs here (an sm_80-only build on an sm_90 device), the select query and the call itself, K > 0
/// and the K == 0 quick return alike, answer ARCH_MISMATCH and launch nothing; where one runs, the
/// query names it. Needs a device but no code for it (the test launches nothing itself), so it runs,
/// and checks one side or the other, on every GPU machine whatever CUTLASS_NVCC_ARCHS says.
TEST(ArchCoverage, CallsAnswerArchMismatchExactlyWhereNoKernelRuns) {
  if (!cutlass_lib_test::has_device()) GTEST_SKIP() << "no CUDA device: GPU tests run on the GPU machine";
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  int64_t const m = 64, n = 64, k = 64;   // square: every ld is 64 for every transpose, K == 0 too
  DeviceBuffer A(size_t(m * k * 8)), B(size_t(k * n * 8)), C(size_t(m * n * 8));
  int on_device = 0, elsewhere_only = 0;
  for (TypeCase const &t : kTypeCases) {
    HostScalars s(t.compute, 1.0, 1.0);
    for (int ta = 0; ta < 2; ++ta) {
      for (int tb = 0; tb < 2; ++tb) {
        LayoutTypeID const layout_A = ta ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
        LayoutTypeID const layout_B = tb ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
        bool const here = cutlass_lib_test::build_runs_layouts(t.element_A, layout_A, layout_B, t.element_C);
        bool const anywhere = cutlass_lib_test::build_runs_layouts(t.element_A, layout_A, layout_B, t.element_C,
                                                                   cutlass_lib_test::KernelsFor::kAnyDevice);
        if (!anywhere) continue;
        auto opa = static_cast<cutlassLibOperation_t>(ta), opb = static_cast<cutlassLibOperation_t>(tb);
        std::string const what = std::string(t.name) + " transa=" + std::to_string(ta) + " transb=" + std::to_string(tb);
        char const *name = nullptr;
        cutlassLibStatus_t const selected = cutlassLibGemmExSelect(handle, opa, opb, m, n, k, s.alpha(), A.get(), t.a, m,
                                                                   B.get(), t.a, k, s.beta(), C.get(), t.c, m, t.compute, &name);
        if (here) {
          ++on_device;
          EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, selected) << what;
          EXPECT_NE(nullptr, name) << what;
          continue;
        }
        ++elsewhere_only;
        EXPECT_EQ(CUTLASS_LIB_STATUS_ARCH_MISMATCH, selected) << what;
        for (int64_t kk : {k, int64_t(0)}) {
          EXPECT_EQ(CUTLASS_LIB_STATUS_ARCH_MISMATCH,
                    cutlassLibGemmEx(handle, opa, opb, m, n, kk, s.alpha(), A.get(), t.a, m, B.get(), t.a, k,
                                     s.beta(), C.get(), t.c, m, t.compute))
              << what << " k=" << kk;
        }
      }
    }
  }
  EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize()) << "nothing launched, nothing failed";
  cutlassLibDestroy(handle);
  EXPECT_GT(on_device + elsewhere_only, 0) << "the build has kernels for some type row";
  std::printf("[ ArchCoverage ] compute capability %d: %d type/transpose rows have a kernel here, %d only for other devices\n",
              cutlass_lib_test::device_compute_capability(), on_device, elsewhere_only);
}

class HandleGpu : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }

  /// The f32 tests need an NN sgemm kernel.
  static bool has_f32_kernel() {
    return cutlass_lib_test::build_has_kernel(NumericTypeID::kF32, LayoutTypeID::kColumnMajor,
                                              LayoutTypeID::kColumnMajor, NumericTypeID::kF32);
  }

  /// bf16 TN through gemm_universal, C/D in `layout_C`, compared with the reference.
  void check_bf16(Handle &h, int64_t m, int64_t n, int64_t k, LayoutTypeID layout_C, int batch, int64_t a_offset,
                  double beta) {
    int64_t const ldc = layout_C == LayoutTypeID::kColumnMajor ? m : n;
    int64_t const c_cols = layout_C == LayoutTypeID::kColumnMajor ? n : m;
    Matrix A(NumericTypeID::kBF16, k, m, k, batch, a_offset), B(NumericTypeID::kBF16, k, n, k, batch);
    Matrix C(NumericTypeID::kBF16, ldc, c_cols, ldc, batch), D(NumericTypeID::kBF16, ldc, c_cols, ldc, batch);
    Matrix R(NumericTypeID::kBF16, ldc, c_cols, ldc, batch);
    A.fill(11), B.fill(12), C.fill(13);
    ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, D.ptr(), D.count()));
    ref::GemmProblem p;
    p.m = m, p.n = n, p.k = k, p.batch_count = batch;
    p.element_A = p.element_B = p.element_C = NumericTypeID::kBF16;
    p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor, p.layout_C = layout_C;
    p.alpha = 1, p.beta = beta;
    p.A = A.ptr(), p.lda = k, p.batch_stride_A = A.stride, p.B = B.ptr(), p.ldb = k, p.batch_stride_B = B.stride;
    p.C = C.ptr(), p.ldc = ldc, p.batch_stride_C = C.stride, p.D = R.ptr(), p.ldd = ldc, p.batch_stride_D = R.stride;
    ASSERT_TRUE(ref::reference_gemm(p));
    float alpha = 1, beta_f = float(beta);
    auto mode = batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;
    ASSERT_EQ(cutlass::Status::kSuccess,
              h.gemm_universal(mode, int(m), int(n), int(k), 1, 1, 1, 1, 1, 1, NumericTypeID::kF32, NumericTypeID::kF32,
                               &alpha, NumericTypeID::kBF16, LayoutTypeID::kRowMajor, ComplexTransform::kNone, A.ptr(),
                               k, NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, ComplexTransform::kNone, B.ptr(), k,
                               &beta_f, NumericTypeID::kBF16, layout_C, C.ptr(), ldc, NumericTypeID::kBF16, layout_C,
                               D.ptr(), ldc, batch, A.stride, B.stride, C.stride, D.stride));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ASSERT_NE(nullptr, h.get_last_operation());
    // compare as column-major (ldc x c_cols) storage: the same elements either way
    int64_t const rows = layout_C == LayoutTypeID::kColumnMajor ? m : n;
    ref::Comparison c = ref::compare(NumericTypeID::kBF16, rows, c_cols, batch, D.ptr(), ldc, D.stride, R.ptr(), ldc,
                                     R.stride);
    EXPECT_EQ(0, c.nonfinite);
    EXPECT_LE(c.relative_error, 1e-2) << h.last_operation_name();
  }
};

TEST_F(HandleGpu, GemmRunsThePreferredKernel) {
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) NO_KERNEL_FOR("bf16 TN");
  Handle h;
  check_bf16(h, 512, 384, 256, LayoutTypeID::kColumnMajor, 1, 0, 0.0);
  auto const &d = static_cast<GemmDescription const &>(h.get_last_operation()->description());
  EXPECT_EQ(NumericTypeID::kBF16, d.A.element);
  EXPECT_EQ(8, d.A.alignment) << "an aligned problem runs an align8 kernel: " << d.name;
}

TEST_F(HandleGpu, RowMajorOutput) {
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) NO_KERNEL_FOR("bf16 TN");
  Handle h;
  check_bf16(h, 200, 136, 96, LayoutTypeID::kRowMajor, 1, 0, 0.5);
}

TEST_F(HandleGpu, Batched) {
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) NO_KERNEL_FOR("bf16 TN");
  Handle h;
  check_bf16(h, 96, 64, 40, LayoutTypeID::kColumnMajor, 4, 0, 1.0);
}

/// kGemm with batch_count > 1: K in that many split-K slices (as CUTLASS's Handle takes them),
/// the reference's result with beta reading C, on an f32-output slice kernel, the same bits on a
/// second run; a slice count K is no multiple of: kErrorNotSupported, D untouched.
TEST_F(HandleGpu, SplitKSlicesOnRequest) {
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kF32)) {
    NO_KERNEL_FOR("bf16 -> f32 TN (the slices' kernel)");
  }
  int64_t const m = 256, n = 96, k = 4096;
  Matrix A(NumericTypeID::kBF16, k, m, k), B(NumericTypeID::kBF16, k, n, k), C(NumericTypeID::kBF16, m, n, m);
  Matrix D(NumericTypeID::kBF16, m, n, m), E(NumericTypeID::kBF16, m, n, m), R(NumericTypeID::kBF16, m, n, m);
  A.fill(21), B.fill(22), C.fill(23);
  ref::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.element_A = p.element_B = p.element_C = NumericTypeID::kBF16;
  p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
  p.alpha = 1.5, p.beta = 0.5;
  p.A = A.ptr(), p.lda = k, p.B = B.ptr(), p.ldb = k, p.C = C.ptr(), p.ldc = m, p.D = R.ptr(), p.ldd = m;
  ASSERT_TRUE(ref::reference_gemm(p));
  float const alpha = 1.5f, beta = 0.5f;
  Handle h;
  auto const run = [&](int slices, Matrix &out) {
    return h.gemm_universal(cutlass::gemm::GemmUniversalMode::kGemm, int(m), int(n), int(k), 1, 1, 1, 1, 1, 1,
                            NumericTypeID::kF32, NumericTypeID::kF32, &alpha, NumericTypeID::kBF16,
                            LayoutTypeID::kRowMajor, ComplexTransform::kNone, A.ptr(), k, NumericTypeID::kBF16,
                            LayoutTypeID::kColumnMajor, ComplexTransform::kNone, B.ptr(), k, &beta,
                            NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, C.ptr(), m, NumericTypeID::kBF16,
                            LayoutTypeID::kColumnMajor, out.ptr(), m, slices);
  };
  for (int slices : {2, 4, 16}) {
    ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, D.ptr(), D.count()));
    ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, E.ptr(), E.count()));
    ASSERT_EQ(cutlass::Status::kSuccess, run(slices, D)) << slices << " slices";
    ASSERT_NE(nullptr, h.get_last_operation());
    EXPECT_EQ(NumericTypeID::kF32, static_cast<GemmDescription const &>(h.get_last_operation()->description()).C.element)
        << h.last_operation_name();
    ASSERT_EQ(cutlass::Status::kSuccess, run(slices, E));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ref::Comparison const c = ref::compare(NumericTypeID::kBF16, m, n, 1, D.ptr(), m, 0, R.ptr(), m, 0);
    EXPECT_EQ(0, c.nonfinite) << slices << " slices";
    EXPECT_LE(c.relative_error, ref::error_bound(NumericTypeID::kBF16, NumericTypeID::kBF16, k)) << slices << " slices";
    EXPECT_TRUE(ref::bytes_equal(D.ptr(), E.ptr(), size_t(m * n) * 2)) << slices << " slices: a second run differs";
  }
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, D.ptr(), D.count()));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(E.ptr(), D.ptr(), size_t(m * n) * 2, cudaMemcpyDeviceToDevice));
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, run(3, D)) << "K = 4096 in 3 slices";
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(ref::bytes_equal(D.ptr(), E.ptr(), size_t(m * n) * 2)) << "a refused request wrote D";
}

/// A pointer off 16-byte alignment still computes the right result: on an align1 kernel, or (when
/// the cost model prefers it: 2 us of copy beat the align1 kernel here on the H200, s10) on an
/// aligned copy of A in the workspace (StagedGemm covers that route's results at larger sizes).
TEST_F(HandleGpu, MisalignedPointerFallsBack) {
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kBF16, /*alignment_A=*/1)) {
    NO_KERNEL_FOR("bf16 TN align1");
  }
  Handle h;
  check_bf16(h, 128, 128, 64, LayoutTypeID::kColumnMajor, 1, /*a_offset=*/1, 0.0);
  auto const &d = static_cast<GemmDescription const &>(h.get_last_operation()->description());
  EXPECT_EQ(NumericTypeID::kBF16, d.A.element) << d.name;   // check_bf16 compared the result
}

TEST_F(HandleGpu, GemmMatchesCutlassSignature) {
  if (!has_f32_kernel()) NO_KERNEL_FOR("f32 NN");
  Handle h;
  int const M = 64, N = 48, K = 32;
  Matrix A(NumericTypeID::kF32, M, K, M), B(NumericTypeID::kF32, K, N, K), C(NumericTypeID::kF32, M, N, M),
      D(NumericTypeID::kF32, M, N, M), R(NumericTypeID::kF32, M, N, M);
  A.fill(1), B.fill(2), C.fill(3);
  float alpha = 2, beta = -1;
  ASSERT_EQ(cutlass::Status::kSuccess,
            h.gemm(M, N, K, NumericTypeID::kF32, NumericTypeID::kF32, &alpha, NumericTypeID::kF32,
                   LayoutTypeID::kColumnMajor, ComplexTransform::kNone, A.ptr(), M, NumericTypeID::kF32,
                   LayoutTypeID::kColumnMajor, ComplexTransform::kNone, B.ptr(), K, &beta, NumericTypeID::kF32,
                   C.ptr(), M, D.ptr(), M));
  ref::GemmProblem p;
  p.m = M, p.n = N, p.k = K, p.element_A = p.element_B = p.element_C = NumericTypeID::kF32;
  p.alpha = 2, p.beta = -1, p.A = A.ptr(), p.lda = M, p.B = B.ptr(), p.ldb = K, p.C = C.ptr(), p.ldc = M;
  p.D = R.ptr(), p.ldd = M;
  ASSERT_TRUE(ref::reference_gemm(p));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_LE(ref::compare(NumericTypeID::kF32, M, N, 1, D.ptr(), M, 0, R.ptr(), M, 0).relative_error, 1e-5);
  EXPECT_STRNE("", h.last_operation_name());
}

TEST_F(HandleGpu, DeviceScalars) {
  if (!has_f32_kernel()) NO_KERNEL_FOR("f32 NN");
  Handle h;
  h.set_scalar_pointer_mode(ScalarPointerMode::kDevice);
  int const M = 64, N = 64, K = 64;
  Matrix A(NumericTypeID::kF32, M, K, M), B(NumericTypeID::kF32, K, N, K), C(NumericTypeID::kF32, M, N, M),
      R(NumericTypeID::kF32, M, N, M);
  A.fill(1), B.fill(2), C.fill(3);
  DeviceBuffer scalars(2 * sizeof(float));
  float const host[2] = {0.5f, 2.0f};
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scalars.get(), host, sizeof(host), cudaMemcpyHostToDevice));
  ref::GemmProblem p;
  p.m = M, p.n = N, p.k = K, p.element_A = p.element_B = p.element_C = NumericTypeID::kF32;
  p.alpha = 0.5, p.beta = 2, p.A = A.ptr(), p.lda = M, p.B = B.ptr(), p.ldb = K, p.C = C.ptr(), p.ldc = M;
  p.D = R.ptr(), p.ldd = M;
  ASSERT_TRUE(ref::reference_gemm(p));
  float *alpha_d = static_cast<float *>(scalars.get());
  ASSERT_EQ(cutlass::Status::kSuccess,
            h.gemm(M, N, K, NumericTypeID::kF32, NumericTypeID::kF32, alpha_d, NumericTypeID::kF32,
                   LayoutTypeID::kColumnMajor, ComplexTransform::kNone, A.ptr(), M, NumericTypeID::kF32,
                   LayoutTypeID::kColumnMajor, ComplexTransform::kNone, B.ptr(), K, alpha_d + 1, NumericTypeID::kF32,
                   C.ptr(), M, C.ptr(), M));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_LE(ref::compare(NumericTypeID::kF32, M, N, 1, C.ptr(), M, 0, R.ptr(), M, 0).relative_error, 1e-5);
}

/// A C API handle for f32 NN calls (the call's types must have a kernel in the build, even when
/// none runs); skips without a GPU or such a kernel.
class CApiF32NN : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kF32, LayoutTypeID::kColumnMajor,
                                            LayoutTypeID::kColumnMajor, NumericTypeID::kF32)) {
      NO_KERNEL_FOR("f32 NN");
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override {
    if (handle_) cutlassLibDestroy(handle_);
  }
  cutlassLibHandle_t handle_ = nullptr;
};

/// The BLAS quick returns through the C API.
class QuickReturns : public CApiF32NN {
 protected:
  cutlassLibStatus_t gemm(int64_t m, int64_t n, int64_t k, float alpha, float beta, void const *A, void const *B,
                          void *C) {
    return cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, m, n, k, &alpha, A, CUDA_R_32F,
                            m > 0 ? m : 1, B, CUDA_R_32F, k > 0 ? k : 1, &beta, C, CUDA_R_32F, m > 0 ? m : 1,
                            CUTLASS_LIB_COMPUTE_32F);
  }
};

TEST_F(QuickReturns, KZeroScalesC) {
  Matrix C(NumericTypeID::kF32, 33, 17, 33), R(NumericTypeID::kF32, 33, 17, 33);
  C.fill(5);
  ASSERT_EQ(cudaSuccess, cudaMemcpy(R.ptr(), C.ptr(), size_t(C.count()) * 4, cudaMemcpyDeviceToDevice));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(33, 17, 0, 1, 2, nullptr, nullptr, C.ptr()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> c(C.count()), r(R.count());
  cudaMemcpy(c.data(), C.ptr(), c.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), R.ptr(), r.size() * 4, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(2 * r[i], c[i]) << i;
}

TEST_F(QuickReturns, BetaZeroWritesZerosWithoutReadingC) {
  Matrix C(NumericTypeID::kF32, 20, 20, 20);
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kF32, C.ptr(), C.count()));   // NaN
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(20, 20, 0, 1, 0, nullptr, nullptr, C.ptr()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> c(C.count());
  cudaMemcpy(c.data(), C.ptr(), c.size() * 4, cudaMemcpyDeviceToHost);
  for (float v : c) ASSERT_EQ(0.0f, v);
}

TEST_F(QuickReturns, BetaOneLeavesCBitForBit) {
  Matrix C(NumericTypeID::kF32, 20, 20, 20), before(NumericTypeID::kF32, 20, 20, 20);
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kF32, C.ptr(), C.count()));   // NaN payloads must survive
  cudaMemcpy(before.ptr(), C.ptr(), size_t(C.count()) * 4, cudaMemcpyDeviceToDevice);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(20, 20, 0, 1, 1, nullptr, nullptr, C.ptr()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(ref::bytes_equal(C.ptr(), before.ptr(), size_t(C.count()) * 4));
}

TEST_F(QuickReturns, AlphaZeroDoesNotReadAOrB) {
  Matrix C(NumericTypeID::kF32, 40, 30, 40), R(NumericTypeID::kF32, 40, 30, 40);
  C.fill(7);
  cudaMemcpy(R.ptr(), C.ptr(), size_t(C.count()) * 4, cudaMemcpyDeviceToDevice);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(40, 30, 25, 0, -1, nullptr, nullptr, C.ptr()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> c(C.count()), r(R.count());
  cudaMemcpy(c.data(), C.ptr(), c.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), R.ptr(), r.size() * 4, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(-r[i], c[i]) << i;
  char const *name = "unchanged";
  float alpha = 0, beta = -1;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 40, 30, 25, &alpha, nullptr, CUDA_R_32F,
                                   40, nullptr, CUDA_R_32F, 25, &beta, C.ptr(), CUDA_R_32F, 40, CUTLASS_LIB_COMPUTE_32F,
                                   &name));
  EXPECT_EQ(nullptr, name) << "no GEMM kernel runs when alpha == 0";
}

TEST_F(QuickReturns, EmptyOutputTouchesNothing) {
  Matrix C(NumericTypeID::kF32, 8, 8, 8), before(NumericTypeID::kF32, 8, 8, 8);
  C.fill(9);
  cudaMemcpy(before.ptr(), C.ptr(), size_t(C.count()) * 4, cudaMemcpyDeviceToDevice);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(0, 8, 8, 1, 0, C.ptr(), C.ptr(), C.ptr()));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(8, 0, 8, 1, 0, C.ptr(), C.ptr(), C.ptr()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(ref::bytes_equal(C.ptr(), before.ptr(), size_t(C.count()) * 4));
}

/// A C API handle for the bf16 TN route tests, parameterized by a case number.
class Bf16RouteTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!cutlass_lib_test::build_has_bf16_tn_kernel()) NO_KERNEL_FOR("bf16 TN");
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override { cutlassLibDestroy(handle_); }
  cutlassLibHandle_t handle_ = nullptr;
};

/// Large problems whose leading dimensions break the preferred kernel's alignment run it on
/// aligned copies in the workspace (staging.h) instead of an align1 kernel; results must match.
class StagedGemm : public Bf16RouteTest {};

TEST_P(StagedGemm, MatchesTheReference) {
  // case 0: odd K (lda, ldb odd), beta 0; 1: odd ldc with beta 0.5 (C is staged with D);
  // 2: batched with odd strides and beta 1; 3: odd M (D staged, padded rows dropped)
  int const which = GetParam();
  int64_t const m = which == 3 ? 519 : 520, n = 264, k = 1023, batch = which == 2 ? 2 : 1;
  int64_t const lda = k, ldb = k, ldc = which == 1 ? m + 1 : m;
  int64_t const stride_a = lda * m + 3, stride_b = ldb * n + 5, stride_c = ldc * n + 1;
  double const beta = which == 0 || which == 3 ? 0.0 : which == 1 ? 0.5 : 1.0;
  Matrix A(NumericTypeID::kBF16, stride_a, batch, stride_a), B(NumericTypeID::kBF16, stride_b, batch, stride_b);
  Matrix C(NumericTypeID::kBF16, stride_c, batch, stride_c), R(NumericTypeID::kBF16, stride_c, batch, stride_c);
  A.fill(21), B.fill(22), C.fill(23);
  ref::GemmProblem p;
  p.m = m, p.n = n, p.k = k, p.batch_count = batch;
  p.element_A = p.element_B = p.element_C = NumericTypeID::kBF16;
  p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
  p.alpha = 1, p.beta = beta;
  p.A = A.ptr(), p.lda = lda, p.batch_stride_A = stride_a, p.B = B.ptr(), p.ldb = ldb, p.batch_stride_B = stride_b;
  p.C = C.ptr(), p.ldc = ldc, p.batch_stride_C = stride_c, p.D = R.ptr(), p.ldd = ldc, p.batch_stride_D = stride_c;
  ASSERT_TRUE(ref::reference_gemm(p));
  float alpha = 1, beta_f = float(beta);
  char const *selected = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_16BF,
                                   lda, B.ptr(), CUDA_R_16BF, ldb, &beta_f, C.ptr(), CUDA_R_16BF, ldc,
                                   CUTLASS_LIB_COMPUTE_32F, &selected));
  ASSERT_NE(nullptr, selected);
  // the packing route runs a 16-byte kernel on aligned copies, not the align1 kernel
  EXPECT_EQ(nullptr, std::strstr(selected, "_align1")) << selected;
  cutlassLibStatus_t status =
      batch == 1 ? cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_16BF,
                                    lda, B.ptr(), CUDA_R_16BF, ldb, &beta_f, C.ptr(), CUDA_R_16BF, ldc,
                                    CUTLASS_LIB_COMPUTE_32F)
                 : cutlassLibGemmStridedBatchedEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(),
                                                  CUDA_R_16BF, lda, stride_a, B.ptr(), CUDA_R_16BF, ldb, stride_b,
                                                  &beta_f, C.ptr(), CUDA_R_16BF, ldc, stride_c, batch,
                                                  CUTLASS_LIB_COMPUTE_32F);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, status);
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  ref::Comparison c = ref::compare(NumericTypeID::kBF16, m, n, batch, C.ptr(), ldc, stride_c, R.ptr(), ldc, stride_c);
  EXPECT_EQ(0, c.nonfinite);
  EXPECT_LE(c.relative_error, 1e-2) << "case " << which << " ran " << selected;
}

INSTANTIATE_TEST_SUITE_P(Cases, StagedGemm, ::testing::Values(0, 1, 2, 3));

/// MN-major operands of types whose fast kernels take K-major operands only (sm90 fp8, s8, tf32)
/// run through transposed copies (staging.h): strided-batched calls with padded strides, K off
/// the 16-byte rule, beta != 0, every transpose but TN, against the reference.
TEST(KMajorCopies, StridedBatchedEveryTranspose) {
  SKIP_WITHOUT_GPU();
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  int64_t const m = 264, n = 136, k = 200, batch = 2;
  std::string missing;
  for (TypeCase const &t : kTypeCases) {
    bool const k_major_kernels = t.element_A == NumericTypeID::kFE4M3 || t.element_A == NumericTypeID::kS8 ||
                                 t.element_A == NumericTypeID::kTF32;
    if (!k_major_kernels) continue;
    for (int ta = 0; ta < 2; ++ta) {
      for (int tb = 0; tb < 2; ++tb) {
        if (ta == 1 && tb == 0) continue;   // TN: the kernels' own layouts
        LayoutTypeID const layout_A = ta ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
        LayoutTypeID const layout_B = tb ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
        std::string const what = std::string(t.name) + " transa=" + std::to_string(ta) + " transb=" + std::to_string(tb);
        if (!cutlass_lib_test::build_runs_layouts(t.element_A, layout_A, layout_B, t.element_C)) {
          missing += (missing.empty() ? "" : ", ") + what;
          continue;
        }
        int64_t const lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 5, ldc = m + 2;
        int64_t const stride_a = lda * (ta ? m : k) + 7, stride_b = ldb * (tb ? k : n) + 9, stride_c = ldc * n + 1;
        Matrix A(t.element_A, stride_a, batch, stride_a), B(t.element_A, stride_b, batch, stride_b);
        Matrix C(t.element_C, stride_c, batch, stride_c), R(t.element_C, stride_c, batch, stride_c);
        A.fill(31), B.fill(32), C.fill(33);
        double const beta = t.element_C == NumericTypeID::kS32 ? 1.0 : 0.5;
        HostScalars s(t.compute, 1.0, beta);
        ref::GemmProblem p;
        p.m = m, p.n = n, p.k = k, p.batch_count = batch;
        p.element_A = p.element_B = t.element_A, p.element_C = t.element_C;
        p.layout_A = layout_A, p.layout_B = layout_B;
        p.alpha = 1.0, p.beta = beta;
        p.A = A.ptr(), p.lda = lda, p.batch_stride_A = stride_a, p.B = B.ptr(), p.ldb = ldb, p.batch_stride_B = stride_b;
        p.C = C.ptr(), p.ldc = ldc, p.batch_stride_C = stride_c, p.D = R.ptr(), p.ldd = ldc, p.batch_stride_D = stride_c;
        ASSERT_TRUE(ref::reference_gemm(p)) << what;
        auto opa = static_cast<cutlassLibOperation_t>(ta), opb = static_cast<cutlassLibOperation_t>(tb);
        ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                  cutlassLibGemmStridedBatchedEx(handle, opa, opb, m, n, k, s.alpha(), A.ptr(), t.a, lda, stride_a,
                                                 B.ptr(), t.a, ldb, stride_b, s.beta(), C.ptr(), t.c, ldc, stride_c,
                                                 batch, t.compute))
            << what;
        ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << what;
        ref::Comparison c = ref::compare(t.element_C, m, n, batch, C.ptr(), ldc, stride_c, R.ptr(), ldc, stride_c);
        EXPECT_EQ(0, c.nonfinite) << what;
        EXPECT_LE(c.relative_error, ref::error_bound(t.element_A, t.element_C, k)) << what;
      }
    }
  }
  cutlassLibDestroy(handle);
  if (!missing.empty()) NO_KERNEL_FOR(missing);
}

/// Few output tiles and a long K (the split-K route, split_k.h, where the build has the f32-output
/// kernel it needs): results against the reference for bf16 / f16 / f32 outputs, with beta and C,
/// host and device scalars, K = 65536 (split) and K = 65544 (no split count divides it into
/// aligned slices), and the same bits on a second run.
class SplitKGemm : public Bf16RouteTest {};

TEST_P(SplitKGemm, MatchesTheReferenceAndRepeats) {
  // case 0: bf16 out, beta 0; 1: f32 out, beta 0.5 with C; 2: bf16 out, device scalars, beta 1;
  // 3: f16 inputs and output, K not splittable into aligned slices
  int const which = GetParam();
  int64_t const m = which == 1 ? 256 : 128, n = which == 1 ? 512 : 128, k = which == 3 ? 65544 : 65536;
  NumericTypeID const in = which == 3 ? NumericTypeID::kF16 : NumericTypeID::kBF16;
  NumericTypeID const out = which == 1 ? NumericTypeID::kF32 : in;
  cudaDataType_t const in_type = which == 3 ? CUDA_R_16F : CUDA_R_16BF;
  cudaDataType_t const out_type = which == 1 ? CUDA_R_32F : in_type;
  float const alpha = 1.5f, beta = which == 1 ? 0.5f : which == 2 ? 1.0f : 0.0f;
  Matrix A(in, k, m, k), B(in, k, n, k), C(out, m, n, m), R(out, m, n, m), D(out, m, n, m);
  A.fill(41), B.fill(42), C.fill(43);
  ref::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.element_A = p.element_B = in, p.element_C = out;
  p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
  p.alpha = alpha, p.beta = beta;
  p.A = A.ptr(), p.lda = k, p.B = B.ptr(), p.ldb = k, p.C = C.ptr(), p.ldc = m, p.D = R.ptr(), p.ldd = m;
  ASSERT_TRUE(ref::reference_gemm(p));
  DeviceBuffer scalars(2 * sizeof(float));
  float const host_scalars[2] = {alpha, beta};
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scalars.get(), host_scalars, sizeof(host_scalars), cudaMemcpyHostToDevice));
  float const *device_scalars = static_cast<float const *>(scalars.get());
  if (which == 2) ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetPointerMode(handle_, CUTLASS_LIB_POINTER_MODE_DEVICE));
  void const *alpha_arg = which == 2 ? static_cast<void const *>(device_scalars) : &alpha;
  void const *beta_arg = which == 2 ? static_cast<void const *>(device_scalars + 1) : &beta;
  size_t const bytes = size_t(m * n) * size_t(element_bytes(out));
  for (int run = 0; run < 2; ++run) {
    Matrix &target = run == 0 ? C : D;
    if (run == 1) {
      // the second run starts from the same C as the first
      Matrix fresh(out, m, n, m);
      fresh.fill(43);
      ASSERT_EQ(cudaSuccess, cudaMemcpy(D.ptr(), fresh.ptr(), bytes, cudaMemcpyDeviceToDevice));
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, alpha_arg, A.ptr(), in_type, k,
                               B.ptr(), in_type, k, beta_arg, target.ptr(), out_type, m, CUTLASS_LIB_COMPUTE_32F));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  }
  ref::Comparison const c = ref::compare(out, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0);
  EXPECT_EQ(0, c.nonfinite);
  EXPECT_LE(c.relative_error, ref::error_bound(in, out, k)) << "case " << which;
  EXPECT_TRUE(ref::bytes_equal(C.ptr(), D.ptr(), bytes)) << "case " << which << ": a second run differs";
}

INSTANTIATE_TEST_SUITE_P(Cases, SplitKGemm, ::testing::Values(0, 1, 2, 3));

TEST(CApiSelect, AgreesWithTheKernelThatRuns) {
  SKIP_WITHOUT_GPU();
  if (!cutlass_lib_test::build_has_bf16_tn_kernel()) NO_KERNEL_FOR("bf16 TN");
  cutlassLibHandle_t handle;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  int64_t const m = 256, n = 256, k = 128;
  Matrix A(NumericTypeID::kBF16, k, m, k), B(NumericTypeID::kBF16, k, n, k), C(NumericTypeID::kBF16, m, n, m);
  A.fill(1), B.fill(2), C.fill(3);
  float alpha = 1, beta = 0;
  char const *selected = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmExSelect(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_16BF,
                                   k, B.ptr(), CUDA_R_16BF, k, &beta, C.ptr(), CUDA_R_16BF, m, CUTLASS_LIB_COMPUTE_32F,
                                   &selected));
  ASSERT_NE(nullptr, selected);
  Handle h;
  ASSERT_EQ(cutlass::Status::kSuccess,
            h.gemm(int(m), int(n), int(k), NumericTypeID::kF32, NumericTypeID::kF32, &alpha, NumericTypeID::kBF16,
                   LayoutTypeID::kRowMajor, ComplexTransform::kNone, A.ptr(), k, NumericTypeID::kBF16,
                   LayoutTypeID::kColumnMajor, ComplexTransform::kNone, B.ptr(), k, &beta, NumericTypeID::kBF16,
                   C.ptr(), m, C.ptr(), m));
  EXPECT_STREQ(selected, h.last_operation_name());
  cudaDeviceSynchronize();
  cutlassLibDestroy(handle);
}

/// Operand scales (cutlassLibSetOperandScales, fp8 operands): D = alpha * scaleA * scaleB * AB
/// with the scales read from device memory; the same call without them gives alpha * AB.
TEST(CApiOperandScales, E4m3ScalesMultiplyAlpha) {
  SKIP_WITHOUT_GPU();
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kBF16)) {
    GTEST_SKIP() << "e4m3 kernels are opt-in and not in this build (or not for this device)";
  }
  int64_t const m = 128, n = 96, k = 256;
  Matrix A(NumericTypeID::kFE4M3, k, m, k), B(NumericTypeID::kFE4M3, k, n, k);
  Matrix C(NumericTypeID::kBF16, m, n, m), R(NumericTypeID::kBF16, m, n, m);
  A.fill(11), B.fill(12);
  float const host_scales[2] = {0.5f, 4.0f};
  DeviceBuffer scales(sizeof(host_scales));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scales.get(), host_scales, sizeof(host_scales), cudaMemcpyHostToDevice));
  float const *scale_a = static_cast<float const *>(scales.get()), *scale_b = scale_a + 1;
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  for (bool scaled : {true, false}) {
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibSetOperandScales(handle, scaled ? scale_a : nullptr, scaled ? scale_b : nullptr));
    float const alpha = 1.0f, beta = 0.0f;
    ref::GemmProblem p;
    p.m = m, p.n = n, p.k = k;
    p.element_A = p.element_B = NumericTypeID::kFE4M3, p.element_C = NumericTypeID::kBF16;
    p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
    p.alpha = scaled ? 2.0 : 1.0, p.beta = 0.0;   // 1 * 0.5 * 4
    p.A = A.ptr(), p.lda = k, p.B = B.ptr(), p.ldb = k, p.C = R.ptr(), p.ldc = m, p.D = R.ptr(), p.ldd = m;
    ASSERT_TRUE(ref::reference_gemm(p));
    ASSERT_TRUE(ref::fill_poison(NumericTypeID::kBF16, C.ptr(), C.count()));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_8F_E4M3, k,
                               B.ptr(), CUDA_R_8F_E4M3, k, &beta, C.ptr(), CUDA_R_16BF, m, CUTLASS_LIB_COMPUTE_32F));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ref::Comparison const c = ref::compare(NumericTypeID::kBF16, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0);
    EXPECT_EQ(0, c.nonfinite);
    EXPECT_LE(c.relative_error, ref::error_bound(NumericTypeID::kFE4M3, NumericTypeID::kBF16, k)) << "scaled " << scaled;
  }
  cutlassLibDestroy(handle);
}

/// Row-wise scales (cutlassLibSetMatrixScale, OUTER_VEC_32F): D(i, j) = sa[i] * sb[j] * AB(i, j)
/// for e4m3 operands, M and N off the tile sizes, against the f32 reference scaled on the host; then
/// A's scale as a vector with B's a scalar.
/// A caller's workspace (cutlassLibSetWorkspace) and the packing route: a tf32 NN call that has a
/// direct kernel (sm80) keeps running in a workspace too small for the K-major copies the route
/// would take with the handle's own workspace; an fp8 NN call, which runs only on copies,
/// answers WORKSPACE_TOO_SMALL in one byte less than it asked for, touching nothing, and runs in
/// the size it asked for.
TEST(KMajorCopies, CallersWorkspaceLimitsTheCopies) {
  SKIP_WITHOUT_GPU();
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  DeviceBuffer small(size_t(1) << 20);
  struct Case {
    cudaDataType_t a, c;
    cutlassLibComputeType_t compute;
    NumericTypeID element_A, element_C;
    bool direct;   ///< a kernel takes the MN-major operands as they are
  };
  std::string missing;
  for (Case const t : {Case{CUDA_R_32F, CUDA_R_32F, CUTLASS_LIB_COMPUTE_32F_FAST_TF32, NumericTypeID::kTF32,
                            NumericTypeID::kF32, true},
                       Case{CUDA_R_8F_E4M3, CUDA_R_16BF, CUTLASS_LIB_COMPUTE_32F, NumericTypeID::kFE4M3,
                            NumericTypeID::kBF16, false}}) {
    bool const direct = cutlass_lib_test::build_has_kernel(t.element_A, LayoutTypeID::kColumnMajor,
                                                           LayoutTypeID::kColumnMajor, t.element_C);
    if (direct != t.direct ||
        !cutlass_lib_test::build_has_kernel(t.element_A, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                            t.element_C)) {
      missing += std::string(missing.empty() ? "" : ", ") + to_string(t.element_A) + (t.direct ? " NN and TN" : " TN only");
      continue;
    }
    int64_t const m = 2048, n = 1024, k = 2048;
    Matrix A(t.element_A, m, k, m), B(t.element_A, k, n, k), C(t.element_C, m, n, m), R(t.element_C, m, n, m);
    Matrix before(t.element_C, m, n, m);
    A.fill(51), B.fill(52), C.fill(53);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(before.ptr(), C.ptr(), size_t(C.count()) * element_bytes(t.element_C),
                                      cudaMemcpyDeviceToDevice));
    ref::GemmProblem p;
    p.m = m, p.n = n, p.k = k;
    p.element_A = p.element_B = t.element_A, p.element_C = t.element_C;
    p.layout_A = p.layout_B = LayoutTypeID::kColumnMajor;
    p.alpha = 1.0, p.beta = 0.5;
    p.A = A.ptr(), p.lda = m, p.B = B.ptr(), p.ldb = k, p.C = C.ptr(), p.ldc = m, p.D = R.ptr(), p.ldd = m;
    ASSERT_TRUE(ref::reference_gemm(p));
    float const alpha = 1.0f, beta = 0.5f;
    auto gemm = [&]() {
      return cutlassLibGemmEx(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), t.a, m, B.ptr(),
                              t.a, k, &beta, C.ptr(), t.c, m, t.compute);
    };
    size_t bytes = 0;   // with the handle's own workspace
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, nullptr, 0));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGetWorkspaceSize(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), t.a, m,
                                         0, B.ptr(), t.a, k, 0, &beta, C.ptr(), t.c, m, 0, 1, t.compute, &bytes));
    DeviceBuffer exact(bytes + 256);
    void *const aligned = reinterpret_cast<void *>((reinterpret_cast<uintptr_t>(exact.get()) + 255) / 256 * 256);
    if (t.direct) {
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, small.get(), size_t(1) << 20));
    } else {
      ASSERT_GT(bytes, size_t(0)) << "the copies need a workspace";
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, aligned, bytes - 1));
      EXPECT_EQ(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL, gemm());
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      EXPECT_TRUE(ref::bytes_equal(before.ptr(), C.ptr(), size_t(C.count()) * element_bytes(t.element_C)))
          << "nothing launched";
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, aligned, bytes));
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm()) << to_string(t.element_A);
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ref::Comparison c = ref::compare(t.element_C, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0);
    EXPECT_EQ(0, c.nonfinite) << to_string(t.element_A);
    EXPECT_LE(c.relative_error, ref::error_bound(t.element_A, t.element_C, k)) << to_string(t.element_A);
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle, nullptr, 0));
  cutlassLibDestroy(handle);
  if (!missing.empty()) NO_KERNEL_FOR(missing);
}

/// How far `ours` (m x n, column-major, on the host) is from alpha * scale_a[i] * scale_b[j] *
/// product(i, j), with `scales` holding scale_a's m values, then scale_b's n (b_vector) or its one:
/// the count of non-finite outputs and the relative error (root of summed squares over the
/// expected's).
struct ScaledError {
  int64_t nonfinite = 0;
  double relative = 0;
};
/// A's scale per row (OUTER_VEC_32F, sa) and B's per column (b_vector) or per tensor (sb) on
/// `handle`: true when both were taken.
bool set_outer_scales(cutlassLibHandle_t handle, float const *sa, float const *sb, bool b_vector) {
  return cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F, sa) ==
             CUTLASS_LIB_STATUS_SUCCESS &&
         cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_B,
                                  b_vector ? CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F
                                           : CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F,
                                  sb) == CUTLASS_LIB_STATUS_SUCCESS;
}

ScaledError scaled_error(std::vector<float> const &ours, std::vector<float> const &product,
                         std::vector<float> const &scales, int64_t m, int64_t n, float alpha, bool b_vector) {
  double error = 0, norm = 0;
  ScaledError e;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      double const expected = double(alpha) * scales[size_t(i)] * scales[size_t(m + (b_vector ? j : 0))] *
                              product[size_t(i + j * m)];
      double const got = ours[size_t(i + j * m)];
      e.nonfinite += std::isfinite(got) ? 0 : 1;
      error += (got - expected) * (got - expected);
      norm += expected * expected;
    }
  }
  e.relative = std::sqrt(error / norm);
  return e;
}

/// The operand-scale tests' case: operands of `element` (s8: uniform [-2, 2]; e4m3: [-1, 1]), A
/// (M x K, "T") and B (K x N, "N"), f32 scales for A's rows then B's columns (0.25 .. 2.125) on
/// the device, and the reference's product in f32 (column-major M x N; exact for s8).
struct OuterScaledCase {
  Matrix A, B;
  std::vector<float> scales, product;
  DeviceBuffer device_scales;
  int64_t m;
  bool ok = false;   ///< every step succeeded (tests ASSERT it before using the case)
  OuterScaledCase(NumericTypeID element, int64_t m_, int64_t n, int64_t k, uint64_t seed)
      : A(element, k, m_, k), B(element, k, n, k), scales(size_t(m_ + n)),
        product(size_t(m_ * n)), device_scales(size_t(m_ + n) * 4), m(m_) {
    A.fill(seed), B.fill(seed + 1);
    for (size_t i = 0; i < scales.size(); ++i) scales[i] = 0.25f + float((i * 37) % 16) / 8.0f;
    ok = cudaMemcpy(device_scales.get(), scales.data(), scales.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess;
    Matrix R(NumericTypeID::kF32, m_, n, m_);
    ref::GemmProblem p;
    p.m = m_, p.n = n, p.k = k;
    p.element_A = p.element_B = element, p.element_C = NumericTypeID::kF32;
    p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
    p.alpha = 1.0, p.beta = 0.0;
    p.A = A.ptr(), p.lda = k, p.B = B.ptr(), p.ldb = k, p.C = R.ptr(), p.ldc = m_, p.D = R.ptr(), p.ldd = m_;
    ok = ok && ref::reference_gemm(p) &&
         cudaMemcpy(product.data(), R.ptr(), product.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
         !::testing::Test::HasFatalFailure();
  }
  float const *sa() const { return static_cast<float const *>(device_scales.get()); }
  float const *sb() const { return sa() + m; }
};

/// int8 dequantization (sm90 kernels "..._s8_s8_s32_bf16_..." etc.; the 128x128 tile of each output is in
/// the default set, the other tiles opt-in): s8 x s8 summed exactly in
/// s32, then D = alpha * scale_a[m] * scale_b[n] * acc in f32, stored as bf16 / f16 / f32, with A's
/// outer-vector scales and B's outer-vector or per-tensor one, against the reference's exact
/// product scaled on the host. Block scales are fp8's only (NOT_SUPPORTED).
TEST(CApiOperandScales, S8DequantizedOutputs) {
  SKIP_WITHOUT_GPU();
  int64_t const m = 200, n = 72, k = 512;
  OuterScaledCase const x(NumericTypeID::kS8, m, n, k, 41);
  ASSERT_TRUE(x.ok);
  Matrix const &A = x.A, &B = x.B;
  std::vector<float> const &scales = x.scales, &product = x.product;
  float const *sa = x.sa(), *sb = x.sb();
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  struct Output {
    NumericTypeID type;
    cudaDataType_t c;
  };
  std::string missing;
  for (Output const out : {Output{NumericTypeID::kBF16, CUDA_R_16BF}, Output{NumericTypeID::kF16, CUDA_R_16F},
                           Output{NumericTypeID::kF32, CUDA_R_32F}}) {
    if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kS8, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                            out.type)) {
      missing += std::string(missing.empty() ? "" : ", ") + "s8 -> " + cutlass::library::to_string(out.type) + " TN";
      continue;
    }
    Matrix C(out.type, m, n, m);
    std::vector<float> ours(size_t(m * n));
    for (bool b_vector : {true, false}) {
      ASSERT_TRUE(set_outer_scales(handle, sa, sb, b_vector));
      ASSERT_TRUE(ref::fill_poison(out.type, C.ptr(), C.count()));
      float const alpha = 1.5f, beta = 0.0f;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_8I, k,
                                 B.ptr(), CUDA_R_8I, k, &beta, C.ptr(), out.c, m, CUTLASS_LIB_COMPUTE_32F));
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      // our output in f32 (a reference GEMM with alpha 1 and K = 1 would round; convert directly)
      std::vector<uint16_t> half_bits(size_t(m * n));
      if (out.type == NumericTypeID::kF32) {
        ASSERT_EQ(cudaSuccess, cudaMemcpy(ours.data(), C.ptr(), ours.size() * 4, cudaMemcpyDeviceToHost));
      } else {
        ASSERT_EQ(cudaSuccess, cudaMemcpy(half_bits.data(), C.ptr(), half_bits.size() * 2, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < ours.size(); ++i) {
          if (out.type == NumericTypeID::kBF16) {
            uint32_t const bits = uint32_t(half_bits[i]) << 16;
            std::memcpy(&ours[i], &bits, 4);
          } else {
            __half_raw raw;
            raw.x = half_bits[i];
            ours[i] = __half2float(__half(raw));
          }
        }
      }
      ScaledError const e = scaled_error(ours, product, scales, m, n, alpha, b_vector);
      EXPECT_EQ(0, e.nonfinite) << cutlass::library::to_string(out.type) << " b_vector " << b_vector;
      EXPECT_LE(e.relative, ref::error_bound(NumericTypeID::kS8, out.type, k))
          << cutlass::library::to_string(out.type) << " b_vector " << b_vector;
    }
  }
  // block scales are fp8's: named status, nothing launched
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_SCALE_VEC128_32F, sa));
  float const alpha = 1.0f, beta = 0.0f;
  Matrix D(NumericTypeID::kF32, m, n, m);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED,
            cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_8I, k, B.ptr(),
                             CUDA_R_8I, k, &beta, D.ptr(), CUDA_R_32F, m, CUTLASS_LIB_COMPUTE_32F));
  cutlassLibDestroy(handle);
  if (!missing.empty()) GTEST_SKIP() << missing << ": not in this build (or not for this device)";
}

/// int8 requantization (opt-in sm90 kernels "..._s8_s8_s32_s8_s8_..."): the dequantized f32 value
/// alpha * scale_a[m] * scale_b[n] * acc + beta * C, rounded to nearest even and saturated to s8,
/// against the reference's exact product scaled, rounded and saturated on the host: exactly (but
/// for values within 1e-4 of a half, where the kernel's f32 products may land on either side), with
/// alpha chosen so a few percent of the outputs saturate at each end, with beta = 0 (D poisoned
/// first) and beta = 0.5 with an s8 C (whose odd values over a zero product make exact ties).
TEST(CApiOperandScales, S8RequantizedOutputs) {
  SKIP_WITHOUT_GPU();
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kS8, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kS8)) {
    GTEST_SKIP() << "s8 -> s8 TN: opt-in kernels, not in this build (or not for this device)";
  }
  int64_t const m = 208, n = 72, k = 512;
  OuterScaledCase const x(NumericTypeID::kS8, m, n, k, 43);
  ASSERT_TRUE(x.ok);
  Matrix const &A = x.A, &B = x.B;
  std::vector<float> const &scales = x.scales, &product = x.product;
  float const *sa = x.sa(), *sb = x.sb();
  Matrix C(NumericTypeID::kS8, m, n, m), D(NumericTypeID::kS8, m, n, m);
  C.fill(45);
  std::vector<int8_t> source(size_t(m * n)), ours(size_t(m * n));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(source.data(), C.ptr(), source.size(), cudaMemcpyDeviceToHost));
  double largest = 0;   // alpha puts the largest scaled product at 350: a few percent saturate, both signs
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      largest = std::max(largest, std::abs(double(scales[size_t(i)]) * scales[size_t(m + j)] * product[size_t(i + j * m)]));
    }
  }
  float const alpha = float(350.0 / largest);
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  for (float const beta : {0.0f, 0.5f}) {
    for (bool b_vector : {true, false}) {
      SCOPED_TRACE(testing::Message() << "beta " << beta << ", b_vector " << b_vector);
      ASSERT_TRUE(set_outer_scales(handle, sa, sb, b_vector));
      if (beta == 0) {
        ASSERT_TRUE(ref::fill_poison(NumericTypeID::kS8, D.ptr(), D.count()));
      } else {
        ASSERT_EQ(cudaSuccess, cudaMemcpy(D.ptr(), C.ptr(), size_t(m * n), cudaMemcpyDeviceToDevice));
      }
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_8I, k,
                                 B.ptr(), CUDA_R_8I, k, &beta, D.ptr(), CUDA_R_8I, m, CUTLASS_LIB_COMPUTE_32F));
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      ASSERT_EQ(cudaSuccess, cudaMemcpy(ours.data(), D.ptr(), ours.size(), cudaMemcpyDeviceToHost));
      int64_t off = 0, high = 0, low = 0;
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < m; ++i) {
          size_t const e = size_t(i + j * m);
          double const v = double(alpha) * scales[size_t(i)] * scales[size_t(m + (b_vector ? j : 0))] * product[e] +
                           double(beta) * source[e];
          double const expected = std::min(127.0, std::max(-128.0, std::nearbyint(v)));
          high += v > 127.5 ? 1 : 0;
          low += v < -128.5 ? 1 : 0;
          // exact, except within 1e-4 of a half (the kernel's f32 products may land on either side;
          // exact ties, which both round to even, still compare exactly)
          double const fraction = v - std::floor(v);
          bool const near_half = std::abs(fraction - 0.5) < 1e-4 && fraction != 0.5;
          off += double(ours[e]) != expected && !(near_half && std::abs(double(ours[e]) - expected) == 1) ? 1 : 0;
        }
      }
      EXPECT_EQ(0, off) << "outputs other than the rounded (to nearest even), saturated value";
      if (b_vector) {
        EXPECT_GT(high, 0) << "the case should saturate at 127";
        EXPECT_GT(low, 0) << "the case should saturate at -128";
      }
    }
  }
  cutlassLibDestroy(handle);
}

TEST(CApiOperandScales, E4m3OuterVectorScales) {
  SKIP_WITHOUT_GPU();
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kF32)) {
    NO_KERNEL_FOR("e4m3 -> f32 TN");
  }
  int64_t const m = 200, n = 72, k = 512;
  OuterScaledCase const x(NumericTypeID::kFE4M3, m, n, k, 31);
  ASSERT_TRUE(x.ok);
  Matrix const &A = x.A, &B = x.B;
  std::vector<float> const &scales = x.scales, &product = x.product;
  float const *sa = x.sa(), *sb = x.sb();
  Matrix C(NumericTypeID::kF32, m, n, m);
  std::vector<float> ours(size_t(m * n));
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  for (bool b_vector : {true, false}) {
    ASSERT_TRUE(set_outer_scales(handle, sa, sb, b_vector));
    ASSERT_TRUE(ref::fill_poison(NumericTypeID::kF32, C.ptr(), C.count()));
    float const alpha = 1.5f, beta = 0.0f;
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(), CUDA_R_8F_E4M3, k,
                               B.ptr(), CUDA_R_8F_E4M3, k, &beta, C.ptr(), CUDA_R_32F, m, CUTLASS_LIB_COMPUTE_32F));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ASSERT_EQ(cudaSuccess, cudaMemcpy(ours.data(), C.ptr(), ours.size() * 4, cudaMemcpyDeviceToHost));
    ScaledError const e = scaled_error(ours, product, scales, m, n, alpha, b_vector);
    EXPECT_EQ(0, e.nonfinite) << "b_vector " << b_vector;
    EXPECT_LE(e.relative, ref::error_bound(NumericTypeID::kFE4M3, NumericTypeID::kF32, k))
        << "b_vector " << b_vector;
  }
  cutlassLibDestroy(handle);
}

/// The C API's framework hooks on the GPU: device-side alpha / beta give the same bits as host
/// ones, and a caller's workspace (cutlassLibSetWorkspace) is used, never grown: too small answers
/// WORKSPACE_TOO_SMALL with C untouched, the size cutlassLibGetWorkspaceSize names runs.
class CApiHooksGpu : public CApiF32NN {
 protected:
  cutlassLibStatus_t gemm(int64_t m, int64_t n, int64_t k, void const *alpha, Matrix const &A, Matrix const &B,
                          void const *beta, Matrix &C) {
    return cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, m, n, k, alpha, A.ptr(), CUDA_R_32F, A.ld,
                            B.ptr(), CUDA_R_32F, B.ld, beta, C.ptr(), CUDA_R_32F, C.ld, CUTLASS_LIB_COMPUTE_32F);
  }
};

TEST_F(CApiHooksGpu, DevicePointerModeMatchesHostScalars) {
  int64_t const m = 96, n = 80, k = 64;
  Matrix A(NumericTypeID::kF32, m, k, m), B(NumericTypeID::kF32, k, n, k), C(NumericTypeID::kF32, m, n, m),
      D(NumericTypeID::kF32, m, n, m);
  A.fill(1), B.fill(2), C.fill(3);
  ASSERT_EQ(cudaSuccess, cudaMemcpy(D.ptr(), C.ptr(), size_t(m * n * 4), cudaMemcpyDeviceToDevice));
  float const host[2] = {0.75f, -1.25f};
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(m, n, k, &host[0], A, B, &host[1], C));
  DeviceBuffer scalars(sizeof(host));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(scalars.get(), host, sizeof(host), cudaMemcpyHostToDevice));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetPointerMode(handle_, CUTLASS_LIB_POINTER_MODE_DEVICE));
  float const *device = static_cast<float const *>(scalars.get());
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(m, n, k, device, A, B, device + 1, D));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_TRUE(ref::bytes_equal(C.ptr(), D.ptr(), size_t(m * n * 4))) << "the same kernel on the same scalars";
}

TEST_F(CApiHooksGpu, CallerWorkspaceIsUsedNeverGrown) {
  // M == 1 with a long K: the GEMV (when built) splits K over CTAs and needs a workspace
  int64_t const m = 1, n = 64, k = 65536;
  Matrix A(NumericTypeID::kF32, m, k, m), B(NumericTypeID::kF32, k, n, k), C(NumericTypeID::kF32, m, n, m),
      R(NumericTypeID::kF32, m, n, m), before(NumericTypeID::kF32, m, n, m);
  A.fill(1), B.fill(2), C.fill(3);
  float const alpha = 1, beta = 0.5f;
  size_t bytes = 0;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGetWorkspaceSize(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.ptr(),
                                       CUDA_R_32F, A.ld, 0, B.ptr(), CUDA_R_32F, B.ld, 0, &beta, C.ptr(), CUDA_R_32F,
                                       C.ld, 0, 1, CUTLASS_LIB_COMPUTE_32F, &bytes));
  ref::GemmProblem p;
  p.m = m, p.n = n, p.k = k, p.element_A = p.element_B = p.element_C = NumericTypeID::kF32;
  p.alpha = alpha, p.beta = beta, p.A = A.ptr(), p.lda = A.ld, p.B = B.ptr(), p.ldb = B.ld, p.C = C.ptr(),
  p.ldc = C.ld, p.D = R.ptr(), p.ldd = R.ld;
  ASSERT_TRUE(ref::reference_gemm(p));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(before.ptr(), C.ptr(), size_t(n * 4), cudaMemcpyDeviceToDevice));
  DeviceBuffer workspace(bytes + 256);
  void *const aligned = reinterpret_cast<void *>((reinterpret_cast<uintptr_t>(workspace.get()) + 255) / 256 * 256);
  if (bytes > 0) {
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, aligned, bytes - 1));
    EXPECT_EQ(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL, gemm(m, n, k, &alpha, A, B, &beta, C));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    EXPECT_TRUE(ref::bytes_equal(before.ptr(), C.ptr(), size_t(n * 4))) << "nothing launched, C untouched";
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, aligned, bytes));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(m, n, k, &alpha, A, B, &beta, C));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_LE(ref::compare(NumericTypeID::kF32, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0).relative_error, 1e-4);
  // back to the handle's own workspace (grown on demand), on a fresh C
  ASSERT_EQ(cudaSuccess, cudaMemcpy(C.ptr(), before.ptr(), size_t(n * 4), cudaMemcpyDeviceToDevice));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, nullptr, 0));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(m, n, k, &alpha, A, B, &beta, C));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_LE(ref::compare(NumericTypeID::kF32, m, n, 1, C.ptr(), m, 0, R.ptr(), m, 0).relative_error, 1e-4);
}

}  // namespace
