/// @file src/profiler/problem_space.cpp
#include "problem_space.h"

#include <algorithm>
#include <cmath>

#include "kernel_selection.h"

namespace cutlass {
namespace profiler {

namespace {

/// Most problems one command line may describe (a guard against typos in long ranges).
constexpr double kMaxProblems = 1000000.0;

/// Largest element count of one operand over all batches the profiler accepts (2^48).
constexpr double kMaxElements = 281474976710656.0;

std::vector<LayoutTypeID> layouts_of(TensorSpec const &spec) {
  if (spec.layout) return {*spec.layout};
  return {LayoutTypeID::kColumnMajor, LayoutTypeID::kRowMajor};
}

bool is_whole(double value) { return std::floor(value) == value; }

}  // namespace

EpilogueSpec epilogue_spec(Options const &options, GemmSpec const &spec,
                           std::vector<library::Operation const *> const &kernels) {
  EpilogueSpec e;
  e.variant = options.epilogue;
  e.bias_broadcast = options.bias_broadcast;
  e.alpha_vector_broadcast = options.alpha_vector_broadcast;
  e.clamp_min = options.clamp_min;
  e.clamp_max = options.clamp_max;
  if (!e.fused()) return e;
  // The generator's rule (enumeration.py, EpilogueRow.bias_type): the output type; for fp8
  // outputs the 16-bit input type, bf16 for fp8 inputs. A kernel of this build that fits says it
  // for sure.
  NumericTypeID const fp8_output_vectors = is_fp8(spec.A.element) ? NumericTypeID::kBF16 : spec.A.element;
  NumericTypeID const fallback = is_fp8(spec.C.element) ? fp8_output_vectors : spec.C.element;
  e.element_bias = e.variant.bias ? fallback : NumericTypeID::kInvalid;
  e.element_aux = e.variant.aux ? fallback : NumericTypeID::kInvalid;
  for (library::Operation const *kernel : kernels) {
    library::GemmDescription const &desc = gemm_description(*kernel);
    if (variant_of(desc.epilogue) != e.variant) continue;
    KernelView const view = problem_view(desc, spec.C.layout);
    if (view.A != spec.A || view.B != spec.B || view.C != spec.C) continue;
    e.element_bias = desc.epilogue.element_bias;
    e.element_aux = desc.epilogue.element_aux;
    break;
  }
  return e;
}

std::vector<std::vector<Operand>> operand_combinations(Options const &options,
                                                       std::vector<library::Operation const *> const &kernels) {
  std::vector<std::vector<Operand>> combinations;
  auto add = [&](std::vector<Operand> const &combination) {
    if (std::find(combinations.begin(), combinations.end(), combination) == combinations.end()) {
      combinations.push_back(combination);
    }
  };
  bool const types_known = options.A.element && options.B.element && options.C.element;
  // fp8 scales or precise sums (options.cpp refuses them with explicit other types)
  bool const fp8_only = options.scaling.any();
  for (LayoutTypeID layout_C : layouts_of(options.C)) {
    if (types_known) {
      for (LayoutTypeID layout_A : layouts_of(options.A)) {
        for (LayoutTypeID layout_B : layouts_of(options.B)) {
          add({{*options.A.element, layout_A}, {*options.B.element, layout_B}, {*options.C.element, layout_C}});
        }
      }
      continue;
    }
    for (library::Operation const *kernel : kernels) {
      KernelView const view = problem_view(gemm_description(*kernel), layout_C);
      if (!spec_fits(options.A, view.A) || !spec_fits(options.B, view.B) || !spec_fits(options.C, view.C)) continue;
      if (!profiler_supports(view.A.element) || !profiler_supports(view.B.element) ||
          !profiler_supports(view.C.element)) {
        continue;
      }
      if (fp8_only && !(is_fp8(view.A.element) && is_fp8(view.B.element))) continue;
      add({view.A, view.B, view.C});
    }
  }
  return combinations;
}

namespace {

/// Why the profiler cannot take `spec` (empty: it can).
std::string problem_error(GemmSpec const &spec) {
  if (spec.is_integer() && !(is_whole(spec.alpha) && is_whole(spec.beta))) {
    return "integer GEMMs (" + to_string(spec.A) + ") take whole-number --alpha and --beta";
  }
  if (spec.batch_count > 1 && spec.split_k_slices > 1) {
    return "--split_k_slices > 1 takes --batch_count 1 (as CUTLASS's profiler)";
  }
  double const largest =
      double(std::max({spec.m * spec.k, spec.k * spec.n, spec.m * spec.n})) * double(spec.batch_count);
  if (largest > kMaxElements) return "problem " + describe(spec) + " is too large (an operand over 2^48 elements)";
  return {};
}

}  // namespace

ProblemSpace enumerate_problems(Options const &options, std::vector<library::Operation const *> const &kernels) {
  ProblemSpace space;
  std::vector<std::vector<Operand>> const combinations = operand_combinations(options, kernels);
  double const count = double(combinations.size()) * double(options.m.size()) * double(options.n.size()) *
                       double(options.k.size()) * double(options.batch_count.size()) *
                       double(options.split_k_slices.size()) *
                       double(options.alpha.size()) * double(options.beta.size());
  if (count > kMaxProblems) {
    space.error = "the flags describe " + std::to_string(int64_t(count)) + " problems (at most " +
                  std::to_string(int64_t(kMaxProblems)) + ")";
    return space;
  }
  // Every combination, in flag order; sizes are checked as each problem is made.
  for (std::vector<Operand> const &operands : combinations) {
    for (int64_t m : options.m) {
      for (int64_t n : options.n) {
        for (int64_t k : options.k) {
          for (int64_t batch_count : options.batch_count) {
            for (int64_t split_k_slices : options.split_k_slices) {
              for (double alpha : options.alpha) {
                for (double beta : options.beta) {
                  GemmSpec spec;
                  spec.m = m;
                  spec.n = n;
                  spec.k = k;
                  spec.batch_count = batch_count;
                  spec.split_k_slices = split_k_slices;
                  spec.alpha = alpha;
                  spec.beta = beta;
                  spec.A = operands[0];
                  spec.B = operands[1];
                  spec.C = operands[2];
                  spec.epilogue = epilogue_spec(options, spec, kernels);
                  spec.scaling = options.scaling;
                  spec.raster_order = options.raster_order;
                  spec.swizzle_size = options.swizzle_size;
                  std::string const error = problem_error(spec);
                  if (!error.empty()) {
                    space.error = error;
                    return space;
                  }
                  space.problems.push_back(spec);
                }
              }
            }
          }
        }
      }
    }
  }
  return space;
}

}  // namespace profiler
}  // namespace cutlass
