/// @file src/profiler/kernel_filter.h
/// The profiler's --kernels / --ignore-kernels matcher: the same wildcard rules as the CMake
/// filter (CUTLASS_LIBRARY_KERNELS, generator/filtering.py), so one pattern selects the same
/// kernels at build time and at run time.
#pragma once

#include <string>
#include <vector>

namespace cutlass {
namespace profiler {

/// The patterns of a comma (or semicolon) separated list, each trimmed of whitespace; empty
/// entries are dropped. " sgemm, ,dgemm " -> {"sgemm", "dgemm"}.
std::vector<std::string> split_pattern_list(std::string const &pattern_list);

/// True when `pattern` matches `name`: the pieces of `pattern` between '*'s occur in `name`
/// in order, anywhere (unanchored, case-sensitive). "*" alone matches every name; a pattern
/// without '*' is a substring test. Example: "bf16*tn" matches
/// "cutlass_tensorop_bf16_s16816gemm_bf16_128x256_32x3_tn_align8".
bool pattern_matches(std::string const &name, std::string const &pattern);

/// True when some pattern of `pattern_list` matches `name`. A pattern "all" (any case) matches
/// every name. A list without patterns (empty or only separators) matches nothing; the caller
/// decides what an empty --kernels means (the profiler: every kernel).
bool kernel_name_matches(std::string const &name, std::string const &pattern_list);

}  // namespace profiler
}  // namespace cutlass
