/// @file src/profiler/grouped_profiler.cpp
/// The grouped mode (grouped_profiler.h): set up one MoE layer, verify, time, report.
#include "grouped_profiler.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>

#include "copy_bandwidth.h"
#include "cutlass_lib.h"
#include "device.h"
#include "gemm_reference.h"
#include "operand_buffers.h"
#include "options.h"
#include "timing.h"

#if defined(CUTLASS_ENABLE_CUBLAS)
#include <cublas_v2.h>
#endif

namespace cutlass {
namespace profiler {

std::vector<int64_t> expert_token_counts(GroupedOptions const &options) {
  if (!options.counts.empty()) return options.counts;
  int const experts = options.experts;
  std::vector<double> share(static_cast<size_t>(experts), 1.0);
  if (options.distribution != "uniform" && experts > 1) {
    double const ratio = std::pow(1.0 / 180.0, 1.0 / double(experts - 1));
    for (int e = 0; e < experts; ++e) share[size_t(e)] = std::pow(ratio, double(e));
    if (options.distribution == "sparse") {
      for (int e = experts - experts / 4; e < experts; ++e) share[size_t(e)] = 0;
    }
  }
  double const total = std::accumulate(share.begin(), share.end(), 0.0);
  std::vector<int64_t> counts(static_cast<size_t>(experts));
  int64_t assigned = 0;
  for (int e = 0; e < experts; ++e) {
    counts[size_t(e)] = int64_t(std::floor(double(options.tokens) * share[size_t(e)] / total));
    assigned += counts[size_t(e)];
  }
  if (experts > 0) counts[0] += options.tokens - assigned;   // the rounding's remainder to the largest
  std::mt19937_64 rng(options.seed);
  std::shuffle(counts.begin(), counts.end(), rng);
  return counts;
}

bool parse_grouped_flag(std::string const &name, std::string const &value, GroupedOptions *options,
                        std::string *error) {
  if (name == "tokens") return parse_integer_in_range(value, 1, INT32_MAX, &options->tokens, error);
  if (name == "distribution") {
    if (value != "uniform" && value != "skewed" && value != "sparse") {
      *error = "unknown distribution '" + value + "' (expected uniform, skewed or sparse)";
      return false;
    }
    options->distribution = value;
    return true;
  }
  if (name == "counts") {
    options->counts.clear();
    size_t begin = 0;
    while (true) {
      size_t const end = value.find(',', begin);
      int64_t count = 0;
      if (!parse_integer_in_range(value.substr(begin, end - begin), 0, INT32_MAX, &count, error)) return false;
      options->counts.push_back(count);
      if (end == std::string::npos) return true;
      begin = end + 1;
    }
  }
  if (name == "seed") {
    int64_t seed = 0;
    if (!parse_integer_in_range(value, 0, INT64_MAX, &seed, error)) return false;
    options->seed = uint64_t(seed);
    return true;
  }
  *error = "--" + name + " is not a grouped flag";
  return false;
}

std::set<std::string> const &grouped_flag_names() {
  static std::set<std::string> const names = {"tokens", "distribution", "counts", "seed"};
  return names;
}

std::string grouped_flags_help() {
  return R"(  --tokens=<T>               routed tokens in all (default 8192)
  --distribution=<d>         uniform; skewed (default: shares falling geometrically to 1/180 of the
                             largest, shuffled); sparse (skewed, the smallest quarter of the experts
                             get none)
  --counts=<c0,c1,...>       tokens per expert (E values; overrides --tokens and --distribution)
  --seed=<n>                 the shuffle's seed (default 1)
)";
}

std::string check_grouped_layer(GroupedOptions const &o, std::set<std::string> const &given) {
  if (given.count("counts") && (given.count("tokens") || given.count("distribution") || given.count("seed"))) {
    return "--counts gives every expert's tokens: --tokens, --distribution and --seed do not apply with it";
  }
  if (!o.counts.empty() && int64_t(o.counts.size()) != o.experts) {
    return "--counts lists " + std::to_string(o.counts.size()) + " experts, not " + std::to_string(o.experts);
  }
  int64_t tokens = o.counts.empty() ? o.tokens : 0;
  for (int64_t c : o.counts) tokens += c;   // (each count <= 2^31 - 1, at most 4096 of them)
  if (tokens < 1 || tokens > INT32_MAX) return "the experts' tokens add up to " + std::to_string(tokens) + ", not 1 .. 2^31 - 1";
  constexpr double kMaxTensorBytes = 1099511627776.0;   // 2^40: past any device's memory
  double const weights = 2.0 * o.experts * double(o.m) * double(o.k), x = 2.0 * double(tokens) * double(o.k),
               out = 2.0 * double(tokens) * double(o.m);
  if (weights > kMaxTensorBytes || x > kMaxTensorBytes || out > kMaxTensorBytes) {
    return "the layer's weights, tokens or outputs would take more than 2^40 bytes";
  }
  return "";
}

#if defined(CUTLASS_ENABLE_CUBLAS)

namespace {

using library::NumericTypeID;
using bf16_bits = uint16_t;

/// The layer's device memory: weights [E][M][K], tokens [T][K], and seven outputs [T][M] (the
/// library's grouped, contiguous and device-sized calls', cuBLAS's grouped, the cuBLAS loop's,
/// the dense GEMM's, the reference GEMM's), and the experts' token ends for the contiguous call
/// (int32, on the device).
struct Layer {
  int64_t experts = 0, m = 0, k = 0, tokens = 0;
  std::vector<int64_t> counts, offsets;   ///< tokens per expert, and the first token of each
  DeviceAllocation weights, x, out_ours, out_contiguous, out_device, out_cublas, out_loop, out_dense, out_ref, ends;

  bf16_bits *w(int64_t e) const { return reinterpret_cast<bf16_bits *>(weights.data()) + e * m * k; }
  bf16_bits *x_of(int64_t e) const { return reinterpret_cast<bf16_bits *>(x.data()) + offsets[size_t(e)] * k; }
  static bf16_bits *out_of(DeviceAllocation const &out, int64_t first_token, int64_t m) {
    return reinterpret_cast<bf16_bits *>(out.data()) + first_token * m;
  }
};

/// Each expert's M x n_e block of `out` against the reference's (out_ref): the largest relative
/// error over the experts, or a negative value when a block has a non-finite element or the
/// comparison failed to run.
double worst_expert_error(Layer const &layer, DeviceAllocation const &out) {
  double worst = 0;
  for (size_t e = 0; e < layer.counts.size(); ++e) {
    if (layer.counts[e] == 0) continue;
    reference::Comparison const c =
        reference::compare(NumericTypeID::kBF16, layer.m, layer.counts[e], 1, Layer::out_of(out, layer.offsets[e], layer.m),
                           layer.m, 0, Layer::out_of(layer.out_ref, layer.offsets[e], layer.m), layer.m, 0);
    if (!c.ok || c.nonfinite > 0) return -1;
    worst = std::max(worst, c.relative_error);
  }
  return worst;
}

}   // namespace

int run_grouped(GroupedOptions const &options, char const *tool) {
  auto const fail = [tool](char const *what) {
    std::fprintf(stderr, "%s (grouped): %s\n", tool, what);
    return 1;
  };
  DeviceOpen const device = open_device(options.device);
  if (!device.error.empty()) {
    std::fprintf(stderr, "%s: %s\n", tool, device.error.c_str());
    return device.exit_status;
  }
  Layer layer;
  layer.experts = options.experts;
  layer.m = options.m;
  layer.k = options.k;
  layer.counts = expert_token_counts(options);
  layer.experts = int64_t(layer.counts.size());
  for (int64_t c : layer.counts) {
    layer.offsets.push_back(layer.tokens);
    layer.tokens += c;
  }
  int64_t const E = layer.experts, M = layer.m, K = layer.k, T = layer.tokens;
  if (E <= 0 || M <= 0 || K <= 0 || T <= 0) return fail("needs experts, M, K and tokens > 0");
  size_t const out_bytes = size_t(T * M) * 2;
  if (!layer.weights.reset(size_t(E * M * K) * 2) || !layer.x.reset(size_t(T * K) * 2) ||
      !layer.out_ours.reset(out_bytes) || !layer.out_contiguous.reset(out_bytes) || !layer.out_device.reset(out_bytes) ||
      !layer.out_cublas.reset(out_bytes) ||
      !layer.out_loop.reset(out_bytes) || !layer.out_dense.reset(out_bytes) || !layer.out_ref.reset(out_bytes) ||
      !layer.ends.reset(size_t(E) * 4)) {
    return fail("device memory allocation failed");
  }
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  bool ok = reference::fill_uniform(NumericTypeID::kBF16, layer.weights.data(), E * M * K, 11, -1, 1, stream) &&
            reference::fill_uniform(NumericTypeID::kBF16, layer.x.data(), T * K, 12, -1, 1, stream);
  for (auto *out : {&layer.out_ours, &layer.out_contiguous, &layer.out_device, &layer.out_cublas, &layer.out_loop,
                    &layer.out_dense, &layer.out_ref}) {
    ok = ok && reference::fill_poison(NumericTypeID::kBF16, out->data(), T * M, stream);
  }
  if (!ok) return fail("filling the operands failed");

  // the library: one group per expert (empty experts included: they cost nothing)
  cutlassLibHandle_t handle = nullptr;
  if (cutlassLibCreate(&handle) != CUTLASS_LIB_STATUS_SUCCESS ||
      cutlassLibSetStream(handle, stream) != CUTLASS_LIB_STATUS_SUCCESS) {
    return fail("cutlassLibCreate failed");
  }
  std::vector<cutlassLibOperation_t> op_t(static_cast<size_t>(E), CUTLASS_LIB_OP_T),
      op_n(static_cast<size_t>(E), CUTLASS_LIB_OP_N);
  std::vector<int64_t> ms(static_cast<size_t>(E), M), ks(static_cast<size_t>(E), K), ldk(static_cast<size_t>(E), K),
      ldn(static_cast<size_t>(E), M), ones(static_cast<size_t>(E), 1);
  std::vector<float> alphas(static_cast<size_t>(E), 1.f), betas(static_cast<size_t>(E), 0.f);
  std::vector<void const *> a_ptrs, b_ptrs;
  std::vector<void *> c_ours;
  for (int64_t e = 0; e < E; ++e) {
    a_ptrs.push_back(layer.w(e));
    b_ptrs.push_back(layer.x_of(e));
    c_ours.push_back(Layer::out_of(layer.out_ours, layer.offsets[size_t(e)], M));
  }
  cutlassLibStatus_t grouped_status = CUTLASS_LIB_STATUS_SUCCESS;
  auto ours = [&]() {
    grouped_status = cutlassLibGemmGroupedBatchedEx(handle, op_t.data(), op_n.data(), ms.data(), layer.counts.data(),
                                                    ks.data(), alphas.data(), a_ptrs.data(), CUDA_R_16BF, ldk.data(),
                                                    b_ptrs.data(), CUDA_R_16BF, ldk.data(), betas.data(), c_ours.data(),
                                                    CUDA_R_16BF, ldn.data(), E, ones.data(), CUTLASS_LIB_COMPUTE_32F);
    return grouped_status == CUTLASS_LIB_STATUS_SUCCESS;
  };

  // the library's contiguous call: the same layer with the experts' token ends on the device
  std::vector<int32_t> ends;
  for (int64_t e = 0; e < E; ++e) ends.push_back(int32_t(layer.offsets[size_t(e)] + layer.counts[size_t(e)]));
  cudaMemcpy(layer.ends.data(), ends.data(), ends.size() * sizeof(int32_t), cudaMemcpyHostToDevice);
  auto ours_contiguous = [&]() {
    return cutlassLibGemmGroupedContiguousEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, M, T, K, &alphas[0],
                                             layer.w(0), CUDA_R_16BF, K, M * K, layer.x.data(), CUDA_R_16BF, K,
                                             &betas[0], layer.out_contiguous.data(), CUDA_R_16BF, M, E,
                                             reinterpret_cast<int32_t const *>(layer.ends.data()),
                                             CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_SUCCESS;
  };

  // the library's device-sized call: every expert's sizes, leading dimensions and pointers on the
  // device (as routing on the GPU would write them), max_n = the step's tokens
  std::vector<int32_t> sizes;
  std::vector<void const *> device_sized_c;
  for (int64_t e = 0; e < E; ++e) {
    sizes.insert(sizes.end(), {int32_t(M), int32_t(layer.counts[size_t(e)]), int32_t(K)});
    device_sized_c.push_back(Layer::out_of(layer.out_device, layer.offsets[size_t(e)], M));
  }
  DeviceAllocation device_groups;   // sizes (E x 3 int32), A, B, C (pointers), lda, ldb, ldc (int64)
  if (!device_groups.reset(size_t(E) * (3 * 4 + 3 * 8 + 3 * 8) + 16)) return fail("device memory allocation failed");
  char *const base = static_cast<char *>(device_groups.data());
  auto *const d_ptrs = reinterpret_cast<void const **>(base);   // A, then B, then C
  auto *const d_ld = reinterpret_cast<int64_t *>(base + 3 * 8 * E);   // lda, ldb, ldc
  auto *const d_sizes = reinterpret_cast<int32_t *>(base + 6 * 8 * E);
  std::vector<int64_t> const lds = [&] {
    std::vector<int64_t> v(size_t(3 * E), K);
    std::fill(v.begin() + 2 * E, v.end(), M);
    return v;
  }();
  cudaMemcpy(d_ptrs, a_ptrs.data(), sizeof(void *) * size_t(E), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ptrs + E, b_ptrs.data(), sizeof(void *) * size_t(E), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ptrs + 2 * E, device_sized_c.data(), sizeof(void *) * size_t(E), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ld, lds.data(), sizeof(int64_t) * lds.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(d_sizes, sizes.data(), sizeof(int32_t) * sizes.size(), cudaMemcpyHostToDevice);
  auto ours_device_sized = [&]() {
    return cutlassLibGemmGroupedDeviceSizesEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, d_sizes, &alphas[0], d_ptrs,
                                              CUDA_R_16BF, d_ld, d_ptrs + E, CUDA_R_16BF, d_ld + E, &betas[0],
                                              reinterpret_cast<void *const *>(base + 2 * 8 * E), CUDA_R_16BF, d_ld + 2 * E,
                                              E, T, CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_SUCCESS;
  };

  // cuBLAS: grouped (device pointer arrays; the non-empty experts), a loop, the dense GEMM
  cublasHandle_t cublas = nullptr;
  if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS || cublasSetStream(cublas, stream) != CUBLAS_STATUS_SUCCESS) {
    return fail("cublasCreate failed");
  }
  std::vector<int64_t> active;
  for (int64_t e = 0; e < E; ++e) {
    if (layer.counts[size_t(e)] > 0) active.push_back(e);
  }
  int const G = int(active.size());
  std::vector<cublasOperation_t> cb_t(static_cast<size_t>(G), CUBLAS_OP_T), cb_n(static_cast<size_t>(G), CUBLAS_OP_N);
  std::vector<int> cb_m(static_cast<size_t>(G), int(M)), cb_n_tokens, cb_k(static_cast<size_t>(G), int(K)),
      cb_ldk(static_cast<size_t>(G), int(K)), cb_ldn(static_cast<size_t>(G), int(M)),
      cb_size(static_cast<size_t>(G), 1);
  std::vector<float> cb_alpha(static_cast<size_t>(G), 1.f), cb_beta(static_cast<size_t>(G), 0.f);
  std::vector<void const *> cb_a, cb_b;
  std::vector<void *> cb_c;
  for (int64_t e : active) {
    cb_n_tokens.push_back(int(layer.counts[size_t(e)]));
    cb_a.push_back(layer.w(e));
    cb_b.push_back(layer.x_of(e));
    cb_c.push_back(Layer::out_of(layer.out_cublas, layer.offsets[size_t(e)], M));
  }
  DeviceAllocation pointer_arrays;
  if (!pointer_arrays.reset(size_t(3 * G) * sizeof(void *))) return fail("device memory allocation failed");
  auto **device_a = reinterpret_cast<void const **>(pointer_arrays.data());
  auto **device_b = device_a + G;
  auto **device_c = reinterpret_cast<void **>(pointer_arrays.data()) + 2 * G;
  cudaMemcpy(device_a, cb_a.data(), sizeof(void *) * size_t(G), cudaMemcpyHostToDevice);
  cudaMemcpy(device_b, cb_b.data(), sizeof(void *) * size_t(G), cudaMemcpyHostToDevice);
  cudaMemcpy(device_c, cb_c.data(), sizeof(void *) * size_t(G), cudaMemcpyHostToDevice);
  float const one = 1.f, zero = 0.f;
  auto cublas_grouped = [&]() {
    return cublasGemmGroupedBatchedEx(cublas, cb_t.data(), cb_n.data(), cb_m.data(), cb_n_tokens.data(), cb_k.data(),
                                      cb_alpha.data(), device_a, CUDA_R_16BF, cb_ldk.data(), device_b, CUDA_R_16BF,
                                      cb_ldk.data(), cb_beta.data(), device_c, CUDA_R_16BF, cb_ldn.data(), G,
                                      cb_size.data(), CUBLAS_COMPUTE_32F) == CUBLAS_STATUS_SUCCESS;
  };
  auto cublas_loop = [&]() {
    for (int64_t e : active) {
      if (cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, int(M), int(layer.counts[size_t(e)]), int(K), &one, layer.w(e),
                       CUDA_R_16BF, int(K), layer.x_of(e), CUDA_R_16BF, int(K), &zero,
                       Layer::out_of(layer.out_loop, layer.offsets[size_t(e)], M), CUDA_R_16BF, int(M),
                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
        return false;
      }
    }
    return true;
  };
  // the dense GEMM of the same flops: expert 0's weights over every token
  auto cublas_dense = [&]() {
    return cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, int(M), int(T), int(K), &one, layer.w(0), CUDA_R_16BF, int(K),
                        layer.x.data(), CUDA_R_16BF, int(K), &zero, layer.out_dense.data(), CUDA_R_16BF, int(M),
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
  };
  auto ours_dense = [&]() {
    return cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, M, T, K, &one, layer.w(0), CUDA_R_16BF, K,
                            layer.x.data(), CUDA_R_16BF, K, &zero, layer.out_dense.data(), CUDA_R_16BF, M,
                            CUTLASS_LIB_COMPUTE_32F) == CUTLASS_LIB_STATUS_SUCCESS;
  };

  std::printf("%s, grouped GEMM: %s\n", tool, describe(device.facts).c_str());
  std::string copy_error;
  double const copy_gbps = measure_copy_bandwidth(&copy_error);
  std::printf("layer: %lld experts of %lld x %lld (out x in) bf16 weights, %lld routed tokens; tokens per expert:",
              (long long)E, (long long)M, (long long)K, (long long)T);
  for (int64_t c : layer.counts) std::printf(" %lld", (long long)c);
  std::printf("\n");

  // verification: every expert's output of every provider against the reference GEMM's (f64 sums)
  if (!ours() && grouped_status == CUTLASS_LIB_STATUS_NO_KERNEL) {
    std::printf("nothing ran: this build has no grouped bf16 TN kernel (cutlassLibGemmGroupedBatchedEx: NO_KERNEL)\n");
    return 3;
  }
  if (grouped_status != CUTLASS_LIB_STATUS_SUCCESS) return fail("cutlassLibGemmGroupedBatchedEx failed");
  if (!ours_contiguous()) return fail("cutlassLibGemmGroupedContiguousEx failed");
  if (!ours_device_sized()) return fail("cutlassLibGemmGroupedDeviceSizesEx failed");
  if (!cublas_loop()) return fail("the cublasGemmEx loop failed");
  bool const have_cublas_grouped = cublas_grouped();
  for (int64_t e : active) {
    reference::GemmProblem r;
    r.m = M, r.n = layer.counts[size_t(e)], r.k = K;
    r.element_A = r.element_B = r.element_C = NumericTypeID::kBF16;
    r.layout_A = library::LayoutTypeID::kRowMajor;   // W_e [M][K]: op(A) = T
    r.A = layer.w(e), r.lda = K, r.B = layer.x_of(e), r.ldb = K;
    r.D = Layer::out_of(layer.out_ref, layer.offsets[size_t(e)], M), r.ldd = M;
    if (!reference::reference_gemm(r, stream)) return fail("the reference GEMM failed");
  }
  if (cudaStreamSynchronize(stream) != cudaSuccess) return fail("a launch failed");
  double const bound = reference::error_bound(NumericTypeID::kBF16, NumericTypeID::kBF16, K);
  std::vector<std::pair<char const *, DeviceAllocation const *>> checked = {
      {"library grouped", &layer.out_ours},
      {"library contiguous", &layer.out_contiguous},
      {"library device-sized", &layer.out_device},
      {"cuBLAS loop", &layer.out_loop}};
  if (have_cublas_grouped) checked.push_back({"cublasGemmGroupedBatchedEx", &layer.out_cublas});
  bool verified = true;
  std::printf("verification against the reference GEMM, largest relative error over the %d active experts "
              "(bound %.1e):", G, bound);
  for (auto const &c : checked) {
    double const error = worst_expert_error(layer, *c.second);
    bool const library = c.second != &layer.out_loop && c.second != &layer.out_cublas;
    if (library && !(error >= 0 && error <= bound)) verified = false;   // cuBLAS's are reported, not judged
    if (error < 0) {
      std::printf(" %s non-finite;", c.first);
    } else {
      std::printf(" %s %.2e;", c.first, error);
    }
  }
  if (!have_cublas_grouped) std::printf(" cublasGemmGroupedBatchedEx not available (status != SUCCESS);");
  std::printf(" %s\n", verified ? "ok" : "FAILED");

  // timing, interleaved (ours, cuBLAS grouped, cuBLAS loop, dense cuBLAS, dense ours); none with
  // --profiling-iterations=0 (verification only)
  if (options.iterations > 0) {
    std::vector<std::pair<char const *, Launch>> providers = {{"cutlass_lib grouped", ours},
                                                              {"cutlass_lib contiguous (dev)", ours_contiguous},
                                                              {"cutlass_lib device-sized (dev)", ours_device_sized},
                                                              {"cuBLAS loop of GemmEx", cublas_loop},
                                                              {"dense cuBLAS (same flops)", cublas_dense},
                                                              {"dense cutlass_lib (same flops)", ours_dense}};
    if (have_cublas_grouped) providers.insert(providers.begin() + 1, {"cublasGemmGroupedBatchedEx", cublas_grouped});
    std::vector<Launch const *> launches;
    for (auto const &p : providers) launches.push_back(&p.second);
    EventTimer timer(stream);
    std::vector<std::vector<float>> times;
    std::string error;
    if (!timer.time(launches, options.warmup, options.iterations, &times, &error)) return fail(error.c_str());

    double const flops = 2.0 * double(M) * double(K) * double(T);
    double const active_weight_bytes = double(G) * double(M) * double(K) * 2;
    double const ours_us = median(times[0]) * 1e3;
    std::printf("\n%-32s %10s %9s %12s %14s\n", "provider", "median_us", "TFLOP/s", "ours_faster", "weights_GB/s");
    for (size_t i = 0; i < providers.size(); ++i) {
      double const us = median(times[i]) * 1e3;
      std::printf("%-32s %10.1f %9.1f %12.3f %14.0f\n", providers[i].first, us, flops / us * 1e-6, us / ours_us,
                  active_weight_bytes / us * 1e-3);
    }
    if (copy_error.empty()) {
      std::printf("device-to-device copy: %.0f GB/s; the library read the %d active experts' weights at %.2f of it\n",
                  copy_gbps, G, active_weight_bytes / ours_us * 1e-3 / copy_gbps);
    }
    std::printf("ours_faster = that provider's time / the library's grouped time (> 1: the library is faster)\n");
  }
  cublasDestroy(cublas);
  cutlassLibDestroy(handle);
  cudaStreamDestroy(stream);
  return verified ? 0 : 1;
}

#else

int run_grouped(GroupedOptions const &, char const *tool) {
  std::fprintf(stderr, "%s (grouped): this build has no cuBLAS (CUTLASS_ENABLE_CUBLAS=OFF) to race against\n", tool);
  return 2;
}

#endif

}   // namespace profiler
}   // namespace cutlass
