/// @file src/profiler/main.cpp
/// cutlass_profiler: parse the flags, expand the problem space, profile each problem, and
/// turn the outcome into the exit status (see help_text() in options.cpp).
#include <cstdio>
#include <string>
#include <vector>

#include "cutlass/library/singleton.h"
#include "device.h"
#include "gemm_profiler.h"
#include "grouped_profiler.h"
#include "kernel_selection.h"
#include "options.h"
#include "problem_space.h"
#include "report.h"

namespace {

constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNothingRan = 3;

int usage_error(std::string const &message) {
  std::fprintf(stderr, "cutlass_profiler: %s\nRun 'cutlass_profiler --help' for the flags.\n", message.c_str());
  return kExitUsage;
}

}  // namespace

int main(int argc, char **argv) {
  using namespace cutlass::profiler;

  ParseResult const parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.ok()) return usage_error(parsed.error);
  Options const &options = parsed.options;
  if (options.help) {
    std::fputs(help_text().c_str(), stdout);
    return kExitPassed;
  }
  if (options.grouped) return run_grouped(options.grouped_layer, "cutlass_profiler");

  auto const &manifest = cutlass::library::Singleton::get().manifest;
  std::vector<cutlass::library::Operation const *> kernels =
      filter_kernels(manifest, options.kernels, options.ignore_kernels);
  ProblemSpace const space = enumerate_problems(options, kernels);
  if (!space.error.empty()) return usage_error(space.error);

  DeviceOpen const device = open_device(options.device);
  if (!device.error.empty()) {
    std::fprintf(stderr, "cutlass_profiler: %s\n", device.error.c_str());
    return device.exit_status;
  }
  std::printf("cutlass_profiler: %s\n", describe(device.facts).c_str());
  std::printf("kernels: %zu in this build, %zu pass --kernels/--ignore-kernels\n", manifest.size(), kernels.size());
  if (options.providers.cutlass && manifest.size() == 0) {
    std::printf("no kernel matches: this build of cutlass_lib has no kernels\n");
  } else if (options.providers.cutlass && kernels.empty()) {
    std::printf("no kernel matches --kernels='%s' --ignore-kernels='%s'\n", options.kernels.c_str(),
                options.ignore_kernels.c_str());
  }
  if (space.problems.empty()) {
    std::printf("no problem to run: no kernel has operand types that fit --A, --B and --C\n");
    return kExitNothingRan;
  }

  CsvReport csv;
  std::string error;
  if (!options.output.empty() && !csv.open(options.output, &error)) return usage_error("--output: " + error);

  TableReport table(stdout);
  GemmProfiler profiler(options, device.facts, std::move(kernels), table, csv.is_open() ? &csv : nullptr);
  for (size_t i = 0; i < space.problems.size(); ++i) {
    if (!profiler.profile(int(i), space.problems[i])) break;
  }

  if (profiler.failed_rows() > 0) {
    std::printf("\n%d result(s) failed\n", profiler.failed_rows());
    return kExitFailed;
  }
  if (profiler.run_rows() == 0) {
    std::printf("\nnothing ran: no kernel matched and no other provider ran\n");
    return kExitNothingRan;
  }
  return kExitPassed;
}
