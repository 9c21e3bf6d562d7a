// s35: back-to-back launches of one GEMM shape (bf16, TN, as cutlass_bench's suite) through the C API
// and through cublasGemmEx: the mean time per call over N launches between two events, queued
// behind a spin kernel so the host's enqueue time is hidden. Run once per CUTLASS_LIB_PDL setting.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cutlass_lib.h"

__global__ void spin(long long cycles) {
  long long const t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}
__global__ void fill(__nv_bfloat16 *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ seed;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    p[i] = __float2bfloat16(float(h & 0xffff) / 32768.0f - 1.0f);
  }
}

int main() {
  struct Shape { int m, n, k; } const shapes[] = {{16, 8192, 8192},  {8192, 16, 8192}, {4096, 16, 4096},
                                                  {16, 4096, 4096},  {13824, 8, 5120}, {11008, 1, 4096},
                                                  {128, 14336, 4096}, {4096, 4096, 4096}};
  cutlassLibHandle_t handle;
  cutlassLibCreate(&handle);
  cublasHandle_t cublas;
  cublasCreate(&cublas);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cutlassLibSetStream(handle, stream);
  cublasSetStream(cublas, stream);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  char const *pdl = getenv("CUTLASS_LIB_PDL");
  printf("CUTLASS_LIB_PDL=%s\n%-18s %10s %10s %8s\n", pdl ? pdl : "(unset)", "m x n x k", "ours_us", "cublas_us", "ratio");
  for (Shape const s : shapes) {
    size_t const a = size_t(s.m) * s.k, b = size_t(s.k) * s.n, c = size_t(s.m) * s.n;
    int const copies = int(std::max<size_t>(2, (size_t(160) << 20) / ((a + b) * 2) + 1));
    std::vector<__nv_bfloat16 *> A(copies), B(copies), C(copies);
    for (int i = 0; i < copies; ++i) {
      cudaMalloc(&A[i], a * 2);
      cudaMalloc(&B[i], b * 2);
      cudaMalloc(&C[i], c * 2);
      fill<<<264, 256, 0, stream>>>(A[i], a, 1 + i);
      fill<<<264, 256, 0, stream>>>(B[i], b, 101 + i);
    }
    float const alpha = 1, beta = 0;
    auto ours = [&](int i) {
      return cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, s.m, s.n, s.k, &alpha, A[i], CUDA_R_16BF, s.k,
                              B[i], CUDA_R_16BF, s.k, &beta, C[i], CUDA_R_16BF, s.m, CUTLASS_LIB_COMPUTE_32F) ==
             CUTLASS_LIB_STATUS_SUCCESS;
    };
    auto theirs = [&](int i) {
      return cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, s.m, s.n, s.k, &alpha, A[i], CUDA_R_16BF, s.k, B[i],
                          CUDA_R_16BF, s.k, &beta, C[i], CUDA_R_16BF, s.m, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
    };
    int const N = 200;
    auto per_call_us = [&](auto call) {
      std::vector<float> reps;
      for (int r = 0; r < 5; ++r) {
        for (int i = 0; i < 10; ++i) call(i % copies);
        spin<<<1, 1, 0, stream>>>(20'000'000);   // ~10 ms: the host queues every call behind it
        cudaEventRecord(e0, stream);
        for (int i = 0; i < N; ++i) {
          if (!call(i % copies)) return -1.0f;
        }
        cudaEventRecord(e1, stream);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        reps.push_back(ms * 1000 / N);
      }
      std::sort(reps.begin(), reps.end());
      return reps[reps.size() / 2];
    };
    float const t_ours = per_call_us(ours), t_cublas = per_call_us(theirs);
    printf("%5d x %5d x %5d %10.2f %10.2f %8.3f\n", s.m, s.n, s.k, t_ours, t_cublas, t_cublas / t_ours);
    for (int i = 0; i < copies; ++i) {
      cudaFree(A[i]);
      cudaFree(B[i]);
      cudaFree(C[i]);
    }
  }
  printf("status: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
