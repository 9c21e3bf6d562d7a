/// @file src/library/route_cache.h
/// A handle's memo of its selection decisions (internal): which kernel a call runs and by which
/// route (directly, on aligned copies of misaligned operands, or split-K), keyed by everything
/// the decision reads, so a repeated call skips the ranking. Selection estimates every fitting
/// kernel (and split-K again per split count): ~1-2 us of host time per call, ~7 us with the
/// split-K search (measured on the development host; docs/NOTES.md); a hit is one hash lookup.
///
/// The key (route_key) holds the column-major-output call's types, layouts, epilogue pieces,
/// sizes, batch count, leading dimensions and batch strides, each pointer's alignment class
/// (the largest power of two up to 16 bytes dividing its address, the most any kernel, TMA or
/// the staging route asks for; 0 for null), whether C is
/// D, the scalars' pointer mode and, for host scalars, whether alpha and beta are zero, the
/// fp8 scale pointers' presence and vector flags, and the device's compute capability and SM
/// count. Pointer values beyond their alignment never decide a route, so a hit is the choice a
/// full selection would make; the plans (staging copies, split-K slices) are still rebuilt on
/// the call's own pointers.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "gemm_call.h"

namespace cutlass {
namespace library {

/// A selection decision.
struct Route {
  Operation const *kernel = nullptr;     ///< the kernel that runs (for split-K, the slices' kernel)
  Operation const *preferred = nullptr;  ///< staged: the kernel whose alignment the copies follow
  bool staged = false;                   ///< runs on aligned copies (staging.h)
  int splits = 0;                        ///< > 0: the split-K route with this many slices (split_k.h)
};

/// The key of a column-major-output call on a device (see the file comment).
std::string route_key(GemmCall const &call, int compute_capability, int sm_count);

/// At most kCapacity routes; inserting into a full cache empties it first (a workload repeats a
/// few hundred shapes at most; a sweep over more pays a full selection per call, as without it).
/// Safe to use from several threads at once (calls on one handle from several host threads, as
/// cuBLAS allows); an allocation failure leaves the cache unchanged.
class RouteCache {
 public:
  static constexpr size_t kCapacity = 4096;

  /// True and `*route` set when `key` was inserted since the last clear.
  bool find(std::string const &key, Route *route) const;
  void insert(std::string const &key, Route const &route);
  size_t size() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Route> routes_;
};

}  // namespace library
}  // namespace cutlass
