/// Host tests: every bad argument of the C API and the C++ Handle gets its named status, before
/// any device work; they run with or without a GPU. Pointers are made-up addresses (a bad call
/// must never touch them).
#include <gtest/gtest.h>

#include <climits>
#include <cuda_runtime_api.h>

#include "cutlass/library/handle.h"
#include "cutlass_lib.h"

namespace {

using namespace cutlass::library;

bool has_device() {
  int count = 0;
  bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError();
  return ok;
}

void *fake(uintptr_t a) { return reinterpret_cast<void *>(a); }

/// A valid bf16 TN GemmEx call, column-major, m = n = k = 64; each test breaks one argument.
struct GemmExArgs {
  cutlassLibOperation_t transa = CUTLASS_LIB_OP_T, transb = CUTLASS_LIB_OP_N;
  int64_t m = 64, n = 64, k = 64;
  // NOTE: the scalars are static: a copy (a = GemmExArgs()) must not point into a dead temporary.
  static constexpr float kAlpha = 1, kBeta = 0;
  void const *alpha_ptr = &kAlpha;
  void const *beta_ptr = &kBeta;
  void const *A = fake(0x100000);
  void const *B = fake(0x200000);
  void *C = fake(0x300000);
  cudaDataType_t Atype = CUDA_R_16BF, Btype = CUDA_R_16BF, Ctype = CUDA_R_16BF;
  int64_t lda = 64, ldb = 64, ldc = 64;
  cutlassLibComputeType_t compute = CUTLASS_LIB_COMPUTE_32F;
  int64_t strideA = 4096, strideB = 4096, strideC = 4096, batch = 2;
};

class CApiArguments : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_)); }
  void TearDown() override { EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibDestroy(handle_)); }

  /// Runs GemmEx only where a bad argument is expected (a valid call would launch on fake pointers).
  cutlassLibStatus_t gemm(GemmExArgs const &a, cutlassLibHandle_t h) {
    return cutlassLibGemmEx(h, a.transa, a.transb, a.m, a.n, a.k, a.alpha_ptr, a.A, a.Atype, a.lda, a.B, a.Btype,
                            a.ldb, a.beta_ptr, a.C, a.Ctype, a.ldc, a.compute);
  }
  cutlassLibStatus_t gemm(GemmExArgs const &a) { return gemm(a, handle_); }
  cutlassLibStatus_t batched(GemmExArgs const &a) {
    return cutlassLibGemmStridedBatchedEx(handle_, a.transa, a.transb, a.m, a.n, a.k, a.alpha_ptr, a.A, a.Atype,
                                          a.lda, a.strideA, a.B, a.Btype, a.ldb, a.strideB, a.beta_ptr, a.C, a.Ctype,
                                          a.ldc, a.strideC, a.batch, a.compute);
  }
  cutlassLibStatus_t select(GemmExArgs const &a, char const **name) {
    return cutlassLibGemmExSelect(handle_, a.transa, a.transb, a.m, a.n, a.k, a.alpha_ptr, a.A, a.Atype, a.lda, a.B,
                                  a.Btype, a.ldb, a.beta_ptr, a.C, a.Ctype, a.ldc, a.compute, name);
  }

  cutlassLibHandle_t handle_ = nullptr;
};

TEST_F(CApiArguments, NullHandle) {
  GemmExArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, gemm(a, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetStream(nullptr, nullptr));
  cudaStream_t s;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibGetStream(nullptr, &s));
  char const *name = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibGemmExSelect(nullptr, a.transa, a.transb, a.m, a.n, a.k, a.alpha_ptr, a.A, a.Atype, a.lda, a.B,
                                   a.Btype, a.ldb, a.beta_ptr, a.C, a.Ctype, a.ldc, a.compute, &name));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibCreate(nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibDestroy(nullptr));
}

TEST_F(CApiArguments, StreamRoundTrip) {
  // A real stream where there is a device: with a device the handle holds a workspace, and changing
  // the stream waits for the old one (a made-up handle value would be dereferenced by the runtime).
  // Without a device the handle never touches the stream, so any non-null value makes the round trip.
  cudaStream_t s = nullptr;
  bool const created = cudaStreamCreate(&s) == cudaSuccess;
  if (!created) {
    cudaGetLastError();
    s = reinterpret_cast<cudaStream_t>(0x1234);
  }
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, s));
  cudaStream_t back = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibGetStream(handle_, &back));
  EXPECT_EQ(s, back);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibGetStream(handle_, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetStream(handle_, nullptr));
  if (created) cudaStreamDestroy(s);
}

TEST_F(CApiArguments, NegativeSizes) {
  for (int which = 0; which < 3; ++which) {
    GemmExArgs a;
    (which == 0 ? a.m : which == 1 ? a.n : a.k) = -1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a)) << "dimension " << which;
  }
}

TEST_F(CApiArguments, LeadingDimensionsBelowTheirMinimum) {
  GemmExArgs a;
  a.lda = 63;   // A is stored k x m (transa = T): lda >= k
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.transa = CUTLASS_LIB_OP_N;
  a.k = 8;
  a.lda = 63;   // A stored m x k: lda >= m = 64
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.ldb = 32;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.ldc = 63;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.m = a.n = a.k = 0;
  a.lda = a.ldb = a.ldc = 0;   // max(1, 0) = 1
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
}

TEST_F(CApiArguments, NullPointers) {
  GemmExArgs a;
  a.alpha_ptr = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.beta_ptr = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.A = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.B = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.C = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
}

TEST_F(CApiArguments, BadTransposeFlag) {
  GemmExArgs a;
  a.transa = static_cast<cutlassLibOperation_t>(2);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.transb = static_cast<cutlassLibOperation_t>(-1);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
}

TEST_F(CApiArguments, UnsupportedTypeCombinations) {
  GemmExArgs a;
  a.Btype = CUDA_R_16F;   // mixed bf16 x f16
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
  a = GemmExArgs();
  a.compute = CUTLASS_LIB_COMPUTE_32I;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
  a = GemmExArgs();
  a.compute = static_cast<cutlassLibComputeType_t>(99);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
  a = GemmExArgs();
  a.Atype = a.Btype = CUDA_R_8I;
  a.Ctype = CUDA_R_8I;   // s8 output (requantization) takes COMPUTE_32F, not 32I
  a.compute = CUTLASS_LIB_COMPUTE_32I;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
  // argument errors are reported first, as in cuBLAS
  a.m = -1;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
}

TEST_F(CApiArguments, SizesBeyond32Bits) {
  GemmExArgs a;
  a.transa = CUTLASS_LIB_OP_N;
  a.m = int64_t(INT_MAX) + 1;
  a.lda = a.ldc = a.m;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
}

TEST_F(CApiArguments, StridedBatchedArguments) {
  GemmExArgs a;
  a.batch = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(a));
  a = GemmExArgs();
  a.strideA = -4096;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(a));
  a = GemmExArgs();
  a.batch = 70000;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(a));
}

TEST_F(CApiArguments, OperandSpansPast63BitsOfBytes) {
  // no allocation spans 2^63 bytes: such a leading dimension or batch stride is rejected before
  // anything launches (the kernels' 64-bit address arithmetic would wrap)
  GemmExArgs a;
  a.lda = INT64_MAX / 2;   // 63 lines of A (k x m stored, transa = T) past it
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.ldc = int64_t(1) << 57;   // 63 columns x 2^57 elements x 2 bytes = 2^63.98 bytes
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  a = GemmExArgs();
  a.strideB = int64_t(1) << 62;   // (batch - 1) * stride alone is 2^62 elements = 2^63 bytes
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(a));
  a = GemmExArgs();
  a.batch = 4;
  a.strideA = int64_t(1) << 61;   // 3 * 2^61 elements overflows int64 itself
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(a));
  // just below the limit the argument checks pass: selection (nothing launches) answers
  a = GemmExArgs();
  a.ldc = int64_t(1) << 55;
  char const *name = nullptr;
  cutlassLibStatus_t const status = select(a, &name);
  EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, status) << cutlassLibGetStatusString(status);
}

TEST_F(CApiArguments, SpansUseEachOperandsElementSizeOutsideTheTypeTable) {
  // f32 x f16 has no row in the type table; A's span is still measured in 4-byte elements, so the
  // argument error answers before NOT_SUPPORTED, in the header's order
  GemmExArgs a;
  a.Atype = CUDA_R_32F;
  a.Btype = CUDA_R_16F;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
  a.lda = int64_t(1) << 57;   // 63 lines x 2^57 elements: past 2^63 bytes at 4 bytes, not at 1
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a));
  // the types the library runs nothing in are sized as stored: complex f32 at 8 bytes, complex s8
  // at 2 (not as 1 byte, which let such a span pass to NOT_SUPPORTED)
  for (cudaDataType_t type : {CUDA_C_32F, CUDA_C_8I}) {
    a = GemmExArgs();
    a.Atype = a.Btype = a.Ctype = type;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a)) << type;
    a.lda = int64_t(1) << 57;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(a)) << type;
  }
  // alpha has the compute type's scalar type there too: alpha == 0 excuses null A and B
  a = GemmExArgs();
  a.Atype = CUDA_R_32F;
  a.Btype = CUDA_R_16F;
  static constexpr float kZero = 0;
  a.alpha_ptr = &kZero;
  a.A = a.B = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(a));
}

TEST_F(CApiArguments, SelectNeedsAnOutputPointer) {
  GemmExArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(a, nullptr));
}

// The NoDevice tests run in their own ctest entry with CUDA_VISIBLE_DEVICES=-1 (test/CMakeLists.txt),
// so they exercise the no-device answers on GPU machines too; the other entries exclude them.
TEST_F(CApiArguments, NoDeviceIsNamed) {
  if (has_device()) GTEST_SKIP() << "a device is present: ctest entry host.no_device runs this with CUDA_VISIBLE_DEVICES=-1";
  GemmExArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, gemm(a));
  char const *name = "unchanged";
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, select(a, &name));
  a.m = 0;   // even a quick return needs a device: the handle has none
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, gemm(a));
}

TEST(CApiStatus, NamesAndStrings) {
  struct Row {
    cutlassLibStatus_t status;
    char const *name;
  };
  Row const rows[] = {
      {CUTLASS_LIB_STATUS_SUCCESS, "CUTLASS_LIB_STATUS_SUCCESS"},
      {CUTLASS_LIB_STATUS_NOT_INITIALIZED, "CUTLASS_LIB_STATUS_NOT_INITIALIZED"},
      {CUTLASS_LIB_STATUS_ALLOC_FAILED, "CUTLASS_LIB_STATUS_ALLOC_FAILED"},
      {CUTLASS_LIB_STATUS_INVALID_VALUE, "CUTLASS_LIB_STATUS_INVALID_VALUE"},
      {CUTLASS_LIB_STATUS_ARCH_MISMATCH, "CUTLASS_LIB_STATUS_ARCH_MISMATCH"},
      {CUTLASS_LIB_STATUS_EXECUTION_FAILED, "CUTLASS_LIB_STATUS_EXECUTION_FAILED"},
      {CUTLASS_LIB_STATUS_INTERNAL_ERROR, "CUTLASS_LIB_STATUS_INTERNAL_ERROR"},
      {CUTLASS_LIB_STATUS_NOT_SUPPORTED, "CUTLASS_LIB_STATUS_NOT_SUPPORTED"},
      {CUTLASS_LIB_STATUS_NO_KERNEL, "CUTLASS_LIB_STATUS_NO_KERNEL"},
      {CUTLASS_LIB_STATUS_NO_DEVICE, "CUTLASS_LIB_STATUS_NO_DEVICE"},
  };
  for (Row const &row : rows) {
    EXPECT_STREQ(row.name, cutlassLibGetStatusName(row.status));
    EXPECT_STRNE("unknown status", cutlassLibGetStatusString(row.status));
  }
  // numbers match cublasStatus_t where they overlap
  EXPECT_EQ(0, CUTLASS_LIB_STATUS_SUCCESS);
  EXPECT_EQ(7, CUTLASS_LIB_STATUS_INVALID_VALUE);
  EXPECT_EQ(15, CUTLASS_LIB_STATUS_NOT_SUPPORTED);
  EXPECT_STREQ("CUTLASS_LIB_STATUS_UNKNOWN", cutlassLibGetStatusName(static_cast<cutlassLibStatus_t>(42)));
  EXPECT_STREQ("unknown status", cutlassLibGetStatusString(static_cast<cutlassLibStatus_t>(42)));
}

TEST(CApiStatus, Version) {
  EXPECT_EQ(CUTLASS_LIB_VERSION_MAJOR * 10000 + CUTLASS_LIB_VERSION_MINOR * 100 + CUTLASS_LIB_VERSION_PATCH,
            cutlassLibGetVersion());
}

// ---- C++ Handle ------------------------------------------------------------------------------

struct HandleArgs {
  int M = 64, N = 64, K = 64;
  float alpha = 1, beta = 0;
  int64_t lda = 64, ldb = 64, ldc = 64, ldd = 64;
  void const *A = fake(0x100000), *B = fake(0x200000), *C = fake(0x300000);
  void *D = fake(0x400000);
  LayoutTypeID layout_C = LayoutTypeID::kColumnMajor, layout_D = LayoutTypeID::kColumnMajor;
  NumericTypeID element_D = NumericTypeID::kBF16;
  cutlass::gemm::GemmUniversalMode mode = cutlass::gemm::GemmUniversalMode::kGemm;
  int batch = 1;
};

cutlass::Status universal(Handle &h, HandleArgs const &a) {
  return h.gemm_universal(a.mode, a.M, a.N, a.K, 1, 1, 1, 1, 1, 1, NumericTypeID::kF32, NumericTypeID::kF32, &a.alpha,
                          NumericTypeID::kBF16, LayoutTypeID::kRowMajor, ComplexTransform::kNone, a.A, a.lda,
                          NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, ComplexTransform::kNone, a.B, a.ldb,
                          &a.beta, NumericTypeID::kBF16, a.layout_C, a.C, a.ldc, a.element_D, a.layout_D, a.D, a.ldd,
                          a.batch);
}

TEST(HandleArguments, BadInputsGetNamedStatuses) {
  Handle h;
  HandleArgs a;
  a.M = -1;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a = HandleArgs();
  a.lda = 10;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a = HandleArgs();
  a.D = nullptr;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a = HandleArgs();
  a.mode = cutlass::gemm::GemmUniversalMode::kArray;
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, universal(h, a));
  a = HandleArgs();
  a.batch = 3;   // kGemm with batch_count > 1: split-K slices, which need K a multiple of them
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, universal(h, a));
  a.batch = 2;
  a.K = 40;   // slices of 20 bf16: a slice's start 40 bytes on, not 16-byte aligned
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, universal(h, a));
  a.K = 64;
  a.element_D = NumericTypeID::kF32;   // C and D of different types: the route's check says so first
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, universal(h, a));
  // C and D differing in layout or type: no kernel offers it (kErrorNotSupported), answered
  // after the device, as handle.h orders it (without one: kErrorArchMismatch)
  cutlass::Status const no_kernel = has_device() ? cutlass::Status::kErrorNotSupported : cutlass::Status::kErrorArchMismatch;
  a = HandleArgs();
  a.layout_D = LayoutTypeID::kRowMajor;
  EXPECT_EQ(no_kernel, universal(h, a));
  a = HandleArgs();
  a.element_D = NumericTypeID::kF32;
  EXPECT_EQ(no_kernel, universal(h, a));
  EXPECT_EQ(nullptr, h.get_last_operation());
  EXPECT_STREQ("", h.last_operation_name());
}

TEST(HandleArguments, ArgumentErrorsComeBeforeWhatIsNotSupported) {
  // handle.h's order: kErrorInvalidProblem for any argument error before kErrorNotSupported
  Handle h;
  HandleArgs a;
  a.lda = 10;
  a.batch = 3;   // kGemm with 3 split-K slices of K = 64: not supported, but lda is wrong first
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a.batch = 1;
  a.mode = cutlass::gemm::GemmUniversalMode::kArray;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a.mode = cutlass::gemm::GemmUniversalMode::kGemm;
  a.layout_D = LayoutTypeID::kRowMajor;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
  a.layout_D = LayoutTypeID::kColumnMajor;
  a.element_D = NumericTypeID::kF32;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, universal(h, a));
}

TEST(HandleArguments, OtherProvidersAreNotSupported) {
  Handle h;
  h.set_provider(Provider::kCUBLAS);
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, universal(h, HandleArgs()));
}

/// Handle::gemm_grouped on two groups of bf16 TN problems (2 x 64x48x32, 1 x 16x8x24) at
/// made-up addresses; `C1` replaces the third problem's C.
cutlass::Status grouped(Handle &h, int64_t group_count, void *C1 = fake(0x320000)) {
  static float const one = 1, zero = 0;
  Handle::GroupedGemmGroup groups[2];
  groups[0].m = 64, groups[0].n = 48, groups[0].k = 32, groups[0].lda = 32, groups[0].ldb = 32, groups[0].ldc = 64;
  groups[1].m = 16, groups[1].n = 8, groups[1].k = 24, groups[1].lda = 24, groups[1].ldb = 24, groups[1].ldc = 16;
  groups[0].size = 2, groups[1].size = 1;
  for (auto &g : groups) g.alpha = &one, g.beta = &zero;
  void const *A[3] = {fake(0x100000), fake(0x110000), fake(0x120000)};
  void const *B[3] = {fake(0x200000), fake(0x210000), fake(0x220000)};
  void *C[3] = {fake(0x300000), fake(0x310000), C1};
  return h.gemm_grouped(NumericTypeID::kF32, NumericTypeID::kF32, NumericTypeID::kBF16, NumericTypeID::kBF16,
                        NumericTypeID::kBF16, groups, group_count, A, B, C);
}

TEST(HandleArguments, GroupedStatuses) {
  Handle h;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, grouped(h, -1));
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, grouped(h, 2, nullptr)) << "group 1's C is null";
  EXPECT_EQ(cutlass::Status::kSuccess, grouped(h, 0)) << "no groups: nothing to do";
  if (!has_device()) EXPECT_EQ(cutlass::Status::kErrorArchMismatch, grouped(h, 2)) << "valid: then the device";
  h.set_provider(Provider::kCUBLAS);
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, grouped(h, 2));
}

/// Handle::gemm_grouped_contiguous on a valid bf16 expert layer of made-up addresses (8 experts
/// of 64 x 32, 96 tokens); `offsets` is never read on the host.
cutlass::Status contiguous(Handle &h, int64_t group_count, int const *offsets, int64_t stride_A = 64 * 32,
                           int64_t ldc = 64, int K = 32) {
  static float const alpha = 1, beta = 0;
  return h.gemm_grouped_contiguous(64, 96, K, NumericTypeID::kF32, NumericTypeID::kF32, &alpha, NumericTypeID::kBF16,
                                   LayoutTypeID::kRowMajor, fake(0x100000), 32, stride_A, NumericTypeID::kBF16,
                                   fake(0x200000), 32, &beta, NumericTypeID::kBF16, fake(0x300000), ldc,
                                   fake(0x300000), ldc, group_count, static_cast<int const *>(fake(0x400000)));
}

TEST(HandleArguments, GroupedContiguousStatuses) {
  Handle h;
  int const *offsets = static_cast<int const *>(fake(0x400000));
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, contiguous(h, -1, offsets));
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, contiguous(h, 8, offsets, -1)) << "stride_A < 0";
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, contiguous(h, 8, offsets, 64 * 32, 63)) << "ldc below M";
  EXPECT_EQ(cutlass::Status::kSuccess, contiguous(h, 0, nullptr)) << "no groups: nothing to do";
  if (!has_device()) {   // (with a GPU the made-up offsets are pageable memory: kErrorInvalidProblem)
    EXPECT_EQ(cutlass::Status::kErrorNotSupported, contiguous(h, 8, offsets, 64 * 32, 64, 0)) << "K == 0";
    EXPECT_EQ(cutlass::Status::kErrorArchMismatch, contiguous(h, 8, offsets)) << "valid: then the device";
  }
  h.set_provider(Provider::kCUBLAS);
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, contiguous(h, 8, offsets));
  EXPECT_EQ(nullptr, h.get_last_operation());
}

TEST(HandleArguments, NoDeviceIsArchMismatch) {
  if (has_device()) GTEST_SKIP() << "a device is present: ctest entry host.no_device runs this with CUDA_VISIBLE_DEVICES=-1";
  Handle h;
  EXPECT_EQ(0, h.compute_capability());
  EXPECT_EQ(cutlass::Status::kErrorArchMismatch, universal(h, HandleArgs()));
  HandleArgs split;
  split.batch = 4;   // 4 split-K slices of K = 64: the route takes them; then the device is asked
  EXPECT_EQ(cutlass::Status::kErrorArchMismatch, universal(h, split));
  split.batch = 3;   // slices the route refuses, but host alpha == 0 takes the quick return first
  split.alpha = 0;
  EXPECT_EQ(cutlass::Status::kErrorArchMismatch, universal(h, split));
  // the batch strides of a split-K call are unused: a negative one is no argument error
  HandleArgs const a;
  EXPECT_EQ(cutlass::Status::kErrorArchMismatch,
            h.gemm_universal(a.mode, a.M, a.N, a.K, 1, 1, 1, 1, 1, 1, NumericTypeID::kF32, NumericTypeID::kF32,
                             &a.alpha, NumericTypeID::kBF16, LayoutTypeID::kRowMajor, ComplexTransform::kNone, a.A,
                             a.lda, NumericTypeID::kBF16, LayoutTypeID::kColumnMajor, ComplexTransform::kNone, a.B,
                             a.ldb, &a.beta, NumericTypeID::kBF16, a.layout_C, a.C, a.ldc, a.element_D, a.layout_D,
                             a.D, a.ldd, /*batch_count=*/2, -5, -5, -5, -5));
}

}  // namespace
