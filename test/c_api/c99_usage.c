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
  CHECK(cutlassLibDestroy(handle) == CUTLASS_LIB_STATUS_SUCCESS);

  printf("c99_usage: %zu kernels, %d failure(s)\n", count, failures);
  return failures == 0 ? 0 : 1;
}
