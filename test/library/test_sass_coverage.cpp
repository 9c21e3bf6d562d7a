/// sass_coverage.h: which devices SASS built for a list of targets runs on (CUDA C++ Programming
/// Guide, "Binary Compatibility"), the rule behind the kernels' compute-capability ranges.
#include <gtest/gtest.h>

#include "sass_coverage.h"

namespace {

using cutlass::library::any_sass_runs_on;
using cutlass::library::sass_range;
using cutlass::library::sass_runs_on;

TEST(SassCoverage, LaterMinorsOfTheSameMajor) {
  EXPECT_TRUE(sass_runs_on(80, 80));
  EXPECT_TRUE(sass_runs_on(80, 86));
  EXPECT_TRUE(sass_runs_on(80, 89));
  EXPECT_FALSE(sass_runs_on(86, 80));
  EXPECT_FALSE(sass_runs_on(80, 90));    // an sm_80 cubin does not run on an H100 / H200
  EXPECT_TRUE(sass_runs_on(100, 103));
  EXPECT_FALSE(sass_runs_on(100, 110));
  EXPECT_FALSE(sass_runs_on(90, 100));
}

TEST(SassCoverage, ArchSpecificRunsOnItsOwnDeviceOnly) {
  EXPECT_TRUE(sass_runs_on(-90, 90));
  EXPECT_FALSE(sass_runs_on(-90, 100));
  EXPECT_FALSE(sass_runs_on(-100, 103));
}

TEST(SassCoverage, RangeAndGaps) {
  constexpr int k80[] = {80};
  constexpr int k80_90a[] = {80, -90};
  constexpr int k80_100[] = {80, 100};
  static_assert(sass_range(k80, 1).minimum == 80 && sass_range(k80, 1).maximum == 89, "80: 8.0 .. 8.9");
  EXPECT_EQ(80, sass_range(k80_90a, 2).minimum);
  EXPECT_EQ(90, sass_range(k80_90a, 2).maximum);
  EXPECT_EQ(109, sass_range(k80_100, 2).maximum);
  EXPECT_FALSE(any_sass_runs_on(k80_100, 2, 90)) << "inside the range, covered by no target";
  EXPECT_TRUE(any_sass_runs_on(k80_100, 2, 103));
  EXPECT_FALSE(any_sass_runs_on(k80, 1, 90));
}

}  // namespace
