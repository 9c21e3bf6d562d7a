/// The framework hooks of the C API (cutlass_lib.h): the scalar pointer mode, a caller-owned
/// workspace and the workspace-size query, as far as they are decided without a device (made-up
/// addresses, never dereferenced). The GPU side is in test/gpu/test_handle.cu (CApiHooksGpu).
#include <gtest/gtest.h>

#include <cstdint>

#include "cutlass_lib.h"
#include "has_device.h"

namespace {

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }
void *mutable_address(uintptr_t a) { return reinterpret_cast<void *>(a); }

class CApiHooks : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_)); }
  void TearDown() override { cutlassLibDestroy(handle_); }

  /// The workspace query of a bf16 TN call (made-up addresses).
  cutlassLibStatus_t workspace_of(int64_t m, int64_t n, int64_t k, int64_t lda, size_t *bytes) {
    float const alpha = 1, beta = 0;
    return cutlassLibGetWorkspaceSize(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha,
                                      address(0x100000), CUDA_R_16BF, lda, 0, address(0x200000), CUDA_R_16BF, k, 0,
                                      &beta, mutable_address(0x300000), CUDA_R_16BF, m > 0 ? m : 1, 0, 1,
                                      CUTLASS_LIB_COMPUTE_32F, bytes);
  }

  /// The select query of a 64^3 TN call of operand type `ab` into bf16 (made-up addresses).
  cutlassLibStatus_t select(cudaDataType_t ab) {
    float const alpha = 1, beta = 0;
    char const *name = nullptr;
    return cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha, address(0x100000),
                                  ab, 64, address(0x200000), ab, 64, &beta, mutable_address(0x300000), CUDA_R_16BF,
                                  64, CUTLASS_LIB_COMPUTE_32F, &name);
  }

  cutlassLibHandle_t handle_ = nullptr;
};

TEST_F(CApiHooks, PointerModeRoundTripsAndRejectsOtherValues) {
  cutlassLibPointerMode_t mode = CUTLASS_LIB_POINTER_MODE_DEVICE;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibGetPointerMode(handle_, &mode));
  EXPECT_EQ(CUTLASS_LIB_POINTER_MODE_HOST, mode) << "host scalars by default, as cuBLAS";
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetPointerMode(handle_, CUTLASS_LIB_POINTER_MODE_DEVICE));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibGetPointerMode(handle_, &mode));
  EXPECT_EQ(CUTLASS_LIB_POINTER_MODE_DEVICE, mode);
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetPointerMode(handle_, static_cast<cutlassLibPointerMode_t>(2)));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibGetPointerMode(handle_, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetPointerMode(nullptr, CUTLASS_LIB_POINTER_MODE_HOST));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibGetPointerMode(nullptr, &mode));
  // the values cuBLAS gives CUBLAS_POINTER_MODE_HOST / _DEVICE
  EXPECT_EQ(0, int(CUTLASS_LIB_POINTER_MODE_HOST));
  EXPECT_EQ(1, int(CUTLASS_LIB_POINTER_MODE_DEVICE));
}

TEST_F(CApiHooks, SetWorkspaceChecksItsArguments) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetWorkspace(nullptr, mutable_address(0x1000), 4096));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetWorkspace(handle_, nullptr, 4096)) << "null with bytes";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetWorkspace(handle_, mutable_address(0x1010), 4096))
      << "not 256-byte aligned";
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, mutable_address(0x1000), 4096));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, mutable_address(0x2000), 0))
      << "a caller's workspace of 0 bytes: every call that needs one answers WORKSPACE_TOO_SMALL";
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetWorkspace(handle_, nullptr, 0)) << "back to the handle's own";
}

TEST_F(CApiHooks, WorkspaceQueryChecksArgumentsBeforeTheDevice) {
  size_t bytes = 123;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, workspace_of(64, 64, 64, 64, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, workspace_of(64, 64, 64, 32, &bytes)) << "lda < k (A transposed)";
  EXPECT_EQ(0u, bytes) << "zeroed before the checks";
  // an empty output needs nothing (without a device the call answers NO_DEVICE first, whatever the sizes)
  cutlassLibStatus_t const empty = workspace_of(0, 64, 64, 64, &bytes);
  EXPECT_TRUE(empty == CUTLASS_LIB_STATUS_SUCCESS || empty == CUTLASS_LIB_STATUS_NO_DEVICE) << empty;
  EXPECT_EQ(0u, bytes);
  float const alpha = 1, beta = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibGetWorkspaceSize(nullptr, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha,
                                       address(0x100000), CUDA_R_16BF, 64, 0, address(0x200000), CUDA_R_16BF, 64, 0,
                                       &beta, mutable_address(0x300000), CUDA_R_16BF, 64, 0, 1,
                                       CUTLASS_LIB_COMPUTE_32F, &bytes));
}

TEST(CApiHooksNoDevice, CallsAnswerNoDeviceAfterTheArgumentChecks) {
  // ctest's c_api.no_device runs it with CUDA_VISIBLE_DEVICES=-1, so that it holds on GPU machines too
  if (cutlass_lib_c_api_test::has_device()) GTEST_SKIP() << "a device is present: ctest entry c_api.no_device runs this with CUDA_VISIBLE_DEVICES=-1";
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  float const alpha = 1, beta = 0;
  size_t bytes = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_DEVICE,
            cutlassLibGetWorkspaceSize(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha,
                                       address(0x100000), CUDA_R_16BF, 64, 0, address(0x200000), CUDA_R_16BF, 64, 0,
                                       &beta, mutable_address(0x300000), CUDA_R_16BF, 64, 0, 1,
                                       CUTLASS_LIB_COMPUTE_32F, &bytes));
  cutlassLibDestroy(handle);
}

TEST(CApiHooksStatus, WorkspaceTooSmallHasANameAndASentence) {
  EXPECT_STREQ("CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL", cutlassLibGetStatusName(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL));
  EXPECT_STRNE("unknown status", cutlassLibGetStatusString(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL));
  EXPECT_EQ(102, int(CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL));
}

}  // namespace

namespace {

/// Operand scales (fp8): the setter's handle check, and NOT_SUPPORTED for a call of other types
/// while a scale is set, decided before the device (select queries only: nothing launches on
/// the made-up addresses, also on a GPU machine).
TEST_F(CApiHooks, OperandScalesAreForFp8OperandsOnly) {
  float const *scale = reinterpret_cast<float const *>(address(0x500000));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetOperandScales(nullptr, scale, scale));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scale, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "scale_a set for bf16 operands";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, nullptr, nullptr));
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "both NULL: off again";
  // an fp8 call with scales gets past the check (to the device or the kernels)
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetOperandScales(handle_, scale, scale));
  cutlassLibStatus_t const fp8 = select(CUDA_R_8F_E4M3);
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, fp8);
  EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, fp8);
}

/// cutlassLibSetMatrixScale's statuses (cuBLASLt's scale modes): scalars, outer vectors and block
/// scales set, bad matrices / modes / a NULL vector or block scale INVALID_VALUE (and
/// nothing changes then); a scale set through it is an operand scale like SetOperandScales'.
TEST_F(CApiHooks, MatrixScaleModes) {
  float const *scale = reinterpret_cast<float const *>(address(0x500000));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibSetMatrixScale(nullptr, CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F, scale));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibSetMatrixScale(handle_, cutlassLibMatrix_t(2), CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F, scale));
  for (int mode : {1, 2, 6, -1}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
              cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_A, cutlassLibMatrixScale_t(mode), scale))
        << "mode " << mode;
  }
  for (auto mode : {CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F, CUTLASS_LIB_MATRIX_SCALE_VEC128_32F,
                    CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_A, mode, nullptr))
        << "mode " << int(mode) << " without its scales";
  }
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "the failed calls set nothing";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_B, CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F, scale));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "an outer vector set for bf16 operands";
  cutlassLibStatus_t const fp8 = select(CUDA_R_8F_E4M3);
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, fp8);
  EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, fp8);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_B, CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F, nullptr));
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "NULL turns the scale off";
  // the block modes are set like the others (their kernels: the block-scaled sm90 ones)
  for (auto mode : {CUTLASS_LIB_MATRIX_SCALE_VEC128_32F, CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F}) {
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_A, mode, scale));
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "a block scale set for bf16 operands";
    cutlassLibStatus_t const blocks = select(CUDA_R_8F_E4M3);
    EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, blocks) << "mode " << int(mode);
    EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, blocks) << "mode " << int(mode);
  }
  // a scale pointer off 4 bytes is INVALID_VALUE at the call (the kernel would fault loading it)
  float const *off = reinterpret_cast<float const *>(address(0x500002));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_SCALE_VEC128_32F, off));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(CUDA_R_8F_E4M3)) << "a scale pointer off 4 bytes";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle_, CUTLASS_LIB_MATRIX_A, CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F, nullptr));
}

/// cutlassLibSetAccumulation: FAST and PRECISE set, other values INVALID_VALUE; PRECISE is for fp8
/// operands (NOT_SUPPORTED for bf16 while it is set), FAST turns it off again.
TEST_F(CApiHooks, AccumulationModes) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetAccumulation(nullptr, CUTLASS_LIB_ACCUMULATION_PRECISE));
  for (int mode : {2, -1}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetAccumulation(handle_, cutlassLibAccumulation_t(mode)));
  }
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "the failed calls set nothing";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetAccumulation(handle_, CUTLASS_LIB_ACCUMULATION_PRECISE));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "precise accumulation for bf16 operands";
  cutlassLibStatus_t const fp8 = select(CUDA_R_8F_E4M3);
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, fp8);
  EXPECT_NE(CUTLASS_LIB_STATUS_INVALID_VALUE, fp8);
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetAccumulation(handle_, CUTLASS_LIB_ACCUMULATION_FAST));
  EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(CUDA_R_16BF)) << "FAST: off again";
}

}  // namespace
