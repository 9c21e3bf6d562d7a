/// @file src/profiler/kernel_selection.h
/// Which of the library's kernels the "cutlass" provider runs for a problem: the name filters
/// (--kernels, --ignore-kernels), then the types and layouts. Kernels write column-major D;
/// a row-major C/D problem runs on a kernel as D^T = B^T A^T, the way Handle does it.
#pragma once

#include <string>
#include <vector>

#include "cutlass/library/library.h"
#include "cutlass/library/manifest.h"
#include "gemm_spec.h"
#include "options.h"

namespace cutlass {
namespace profiler {

/// The GEMM kernels of `manifest`, in manifest order, that `kernels` selects (empty: all) and
/// `ignore_kernels` does not (see kernel_filter.h).
std::vector<library::Operation const *> filter_kernels(library::Manifest const &manifest, std::string const &kernels,
                                                       std::string const &ignore_kernels);

/// The GEMM description of a kernel.
library::GemmDescription const &gemm_description(library::Operation const &operation);

/// The problem operands a kernel computes when the problem's C has layout `layout_C`.
/// Column-major C: the kernel's own A, B, C. Row-major C: the problem's A is the kernel's B
/// transposed, its B the kernel's A transposed (a transposed layout flips column and row).
struct KernelView {
  Operand A, B, C;
};
KernelView problem_view(library::GemmDescription const &kernel, LayoutTypeID layout_C);

/// True when `operand` fits `spec` ('*' parts fit anything).
bool spec_fits(TensorSpec const &spec, Operand const &operand);

/// True when the kernel computes exactly the problem's types and layouts (C and D must have
/// the same type, as every kernel of this library has) with exactly the problem's epilogue
/// variant (plain problems take plain kernels only); block-scaled kernels fit exactly the
/// problems with block scales or precise accumulation (ScalingSpec::block_scaled).
bool kernel_fits(library::GemmDescription const &kernel, GemmSpec const &spec);

/// True when the kernel's compute-capability range holds `compute_capability` (e.g. 90).
bool runs_on(library::GemmDescription const &kernel, int compute_capability);

}  // namespace profiler
}  // namespace cutlass
