/// @file src/profiler/kernel_selection.cpp
#include "kernel_selection.h"

#include "kernel_filter.h"

namespace cutlass {
namespace profiler {

namespace {

LayoutTypeID transposed(LayoutTypeID layout) {
  return layout == LayoutTypeID::kColumnMajor ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
}

}  // namespace

std::vector<library::Operation const *> filter_kernels(library::Manifest const &manifest, std::string const &kernels,
                                                       std::string const &ignore_kernels) {
  bool const select_all = split_pattern_list(kernels).empty();
  std::vector<library::Operation const *> selected;
  for (auto const &operation : manifest) {
    library::OperationDescription const &desc = operation->description();
    if (desc.kind != library::OperationKind::kGemm) continue;
    // the grouped kernels run many problems per launch (the C API's grouped calls), not one
    if (static_cast<library::GemmDescription const &>(desc).gemm_kind == library::GemmKind::kGrouped) continue;
    std::string const name = desc.name;
    if (!select_all && !kernel_name_matches(name, kernels)) continue;
    if (kernel_name_matches(name, ignore_kernels)) continue;
    selected.push_back(operation.get());
  }
  return selected;
}

library::GemmDescription const &gemm_description(library::Operation const &operation) {
  return static_cast<library::GemmDescription const &>(operation.description());
}

KernelView problem_view(library::GemmDescription const &kernel, LayoutTypeID layout_C) {
  KernelView view;
  if (layout_C == LayoutTypeID::kColumnMajor) {
    view.A = {kernel.A.element, kernel.A.layout};
    view.B = {kernel.B.element, kernel.B.layout};
  } else {
    view.A = {kernel.B.element, transposed(kernel.B.layout)};
    view.B = {kernel.A.element, transposed(kernel.A.layout)};
  }
  view.C = {kernel.C.element, layout_C};
  return view;
}

bool spec_fits(TensorSpec const &spec, Operand const &operand) {
  return (!spec.element || *spec.element == operand.element) && (!spec.layout || *spec.layout == operand.layout);
}

bool kernel_fits(library::GemmDescription const &kernel, GemmSpec const &spec) {
  if (kernel.D.element != kernel.C.element) return false;
  if (kernel.transform_A != library::ComplexTransform::kNone || kernel.transform_B != library::ComplexTransform::kNone) {
    return false;
  }
  if (variant_of(kernel.epilogue) != spec.epilogue.variant) return false;
  if (kernel.block_scaled != spec.scaling.block_scaled()) return false;
  KernelView const view = problem_view(kernel, spec.C.layout);
  return view.A == spec.A && view.B == spec.B && view.C == spec.C;
}

bool runs_on(library::GemmDescription const &kernel, int compute_capability) {
  library::TileDescription const &tile = kernel.tile_description;
  return tile.minimum_compute_capability <= compute_capability && compute_capability <= tile.maximum_compute_capability;
}

}  // namespace profiler
}  // namespace cutlass
