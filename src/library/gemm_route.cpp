/// @file src/library/gemm_route.cpp
#include "gemm_route.h"

#include <cstdint>
#include <cstring>
#include <new>

#include "gemm_selection.h"
#include "split_k.h"
#include "staging.h"

namespace cutlass {
namespace library {

namespace {

/// Appends the bytes of trivially copyable values to the key.
class KeyWriter {
 public:
  template <typename T>
  KeyWriter &operator<<(T const &value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    key_.append(bytes, sizeof(T));
    return *this;
  }
  std::string take() { return std::move(key_); }

 private:
  std::string key_;
};

/// The largest power of two up to 16 dividing the address; 0 for null.
uint8_t alignment_class(void const *pointer) {
  uintptr_t const address = reinterpret_cast<uintptr_t>(pointer);
  if (address == 0) return 0;
  uintptr_t const lowest = address & (~address + 1);
  return uint8_t(lowest < 16 ? lowest : 16);
}

/// For host scalars: 0 when the value is zero, 1 otherwise, as selection reads it
/// (host_scalar_equals); 2 for device scalars.
uint8_t zero_class(GemmCall const &c, void const *scalar) {
  if (c.pointer_mode != ScalarPointerMode::kHost || !scalar) return 2;
  return host_scalar_equals(c.element_scalar, scalar, 0) ? 0 : 1;
}

}  // namespace

void *const kNominalWorkspace = reinterpret_cast<void *>(uintptr_t(1) << 24);

Route choose_route(GemmCall const &call, GemmOperationVector const *candidates, GemmOperationVector const *k_major,
                   GemmContext const &context, bool *any_for_device, bool ask_kernels) {
  int const cc = context.compute_capability;
  Route route;
  if (call.split_k_request > 0) {   // the caller's slice count, or the unfused epilogue's one: that or no kernel
    SplitKPlan split;
    if (choose_requested_split_k(call, cc, context.sm_count, ask_kernels, kNominalWorkspace, &split, &route.kernel,
                                 any_for_device)) {
      route.splits = split.splits;
    }
    // no slice kernel: a misfit when the call's own kernels run on this device
    *any_for_device = *any_for_device || (candidates && first_for_device(*candidates, cc));
    return route;
  }
  bool any_direct = false, any_packed = false;
  if (candidates) route.kernel = select_kernel(*candidates, call, cc, context.sm_count, ask_kernels, &any_direct);
  // The packing route onto the most preferred kernel of `list`: taken when the best kernel on the
  // copies, with the copies' cost, beats the direct choice (always when nothing fits directly),
  // and, beside a direct choice, when its copies fit the caller's workspace (packing_limit): a
  // call that ran without one must not start answering WORKSPACE_TOO_SMALL.
  size_t const limit = packing_limit(context);
  auto try_packing = [&](GemmOperationVector const &list, Operation const *preferred) {
    StagingPlan plan;
    bool any = false;
    if (!plan_staging(call, gemm_description(preferred), kNominalWorkspace, &plan)) return;
    if (route.kernel && plan.workspace_bytes > limit) return;
    Operation const *on_copies = select_kernel(list, plan.staged, cc, context.sm_count, ask_kernels, &any);
    any_packed = any_packed || any;
    if (on_copies &&
        (!route.kernel || estimated_time(gemm_description(on_copies), plan.staged, context.sm_count) +
                                  estimated_staging_time(plan.workspace_bytes, staging_copies(plan)) <
                              estimated_time(gemm_description(route.kernel), call, context.sm_count))) {
      route.kernel = on_copies;
      route.preferred = preferred;
      route.staged = true;
    }
  };
  // aligned copies, for a call whose alignment the preferred kernel refuses
  Operation const *preferred = candidates ? first_for_device(*candidates, cc) : nullptr;
  if (preferred && (!route.kernel || (gemm_description(route.kernel).max_small_extent == 0 &&
                                      !same_group(gemm_description(route.kernel), gemm_description(preferred))))) {
    try_packing(*candidates, preferred);
  }
  // K-major copies (transposed), for MN-major operands that no kernel of a newer family takes
  Operation const *k_major_preferred = k_major ? first_for_device(*k_major, cc) : nullptr;
  if (k_major_preferred &&
      (!route.kernel || gemm_description(route.kernel).tile_description.minimum_compute_capability <
                            gemm_description(k_major_preferred).tile_description.minimum_compute_capability)) {
    try_packing(*k_major, k_major_preferred);
  }
  // a kernel of either list runs on this device: a misfit, not an architecture mismatch
  *any_for_device = any_direct || any_packed || preferred || k_major_preferred;
  if (!route.kernel || route.staged) return route;
  SplitKPlan split;
  Operation const *sliced_kernel = nullptr;
  if (choose_split_k(call, route.kernel, cc, context.sm_count, ask_kernels, limit, kNominalWorkspace, &split,
                     &sliced_kernel)) {
    route.kernel = sliced_kernel;
    route.splits = split.splits;
  }
  return route;
}

size_t packing_limit(GemmContext const &context) {
  return context.workspace_fixed && context.workspace_size ? *context.workspace_size : SIZE_MAX;
}

std::string route_key(GemmCall const &c, int compute_capability, int sm_count, size_t packing_limit) {
  GemmEpilogueArguments const &e = c.epilogue;
  KeyWriter w;
  w << compute_capability << sm_count << packing_limit << c.mode << c.m << c.n << c.k << c.batch_count
    << c.split_k_request;
  w << c.element_compute << c.element_scalar << c.pointer_mode << zero_class(c, c.alpha) << zero_class(c, c.beta);
  w << c.element_A << c.element_B << c.element_C << c.element_D;
  w << c.layout_A << c.layout_B << c.layout_C << c.layout_D << c.transform_A << c.transform_B;
  w << alignment_class(c.A) << alignment_class(c.B) << alignment_class(c.C) << alignment_class(c.D)
    << (c.C == c.D);
  w << c.lda << c.ldb << c.ldc << c.ldd;
  w << c.batch_stride_A << c.batch_stride_B << c.batch_stride_C << c.batch_stride_D;
  w << e.kind.activation << e.kind.element_bias << e.kind.alpha_vector << e.kind.element_aux << e.kind.scale_amax;
  w << alignment_class(e.bias) << e.bias_broadcast << e.batch_stride_bias;
  w << alignment_class(e.alpha_vector) << e.alpha_vector_broadcast << e.batch_stride_alpha_vector;
  w << alignment_class(e.aux) << e.ldaux << e.batch_stride_aux;
  w << alignment_class(e.scale_d) << alignment_class(e.amax) << alignment_class(e.scale_a)
    << alignment_class(e.scale_b) << e.scale_a_mode << e.scale_b_mode << e.accumulation;
  w << e.clamp_min << e.clamp_max << e.rows << e.columns;
  return w.take();
}

bool RouteCache::find(std::string const &key, Route *route) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto const found = routes_.find(key);
  if (found == routes_.end()) return false;
  *route = found->second;
  return true;
}

void RouteCache::insert(std::string const &key, Route const &route) {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    if (routes_.size() >= kCapacity) routes_.clear();
    routes_[key] = route;
  } catch (std::bad_alloc const &) {   // remembering is an optimization: the call goes on
  }
}

size_t RouteCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return routes_.size();
}

void RouteCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  routes_.clear();
}

}  // namespace library
}  // namespace cutlass
