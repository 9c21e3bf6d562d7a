/// @file src/benchmark/grouped_bench.h
/// cutlass_bench's grouped mode (--grouped=E,N,K): one mixture-of-experts layer, E experts of
/// weights N x K (out x in features), T routed tokens split over the experts, as frameworks call
/// it: per expert GemmEx(T, N, m = N, n = tokens of the expert, k = K) with the experts' weights
/// [E][N][K] and the tokens packed [T][K] (row-major; column-major K x n_e per expert), outputs
/// packed [T][N]. In one run, interleaved: the library's cutlassLibGemmGroupedBatchedEx,
/// cuBLAS's cublasGemmGroupedBatchedEx, a loop of cublasGemmEx over the experts, and the dense
/// GEMM of the same flops (N x T x K, one weight) through cuBLAS and the library. Verifies the
/// library's and cuBLAS's grouped outputs against the loop's. Reports each median time,
/// TFLOP/s over the routed tokens, the ratios, and for few tokens the weights' read rate against
/// a device-to-device copy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutlass {
namespace benchmark {

struct GroupedBenchOptions {
  int experts = 0;
  int64_t n = 0, k = 0;                  ///< out features (the GEMM's m) and in features
  int64_t tokens = 8192;                 ///< routed tokens in all (--tokens)
  std::string distribution = "skewed";   ///< uniform | skewed | sparse (--distribution)
  std::vector<int64_t> counts;           ///< explicit per-expert tokens (--counts); overrides the above
  uint64_t seed = 1;
  int warmup = 5, iterations = 20;
  int device = 0;
};

/// The per-expert token counts of `options`: --counts as given; uniform: equal shares; skewed:
/// shares falling geometrically from the largest to ~1/180 of it (the 17 to 3046 over
/// 8 experts), shuffled by the seed; sparse: skewed with a quarter of the experts (the smallest)
/// given none. They add up to --tokens (--counts: to their sum).
std::vector<int64_t> expert_token_counts(GroupedBenchOptions const &options);

/// Runs the grouped mode; the process exit status (0: ran and verified).
int run_grouped_bench(GroupedBenchOptions const &options);

}   // namespace benchmark
}   // namespace cutlass
