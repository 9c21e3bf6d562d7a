/// @file src/benchmark/bench_report.cpp
#include "bench_report.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "cutlass/library/util.h"

namespace cutlass {
namespace benchmark {

namespace {

using profiler::Disposition;
using profiler::ResultRow;

/// A row that ran and whose time stands (not failed, not rejected).
bool counts_as_result(ResultRow const &row) {
  return !std::isnan(row.runtime_ms) &&
         (row.disposition == Disposition::kPassed || row.disposition == Disposition::kNotVerified);
}

Timing timing_of(ResultRow const &row, bool against_cublaslt) {
  Timing timing;
  timing.kernel = row.operation;
  timing.ms = row.runtime_ms;
  timing.ratio = against_cublaslt ? row.ratio_to_cublaslt() : row.ratio_to_cublas();
  return timing;
}

/// Ranks by ratio when both have one (each from its own window, so clock drift cancels), else by time.
bool faster(Timing const &candidate, Timing const &best) {
  if (std::isnan(best.ms)) return true;
  if (!std::isnan(candidate.ratio) && !std::isnan(best.ratio)) return candidate.ratio > best.ratio;
  return candidate.ms < best.ms;
}

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

/// Text for a CSV cell: empty when missing.
std::string csv_number(double value, int decimals) { return std::isfinite(value) ? fixed(value, decimals) : ""; }

std::string csv_field(std::string const &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

bool is_layout_token(std::string const &token) {
  return (token.size() == 2 || token.size() == 3) && token.find_first_not_of("nt") == std::string::npos;
}

struct GeometricMean {
  double log_sum = 0;
  int count = 0;
  void add(double value) {
    if (!std::isfinite(value) || value <= 0) return;
    log_sum += std::log(value);
    ++count;
  }
  double value() const { return count ? std::exp(log_sum / count) : NAN; }
};

constexpr char kTableFormat[] = "%-6s %5s %5s %5s %-2s %-4s %9s %6s %6s %5s %9s %6s %9s %4s %5s %-4s %6s  %s  %s\n";

}  // namespace

Timing::Timing() : ms(NAN), ratio(NAN) {}

BenchResult distill(Shape const &shape, profiler::GemmSpec const &spec, std::vector<ResultRow> const &rows,
                    double copy_gbps, bool against_cublaslt) {
  BenchResult result;
  result.shape = shape;
  result.dtype = spec.A.element;
  result.flops = spec.flops();
  result.bytes = double(spec.bytes_A() + spec.bytes_B() + spec.bytes_C() * (spec.beta != 0 ? 2 : 1));
  result.copy_gbps = copy_gbps;
  result.scaling = profiler::describe(spec.scaling);
  result.cublas_ms = NAN;
  bool any_passed = false, any_failed = false;
  for (ResultRow const &row : rows) {
    any_passed = any_passed || row.disposition == Disposition::kPassed;
    if (row.disposition == Disposition::kFailed) {
      any_failed = true;
      std::string text = row.provider + " " + (row.operation.empty() ? "-" : row.operation) + ": " +
                         (row.status == "success" ? std::string("verification failed") : row.status);
      std::istringstream lines(row.detail);
      for (std::string line; std::getline(lines, line);) text += "\n    " + line;
      result.failures.push_back(text);
    }
    if (row.provider == "handle") {
      result.handle.kernel = row.operation;
      if (counts_as_result(row)) result.handle = timing_of(row, against_cublaslt);
    } else if (row.provider == "cutlass" && counts_as_result(row)) {
      ++result.kernels_timed;
      Timing const timing = timing_of(row, against_cublaslt);
      if (faster(timing, result.best)) result.best = timing;
    } else if (row.provider == (against_cublaslt ? "cublaslt" : "cublas") && counts_as_result(row)) {
      result.cublas_ms = row.runtime_ms;
    }
  }
  result.verified = any_failed ? "failed" : any_passed ? "passed" : "not_verified";
  return result;
}

std::string short_kernel_name(std::string const &name) {
  static std::set<std::string> const dropped = {"cutlass", "cutlass3x", "tensorop", "gemm", "warpspecialized",
                                                "epi",     "tma",       "f16",      "bf16", "tf32",
                                                "f32",     "f64",       "s8",       "s32",  "e4m3",
                                                "e5m2"};
  std::string result;
  std::istringstream tokens(name);
  for (std::string token; std::getline(tokens, token, '_');) {
    if (dropped.count(token) || is_layout_token(token)) continue;
    if (token == "cooperative") token = "coop";
    if (token.compare(0, 5, "align") == 0) token = "a" + token.substr(5);
    result += (result.empty() ? "" : "_") + token;
  }
  return result.empty() ? name : result;
}

void print_table_header(std::FILE *out, char const *competitor) {
  std::string const column = std::string(competitor) + "_TF";
  std::fprintf(out, kTableFormat, "group", "M", "N", "K", "ly", "type", "handle_TF", "ratio", "GB/s", "copy",
               "best_TF", "ratio", column.c_str(), "kern", "iters", "ver", "time_s", "handle kernel", "best kernel");
  std::fflush(out);
}

void print_table_row(std::FILE *out, BenchResult const &r) {
  std::string const handle_kernel = r.handle.kernel.empty() ? "-" : short_kernel_name(r.handle.kernel);
  std::string const best_kernel = r.best.kernel.empty()              ? "-"
                                  : r.best.kernel == r.handle.kernel ? "="
                                                                     : short_kernel_name(r.best.kernel);
  char const *verified = r.verified == "passed" ? "ok" : r.verified == "failed" ? "FAIL" : "-";
  std::fprintf(out, kTableFormat, r.shape.group.c_str(), std::to_string(r.shape.m).c_str(),
               std::to_string(r.shape.n).c_str(), std::to_string(r.shape.k).c_str(), r.shape.layout.c_str(),
               library::to_string(r.dtype), fixed(r.tflops(r.handle.ms), 1).c_str(), fixed(r.handle.ratio, 3).c_str(),
               fixed(r.gbps(r.handle.ms), 0).c_str(), fixed(r.copy_fraction(r.handle.ms), 2).c_str(),
               fixed(r.tflops(r.best.ms), 1).c_str(), fixed(r.best.ratio, 3).c_str(),
               fixed(r.tflops(r.cublas_ms), 1).c_str(), std::to_string(r.kernels_timed).c_str(),
               std::to_string(r.timed_launches).c_str(), verified, fixed(r.seconds, 1).c_str(), handle_kernel.c_str(),
               best_kernel.c_str());
  for (std::string const &failure : r.failures) std::fprintf(out, "  ! %s\n", failure.c_str());
  std::fflush(out);
}

void print_summary(std::FILE *out, std::vector<BenchResult> const &results, char const *competitor) {
  std::vector<library::NumericTypeID> dtypes;
  std::vector<std::string> groups;
  for (BenchResult const &r : results) {
    if (std::find(dtypes.begin(), dtypes.end(), r.dtype) == dtypes.end()) dtypes.push_back(r.dtype);
    if (std::find(groups.begin(), groups.end(), r.shape.group) == groups.end()) groups.push_back(r.shape.group);
  }
  std::fprintf(out, "\nRatio to %s, geometric mean over the shapes with a ratio (> 1: faster than %s)\n", competitor,
               competitor);
  std::fprintf(out, "  %-5s %-7s %6s %7s %7s\n", "type", "group", "shapes", "handle", "best");
  for (library::NumericTypeID dtype : dtypes) {
    auto line = [&](std::string const &label, std::function<bool(BenchResult const &)> const &selects,
                    bool with_minimum) {
      GeometricMean handle, best;
      int shapes = 0;
      BenchResult const *lowest = nullptr;
      for (BenchResult const &r : results) {
        if (r.dtype != dtype || !selects(r)) continue;
        ++shapes;
        handle.add(r.handle.ratio);
        best.add(r.best.ratio);
        if (std::isfinite(r.handle.ratio) && (!lowest || r.handle.ratio < lowest->handle.ratio)) lowest = &r;
      }
      if (shapes == 0) return;
      std::string extra;
      if (handle.count < shapes) extra += "  " + std::to_string(shapes - handle.count) + " without a handle ratio";
      if (with_minimum && lowest) {
        extra += "  handle min " + fixed(lowest->handle.ratio, 3) + " at " + lowest->shape.group + " " +
                 lowest->shape.extents() + " " + lowest->shape.layout;
      }
      std::fprintf(out, "  %-5s %-7s %6d %7s %7s%s\n", library::to_string(dtype), label.c_str(), shapes,
                   fixed(handle.value(), 3).c_str(), fixed(best.value(), 3).c_str(), extra.c_str());
    };
    for (std::string const &group : groups) {
      line(group, [&](BenchResult const &r) { return r.shape.group == group; }, false);
    }
    line("large", [](BenchResult const &r) { return r.shape.is_large(); }, true);
  }
  std::fflush(out);
}

bool CsvOutput::open(std::string const &path, std::string *error) {
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  file_ << "shape,group,dtype,layout,kernel,tflops,cublas_tflops,ratio,best_kernel,best_tflops,best_ratio,verified,"
           "gbps,copy_gbps,copy_fraction,cublas_gbps,fp8_scaling\n";
  file_.flush();
  return true;
}

void CsvOutput::row(BenchResult const &r) {
  file_ << r.shape.extents() << ',' << csv_field(r.shape.group) << ',' << library::to_string(r.dtype) << ','
        << r.shape.layout << ',' << csv_field(r.handle.kernel) << ',' << csv_number(r.tflops(r.handle.ms), 2) << ','
        << csv_number(r.tflops(r.cublas_ms), 2) << ',' << csv_number(r.handle.ratio, 4) << ','
        << csv_field(r.best.kernel) << ',' << csv_number(r.tflops(r.best.ms), 2) << ','
        << csv_number(r.best.ratio, 4) << ',' << r.verified << ',' << csv_number(r.gbps(r.handle.ms), 1) << ','
        << csv_number(r.copy_gbps, 1) << ',' << csv_number(r.copy_fraction(r.handle.ms), 4) << ','
        << csv_number(r.gbps(r.cublas_ms), 1) << ',' << csv_field(r.scaling) << '\n';
  file_.flush();
}

}  // namespace benchmark
}  // namespace cutlass
