/// @file src/library/gemm_route.h
/// The route of a checked call (internal): which kernel runs it and how, directly, on aligned
/// copies of misaligned or MN-major operands (staging.h) or as split-K slices (split_k.h): choose_route,
/// over the cost model's ranking (gemm_selection.h); and a handle's memo of those decisions
/// (RouteCache), keyed by everything the decision reads, so a repeated call skips the ranking.
/// The ranking estimates every fitting kernel (and split-K again per split count): ~1-2 us of
/// host time per call, ~7 us with the split-K search (measured on the development host;
/// docs/NOTES.md); a hit is one hash lookup.
///
/// The key (route_key) holds the column-major-output call's types, layouts, epilogue pieces,
/// sizes, batch count, leading dimensions and batch strides, each pointer's alignment class (the
/// largest power of two up to 16 bytes dividing its address, the most any kernel, TMA or the
/// staging route asks for; 0 for null), whether C is D, the scalars' pointer mode and, for host
/// scalars, whether alpha and beta are zero, the fp8 scale pointers' alignment and modes, the
/// accumulation mode, the caller's split-K slice count, and the device's compute capability, SM count and packing limit (the
/// caller's fixed workspace size). Pointer values beyond their alignment never decide a route, so
/// a hit is the choice a full selection would make; the plans (staging copies, split-K slices)
/// are still rebuilt on the call's own pointers.
#pragma once

#include <cstddef>
#include <cstdint>
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

/// A workspace address for planning only (sizes and alignment; nothing is written there).
extern void *const kNominalWorkspace;

/// The kernel for a column-major-output `call` among `candidates` (its functional key's kernels;
/// null when there are none) and its route: select_kernel's choice (estimated time, then wave
/// cost, then preference order); the packing route when the most preferred kernel refuses the
/// call's alignment and the best kernel on aligned copies, with the copies' cost, beats the kernel
/// that fits the originals (always when none does); the same onto `k_major` (the kernels of the
/// call's types with both operands K-major; null when the call's operands are K-major or no such
/// kernel exists), with MN-major operands transposed into the copies, when no kernel fits directly
/// or the direct choice is of an older family (e.g. fp8, s8 or tf32 MN-major operands, which the
/// sm90 kernels take K-major only); then the split-K route when the cost model says slices of K
/// and a reduction win. A call with a split-K request (call.split_k_request > 1; 1 for the
/// unfused epilogue route, split_k.h) takes the split-K route with that slice count
/// (choose_requested_split_k) or none. No kernel: route.kernel is null and *any_for_device tells a misfit (true)
/// from an architecture mismatch. With `ask_kernels` false the kernels are judged by their
/// descriptions alone (no can_implement, which may query the device): the cost model replayed
/// on a host without one (test/library/selection_replay.cpp).
Route choose_route(GemmCall const &call, GemmOperationVector const *candidates, GemmOperationVector const *k_major,
                   GemmContext const &context, bool *any_for_device, bool ask_kernels = true);

/// The most workspace a packing route may take beside a direct kernel: the caller's fixed
/// workspace (cutlassLibSetWorkspace), else no limit (the handle grows its own).
size_t packing_limit(GemmContext const &context);

/// The key of a column-major-output call on a device with a packing limit (see the file comment).
std::string route_key(GemmCall const &call, int compute_capability, int sm_count, size_t packing_limit = SIZE_MAX);

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
