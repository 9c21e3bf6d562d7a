/// @file src/benchmark/shape_suite.h
/// The benchmark's shape list: a CSV file with the header `group,M,N,K,layout`, one GEMM shape
/// a line, '#' comment lines and blank lines ignored. Layout is two letters in the column-major
/// BLAS convention, first A then B: 'n' not transposed, 't' transposed. "tn": A stored K x M
/// column-major (row-major M x K), B stored K x N column-major. C and D are column-major M x N.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cutlass/library/types.h"

namespace cutlass {
namespace benchmark {

struct Shape {
  std::string group;    ///< e.g. square, llm, decode, odd
  int64_t m = 0, n = 0, k = 0;
  std::string layout;   ///< "tn", as in the file
  library::LayoutTypeID layout_A = library::LayoutTypeID::kColumnMajor;   ///< 't' -> row-major
  library::LayoutTypeID layout_B = library::LayoutTypeID::kColumnMajor;

  /// "4096x4096x4096".
  std::string extents() const;
  /// True when M, N and K are all at least 1024 (the summary's "large" shapes).
  bool is_large() const;
};

/// The shapes of `path` in file order. False with `error` set ("<path>:<line>: <why>") when the
/// file cannot be read, the header is not `group,M,N,K,layout`, or a line is malformed (M, N, K
/// must be integers in [1, 2^31 - 1]; layout one of nn nt tn tt).
bool read_shapes(std::string const &path, std::vector<Shape> *shapes, std::string *error);

}  // namespace benchmark
}  // namespace cutlass
