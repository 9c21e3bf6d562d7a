/// @file src/benchmark/main.cpp
/// cutlass_bench: read the shape suite, profile every shape and dtype with the profiler's
/// GemmProfiler (Handle, every fitting kernel, cuBLAS, interleaved), print one line each and
/// the geometric means (see help_text() in bench_options.cpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench_options.h"
#include "bench_plan.h"
#include "bench_report.h"
#include "copy_bandwidth.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "device.h"
#include "gemm_profiler.h"
#include "kernel_selection.h"
#include "shape_suite.h"

using namespace cutlass::benchmark;

namespace {

constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNothingRan = 3;

int usage_error(std::string const &message) {
  std::fprintf(stderr, "cutlass_bench: %s\nRun 'cutlass_bench --help' for the flags.\n", message.c_str());
  return kExitUsage;
}

/// The shapes of the groups --groups names (all when it names none); `error` set when it names a
/// group the file lacks.
std::vector<Shape> select_groups(std::vector<Shape> const &shapes, std::vector<std::string> const &groups,
                                 std::string *error) {
  if (groups.empty()) return shapes;
  std::set<std::string> known;
  for (Shape const &shape : shapes) known.insert(shape.group);
  for (std::string const &group : groups) {
    if (!known.count(group)) {
      *error = "--groups: the shapes file has no group '" + group + "'";
      return {};
    }
  }
  std::vector<Shape> selected;
  for (Shape const &shape : shapes) {
    if (std::find(groups.begin(), groups.end(), shape.group) != groups.end()) selected.push_back(shape);
  }
  return selected;
}

std::string dtype_list(std::vector<cutlass::library::NumericTypeID> const &dtypes) {
  std::string text;
  for (auto dtype : dtypes) text += (text.empty() ? "" : ",") + std::string(cutlass::library::to_string(dtype));
  return text;
}

struct FileCloser {
  void operator()(std::FILE *file) const { std::fclose(file); }
};

}  // namespace

int main(int argc, char **argv) {
  namespace profiler = cutlass::profiler;

  ParseResult const parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.ok()) return usage_error(parsed.error);
  BenchOptions const &options = parsed.options;
  if (options.help) {
    std::fputs(help_text().c_str(), stdout);
    return kExitPassed;
  }
  if (options.grouped_mode) return profiler::run_grouped(options.grouped, "cutlass_bench");

  std::vector<Shape> all_shapes;
  std::string error;
  if (!read_shapes(options.shapes, &all_shapes, &error)) return usage_error("--shapes: " + error);
  std::vector<Shape> const shapes = select_groups(all_shapes, options.groups, &error);
  if (!error.empty()) return usage_error(error);
  if (shapes.empty()) return usage_error("--shapes: '" + options.shapes + "' lists no shape");

  auto const &manifest = cutlass::library::Singleton::get().manifest;
  std::vector<cutlass::library::Operation const *> const kernels =
      profiler::filter_kernels(manifest, options.kernels, options.ignore_kernels);

  profiler::DeviceOpen const device = profiler::open_device(options.device);
  if (!device.error.empty()) {
    std::fprintf(stderr, "cutlass_bench: %s\n", device.error.c_str());
    return device.exit_status;
  }

  CsvOutput csv;
  if (!options.output.empty() && !csv.open(options.output, &error)) return usage_error("--output: " + error);
  std::unique_ptr<std::FILE, FileCloser> details;
  if (!options.details.empty()) {
    details.reset(std::fopen(options.details.c_str(), "w"));
    if (!details) return usage_error("--details: cannot write '" + options.details + "'");
  }

  std::printf("cutlass_bench: %s\n", profiler::describe(device.facts).c_str());
  std::string copy_error;
  double const copy_gbps = profiler::measure_copy_bandwidth(&copy_error);
  if (copy_error.empty()) {
    std::printf("device-to-device copy: %.0f GB/s (read + write, 1 GiB, median of 20); GB/s below counts the fewest "
                "bytes a GEMM moves (A, B, D once, C when beta != 0), copy = its fraction of the copy's\n",
                copy_gbps);
  } else {
    std::printf("%s\n", copy_error.c_str());
  }
  std::printf("shapes: %zu from %s, dtypes %s; kernels: %zu in this build, %zu pass --kernels/--ignore-kernels\n",
              shapes.size(), options.shapes.c_str(), dtype_list(options.dtypes).c_str(), manifest.size(),
              kernels.size());
  profiler::ScalingSpec const &fp8 = options.fp8_scaling;
  if (fp8.any()) {
    std::printf("fe4m3 rows: scale_a %s, scale_b %s, %s accumulation (ours and cuBLASLt's)\n",
                fp8.A ? profiler::to_string(*fp8.A) : "none", fp8.B ? profiler::to_string(*fp8.B) : "none",
                fp8.accumulation == cutlass::library::AccumulationMode::kPrecise ? "precise" : "fast");
  }
  char const *const competitor = options.competitor_cublaslt ? "cuBLASLt" : "cuBLAS";
  std::printf("per kernel: %d warm-up + %d timed launches%s, each paired with a %s launch%s; verification: %s\n",
              options.warmup_iterations, options.profiling_iterations,
              options.back_to_back > 1 ? (" of " + std::to_string(options.back_to_back) + " calls back to back").c_str() : "",
              competitor,
              options.max_kernel_seconds > 0 ? " (fewer where that would pass --max-kernel-seconds)" : "",
              options.verify == VerifyMode::kAlways  ? "every shape"
              : options.verify == VerifyMode::kNever ? "off"
                                                     : "shapes with M*N*K <= 2^36");
  std::printf("TF = TFLOP/s; ratio = %s time / ours, interleaved (> 1: faster than %s); kern = kernels timed "
              "in the best-kernel search; iters = timed launches per kernel\n\n",
              competitor, competitor);
  print_table_header(stdout, options.competitor_cublaslt ? "cublaslt" : "cublas");

  profiler::TableReport table(details.get());
  std::vector<BenchResult> results;
  int failed = 0, ran = 0, index = 0, repeated_sets = 0, host_bound_sets = 0;
  bool stopped = false;
  for (Shape const &shape : shapes) {
    for (cutlass::library::NumericTypeID dtype : options.dtypes) {
      profiler::GemmSpec const spec = gemm_spec(shape, dtype, options.fp8_scaling);
      profiler::Options const run_options = profiler_options(options, spec);
      auto const start = std::chrono::steady_clock::now();
      auto const account = [&](profiler::GemmProfiler const &p) {
        repeated_sets += p.timer().repeated_sets();
        host_bound_sets += p.timer().host_bound_sets();
        ran += p.run_rows();
      };
      profiler::GemmProfiler gemm_profiler(run_options, device.facts, kernels, table, nullptr);
      bool usable = gemm_profiler.profile(index++, spec);
      account(gemm_profiler);
      failed += gemm_profiler.failed_rows();
      std::vector<profiler::ResultRow> rows = gemm_profiler.rows();
      std::vector<std::string> split_failures;
      bool const not_profiled = rows.empty() && gemm_profiler.failed_rows() > 0;
      // --split-k: the handle's split-K route per slice count, a candidate of the best-kernel search
      for (size_t s = 0; s < options.split_k_slices.size() && usable && !not_profiled; ++s) {
        profiler::GemmSpec split_spec = spec;
        split_spec.split_k_slices = options.split_k_slices[s];
        profiler::Options split_options = run_options;
        split_options.providers.cutlass = false;
        profiler::GemmProfiler split_profiler(split_options, device.facts, kernels, table, nullptr);
        usable = split_profiler.profile(index++, split_spec);
        account(split_profiler);
        // its handle row only (the reference and cuBLAS rows repeat the first profiler's)
        for (profiler::ResultRow row : split_profiler.rows()) {
          if (row.provider != "handle") continue;
          failed += row.disposition == profiler::Disposition::kFailed;
          row.provider = "cutlass";
          row.operation += "+splitk" + std::to_string(split_spec.split_k_slices);
          rows.push_back(row);
        }
        if (split_profiler.rows().empty() && split_profiler.failed_rows() > 0) {
          ++failed;
          split_failures.push_back("split_k_slices=" + std::to_string(split_spec.split_k_slices) +
                                   ": not profiled (--details says why)");
        }
      }
      BenchResult result = distill(shape, spec, rows, copy_gbps, options.competitor_cublaslt);
      result.timed_launches = run_options.profiling_iterations;
      result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (not_profiled) {
        result.failures.push_back("not profiled: the operands could not be allocated or filled (--details says why)");
      }
      result.failures.insert(result.failures.end(), split_failures.begin(), split_failures.end());
      if (!usable) result.failures.push_back("stopping: the CUDA context is unusable (--details says after what)");
      print_table_row(stdout, result);
      if (csv.is_open()) csv.row(result);
      results.push_back(result);
      if (!usable) {
        stopped = true;
        break;
      }
    }
    if (stopped) break;
  }

  print_summary(stdout, results, competitor);
  if (repeated_sets + host_bound_sets > 0) {
    std::printf("\ntiming: %d timed set(s) ran again behind a longer GPU sleep (it had ended before the host queued "
                "every round); %d kept after the longest sleep (their times may include host time)\n",
                repeated_sets, host_bound_sets);
  }
  if (failed > 0) {
    std::printf("\n%d result(s) failed%s\n", failed, stopped ? "; the run stopped early" : "");
    return kExitFailed;
  }
  if (ran == 0) {
    std::printf("\nnothing ran\n");
    return kExitNothingRan;
  }
  return kExitPassed;
}
