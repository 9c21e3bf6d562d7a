/// The fused-epilogue part of the C API (cutlass_lib.h): argument validation of
/// cutlassLibSetEpilogue* and the statuses of fused GemmEx calls that are decided before any
/// device work. None of these needs a GPU (pointers are made-up addresses that are never
/// dereferenced); the GPU side is in test/gpu/test_epilogues.cu (CApiEpilogueGpu).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "cutlass_lib.h"

namespace {

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }
void *mutable_address(uintptr_t a) { return reinterpret_cast<void *>(a); }

class CApiEpilogue : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_)); }
  void TearDown() override { cutlassLibDestroy(handle_); }

  cutlassLibEpilogue_t current() {
    cutlassLibEpilogue_t e = static_cast<cutlassLibEpilogue_t>(-1);
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibGetEpilogue(handle_, &e));
    return e;
  }

  /// A bf16 TN GemmEx (C bf16, column-major) with made-up addresses; k as given.
  cutlassLibStatus_t gemm(int64_t m, int64_t n, int64_t k, float alpha = 1, void const *A = address(0x100000),
                          void const *B = address(0x200000)) {
    float const beta = 0;
    int64_t const ld = k > 0 ? k : 1;
    return cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A, CUDA_R_16BF, ld, B,
                            CUDA_R_16BF, ld, &beta, mutable_address(0x300000), CUDA_R_16BF, m > 0 ? m : 1,
                            CUTLASS_LIB_COMPUTE_32F);
  }
  cutlassLibStatus_t select(int64_t m, int64_t n, int64_t k, char const **name) {
    float const alpha = 1, beta = 0;
    int64_t const ld = k > 0 ? k : 1;
    return cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, address(0x100000),
                                  CUDA_R_16BF, ld, address(0x200000), CUDA_R_16BF, ld, &beta,
                                  mutable_address(0x300000), CUDA_R_16BF, m > 0 ? m : 1, CUTLASS_LIB_COMPUTE_32F,
                                  name);
  }

  cutlassLibHandle_t handle_ = nullptr;
};

constexpr cutlassLibEpilogue_t kEveryEpilogue[] = {
    CUTLASS_LIB_EPILOGUE_DEFAULT,       CUTLASS_LIB_EPILOGUE_RELU,         CUTLASS_LIB_EPILOGUE_BIAS,
    CUTLASS_LIB_EPILOGUE_RELU_BIAS,     CUTLASS_LIB_EPILOGUE_GELU,         CUTLASS_LIB_EPILOGUE_GELU_BIAS,
    CUTLASS_LIB_EPILOGUE_GELU_AUX,      CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS, CUTLASS_LIB_EPILOGUE_GELU_ERF,
    CUTLASS_LIB_EPILOGUE_GELU_ERF_BIAS, CUTLASS_LIB_EPILOGUE_SILU,         CUTLASS_LIB_EPILOGUE_SILU_BIAS,
    CUTLASS_LIB_EPILOGUE_SIGMOID,       CUTLASS_LIB_EPILOGUE_SIGMOID_BIAS, CUTLASS_LIB_EPILOGUE_CLAMP,
    CUTLASS_LIB_EPILOGUE_CLAMP_BIAS,
};

/// Every setter and the getter answer NOT_INITIALIZED for a null handle.
TEST(CApiEpilogueNullHandle, EverySetterIsNotInitialized) {
  cutlassLibEpilogue_t e;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetEpilogue(nullptr, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibGetEpilogue(nullptr, &e));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibSetEpilogueBias(nullptr, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibSetEpilogueAux(nullptr, mutable_address(0x600000), CUDA_R_16BF, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibSetEpilogueAlphaVector(nullptr, nullptr, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetEpilogueScaleAmax(nullptr, nullptr, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED, cutlassLibSetEpilogueClamp(nullptr, 0.f, 1.f));
}

TEST_F(CApiEpilogue, DefaultIsThePlainEpilogue) { EXPECT_EQ(CUTLASS_LIB_EPILOGUE_DEFAULT, current()); }

TEST_F(CApiEpilogue, EveryEnumeratorRoundTrips) {
  for (cutlassLibEpilogue_t e : kEveryEpilogue) {
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, e)) << int(e);
    EXPECT_EQ(e, current());
  }
}

/// cuBLASLt-valued enum: the values are the documented ones (bit 4 bias, bit 128 aux).
TEST_F(CApiEpilogue, EnumValuesMatchCublasLt) {
  EXPECT_EQ(1, CUTLASS_LIB_EPILOGUE_DEFAULT);
  EXPECT_EQ(2, CUTLASS_LIB_EPILOGUE_RELU);
  EXPECT_EQ(4, CUTLASS_LIB_EPILOGUE_BIAS);
  EXPECT_EQ(6, CUTLASS_LIB_EPILOGUE_RELU_BIAS);
  EXPECT_EQ(32, CUTLASS_LIB_EPILOGUE_GELU);
  EXPECT_EQ(36, CUTLASS_LIB_EPILOGUE_GELU_BIAS);
  EXPECT_EQ(160, CUTLASS_LIB_EPILOGUE_GELU_AUX);
  EXPECT_EQ(164, CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS);
}

/// Values outside the enum (including cuBLASLt enumerators cutlass_lib does not offer, e.g.
/// RELU_AUX = 130, DRELU = 136, BGRADA = 256) are INVALID_VALUE and leave the epilogue as it was.
TEST_F(CApiEpilogue, UnknownValuesAreInvalidAndChangeNothing) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  for (int bad : {0, 3, 5, 8, 16, 128, 130, 132, 136, 256, 512, 0x50000, -1}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogue(handle_, static_cast<cutlassLibEpilogue_t>(bad)))
        << bad;
  }
  EXPECT_EQ(CUTLASS_LIB_EPILOGUE_GELU_BIAS, current());
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibGetEpilogue(handle_, nullptr));
}

/// Bias types: 32F, 16F and 16BF; every other cudaDataType_t is NOT_SUPPORTED.
TEST_F(CApiEpilogue, BiasTypes) {
  for (cudaDataType_t t : {CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueBias(handle_, address(0x500000), t, CUTLASS_LIB_VECTOR_PER_ROW, 0))
        << int(t);
  }
  for (cudaDataType_t t : {CUDA_R_64F, CUDA_R_8I, CUDA_R_32I, CUDA_R_8U, CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_C_32F,
                           CUDA_R_16I}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED,
              cutlassLibSetEpilogueBias(handle_, address(0x500000), t, CUTLASS_LIB_VECTOR_PER_ROW, 0))
        << int(t);
  }
}

TEST_F(CApiEpilogue, BiasModeAndBatchStride) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_COLUMN, 1000));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, static_cast<cutlassLibVectorMode_t>(2), 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, static_cast<cutlassLibVectorMode_t>(-1), 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, -1));
}

TEST_F(CApiEpilogue, AuxArguments) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_32F, 1, 4096));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16F, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 0, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, -5, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 64, -1));
  for (cudaDataType_t t : {CUDA_R_64F, CUDA_R_8I, CUDA_R_8F_E4M3, CUDA_R_32I}) {
    EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), t, 64, 0))
        << int(t);
  }
}

TEST_F(CApiEpilogue, AlphaVectorArguments) {
  float const *v = static_cast<float const *>(address(0x700000));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAlphaVector(handle_, v, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAlphaVector(handle_, v, CUTLASS_LIB_VECTOR_PER_COLUMN, 77));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAlphaVector(handle_, nullptr, CUTLASS_LIB_VECTOR_PER_ROW, 0))
      << "NULL turns the piece off";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibSetEpilogueAlphaVector(handle_, v, static_cast<cutlassLibVectorMode_t>(7), 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueAlphaVector(handle_, v, CUTLASS_LIB_VECTOR_PER_ROW, -2));
}

TEST_F(CApiEpilogue, ScaleAmaxArguments) {
  float const *scale = static_cast<float const *>(address(0x800000));
  float *amax = static_cast<float *>(mutable_address(0x800100));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, scale, amax));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, amax));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, scale, nullptr));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
}

TEST_F(CApiEpilogue, ClampBounds) {
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueClamp(handle_, -1.f, 1.f));
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueClamp(handle_, 0.5f, 0.5f)) << "lo == hi is allowed";
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueClamp(handle_, -INFINITY, INFINITY));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueClamp(handle_, 1.f, -1.f));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueClamp(handle_, NAN, 1.f));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, cutlassLibSetEpilogueClamp(handle_, 0.f, NAN));
}

/// A _BIAS epilogue without a bias: INVALID_VALUE at the call, with or without a GPU (no bias
/// type set at all, and a type set with a NULL pointer).
TEST_F(CApiEpilogue, BiasEpilogueWithoutBiasIsInvalidValue) {
  char const *name = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(64, 64, 64, &name));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, nullptr, CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(64, 64, 64, &name));
}

/// A bias, aux or alpha vector not aligned to its element size: INVALID_VALUE (the kernels would
/// fault on its loads / stores).
TEST_F(CApiEpilogue, MisalignedVectorsAreInvalidValue) {
  char const *name = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 64, 0));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500001), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64)) << "bf16 bias at an odd address";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, select(64, 64, 64, &name));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500002), CUDA_R_32F, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64)) << "f32 bias 2 bytes off";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500002), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600001), CUDA_R_16BF, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64)) << "bf16 aux at an odd address";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueAlphaVector(handle_, reinterpret_cast<float const *>(address(0x500002)),
                                             CUTLASS_LIB_VECTOR_PER_ROW, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64)) << "alpha vector 2 bytes off";
}

/// An _AUX epilogue without aux set: INVALID_VALUE; with ldaux < m: INVALID_VALUE.
TEST_F(CApiEpilogue, AuxEpilogueWithoutAuxIsInvalidValue) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 32, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64)) << "ldaux 32 < m 64";
}

/// The epilogue's operand errors come before the type check (cutlass_lib.h's order): with a
/// type combination outside the table (f32 x f16) they are still INVALID_VALUE.
TEST_F(CApiEpilogue, OperandErrorsComeBeforeTheTypeCheck) {
  float const alpha = 1, beta = 0;
  auto const mixed_types = [&] {
    return cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha, address(0x100000),
                            CUDA_R_32F, 64, address(0x200000), CUDA_R_16F, 64, &beta, mutable_address(0x300000),
                            CUDA_R_16BF, 64, CUTLASS_LIB_COMPUTE_32F);
  };
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, mixed_types()) << "plain: the type check answers";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, mixed_types()) << "a _BIAS epilogue without a bias";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, mixed_types()) << "an _AUX epilogue without aux";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 32, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, mixed_types()) << "ldaux 32 < m 64";
}

/// Bias and alpha-vector batch strides with which batch 3 would lie past 2^63 bytes:
/// INVALID_VALUE before anything launches (as the operands' and the aux output's strides).
TEST_F(CApiEpilogue, VectorBatchStridesSpanningPast63BitsAreInvalid) {
  float const alpha = 1, beta = 0;
  auto const batched = [&] {
    return cutlassLibGemmStridedBatchedEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha,
                                          address(0x100000), CUDA_R_16BF, 64, 4096, address(0x200000), CUDA_R_16BF,
                                          64, 4096, &beta, mutable_address(0x300000), CUDA_R_16BF, 64, 4096,
                                          /*batchCount=*/3, CUTLASS_LIB_COMPUTE_32F);
  };
  int64_t const huge = INT64_MAX / 2;   // 2 x stride alone passes 2^63 elements
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, huge));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched()) << "bias";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueAlphaVector(handle_, static_cast<float const *>(address(0x700000)),
                                             CUTLASS_LIB_VECTOR_PER_COLUMN, int64_t(1) << 61));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched()) << "alpha vector: 2 x 2^61 f32 = 2^64 bytes";
}

/// The vector span follows the broadcast (m values per row, n per column) and counts only when D
/// is not empty. The calls that pass the span check stop at k > 2^31 - 1 (NOT_SUPPORTED, a later
/// check), so nothing launches on a GPU either.
TEST_F(CApiEpilogue, VectorSpanFollowsTheBroadcastAndAnEmptyOutputSpansNothing) {
  float const alpha = 1, beta = 0;
  auto const batched = [&](int64_t m, int64_t n, int64_t k) {
    return cutlassLibGemmStridedBatchedEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha,
                                          address(0x100000), CUDA_R_16BF, k, 0, address(0x200000), CUDA_R_16BF, k, 0,
                                          &beta, mutable_address(0x300000), CUDA_R_16BF, m > 0 ? m : 1, 0,
                                          /*batchCount=*/2, CUTLASS_LIB_COMPUTE_32F);
  };
  int64_t const k_too_large = int64_t(1) << 31;
  // batch 1 starts 2^62 - 65 bf16 elements in: 64 more values end at 2^63 - 2 bytes, 128 more pass it
  int64_t const stride = (int64_t(1) << 62) - 65;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, stride));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(64, 128, k_too_large)) << "per row: 64 values fit";
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(128, 64, k_too_large)) << "per row: 128 values do not";
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_COLUMN, stride));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, batched(64, 128, k_too_large)) << "per column: 128 values do not";
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(128, 64, k_too_large)) << "per column: 64 values fit";
  // an empty D reads no bias, whatever its stride (and the pointer may be null)
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, nullptr, CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_COLUMN, INT64_MAX / 2));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(0, 64, k_too_large));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, batched(64, 0, k_too_large));
}

/// The epilogue's INVALID_VALUEs come before the NOT_SUPPORTED size checks (m above 2^31 - 1).
TEST_F(CApiEpilogue, OperandErrorsComeBeforeTheSizeChecks) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_AUX));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, mutable_address(0x600000), CUDA_R_16BF, 10, 0));
  float const alpha = 1, beta = 0;
  int64_t const m = int64_t(1) << 31;
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE,
            cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, 64, 64, &alpha, address(0x100000),
                             CUDA_R_16BF, 64, address(0x200000), CUDA_R_16BF, 64, &beta, mutable_address(0x300000),
                             CUDA_R_16BF, m, CUTLASS_LIB_COMPUTE_32F))
      << "ldaux 10 < m";
}

/// k == 0 with a fused epilogue (m, n > 0): NOT_SUPPORTED, for GemmEx and GemmExSelect.
TEST_F(CApiEpilogue, FusedCallWithKZeroIsNotSupported) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetEpilogueBias(handle_, address(0x500000), CUDA_R_16BF, CUTLASS_LIB_VECTOR_PER_ROW, 0));
  char const *name = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(64, 64, 0));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(64, 64, 0, &name));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, gemm(64, 64, 0)) << "an activation alone is fused too";
}

/// A fused epilogue always runs its kernel, so alpha == 0 does not excuse null A or B.
TEST_F(CApiEpilogue, FusedCallWithAlphaZeroStillNeedsAAndB) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(64, 64, 64, /*alpha=*/0.f, nullptr, nullptr));
}

/// fp8 outputs (16-bit or e4m3 operands) without the D scale / amax piece: NOT_SUPPORTED, named
/// before any device work; with it, the call passes that check (a device-less machine answers
/// NO_DEVICE, a build without the kernel NO_KERNEL, never NOT_SUPPORTED).
TEST_F(CApiEpilogue, Fp8OutputsNeedTheScaleAmaxPiece) {
  float const alpha = 1, beta = 0;
  char const *name = nullptr;
  for (cudaDataType_t in : {CUDA_R_16BF, CUDA_R_16F, CUDA_R_8F_E4M3}) {
    for (cudaDataType_t out : {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2}) {
      auto call = [&] {
        return cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha,
                                      address(0x100000), in, 64, address(0x200000), in, 64, &beta,
                                      mutable_address(0x300000), out, 64, CUTLASS_LIB_COMPUTE_32F, &name);
      };
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
      EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, call()) << in << " -> " << out;
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibSetEpilogueScaleAmax(handle_, nullptr, static_cast<float *>(mutable_address(0x400000))));
      EXPECT_NE(CUTLASS_LIB_STATUS_NOT_SUPPORTED, call()) << in << " -> " << out;
    }
  }
}

/// The BLAS checks still come first (m < 0, null handle) with an epilogue set.
TEST_F(CApiEpilogue, BlasChecksStillApply) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  EXPECT_EQ(CUTLASS_LIB_STATUS_INVALID_VALUE, gemm(-1, 64, 64));
  float const alpha = 1, beta = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_INITIALIZED,
            cutlassLibGemmEx(nullptr, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha, address(0x100000),
                             CUDA_R_16BF, 64, address(0x200000), CUDA_R_16BF, 64, &beta, mutable_address(0x300000),
                             CUDA_R_16BF, 64, CUTLASS_LIB_COMPUTE_32F));
}

}  // namespace
