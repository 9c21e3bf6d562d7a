/// @file src/library/gemm_call.cpp
/// The path of every GEMM entry point: argument checks (gemm_arguments.cpp), quick returns, the
/// kernel and its route (gemm_route.h), workspace, launch. Read top to bottom: gemm_call() is the
/// whole story.
#include "gemm_call.h"
#include "gemm_selection.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "gemm_route.h"
#include "scale.h"
#include "split_k.h"
#include "staging.h"
#include "workspace.h"

namespace cutlass {
namespace library {

namespace {

LayoutTypeID transposed(LayoutTypeID layout) {
  return layout == LayoutTypeID::kColumnMajor ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
}

/// The call with both operands K-major (the layouts the sm90 8-bit and tf32 kernels take).
GemmCall k_major_operands(GemmCall c) {
  c.layout_A = LayoutTypeID::kRowMajor;      // M x K, K contiguous
  c.layout_B = LayoutTypeID::kColumnMajor;   // K x N, K contiguous
  return c;
}

/// The kernels of the call's types with both operands K-major, which take MN-major operands
/// through transposed copies (staging.h); null when those are the call's own `candidates` or
/// there are none. Looked up where a decision needs them, not on a remembered route's path.
GemmOperationVector const *k_major_kernels(GemmCall const &call, GemmOperationVector const *candidates) {
  GemmOperationVector const *k_major = Singleton::get().operation_table.find_gemm(functional_key(k_major_operands(call)));
  return k_major == candidates ? nullptr : k_major;
}

}  // namespace

/// A row-major C/D problem as the column-major one the kernels compute: D^T = B^T * A^T.
GemmCall to_column_major_output(GemmCall c) {
  if (c.layout_C == LayoutTypeID::kColumnMajor) return c;
  GemmCall t = c;
  t.m = c.n;
  t.n = c.m;
  t.element_A = c.element_B;
  t.layout_A = transposed(c.layout_B);
  t.A = c.B;
  t.lda = c.ldb;
  t.batch_stride_A = c.batch_stride_B;
  t.element_B = c.element_A;
  t.layout_B = transposed(c.layout_A);
  t.B = c.A;
  t.ldb = c.lda;
  t.batch_stride_B = c.batch_stride_A;
  t.layout_C = t.layout_D = LayoutTypeID::kColumnMajor;
  // Rows of D^T are columns of D: the vectors change their broadcast; aux (D's layout) transposes with D.
  t.epilogue.bias_broadcast = epilogue::transposed(c.epilogue.bias_broadcast);
  t.epilogue.alpha_vector_broadcast = epilogue::transposed(c.epilogue.alpha_vector_broadcast);
  // A and B trade places, and so do their scales (an outer vector of A follows the rows of D)
  t.epilogue.scale_a = c.epilogue.scale_b;
  t.epilogue.scale_b = c.epilogue.scale_a;
  t.epilogue.scale_a_mode = c.epilogue.scale_b_mode;
  t.epilogue.scale_b_mode = c.epilogue.scale_a_mode;
  t.epilogue.rows = c.epilogue.columns;
  t.epilogue.columns = c.epilogue.rows;
  return t;
}

GemmFunctionalKey functional_key(GemmCall const &c) {
  GemmFunctionalKey key;
  key.element_compute = c.element_compute;
  key.element_scalar = c.element_scalar;
  key.element_A = c.element_A;
  key.layout_A = c.layout_A;
  key.element_B = c.element_B;
  key.layout_B = c.layout_B;
  key.element_C = c.element_C;
  key.layout_C = LayoutTypeID::kColumnMajor;
  key.element_D = c.element_D;
  key.layout_D = LayoutTypeID::kColumnMajor;
  key.epilogue = c.epilogue.kind;
  return key;
}

namespace {

/// D = beta * C for K == 0 or alpha == 0 (column-major call).
GemmOutcome scale_only(GemmCall const &c, GemmContext const &context, bool execute) {
  if (!execute) return {};
  ScaleArguments s;
  s.element = c.element_C;
  s.element_scalar = c.element_scalar;
  s.m = c.m;
  s.n = c.n;
  s.batch_count = c.batch_count;
  s.beta = c.beta;
  s.beta_on_device = c.pointer_mode == ScalarPointerMode::kDevice;
  s.C = c.C;
  s.ldc = c.ldc;
  s.batch_stride_C = c.batch_stride_C;
  s.D = c.D;
  s.ldd = c.ldd;
  s.batch_stride_D = c.batch_stride_D;
  if (!launch_scale(s, context.stream)) {
    return gemm_failure(GemmFailure::kLaunchFailed, "the D = beta*C kernel failed to launch");
  }
  return {};
}

/// Kinds of call no kernel offers, answered like a missing kernel (NO_KERNEL, which the handle
/// reports as kErrorNotSupported): C and D of different layouts or types, complex transforms.
GemmOutcome unoffered_call_kind(GemmCall const &c) {
  if (c.layout_C != c.layout_D) return gemm_failure(GemmFailure::kNoKernel, "C and D must have the same layout");
  if (c.element_C != c.element_D) return gemm_failure(GemmFailure::kNoKernel, "C and D must have the same type");
  if (c.transform_A != ComplexTransform::kNone || c.transform_B != ComplexTransform::kNone) {
    return gemm_failure(GemmFailure::kNoKernel, "complex transforms are not offered (real types only)");
  }
  return {};
}

}  // namespace

Status to_status(GemmFailure failure) {
  switch (failure) {
    case GemmFailure::kNone: return Status::kSuccess;
    case GemmFailure::kInvalidValue: return Status::kErrorInvalidProblem;
    case GemmFailure::kNotSupported: return Status::kErrorNotSupported;
    case GemmFailure::kNoDevice: return Status::kErrorArchMismatch;
    case GemmFailure::kNoKernel: return Status::kErrorNotSupported;
    case GemmFailure::kArchMismatch: return Status::kErrorArchMismatch;
    case GemmFailure::kNoKernelFits: return Status::kErrorMisalignedOperand;
    case GemmFailure::kAllocFailed: return Status::kErrorMemoryAllocation;
    case GemmFailure::kWorkspaceTooSmall: return Status::kErrorWorkspaceNull;
    case GemmFailure::kLaunchFailed: return Status::kErrorInternal;
  }
  return Status::kErrorInternal;
}

GemmOutcome gemm_call(GemmCall const &user_call, GemmContext const &context, bool execute) {
  // 1. BLAS argument checks, before anything else.
  GemmOutcome checked = check_gemm_arguments(user_call);
  if (checked.failure != GemmFailure::kNone) return checked;
  if (context.compute_capability == 0) return gemm_failure(GemmFailure::kNoDevice, "no usable CUDA device");
  GemmOutcome const unoffered = unoffered_call_kind(user_call);
  if (unoffered.failure != GemmFailure::kNone) return unoffered;

  // 2. Kernels for these types, layouts and epilogue (row-major C/D computed transposed). The
  //    epilogue's extents are the user's, even when the kernel later runs on a padded copy.
  GemmCall call = to_column_major_output(user_call);
  call.epilogue.rows = int(call.m);
  call.epilogue.columns = int(call.n);
  //    MN-major operands may also run on K-major kernels through transposed copies (staging.h).
  GemmOperationVector const *candidates = Singleton::get().operation_table.find_gemm(functional_key(call));
  //    No fused kernel for the pieces (also none on K-major copies): the plain kernel and the
  //    pieces in a second pass, when on.
  if (!candidates && !k_major_kernels(call, candidates) && unfused_epilogue_applies(call)) call.split_k_request = 1;
  if (!candidates && call.split_k_request != 1 && !k_major_kernels(call, candidates)) {
    return gemm_failure(GemmFailure::kNoKernel, "no kernel in this build for these types and layouts");
  }

  // 3. Quick returns: empty output, or nothing to multiply. D = beta*C runs the library's own
  //    kernel, built for the same architectures as the GEMM kernels: on a device none of the
  //    call's kernels runs on, it is the same arch mismatch a full call gets, not a failed launch.
  //    has_code catches the devices inside a kernel's [minimum, maximum] that no built SASS runs
  //    on (e.g. 9.0 for "80;100"), which selection alone would call misaligned.
  if (call.m == 0 || call.n == 0) return {};
  if (!context.has_code) {
    return gemm_failure(GemmFailure::kArchMismatch,
                        "this build has no code for the device (CUTLASS_NVCC_ARCHS leaves it out)");
  }
  int const cc = context.compute_capability;
  if (runs_scale_only(call)) {   // a fused epilogue always runs its kernel (K >= 1 checked)
    GemmOperationVector const *k_major = k_major_kernels(call, candidates);
    if (!(candidates && first_for_device(*candidates, cc)) && !(k_major && first_for_device(*k_major, cc))) {
      return gemm_failure(GemmFailure::kArchMismatch, "no kernel for this device's compute capability");
    }
    return scale_only(call, context, execute);
  }

  // 4-6. The kernel and its route (choose_route), remembered per handle (gemm_route.h); the
  //      plans are rebuilt on this call's pointers, on a nominal workspace for sizing.
  Route route;
  bool const remember = context.routes && !selection_log_enabled();
  std::string const key = remember ? route_key(call, cc, context.sm_count, packing_limit(context)) : std::string();
  if (!remember || !context.routes->find(key, &route)) {
    bool any_for_device = false;
    route = choose_route(call, candidates, k_major_kernels(call, candidates), context, &any_for_device);
    if (!route.kernel && call.split_k_request > 0 && any_for_device) {
      return gemm_failure(GemmFailure::kNotSupported, "no plain f32-output kernel takes these split-K slices or the "
                                                      "unfused epilogue's GEMM (types, layouts, alignment: never staged)");
    }
    if (!route.kernel) {
      return any_for_device ? gemm_failure(GemmFailure::kNoKernelFits, "no kernel accepts this alignment or problem")
                            : gemm_failure(GemmFailure::kArchMismatch,
                                           "no kernel for this device's compute capability");
    }
    if (remember) context.routes->insert(key, route);
  }
  Operation const *const chosen = route.kernel;
  bool const staged = route.staged, split_k = route.splits > 0;
  StagingPlan plan;
  SplitKPlan split;
  if ((staged && !plan_staging(call, gemm_description(route.preferred), kNominalWorkspace, &plan)) ||
      (split_k && !plan_split_k(call, route.splits, kNominalWorkspace, &split))) {
    return gemm_failure(GemmFailure::kLaunchFailed, "a remembered route's plan no longer applies");
  }
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: %lldx%lldx%lld batch %lld -> %s%s\n", (long long)call.m, (long long)call.n,
                 (long long)call.k, (long long)call.batch_count, chosen->description().name,
                 staged    ? " (on aligned or K-major copies of its operands)"
                 : split_k ? (route.splits == 1 ? " (f32 into the workspace, then the unfused epilogue)" : " (split-K)")
                           : "");
  }
  // 7. Workspace (grown on demand: staging copies or split-K partials, then the kernel's own),
  //    then launch.
  GemmOutcome outcome;
  outcome.operation = chosen;
  size_t const route_bytes = staged ? plan.workspace_bytes : split_k ? split.workspace_bytes : 0;
  // the call the kernel runs: the route's plan (re-planned on the real workspace below) or the call
  GemmCall const &kernel_call = staged ? plan.staged : split_k ? split.sliced : call;
  GemmUniversalConfiguration const configuration = configuration_of(kernel_call);
  size_t const kernel_workspace_bytes = chosen->get_device_workspace_size(configuration, arguments_of(kernel_call));
  outcome.workspace_bytes = route_bytes + kernel_workspace_bytes;
  if (!execute) return outcome;
  if (context.workspace_fixed && outcome.workspace_bytes > *context.workspace_size) {
    GemmOutcome too_small =
        gemm_failure(GemmFailure::kWorkspaceTooSmall, "the caller's workspace is smaller than the call needs");
    too_small.operation = chosen;
    too_small.workspace_bytes = outcome.workspace_bytes;
    return too_small;
  }
  if (!ensure_workspace(context, outcome.workspace_bytes)) {
    return gemm_failure(GemmFailure::kAllocFailed, "workspace allocation failed");
  }
  // the same plan on the real workspace: planned for the preferred kernel's alignment, as above
  if (staged && !plan_staging(call, gemm_description(route.preferred), *context.workspace, &plan)) {
    return gemm_failure(GemmFailure::kLaunchFailed, "the staging plan changed between sizing and launch");
  }
  if (split_k && !plan_split_k(call, split.splits, *context.workspace, &split)) {
    return gemm_failure(GemmFailure::kLaunchFailed, "the split-K plan changed between sizing and launch");
  }
  GemmUniversalArguments const arguments = arguments_of(kernel_call);
  void *const kernel_workspace = static_cast<char *>(*context.workspace) + route_bytes;
  std::vector<uint8_t> host_workspace(chosen->get_host_workspace_size(configuration));
  float *const amax = call.epilogue.kind.fused() && call.epilogue.kind.scale_amax ? call.epilogue.amax : nullptr;
  uint64_t const sync_bytes = chosen->get_device_workspace_sync_bytes(configuration);
  bool const initialized = sync_words_known_zero(context, route_bytes, sync_bytes);
  bool const launched =
      (!staged || stage_in(plan, call, context.stream)) &&
      (!amax || cudaMemsetAsync(amax, 0, sizeof(float), context.stream) == cudaSuccess) &&
      (initialized ||
       chosen->initialize(configuration, host_workspace.data(), kernel_workspace, context.stream) == Status::kSuccess) &&
      chosen->run(arguments, host_workspace.data(), kernel_workspace, context.stream) == Status::kSuccess &&
      (!staged || stage_out(plan, call, context.stream)) && (!split_k || reduce_split_k(split, call, context.stream));
  note_workspace(context, launched, route_bytes, kernel_workspace_bytes, sync_bytes);
  if (!launched) {
    outcome.failure = GemmFailure::kLaunchFailed;
    outcome.detail = "the kernel, a staging copy or the split-K reduction failed to launch";
  }
  return outcome;
}

}  // namespace library
}  // namespace cutlass
