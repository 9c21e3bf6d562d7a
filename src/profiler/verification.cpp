/// @file src/profiler/verification.cpp
#include "verification.h"

#include <cmath>
#include <cstdio>

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

Check check_against(GemmSpec const &spec, void const *D, void const *reference_D, char const *provider) {
  bool const column = spec.C.layout == LayoutTypeID::kColumnMajor;
  int64_t const rows = column ? spec.m : spec.n;
  int64_t const columns = column ? spec.n : spec.m;
  reference::Comparison const c = reference::compare(spec.C.element, rows, columns, spec.batch_count, D, spec.ldc(),
                                                     spec.elements_C(), reference_D, spec.ldc(), spec.elements_C());
  Check check;
  char line[256];
  if (!c.ok) {
    std::snprintf(line, sizeof(line), "%s: the comparison kernel failed", provider);
    check.detail = line;
    return check;
  }
  double const bound = reference::error_bound(spec.A.element, spec.C.element, spec.k);
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

}  // namespace

Verification verify(GemmSpec const &spec, void const *D, References const &references) {
  Verification result;
  result.relative_error = NAN;
  bool any_passed = false, any_failed = false;
  for (auto const &[reference_D, provider] : {std::pair<void const *, char const *>{references.device, "device"},
                                              std::pair<void const *, char const *>{references.cublas, "cublas"}}) {
    if (!reference_D) continue;
    Check const check = check_against(spec, D, reference_D, provider);
    any_passed = any_passed || check.passed;
    any_failed = any_failed || !check.passed;
    if (std::isnan(result.relative_error)) result.relative_error = check.relative_error;
    result.detail += (result.detail.empty() ? "" : "\n") + check.detail;
  }
  result.disposition = any_failed   ? Disposition::kFailed
                       : any_passed ? Disposition::kPassed
                                    : Disposition::kNotVerified;
  return result;
}

}  // namespace profiler
}  // namespace cutlass
