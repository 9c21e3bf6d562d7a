/// @file src/profiler/problem_space.h
/// The profiler's problem space: every combination of the --m/--n/--k/--batch_count/--alpha/
/// --beta values and the type/layout combinations that --A/--B/--C describe.
#pragma once

#include <string>
#include <vector>

#include "cutlass/library/library.h"
#include "gemm_spec.h"
#include "options.h"

namespace cutlass {
namespace profiler {

/// The concrete (A, B, C) operands of the problem space.
/// Layout wildcards expand to column and row. A type wildcard expands to the types of the
/// `kernels` whose operands fit the specs (in their order, each combination once), so
/// "--A=*" asks "every type combination this build has kernels for".
std::vector<std::vector<Operand>> operand_combinations(Options const &options,
                                                       std::vector<library::Operation const *> const &kernels);

struct ProblemSpace {
  std::vector<GemmSpec> problems;   ///< operand combinations outermost, then m, n, k, batch, alpha, beta
  std::string error;                ///< a usage error (e.g. alpha 0.5 for an integer GEMM)
};

/// The epilogue of `spec` (its operands known) as the options ask for it; bias and aux types
/// come from the first of `kernels` with that variant and operands, else the generator's rule.
EpilogueSpec epilogue_spec(Options const &options, GemmSpec const &spec,
                           std::vector<library::Operation const *> const &kernels);

/// Expands the options into concrete problems.
ProblemSpace enumerate_problems(Options const &options, std::vector<library::Operation const *> const &kernels);

}  // namespace profiler
}  // namespace cutlass
