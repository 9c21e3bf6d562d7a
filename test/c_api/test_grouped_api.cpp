/// The C API's pointer-array batched and grouped GEMMs (cutlassLibGemmBatchedEx,
/// cutlassLibGemmGroupedBatchedEx), as far as they are decided without a device: every bad input
/// gets its status, checked for every group before anything launches. Pointers are made-up
/// addresses: a kernel launched on them would fault, which the tests look for where a GPU is
/// present (expect_nothing_launched). The GPU side is test/gpu/test_grouped.cu.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cutlass_lib.h"
#include "has_device.h"

namespace {

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }
void *mutable_address(uintptr_t a) { return reinterpret_cast<void *>(a); }

using cutlass_lib_c_api_test::has_device;

/// Where a GPU is present: no kernel ran on the made-up addresses (it would have faulted, and the
/// fault would be the device's error now). Without one there is nothing a launch could reach.
void expect_nothing_launched() {
  if (has_device()) {
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize()) << "a kernel ran on the made-up addresses";
  }
}

/// A valid bf16 grouped call on made-up addresses: three groups (TN 64x48x32 x 2 problems,
/// NN 16x8x24 x 1, NT 32x32x16 x 2), five problems; group 2's problems are entries 3 and 4 of
/// the pointer arrays. Each test breaks one argument through the pointers below, which start out
/// at the member arrays (so the struct is not copyable).
struct GroupedArgs {
  static constexpr int64_t kGroups = 3, kProblems = 5;
  cutlassLibOperation_t transa_values[kGroups] = {CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N};
  cutlassLibOperation_t transb_values[kGroups] = {CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_T};
  int64_t m_values[kGroups] = {64, 16, 32}, n_values[kGroups] = {48, 8, 32}, k_values[kGroups] = {32, 24, 16};
  // T: A stored k x m (lda >= k); N: m x k (lda >= m). B: N k x n (ldb >= k); T n x k (ldb >= n).
  int64_t lda_values[kGroups] = {32, 16, 32}, ldb_values[kGroups] = {32, 24, 32}, ldc_values[kGroups] = {64, 16, 32};
  int64_t size_values[kGroups] = {2, 1, 2};
  float alpha_values[kGroups] = {1, 1, 1}, beta_values[kGroups] = {0, 0.5f, 1};
  void const *A_values[kProblems], *B_values[kProblems];
  void *C_values[kProblems];

  cutlassLibOperation_t const *transa = transa_values, *transb = transb_values;
  int64_t const *m = m_values, *n = n_values, *k = k_values;
  int64_t const *lda = lda_values, *ldb = ldb_values, *ldc = ldc_values, *group_size = size_values;
  void const *alpha = alpha_values, *beta = beta_values;
  void const *const *A = A_values, *const *B = B_values;
  void *const *C = C_values;
  cudaDataType_t Atype = CUDA_R_16BF, Btype = CUDA_R_16BF, Ctype = CUDA_R_16BF;
  cutlassLibComputeType_t compute = CUTLASS_LIB_COMPUTE_32F;
  int64_t group_count = kGroups;

  GroupedArgs() {
    for (int64_t i = 0; i < kProblems; ++i) {
      A_values[i] = address(0x1000000 + uintptr_t(i) * 0x10000);
      B_values[i] = address(0x2000000 + uintptr_t(i) * 0x10000);
      C_values[i] = mutable_address(0x3000000 + uintptr_t(i) * 0x10000);
    }
  }
  GroupedArgs(GroupedArgs const &) = delete;
  GroupedArgs &operator=(GroupedArgs const &) = delete;
};

cutlassLibStatus_t grouped(cutlassLibHandle_t handle, GroupedArgs const &a) {
  return cutlassLibGemmGroupedBatchedEx(handle, a.transa, a.transb, a.m, a.n, a.k, a.alpha, a.A, a.Atype, a.lda, a.B,
                                        a.Btype, a.ldb, a.beta, a.C, a.Ctype, a.ldc, a.group_count, a.group_size,
                                        a.compute);
}

/// Group 0 of GroupedArgs as a pointer-array batched call of `batch` problems.
cutlassLibStatus_t batched(cutlassLibHandle_t handle, GroupedArgs const &a, int64_t batch) {
  return cutlassLibGemmBatchedEx(handle, a.transa[0], a.transb[0], a.m[0], a.n[0], a.k[0], a.alpha, a.A, a.Atype,
                                 a.lda[0], a.B, a.Btype, a.ldb[0], a.beta, a.C, a.Ctype, a.ldc[0], batch, a.compute);
}

class CApiGrouped : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_)); }
  void TearDown() override {
    expect_nothing_launched();
    cutlassLibDestroy(handle_);
  }
  cutlassLibHandle_t handle_ = nullptr;
};

TEST_F(CApiGrouped, NullHandleIsNotInitialized) {
  GroupedArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, grouped(nullptr, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, batched(nullptr, a, 2));
}

TEST_F(CApiGrouped, NoGroupsIsSuccessTouchingNothing) {
  // nothing is read: every array may be NULL, the types may be anything, no device is needed
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmGroupedBatchedEx(handle_, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           CUDA_R_16BF, nullptr, nullptr, CUDA_R_16BF, nullptr, nullptr, nullptr,
                                           CUDA_R_16BF, nullptr, 0, nullptr, CUTLASS_LIB_COMPUTE_32F));
  GroupedArgs a;
  a.group_count = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped(handle_, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, batched(handle_, a, 0)) << "batchCount 0, as cuBLAS";
}

TEST_F(CApiGrouped, EmptyGroupsAreSuccessWithoutPointerArrays) {
  GroupedArgs a;
  a.size_values[0] = a.size_values[1] = a.size_values[2] = 0;
  a.A = a.B = nullptr;
  a.C = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped(handle_, a)) << "no problem: no pointer read, no device needed";
}

TEST_F(CApiGrouped, HugeCountsOfEmptyOutputsCostNothing) {
  // 2^63 - 1 problems with M == 0 (NULL pointer arrays): one stands for all; the call returns at
  // once (SUCCESS on a GPU, NO_DEVICE without one, as a single call's quick return)
  GroupedArgs a;
  a.m_values[0] = 0;
  a.A = a.B = nullptr;
  a.C = nullptr;
  a.group_count = 1;
  a.size_values[0] = INT64_MAX;
  cutlassLibStatus_t const status = grouped(handle_, a);
  EXPECT_TRUE(status == CUTLASS_LIB_STATUS_SUCCESS || status == CUTLASS_LIB_STATUS_NO_DEVICE)
      << cutlassLibGetStatusName(status);
  EXPECT_EQ(status, batched(handle_, a, INT64_MAX));
}

TEST_F(CApiGrouped, AnEmptyGroupsSizesAreStillLimitedTo32Bits) {
  GroupedArgs a;
  a.size_values[1] = 0;
  a.m_values[1] = int64_t(1) << 40;
  a.lda_values[1] = int64_t(1) << 40;   // group 1 is NN: lda >= m
  a.ldc_values[1] = int64_t(1) << 40;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
  a.size_values[0] = a.size_values[2] = 0;   // every group empty: the same answer
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
}

TEST_F(CApiGrouped, NegativeGroupCountOrGroupSize) {
  GroupedArgs a;
  a.group_count = -1;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
  GroupedArgs b;
  b.size_values[2] = -1;   // the last group: groups 0 and 1 are valid and must not run
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, b));
  GroupedArgs c;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, c, -1));
}

TEST_F(CApiGrouped, GroupSizesAddingUpPast63BitsAreInvalid) {
  GroupedArgs a;
  a.size_values[1] = INT64_MAX;   // 2 + INT64_MAX problems: checked before any entry is read
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
}

TEST_F(CApiGrouped, NullHostArraysAreInvalid) {
  for (int which = 0; which < 11; ++which) {
    GroupedArgs a;
    switch (which) {
      case 0: a.transa = nullptr; break;
      case 1: a.transb = nullptr; break;
      case 2: a.m = nullptr; break;
      case 3: a.n = nullptr; break;
      case 4: a.k = nullptr; break;
      case 5: a.lda = nullptr; break;
      case 6: a.ldb = nullptr; break;
      case 7: a.ldc = nullptr; break;
      case 8: a.alpha = nullptr; break;
      case 9: a.beta = nullptr; break;
      case 10: a.group_size = nullptr; break;
    }
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a)) << "array " << which;
  }
  GroupedArgs b;
  b.alpha = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, b, 2)) << "null alpha";
}

TEST_F(CApiGrouped, NullPointerArraysAreInvalidWhereTheyWouldBeRead) {
  // every problem reads A and B (k > 0, alpha 1) and writes C: a NULL array is NULL pointers
  GroupedArgs a;
  a.A = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a)) << "Aarray";
  GroupedArgs b;
  b.B = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, b)) << "Barray";
  GroupedArgs c;
  c.C = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, c)) << "Carray";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, c, 2)) << "Carray";
}

TEST_F(CApiGrouped, BadArgumentsInTheLastGroupAreInvalidBeforeAnythingRuns) {
  // groups 0 and 1 are valid; every error below is in group 2, so a call that ran the problems in
  // order before checking them would have launched on the made-up addresses first
  struct Case {
    char const *what;
    void (*breaks)(GroupedArgs &);
  };
  Case const cases[] = {
      {"m < 0", [](GroupedArgs &a) { a.m_values[2] = -1; }},
      {"n < 0", [](GroupedArgs &a) { a.n_values[2] = -1; }},
      {"k < 0", [](GroupedArgs &a) { a.k_values[2] = -1; }},
      {"lda < m (A not transposed)", [](GroupedArgs &a) { a.lda_values[2] = 31; }},
      {"ldb < n (B transposed)", [](GroupedArgs &a) { a.ldb_values[2] = 31; }},
      {"ldc < m", [](GroupedArgs &a) { a.ldc_values[2] = 31; }},
      {"transa not N or T", [](GroupedArgs &a) { a.transa_values[2] = static_cast<cutlassLibOperation_t>(2); }},
      {"transb not N or T", [](GroupedArgs &a) { a.transb_values[2] = static_cast<cutlassLibOperation_t>(-1); }},
      {"null A in problem 4", [](GroupedArgs &a) { a.A_values[4] = nullptr; }},
      {"null B in problem 3", [](GroupedArgs &a) { a.B_values[3] = nullptr; }},
      {"null C in problem 4", [](GroupedArgs &a) { a.C_values[4] = nullptr; }},
      {"an ld spanning 2^63 bytes", [](GroupedArgs &a) { a.ldc_values[2] = int64_t(1) << 58; }},
  };
  for (Case const &c : cases) {
    GroupedArgs a;
    c.breaks(a);
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a)) << c.what;
  }
}

TEST_F(CApiGrouped, AnEmptyGroupsShapeIsStillChecked) {
  GroupedArgs a;
  a.size_values[2] = 0;
  a.lda_values[2] = 1;   // below m = 32
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
  GroupedArgs b;
  b.size_values[1] = 0;
  b.transa_values[1] = static_cast<cutlassLibOperation_t>(7);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, b));
  GroupedArgs c;
  c.lda_values[0] = 1;   // transa T: lda >= k = 32
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, c, 0)) << "batchCount 0 still checks lda";
}

TEST_F(CApiGrouped, BatchedChecksEveryProblemsPointers) {
  GroupedArgs a;
  a.B_values[1] = nullptr;   // the second (last) problem of a batch of 2
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, a, 2));
  GroupedArgs b;
  b.lda_values[0] = 31;   // transa T: lda >= k = 32
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, b, 2));
}

TEST_F(CApiGrouped, UnsupportedTypesAreNotSupportedAfterEveryArgumentCheck) {
  GroupedArgs a;
  a.Btype = CUDA_R_16F;   // bf16 x f16: no row of the type table
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(handle_, a, 2));
  a.lda_values[2] = 1;   // an argument error in the last group comes first
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
  GroupedArgs b;
  b.compute = static_cast<cutlassLibComputeType_t>(99);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, b));
}

TEST_F(CApiGrouped, InvalidValueInALaterGroupComesBeforeNotSupportedInAnEarlierOne) {
  GroupedArgs a;
  a.m_values[0] = int64_t(INT_MAX) + 1;   // group 0: beyond 32 bits (NOT_SUPPORTED)
  a.lda_values[0] = 32;                   // transa T: lda >= k, still valid
  a.ldc_values[0] = a.m_values[0];
  a.C_values[0] = mutable_address(uintptr_t(1) << 44);   // its outputs (2^31 x 48) apart from the others'
  a.C_values[1] = mutable_address(uintptr_t(1) << 45);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
  a.ldb_values[2] = 1;   // group 2: an argument error
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
}

/// cutlassLibGemmGroupedBatchedExSelect of GroupedArgs' call (nothing runs).
cutlassLibStatus_t grouped_select(cutlassLibHandle_t handle, GroupedArgs const &a, char const **kernel,
                                  size_t *workspace_bytes) {
  return cutlassLibGemmGroupedBatchedExSelect(handle, a.transa, a.transb, a.m, a.n, a.k, a.alpha, a.A, a.Atype, a.lda,
                                              a.B, a.Btype, a.ldb, a.beta, a.C, a.Ctype, a.ldc, a.group_count,
                                              a.group_size, a.compute, kernel, workspace_bytes);
}

/// cutlassLibGemmGroupedDeviceSizesEx's statuses decided on the host: the arrays are made-up
/// addresses it must never read. Without a device they count as device-readable; with one, as
/// pageable host memory (INVALID_VALUE, before what comes after the argument checks).
TEST_F(CApiGrouped, DeviceSizesArgumentChecks) {
  float const alpha = 1, beta = 0;
  cutlassLibStatus_t const after_arguments = has_device() ? CUTLASS_LIB_STATUS_INVALID_VALUE
                                                          : CUTLASS_LIB_STATUS_NOT_SUPPORTED;
  auto const sizes = static_cast<int32_t const *>(address(0x1000000));
  auto const pointers = static_cast<void const *const *>(address(0x2000000));
  auto const outputs = static_cast<void *const *>(mutable_address(0x3000000));
  auto const ld = static_cast<int64_t const *>(address(0x4000000));
  auto call = [&](cutlassLibHandle_t h, cutlassLibOperation_t transa, int32_t const *s, void const *a, int64_t count,
                  int64_t max_n, cudaDataType_t type) {
    return cutlassLibGemmGroupedDeviceSizesEx(h, transa, CUTLASS_LIB_OP_N, s, a, pointers, type, ld, pointers, type, ld,
                                              &beta, outputs, type, ld, count, max_n, CUTLASS_LIB_COMPUTE_32F);
  };
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, call(nullptr, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 0, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            call(handle_, static_cast<cutlassLibOperation_t>(7), sizes, &alpha, 4, 0, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, -1, 0, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, -1, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call(handle_, CUTLASS_LIB_OP_T, sizes, nullptr, 4, 0, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call(handle_, CUTLASS_LIB_OP_T, nullptr, &alpha, 4, 0, CUDA_R_16BF));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            call(handle_, CUTLASS_LIB_OP_T, static_cast<int32_t const *>(address(0x1000002)), &alpha, 4, 0, CUDA_R_16BF))
      << "sizes not 4-byte aligned";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, call(handle_, CUTLASS_LIB_OP_T, nullptr, &alpha, -1, 0, CUDA_R_8U))
      << "argument errors before the type combination";
  EXPECT_EQ(after_arguments, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 0, CUDA_R_8U));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, call(handle_, CUTLASS_LIB_OP_T, nullptr, &alpha, 0, 0, CUDA_R_16BF))
      << "no groups: nothing read, nothing run";
  // a fused epilogue passes (the fake arrays then fail with a device, the device check without);
  // a D scale / amax is not offered
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  EXPECT_EQ(has_device() ? CUTLASS_LIB_STATUS_INVALID_VALUE : CUTLASS_LIB_STATUS_NO_DEVICE,
            call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 0, CUDA_R_16BF));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueScaleAmax(handle_, nullptr, static_cast<float *>(mutable_address(0x6000000))));
  EXPECT_EQ(after_arguments, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 0, CUDA_R_16BF));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
  // an aux output too, whatever its ldaux (the groups' M is on the device), not INVALID_VALUE
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x7000000), CUDA_R_16BF, 64, 0));
  EXPECT_EQ(after_arguments, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 0, CUDA_R_16BF));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  if (!has_device()) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, call(handle_, CUTLASS_LIB_OP_T, sizes, &alpha, 4, 16, CUDA_R_16BF));
  }
  // the Select query: its own null checks first, then the call's statuses, outputs NULL and 0
  char const *name = "not cleared";
  size_t bytes = 7;
  auto select = [&](cutlassLibHandle_t h, int32_t const *s, int64_t count, char const **n, size_t *b) {
    return cutlassLibGemmGroupedDeviceSizesExSelect(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, s, &alpha, pointers,
                                                    CUDA_R_16BF, ld, pointers, CUDA_R_16BF, ld, &beta, outputs,
                                                    CUDA_R_16BF, ld, count, 0, CUTLASS_LIB_COMPUTE_32F, n, b);
  };
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, select(nullptr, sizes, 4, &name, &bytes));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(handle_, sizes, 4, nullptr, &bytes));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(handle_, sizes, 4, &name, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(handle_, nullptr, 4, &name, &bytes));
  EXPECT_EQ(nullptr, name);
  EXPECT_EQ(0u, bytes);
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, select(handle_, nullptr, 0, &name, &bytes)) << "no groups: nothing would launch";
  EXPECT_EQ(nullptr, name);
  if (!has_device()) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, select(handle_, sizes, 4, &name, &bytes));
    EXPECT_EQ(nullptr, name);
    EXPECT_EQ(0u, bytes);
  }
}

/// The fused epilogue passes the argument checks as in a single call (a bias epilogue without
/// its bias is an argument error); the D scale / amax is not offered (one amax over every problem).
/// The queries run nothing: with a device they plan the problems, without one they answer NO_DEVICE.
TEST_F(CApiGrouped, FusedEpiloguesAreCheckedAndTheDScaleIsNotSupported) {
  cutlassLibStatus_t const valid = has_device() ? CUTLASS_LIB_STATUS_SUCCESS : CUTLASS_LIB_STATUS_NO_DEVICE;
  char const *name = nullptr;
  size_t bytes = 0;
  GroupedArgs a;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU));
  cutlassLibStatus_t const gelu = grouped_select(handle_, a, &name, &bytes);
  EXPECT_TRUE(gelu == valid || gelu == CUTLASS_LIB_STATUS_NO_KERNEL) << gelu;   // NO_KERNEL: no dense GELU-only kernel
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_BIAS));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a)) << "a bias epilogue without its bias";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(handle_, a, 2));
  void const *bias = address(0x5000000);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, bias, CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 64));
  cutlassLibStatus_t const with_bias = grouped_select(handle_, a, &name, &bytes);
  EXPECT_TRUE(with_bias == valid || with_bias == CUTLASS_LIB_STATUS_NO_KERNEL) << with_bias;
  // problem e takes batch entry e: a batchStride with which the 5 entries span past 2^63 bytes
  // is an argument error, as in a strided-batched call
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, bias, CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, INT64_MAX / 4));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped_select(handle_, a, &name, &bytes));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  float *amax = static_cast<float *>(mutable_address(0x6000000));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, amax));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(handle_, a, 2));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped_select(handle_, a, &name, &bytes));
}

/// Arguments that once reached undefined behaviour on the host (a sanitizer build's fuzzing, s25),
/// answered as documented: problems with an empty output and a bias batchStride whose later
/// entries lie past 2^63 (the entries are never moved to: nothing is read), an aux epilogue with N
/// = INT64_MIN (a negative size spans nothing: the size check answers), a negative transpose value.
TEST_F(CApiGrouped, EdgeArgumentsFromFuzzingGetTheirStatuses) {
  cutlassLibStatus_t const valid = has_device() ? CUTLASS_LIB_STATUS_SUCCESS : CUTLASS_LIB_STATUS_NO_DEVICE;
  GroupedArgs a;
  for (int64_t &m : a.m_values) m = 0;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_BIAS));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueBias(handle_, address(0x5000000), CUDA_R_16BF,
                                                                  CUTLASS_LIB_VECTOR_PER_ROW, INT64_MAX / 2));
  // Empty problems still need a kernel for their types, layouts and epilogue (gemm_call's order:
  // kernels, then quick returns); groups 1 and 2 (NN, NT) have no bias kernel in the default set.
  cutlassLibStatus_t const empty = grouped(handle_, a);
  EXPECT_TRUE(empty == valid || empty == CUTLASS_LIB_STATUS_NO_KERNEL) << "empty outputs: nothing to read at any entry: "
                                                                        << empty;
  GroupedArgs b;
  b.n_values[0] = INT64_MIN;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x5000000), CUDA_R_16BF, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, b));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  GroupedArgs c;
  c.transa_values[2] = static_cast<cutlassLibOperation_t>(-1);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, c));
}

TEST_F(CApiGrouped, OperandScalesAreForFp8OperandsOnly) {
  // as in a single call: set for bf16 operands, NOT_SUPPORTED before anything runs
  float const *scale = static_cast<float const *>(address(0x5000000));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scale, scale));
  GroupedArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
}

/// Makes the problems e4m3 TN calls (the layouts the fp8 kernels take), bf16 C.
void make_e4m3_tn(GroupedArgs &a) {
  a.Atype = a.Btype = CUDA_R_8F_E4M3;
  for (int64_t g = 0; g < GroupedArgs::kGroups; ++g) {
    a.transa_values[g] = CUTLASS_LIB_OP_T, a.transb_values[g] = CUTLASS_LIB_OP_N;
    a.lda_values[g] = a.k_values[g], a.ldb_values[g] = a.k_values[g], a.ldc_values[g] = a.m_values[g];
  }
}

/// Groups without problems still check the handle's epilogue and scale arguments, as a single
/// call with an empty output does: a misaligned fp8 scale pointer, an aux ld below M.
TEST_F(CApiGrouped, EmptyGroupsStillCheckTheHandlesEpilogueArguments) {
  GroupedArgs a;
  make_e4m3_tn(a);
  for (int64_t &size : a.size_values) size = 0;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, reinterpret_cast<float const *>(0x50000001),
                                                                   nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, a)) << "scale_a off 4 bytes";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, nullptr, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped(handle_, a)) << "no problems, nothing else wrong";
  GroupedArgs b;
  for (int64_t &size : b.size_values) size = 0;
  void *const aux = mutable_address(0x5000000);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, aux, CUDA_R_16BF, 1, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle_, b)) << "ldaux 1 below M = 64";
}

TEST_F(CApiGrouped, OuterVectorScalesAreNotSupported) {
  // fp8 e4m3 operands (TN, bf16 C): one vector of M (or N) scales cannot serve problems of
  // different shapes; refused before anything runs, whatever the device
  float const *vector = static_cast<float const *>(address(0x5000000));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_B, CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F, vector));
  GroupedArgs a;
  make_e4m3_tn(a);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, grouped(handle_, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(handle_, a, 2));
}

// The NoDevice tests run in the ctest entry c_api.no_device (CUDA_VISIBLE_DEVICES=-1).
TEST(CApiGroupedNoDevice, ValidCallsAnswerNoDeviceAfterTheArgumentChecks) {
  if (has_device()) GTEST_SKIP() << "a device is present: ctest entry c_api.no_device runs this with CUDA_VISIBLE_DEVICES=-1";
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  GroupedArgs a;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, grouped(handle, a));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, batched(handle, a, 2));
  // k == 0 with NULL A and B passes the argument checks (they are not read), as in a single call
  GroupedArgs b;
  b.k_values[1] = 0;
  b.A_values[2] = b.B_values[2] = nullptr;   // group 1's one problem
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, grouped(handle, b));
  // an empty output needs the device, as a single call's quick return does
  GroupedArgs c;
  c.m_values[0] = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, grouped(handle, c));
  // no problem at all needs none
  c.size_values[0] = c.size_values[1] = c.size_values[2] = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped(handle, c));
  // per-tensor fp8 scales pass the checks (they apply to every problem); e4m3 TN, bf16 C
  float const *scale = static_cast<float const *>(address(0x5000000));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle, scale, scale));
  GroupedArgs d;
  make_e4m3_tn(d);
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, grouped(handle, d));
  cutlassLibDestroy(handle);
}

// Runs in the ctest entry c_api.grouped_log (CUTLASS_LIB_LOG=1, read once per process).
TEST(CApiGroupedLog, FailuresNameTheirGroupAndProblem) {
  char const *log = std::getenv("CUTLASS_LIB_LOG");
  if (!(log && log[0] && log[0] != '0')) GTEST_SKIP() << "CUTLASS_LIB_LOG is unset: ctest entry c_api.grouped_log runs this with it";
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  GroupedArgs a;
  a.A_values[4] = nullptr;   // group 2, problem 1
  ::testing::internal::CaptureStderr();
  cutlassLibStatus_t const status = grouped(handle, a);
  std::string const printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, status);
  EXPECT_NE(std::string::npos, printed.find("group 2, problem 1: A and B must not be null")) << printed;

  GroupedArgs b;
  b.size_values[1] = -1;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped(handle, b));
  std::string const group_level = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(std::string::npos, group_level.find("group 1: group_size must be >= 0")) << group_level;
  expect_nothing_launched();
  cutlassLibDestroy(handle);
}

/// The route a grouped call takes (needs a device and CUTLASS_LIB_LOG): one launch of a grouped
/// kernel, the 64x32 token tile for decode-sized experts when the build has it, the 128x128 tile
/// for prefill-sized ones, also when the experts' K differ. Results are checked by CApiGroupedGpu
/// (test/gpu/test_grouped.cu).
TEST(CApiGroupedLog, GroupsRunInOneLaunchOfTheTileTheirTokensNeed) {
  if (!has_device()) GTEST_SKIP() << "needs a CUDA device";
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  int64_t constexpr kExperts = 4, kM = 2048, kK = 256;
  void *buffer = nullptr;
  size_t const per_expert = size_t(kM) * kK * 2;   // A; B and C of up to 256 tokens fit as well
  ASSERT_EQ(cudaSuccess, cudaMalloc(&buffer, 3 * kExperts * per_expert));
  cudaMemset(buffer, 0, 3 * kExperts * per_expert);
  auto run = [&](std::vector<int64_t> const &tokens, std::vector<int64_t> const &k) {
    std::vector<cutlassLibOperation_t> transa(kExperts, CUTLASS_LIB_OP_T), transb(kExperts, CUTLASS_LIB_OP_N);
    std::vector<int64_t> m(kExperts, kM), lda(kExperts, kK), ldb(kExperts, kK), ldc(kExperts, kM), size(kExperts, 1);
    std::vector<float> alpha(kExperts, 1.f), beta(kExperts, 0.f);
    std::vector<void const *> A, B;
    std::vector<void *> C;
    char *const base = static_cast<char *>(buffer);
    for (int64_t e = 0; e < kExperts; ++e) {
      A.push_back(base + e * per_expert);
      B.push_back(base + (kExperts + e) * per_expert);
      C.push_back(base + (2 * kExperts + e) * per_expert);
    }
    ::testing::internal::CaptureStderr();
    cutlassLibStatus_t const status = cutlassLibGemmGroupedBatchedEx(
        handle, transa.data(), transb.data(), m.data(), tokens.data(), k.data(), alpha.data(), A.data(), CUDA_R_16BF,
        lda.data(), B.data(), CUDA_R_16BF, ldb.data(), beta.data(), C.data(), CUDA_R_16BF, ldc.data(), kExperts,
        size.data(), CUTLASS_LIB_COMPUTE_32F);
    std::string const printed = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, status);
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
    return printed;
  };
  std::vector<int64_t> const same_k(kExperts, kK);
  std::string const decode = run({3, 0, 16, 1}, same_k);
  if (decode.find("in one launch of") == std::string::npos) {
    cudaFree(buffer);
    cutlassLibDestroy(handle);
    GTEST_SKIP() << "this build has no bf16 TN grouped kernel (the problems ran one by one)";
  }
  if (decode.find("64x32x64_1x1x1_16_tnn_align8_grouped") != std::string::npos) {
    EXPECT_NE(std::string::npos, decode.find("problems in one launch of cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_"
                                             "bf16_64x32x64"))
        << decode;
  }
  std::string const prefill = run({256, 100, 200, 17}, same_k);
  EXPECT_NE(std::string::npos, prefill.find("problems in one launch of cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_"
                                            "bf16_128x128x64"))
      << prefill;
  std::string const mixed_k = run({256, 100, 200, 17}, {256, 64, 136, 8});
  EXPECT_NE(std::string::npos, mixed_k.find("4 problems in one launch of cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_"
                                            "bf16_bf16_128x128x64"))
      << mixed_k;
  cudaFree(buffer);
  cutlassLibDestroy(handle);
}

/// cutlassLibGemmGroupedContiguousEx's answers decided without running anything: a valid bf16
/// expert layer (8 experts of 64 x 32, 96 tokens) on made-up addresses; the offsets in device
/// memory where a GPU is present (made-up without one: they are never read on the host).
struct ContiguousArgs {
  cutlassLibOperation_t transa = CUTLASS_LIB_OP_T, transb = CUTLASS_LIB_OP_N;
  int64_t m = 64, n = 96, k = 32, lda = 32, strideA = 64 * 32, ldb = 32, ldc = 64, group_count = 8;
  float alpha = 1, beta = 0;
  void const *A = address(0x1000000), *B = address(0x2000000);
  void *C = mutable_address(0x3000000);
  int *device_offsets = nullptr;
  int const *offsets = nullptr;
  ContiguousArgs() {
    if (has_device() && cudaMalloc(reinterpret_cast<void **>(&device_offsets), 8 * sizeof(int)) == cudaSuccess) {
      offsets = device_offsets;
    } else {
      cudaGetLastError();
      offsets = static_cast<int const *>(address(0x4000000));
    }
  }
  ~ContiguousArgs() {
    if (device_offsets) cudaFree(device_offsets);
  }
  ContiguousArgs(ContiguousArgs const &) = delete;
  ContiguousArgs &operator=(ContiguousArgs const &) = delete;
};

cutlassLibStatus_t contiguous(cutlassLibHandle_t handle, ContiguousArgs const &a) {
  return cutlassLibGemmGroupedContiguousEx(handle, a.transa, a.transb, a.m, a.n, a.k, &a.alpha, a.A, CUDA_R_16BF,
                                           a.lda, a.strideA, a.B, CUDA_R_16BF, a.ldb, &a.beta, a.C, CUDA_R_16BF, a.ldc,
                                           a.group_count, a.offsets, CUTLASS_LIB_COMPUTE_32F);
}

TEST_F(CApiGrouped, ContiguousArgumentErrorsAreInvalidValue) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, contiguous(nullptr, ContiguousArgs()));
  {
    ContiguousArgs a;
    a.group_count = -1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.strideA = -1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.offsets = nullptr;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.strideA = INT64_MAX;   // the 8 groups' A would span past 2^63 bytes
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.ldc = 63;   // below M, as in cutlassLibGemmEx
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.transb = cutlassLibOperation_t(7);
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.offsets = reinterpret_cast<int const *>(reinterpret_cast<char const *>(a.offsets) + 2);
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a)) << "offsets not 4-byte aligned";
  }
  {
    ContiguousArgs a;
    a.group_count = -1;   // before the type combination, as in a single call
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
              cutlassLibGemmGroupedContiguousEx(handle_, a.transa, a.transb, a.m, a.n, a.k, &a.alpha, a.A, CUDA_R_8I,
                                                a.lda, a.strideA, a.B, CUDA_R_16BF, a.ldb, &a.beta, a.C, CUDA_R_16BF,
                                                a.ldc, a.group_count, a.offsets, CUTLASS_LIB_COMPUTE_32F));
  }
  if (has_device()) {   // offsets in pageable host memory: the kernels could not read them
    ContiguousArgs a;
    int host_offsets[8] = {};
    a.offsets = host_offsets;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a));
  }
}

TEST_F(CApiGrouped, ContiguousEmptyCallsAreSuccessTouchingNothing) {
  ContiguousArgs a;
  a.group_count = 0;
  a.offsets = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, contiguous(handle_, a)) << "no groups";
  ContiguousArgs b;
  b.n = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, contiguous(handle_, b)) << "no tokens";
  // nothing to compute comes before the 32-bit size limits (include/cutlass_lib.h's order)
  ContiguousArgs c;
  c.m = 0;
  c.n = int64_t(1) << 33;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, contiguous(handle_, c)) << "no rows, 2^33 tokens";
  ContiguousArgs d;
  d.group_count = 0;
  d.k = d.lda = d.ldb = int64_t(1) << 32;
  d.strideA = d.m * d.lda;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, contiguous(handle_, d)) << "no groups, K = 2^32";
  // but what a single call would not take is refused even with nothing to compute
  ContiguousArgs e;
  e.m = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED,
            cutlassLibGemmGroupedContiguousEx(handle_, e.transa, e.transb, e.m, e.n, e.k, &e.alpha, e.A, CUDA_R_16BF,
                                              e.lda, e.strideA, e.B, CUDA_R_16BF, e.ldb, &e.beta, e.C,
                                              CUDA_R_8F_E4M3, e.ldc, e.group_count, e.offsets, CUTLASS_LIB_COMPUTE_32F))
      << "an fp8 C without the D scale / amax, no rows";
  float const *scale = static_cast<float const *>(address(0x7000000));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scale, nullptr));
  e.group_count = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, contiguous(handle_, e)) << "an fp8 operand scale on bf16, no groups";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, nullptr, nullptr));
}

TEST_F(CApiGrouped, ContiguousUnsupportedCallsAreNotSupported) {
  {
    ContiguousArgs a;
    a.transb = CUTLASS_LIB_OP_T;   // tokens MN-major
    a.ldb = 96;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.k = 0;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.alpha = 0;   // C = beta * C over columns only the device knows
    a.A = a.B = nullptr;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, contiguous(handle_, a));
  }
  {
    ContiguousArgs a;
    a.group_count = 1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED,
              cutlassLibGemmGroupedContiguousEx(handle_, a.transa, a.transb, a.m, a.n, a.k, &a.alpha, a.A, CUDA_R_8I,
                                                a.lda, a.strideA, a.B, CUDA_R_16BF, a.ldb, &a.beta, a.C, CUDA_R_16BF,
                                                a.ldc, a.group_count, a.offsets, CUTLASS_LIB_COMPUTE_32F))
        << "the type combination";
  }
  {
    ContiguousArgs a;
    float *amax = static_cast<float *>(mutable_address(0x6000000));
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, amax));
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, contiguous(handle_, a)) << "no D scale / amax";
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_BIAS));
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a)) << "a bias epilogue without its bias";
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueBias(handle_, address(0x5000000), CUDA_R_16BF,
                                                                    CUTLASS_LIB_VECTOR_PER_ROW, INT64_MAX / 4));
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a)) << "8 experts' biases past 2^63 bytes";
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueBias(handle_, address(0x5000000), CUDA_R_16BF,
                                                                    CUTLASS_LIB_VECTOR_PER_COLUMN, INT64_MAX / 4));
    EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, contiguous(handle_, a)) << "per column: one packed vector";
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  }
  if (!has_device()) {
    ContiguousArgs a;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, contiguous(handle_, a)) << "valid: then the device";
  }
}

/// The Select queries answer as their calls would, launching and allocating nothing: the handle,
/// null outputs, the argument errors, nothing to do (SUCCESS, no kernel, no workspace), then the
/// device; with a device and the default set, the one launch's grouped kernel and its table.
TEST_F(CApiGrouped, SelectQueriesAnswerAsTheirCallsWithoutRunning) {
  char const *name = "unset";
  size_t bytes = 1;
  auto select_contiguous = [&](ContiguousArgs const &a, char const **kernel, size_t *size) {
    return cutlassLibGemmGroupedContiguousExSelect(handle_, a.transa, a.transb, a.m, a.n, a.k, &a.alpha, a.A,
                                                   CUDA_R_16BF, a.lda, a.strideA, a.B, CUDA_R_16BF, a.ldb, &a.beta,
                                                   a.C, CUDA_R_16BF, a.ldc, a.group_count, a.offsets,
                                                   CUTLASS_LIB_COMPUTE_32F, kernel, size);
  };
  {
    GroupedArgs a;
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, grouped_select(nullptr, a, &name, &bytes));
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped_select(handle_, a, nullptr, &bytes));
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped_select(handle_, a, &name, nullptr));
    a.A_values[4] = nullptr;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, grouped_select(handle_, a, &name, &bytes));
  }
  {
    GroupedArgs a;
    a.group_count = 0;
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped_select(handle_, a, &name, &bytes));
    EXPECT_EQ(nullptr, name);
    EXPECT_EQ(0u, bytes);
  }
  {
    ContiguousArgs a;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select_contiguous(a, nullptr, &bytes));
    a.strideA = -1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select_contiguous(a, &name, &bytes));
  }
  {
    ContiguousArgs a;
    a.group_count = 0;
    name = "unset";
    bytes = 1;
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, select_contiguous(a, &name, &bytes));
    EXPECT_EQ(nullptr, name);
    EXPECT_EQ(0u, bytes);
  }
  GroupedArgs grouped_call;   // every group TN (one grouped kernel takes them all), each its own K
  for (int64_t g = 0; g < GroupedArgs::kGroups; ++g) {
    grouped_call.transa_values[g] = CUTLASS_LIB_OP_T;
    grouped_call.transb_values[g] = CUTLASS_LIB_OP_N;
    grouped_call.lda_values[g] = grouped_call.ldb_values[g] = grouped_call.k_values[g];
  }
  ContiguousArgs contiguous_call;
  cutlassLibStatus_t const grouped_status = grouped_select(handle_, grouped_call, &name, &bytes);
  char const *contiguous_name = nullptr;
  size_t contiguous_bytes = 0;
  cutlassLibStatus_t const contiguous_status = select_contiguous(contiguous_call, &contiguous_name, &contiguous_bytes);
  if (!has_device()) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, grouped_status);
    EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE, contiguous_status);
    return;
  }
  if (contiguous_status == CUTLASS_LIB_STATUS_NO_KERNEL || contiguous_status == CUTLASS_LIB_STATUS_ARCH_MISMATCH) {
    GTEST_SKIP() << "no bf16 TN grouped kernel for this device in this build";
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, grouped_status);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, contiguous_status);
  ASSERT_NE(nullptr, name) << "a grouped kernel exists (the contiguous call has one), yet the problems go one by one";
  EXPECT_NE(std::string::npos, std::string(name).find("_grouped")) << name;
  // a group table of the five problems: four 128-byte tensor maps each, at least
  EXPECT_GE(bytes, size_t(GroupedArgs::kProblems) * 4 * 128);
  ASSERT_NE(nullptr, contiguous_name);
  EXPECT_NE(std::string::npos, std::string(contiguous_name).find("_grouped")) << contiguous_name;
  EXPECT_GE(contiguous_bytes, size_t(contiguous_call.group_count) * 4 * 128);
}

}  // namespace
