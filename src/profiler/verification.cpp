/// @file src/profiler/verification.cpp
#include "verification.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "gemm_reference.h"

namespace cutlass {
namespace profiler {

char const *to_string(Disposition disposition) {
  switch (disposition) {
    case Disposition::kPassed: return "passed";
    case Disposition::kFailed: return "failed";
    case Disposition::kNotVerified: return "not_verified";
    case Disposition::kNotSupported: return "not_supported";
    case Disposition::kNotRun: return "not_run";
  }
  return "invalid";
}

namespace {

struct Check {
  bool passed = false;
  double relative_error = NAN;
  std::string detail;
};

Check check_against(GemmSpec const &spec, NumericTypeID element, void const *D, void const *reference_D,
                    char const *provider) {
  bool const column = spec.C.layout == LayoutTypeID::kColumnMajor;
  int64_t const rows = column ? spec.m : spec.n;
  int64_t const columns = column ? spec.n : spec.m;
  reference::Comparison const c = reference::compare(element, rows, columns, spec.batch_count, D, spec.ldc(),
                                                     spec.elements_C(), reference_D, spec.ldc(), spec.elements_C());
  Check check;
  char line[256];
  if (!c.ok) {
    std::snprintf(line, sizeof(line), "%s: the comparison kernel failed", provider);
    check.detail = line;
    return check;
  }
  double const bound = reference::error_bound(spec.A.element, element, spec.k);
  bool const within = spec.is_integer() ? c.mismatches == 0 : c.relative_error <= bound;
  check.passed = within && c.nonfinite == 0;
  check.relative_error = c.relative_error;
  if (spec.is_integer()) {
    std::snprintf(line, sizeof(line), "%s: %lld of %lld elements differ, %s", provider, (long long)c.mismatches,
                  (long long)(rows * columns * spec.batch_count), check.passed ? "passed" : "FAILED");
  } else {
    std::snprintf(line, sizeof(line), "%s: relative error %.3e (bound %.1e), max abs error %.3e, %lld non-finite, %s",
                  provider, c.relative_error, bound, c.max_abs_error, (long long)c.nonfinite,
                  check.passed ? "passed" : "FAILED");
  }
  check.detail = line;
  return check;
}

Check check_amax(GemmSpec const &spec, float amax, float reference_amax, char const *provider) {
  Check check;
  double const bound = reference::error_bound(spec.A.element, spec.C.element, spec.k);
  double const scale = std::fabs(double(reference_amax));
  check.relative_error = std::fabs(double(amax) - double(reference_amax)) / (scale > 0 ? scale : 1);
  check.passed = std::isfinite(amax) && check.relative_error <= bound;
  char line[256];
  std::snprintf(line, sizeof(line), "%s: amax %.6g vs %.6g, relative difference %.3e (bound %.1e), %s", provider,
                double(amax), double(reference_amax), check.relative_error, bound, check.passed ? "passed" : "FAILED");
  check.detail = line;
  return check;
}

}  // namespace

Verification verify(GemmSpec const &spec, void const *D, References const &references, ExtraOutputs const &extra) {
  Verification result;
  result.relative_error = NAN;
  bool any_passed = false, any_failed = false;
  struct Reference {
    void const *D, *aux;
    float amax;
    char const *provider, *aux_provider, *amax_provider;
  };
  for (Reference const &r : {Reference{references.device, references.device_aux, references.device_amax, "device",
                                       "device aux", "device"},
                             Reference{references.cublas, references.cublas_aux, references.cublas_amax, "cublas",
                                       "cublas aux", "cublas"}}) {
    if (!r.D) continue;
    std::vector<Check> checks{check_against(spec, spec.C.element, D, r.D, r.provider)};
    if (extra.aux && r.aux) checks.push_back(check_against(spec, spec.epilogue.element_aux, extra.aux, r.aux, r.aux_provider));
    if (extra.has_amax) checks.push_back(check_amax(spec, extra.amax, r.amax, r.amax_provider));
    for (Check const &check : checks) {
      any_passed = any_passed || check.passed;
      any_failed = any_failed || !check.passed;
      result.detail += (result.detail.empty() ? "" : "\n") + check.detail;
    }
    if (std::isnan(result.relative_error)) result.relative_error = checks.front().relative_error;
  }
  result.disposition = any_failed   ? Disposition::kFailed
                       : any_passed ? Disposition::kPassed
                                    : Disposition::kNotVerified;
  return result;
}

}  // namespace profiler
}  // namespace cutlass
