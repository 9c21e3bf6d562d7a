/// @file src/profiler/verification.h
/// Judging one output against the reference GEMM's and cuBLAS's results, and the profiler's
/// dispositions (CUTLASS's names).
#pragma once

#include <string>

#include "gemm_spec.h"

namespace cutlass {
namespace profiler {

enum class Disposition {
  kPassed,         ///< every verification that ran passed (at least one ran)
  kFailed,         ///< a verification failed, or the run itself failed
  kNotVerified,    ///< ran, but verification was off or no verification provider could run
  kNotSupported,   ///< the kernel / provider cannot run this problem (nothing launched)
  kNotRun          ///< the provider is not available (e.g. built without cuBLAS)
};

/// "passed", "failed", "not_verified", "not_supported", "not_run".
char const *to_string(Disposition disposition);

/// Results to compare with; null when that verification provider did not run.
struct References {
  void const *device = nullptr;   ///< the reference GEMM's D
  void const *cublas = nullptr;   ///< cuBLAS's D
};

struct Verification {
  Disposition disposition = Disposition::kNotVerified;
  double relative_error = 0;   ///< vs the reference GEMM when it ran, else vs cuBLAS; NaN when neither ran
  std::string detail;          ///< one line per provider: "device: rel 3.1e-03 <= 1.0e-02 passed"
};

/// Compares `D` (the problem's output, packed, C's type and layout) with each reference. A
/// check passes when no element is NaN/Inf where the reference is finite (poisoned outputs
/// left unwritten show up here) and the relative error is within reference::error_bound
/// (integers: every element equal). Failed if any check fails; passed if any passed.
Verification verify(GemmSpec const &spec, void const *D, References const &references);

}  // namespace profiler
}  // namespace cutlass
