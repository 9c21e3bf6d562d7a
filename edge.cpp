#include <cutlass_lib.h>
#include <cstdio>
int main() {
  cutlassLibHandle_t h; cutlassLibCreate(&h);
  float one = 1, zero = 0; void *D1 = (void *)0x1000;
  // all-empty pointer-array calls with an fp8 output lacking the D scale / amax
  printf("BatchedEx count 0, bf16->e4m3 no scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmBatchedEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 8, 8, 16, &one, nullptr, CUDA_R_16BF, 16, nullptr, CUDA_R_16BF, 16, &zero, nullptr, CUDA_R_8F_E4M3, 8, 0, CUTLASS_LIB_COMPUTE_32F)));
  const int32_t *offs = (const int32_t *)0x2000;
  printf("Contiguous m=0, bf16->e4m3 no scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmGroupedContiguousEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 0, 8, 16, &one, D1, CUDA_R_16BF, 16, 0, D1, CUDA_R_16BF, 16, &zero, D1, CUDA_R_8F_E4M3, 8, 2, offs, CUTLASS_LIB_COMPUTE_32F)));
  printf("Contiguous gc=0, bf16->e4m3 no scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmGroupedContiguousEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 8, 8, 16, &one, D1, CUDA_R_16BF, 16, 0, D1, CUDA_R_16BF, 16, &zero, D1, CUDA_R_8F_E4M3, 8, 0, nullptr, CUDA_R_16BF == 0 ? CUTLASS_LIB_COMPUTE_32F : CUTLASS_LIB_COMPUTE_32F)));
  printf("GemmEx m=0, bf16->e4m3 no scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 0, 8, 16, &one, D1, CUDA_R_16BF, 16, D1, CUDA_R_16BF, 16, &zero, D1, CUDA_R_8F_E4M3, 1, CUTLASS_LIB_COMPUTE_32F)));
  cutlassLibSetOperandScales(h, (const float *)0x3000, nullptr);
  printf("Contiguous m=0, bf16 with operand scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmGroupedContiguousEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 0, 8, 16, &one, D1, CUDA_R_16BF, 16, 0, D1, CUDA_R_16BF, 16, &zero, D1, CUDA_R_16BF, 8, 2, offs, CUTLASS_LIB_COMPUTE_32F)));
  printf("BatchedEx count 0, bf16 with operand scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmBatchedEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 8, 8, 16, &one, nullptr, CUDA_R_16BF, 16, nullptr, CUDA_R_16BF, 16, &zero, nullptr, CUDA_R_16BF, 8, 0, CUTLASS_LIB_COMPUTE_32F)));
  printf("DeviceSizes gc=0, bf16 with operand scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmGroupedDeviceSizesEx(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, nullptr, &one, nullptr, CUDA_R_16BF, nullptr, nullptr, CUDA_R_16BF, nullptr, &zero, nullptr, CUDA_R_16BF, nullptr, 0, 0, CUTLASS_LIB_COMPUTE_32F)));
  const char *kn; size_t ws;
  printf("ContiguousSelect m=0, bf16 with operand scale: %s\n", cutlassLibGetStatusName(cutlassLibGemmGroupedContiguousExSelect(h, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, 0, 8, 16, &one, D1, CUDA_R_16BF, 16, 0, D1, CUDA_R_16BF, 16, &zero, D1, CUDA_R_16BF, 8, 2, offs, CUTLASS_LIB_COMPUTE_32F, &kn, &ws)));
  cutlassLibDestroy(h);
}
