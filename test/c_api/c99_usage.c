/* The C API compiles as strict C99 and links against libcutlass_lib.so. Runs anywhere: the
 * calls below need no GPU (a GEMM would answer NO_DEVICE without one). Exit status 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "cutlass_lib.h"

static int failures = 0;

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                \
    }                                                            \
  } while (0)

int main(void) {
  cutlassLibHandle_t handle = NULL;
  cudaStream_t stream = NULL;
  float alpha = 1.0f, beta = 0.0f;
  size_t i, count;
  const char *name = NULL;

  CHECK(cutlassLibGetVersion() == CUTLASS_LIB_VERSION_MAJOR * 10000 + CUTLASS_LIB_VERSION_MINOR * 100 +
                                      CUTLASS_LIB_VERSION_PATCH);
  CHECK(strcmp(cutlassLibGetStatusName(CUTLASS_LIB_STATUS_INVALID_VALUE), "CUTLASS_LIB_STATUS_INVALID_VALUE") == 0);
  CHECK(cutlassLibGetStatusString(CUTLASS_LIB_STATUS_SUCCESS) != NULL);

  count = cutlassLibGetKernelCount();
  CHECK(count > 0);
  for (i = 0; i < count; ++i) CHECK(cutlassLibGetKernelName(i) != NULL);
  CHECK(cutlassLibGetKernelName(count) == NULL);

  CHECK(cutlassLibCreate(&handle) == CUTLASS_LIB_STATUS_SUCCESS);
  CHECK(cutlassLibSetStream(handle, stream) == CUTLASS_LIB_STATUS_SUCCESS);
  CHECK(cutlassLibGetStream(handle, &stream) == CUTLASS_LIB_STATUS_SUCCESS);
  /* m < 0: rejected before anything touches the (null) device pointers */
  CHECK(cutlassLibGemmEx(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, -1, 4, 4, &alpha, NULL, CUDA_R_32F, 4, NULL,
                         CUDA_R_32F, 4, &beta, NULL, CUDA_R_32F, 4, CUTLASS_LIB_COMPUTE_32F) ==
        CUTLASS_LIB_STATUS_INVALID_VALUE);
  CHECK(cutlassLibGemmExSelect(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 4, 4, 4, &alpha, NULL, CUDA_R_32F, 4, NULL,
                               CUDA_R_32F, 4, &beta, NULL, CUDA_R_32F, 4, CUTLASS_LIB_COMPUTE_32F,
                               &name) == CUTLASS_LIB_STATUS_INVALID_VALUE);
  /* pointer-array batched and grouped GEMMs: C arrays convert to the const-qualified parameters */
  {
    const void *a_array[2] = {NULL, NULL}, *b_array[2] = {NULL, NULL};
    void *c_array[2] = {NULL, NULL};
    cutlassLibOperation_t trans[1] = {CUTLASS_LIB_OP_N};
    int64_t sizes[1] = {4}, lds[1] = {4}, group_size[1] = {2};
    float alphas[1] = {1.0f}, betas[1] = {0.0f};
    /* m < 0: rejected before any pointer is read */
    CHECK(cutlassLibGemmBatchedEx(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, -1, 4, 4, &alpha, a_array, CUDA_R_32F, 4,
                                  b_array, CUDA_R_32F, 4, &beta, c_array, CUDA_R_32F, 4, 2,
                                  CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_INVALID_VALUE);
    /* NULL C pointers in a non-empty problem */
    CHECK(cutlassLibGemmGroupedBatchedEx(handle, trans, trans, sizes, sizes, sizes, alphas, a_array, CUDA_R_32F, lds,
                                         b_array, CUDA_R_32F, lds, betas, c_array, CUDA_R_32F, lds, 1, group_size,
                                         CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_INVALID_VALUE);
    /* no groups: nothing to do */
    CHECK(cutlassLibGemmGroupedBatchedEx(handle, NULL, NULL, NULL, NULL, NULL, NULL, NULL, CUDA_R_32F, NULL, NULL,
                                         CUDA_R_32F, NULL, NULL, NULL, CUDA_R_32F, NULL, 0, NULL,
                                         CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_SUCCESS);
    /* the plan of a call without groups: no kernel, no workspace */
    {
      size_t bytes = 1;
      name = "unset";
      CHECK(cutlassLibGemmGroupedBatchedExSelect(handle, NULL, NULL, NULL, NULL, NULL, NULL, NULL, CUDA_R_32F, NULL,
                                                 NULL, CUDA_R_32F, NULL, NULL, NULL, CUDA_R_32F, NULL, 0, NULL,
                                                 CUTLASS_LIB_COMPUTE_32F, &name, &bytes) == CUTLASS_LIB_STATUS_SUCCESS);
      CHECK(name == NULL && bytes == 0);
      CHECK(cutlassLibGemmGroupedContiguousExSelect(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 8, 8, 8, &alpha, NULL,
                                                    CUDA_R_16BF, 8, 64, NULL, CUDA_R_16BF, 8, &beta, NULL, CUDA_R_16BF,
                                                    8, 0, NULL, CUTLASS_LIB_COMPUTE_32F, &name,
                                                    NULL) == CUTLASS_LIB_STATUS_INVALID_VALUE);
      name = "unset";
      CHECK(cutlassLibGemmGroupedDeviceSizesExSelect(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, NULL, &alpha, NULL,
                                                     CUDA_R_16BF, NULL, NULL, CUDA_R_16BF, NULL, &beta, NULL,
                                                     CUDA_R_16BF, NULL, 0, 0, CUTLASS_LIB_COMPUTE_32F, &name,
                                                     &bytes) == CUTLASS_LIB_STATUS_SUCCESS);
      CHECK(name == NULL && bytes == 0);
    }
  }
  /* fused epilogues: the enum, the setters and their validation compile and answer in C99 */
  {
    cutlassLibEpilogue_t epilogue = CUTLASS_LIB_EPILOGUE_DEFAULT;
    float bias_storage[4];
    CHECK(cutlassLibGetEpilogue(handle, &epilogue) == CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(epilogue == CUTLASS_LIB_EPILOGUE_DEFAULT);
    CHECK(cutlassLibSetEpilogue(handle, CUTLASS_LIB_EPILOGUE_GELU_BIAS) == CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(cutlassLibSetEpilogue(handle, (cutlassLibEpilogue_t)3) == CUTLASS_LIB_STATUS_INVALID_VALUE);
    CHECK(cutlassLibGetEpilogue(handle, &epilogue) == CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(epilogue == CUTLASS_LIB_EPILOGUE_GELU_BIAS);
    CHECK(cutlassLibSetEpilogueBias(handle, bias_storage, CUDA_R_32F, CUTLASS_LIB_VECTOR_PER_ROW, 0) ==
          CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(cutlassLibSetEpilogueBias(handle, bias_storage, CUDA_R_64F, CUTLASS_LIB_VECTOR_PER_ROW, 0) ==
          CUTLASS_LIB_STATUS_NOT_SUPPORTED);
    CHECK(cutlassLibSetEpilogueAux(handle, NULL, CUDA_R_16BF, 0, 0) == CUTLASS_LIB_STATUS_INVALID_VALUE);
    CHECK(cutlassLibSetEpilogueAlphaVector(handle, NULL, CUTLASS_LIB_VECTOR_PER_COLUMN, 0) == CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(cutlassLibSetEpilogueScaleAmax(handle, NULL, NULL) == CUTLASS_LIB_STATUS_SUCCESS);
    CHECK(cutlassLibSetEpilogueClamp(handle, 1.0f, -1.0f) == CUTLASS_LIB_STATUS_INVALID_VALUE);
    CHECK(cutlassLibSetEpilogue(NULL, CUTLASS_LIB_EPILOGUE_RELU) == CUTLASS_LIB_STATUS_NOT_INITIALIZED);
    /* k == 0 with a fused epilogue: NOT_SUPPORTED before any device work (pointers never read) */
    CHECK(cutlassLibGemmEx(handle, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 4, 4, 0, &alpha, NULL, CUDA_R_32F, 4, NULL,
                           CUDA_R_32F, 1, &beta, bias_storage, CUDA_R_32F, 4, CUTLASS_LIB_COMPUTE_32F) ==
          CUTLASS_LIB_STATUS_NOT_SUPPORTED);
    CHECK(cutlassLibSetEpilogue(handle, CUTLASS_LIB_EPILOGUE_DEFAULT) == CUTLASS_LIB_STATUS_SUCCESS);
  }
  CHECK(cutlassLibDestroy(handle) == CUTLASS_LIB_STATUS_SUCCESS);

  printf("c99_usage: %zu kernels, %d failure(s)\n", count, failures);
  return failures == 0 ? 0 : 1;
}
