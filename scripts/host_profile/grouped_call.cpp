// Host time of the host-sized grouped call (cutlassLibGemmGroupedBatchedEx): `experts` problems
// of N x (tokens / experts) x K, bf16, TN, as a mixture-of-experts layer with even routing. Prints
// the median, 10th and 90th percentile host time per call (the first 10 calls not counted).
// Usage: grouped_call [calls] [experts] [N] [K] [tokens]; SYNC_EACH=1 waits for the GPU after
// every call (host time without a queue ahead of it).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime_api.h>

#include "cutlass_lib.h"

int main(int argc, char **argv) {
  auto arg = [&](int i, long fallback) { return argc > i ? std::atol(argv[i]) : fallback; };
  int const calls = int(arg(1, 300));
  int64_t const E = arg(2, 1024), N = arg(3, 512), K = arg(4, 512), T = arg(5, 4096);
  int64_t const per = T / E;
  if (calls <= 10 || E <= 0 || per <= 0) {
    std::fprintf(stderr, "usage: grouped_call [calls > 10] [experts] [N] [K] [tokens >= experts]\n");
    return 2;
  }
  void *w = nullptr, *x = nullptr, *y = nullptr;
  if (cudaMalloc(&w, size_t(E * N * K) * 2) != cudaSuccess || cudaMalloc(&x, size_t(T * K) * 2) != cudaSuccess ||
      cudaMalloc(&y, size_t(T * N) * 2) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(w, 0, size_t(E * N * K) * 2);
  cudaMemset(x, 0, size_t(T * K) * 2);
  cutlassLibHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (cutlassLibCreate(&handle) != CUTLASS_LIB_STATUS_SUCCESS || cutlassLibSetStream(handle, stream) != CUTLASS_LIB_STATUS_SUCCESS) {
    std::fprintf(stderr, "cutlassLibCreate failed\n");
    return 1;
  }
  std::vector<cutlassLibOperation_t> op_t(size_t(E), CUTLASS_LIB_OP_T), op_n(size_t(E), CUTLASS_LIB_OP_N);
  std::vector<int64_t> ms(size_t(E), N), ns(size_t(E), per), ks(size_t(E), K), ldk(size_t(E), K), ldn(size_t(E), N),
      sizes(size_t(E), 1);
  std::vector<float> alphas(size_t(E), 1.f), betas(size_t(E), 0.f);
  std::vector<void const *> a, b;
  std::vector<void *> c;
  for (int64_t e = 0; e < E; ++e) {
    a.push_back(static_cast<char *>(w) + e * N * K * 2);
    b.push_back(static_cast<char *>(x) + e * per * K * 2);
    c.push_back(static_cast<char *>(y) + e * per * N * 2);
  }
  bool const sync_each = std::getenv("SYNC_EACH") != nullptr;
  std::vector<double> us;
  for (int i = 0; i < calls; ++i) {
    auto const t0 = std::chrono::steady_clock::now();
    cutlassLibStatus_t const status = cutlassLibGemmGroupedBatchedEx(
        handle, op_t.data(), op_n.data(), ms.data(), ns.data(), ks.data(), alphas.data(), a.data(), CUDA_R_16BF,
        ldk.data(), b.data(), CUDA_R_16BF, ldk.data(), betas.data(), c.data(), CUDA_R_16BF, ldn.data(), E,
        sizes.data(), CUTLASS_LIB_COMPUTE_32F);
    auto const t1 = std::chrono::steady_clock::now();
    if (status != CUTLASS_LIB_STATUS_SUCCESS) {
      std::fprintf(stderr, "cutlassLibGemmGroupedBatchedEx: status %d\n", int(status));
      return 1;
    }
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    if (sync_each) cudaStreamSynchronize(stream);
  }
  cudaStreamSynchronize(stream);
  std::sort(us.begin() + 10, us.end());
  size_t const n = us.size() - 10;
  std::printf("%lld problems of %lld x %lld x %lld: host us per call: median %.1f, p10 %.1f, p90 %.1f (%d calls%s)\n",
              (long long)E, (long long)N, (long long)per, (long long)K, us[10 + n / 2], us[10 + n / 10],
              us[10 + 9 * n / 10], calls, sync_each ? ", GPU idle before each" : "");
  cutlassLibDestroy(handle);
  cudaStreamDestroy(stream);
  return 0;
}
