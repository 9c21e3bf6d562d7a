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
  void const *device = nullptr;   ///< the reference GEMM's D (with a fused epilogue: the epilogue reference's)
  void const *cublas = nullptr;   ///< cuBLAS's D (with a fused epilogue: after the separate epilogue kernel)
  void const *device_aux = nullptr, *cublas_aux = nullptr;   ///< their aux outputs (fused epilogues with aux)
  float device_amax = 0, cublas_amax = 0;                    ///< their amax (_amax variants)
};

/// What a run produced besides D: aux (null when none) and amax (read back; NaN when none).
struct ExtraOutputs {
  void const *aux = nullptr;
  float amax = 0;
  bool has_amax = false;
};

struct Verification {
  Disposition disposition = Disposition::kNotVerified;
  double relative_error = 0;   ///< vs the reference GEMM when it ran, else vs cuBLAS; NaN when neither ran
  std::string detail;          ///< one line per provider: "device: rel 3.1e-03 <= 1.0e-02 passed"
};

/// Compares `D` (the problem's output, packed, C's type and layout) with each reference. A
/// check passes when no element is NaN/Inf where the reference is finite (poisoned outputs
/// left unwritten show up here) and the relative error is within reference::error_bound
/// (integers: every element equal). With a fused epilogue, aux (element_aux, C's layout) and amax
/// (relative difference) are checked against each reference's with the same bound. Failed if
/// any check fails; passed if any passed.
Verification verify(GemmSpec const &spec, void const *D, References const &references,
                    ExtraOutputs const &extra = ExtraOutputs());

}  // namespace profiler
}  // namespace cutlass
