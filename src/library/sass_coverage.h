/// @file src/library/sass_coverage.h
/// Which devices a kernel built as SASS (no PTX) can run on. CMake compiles each kernel family for
/// the listed architectures that family supports and writes them into a header of that family's
/// (cutlass_lib_sass_archs.h) as CUTLASS_LIB_SASS_ARCHS, a comma list of compute capabilities
/// (major * 10 + minor) in which an arch-specific target (sm_90a) is negative. Rule (CUDA C++
/// Programming Guide, "Binary Compatibility"): a cubin for X.y runs on X.z for z >= y; an
/// arch-specific (a) cubin runs on X.y only. A family (f) target counts as plain here (it runs on
/// its family, a subset of X.z).
#pragma once

namespace cutlass {
namespace library {

/// Whether SASS for `target` (negative: arch-specific) runs on compute capability `cc`.
constexpr bool sass_runs_on(int target, int cc) {
  return target < 0 ? -target == cc : (target / 10 == cc / 10 && target <= cc);
}

/// Whether SASS for any of the `count` targets runs on `cc`.
constexpr bool any_sass_runs_on(int const *targets, int count, int cc) {
  for (int i = 0; i < count; ++i) {
    if (sass_runs_on(targets[i], cc)) return true;
  }
  return false;
}

/// The lowest and highest compute capability some target runs on ([min, max]; the devices in
/// between that none runs on, e.g. 9.x for "80;100", any_sass_runs_on rules out).
/// GemmUniversalOperation narrows its description's maximum with it.
struct SassRange {
  int minimum, maximum;
};
constexpr SassRange sass_range(int const *targets, int count) {
  SassRange range{1 << 30, 0};
  for (int i = 0; i < count; ++i) {
    int const low = targets[i] < 0 ? -targets[i] : targets[i];
    int const high = targets[i] < 0 ? -targets[i] : targets[i] / 10 * 10 + 9;
    range.minimum = low < range.minimum ? low : range.minimum;
    range.maximum = high > range.maximum ? high : range.maximum;
  }
  return range;
}

}  // namespace library
}  // namespace cutlass
