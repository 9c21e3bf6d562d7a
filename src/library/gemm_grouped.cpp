/// @file src/library/gemm_grouped.cpp
/// Grouped and pointer-array GEMMs (gemm_grouped.h): check every problem; run them in one launch
/// of a grouped kernel when the build has one that takes them all; otherwise select every
/// problem's kernel, then run each problem through the one-GEMM path. Read top to bottom:
/// gemm_grouped() is the whole story.
#include "gemm_grouped.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>
#include <cstdio>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>
#include <cuda_runtime_api.h>

#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "gemm_selection.h"
#include "workspace.h"

namespace cutlass {
namespace library {

namespace {

/// Where a problem sits: its group, its index in the group, its entry (its place among all the
/// call's problems: the batch entry of the epilogue's operands) and its slot in the pointer
/// arrays (the entry, or in packed arrays its place among the visited problems).
struct ProblemIndex {
  int64_t group, problem, entry, slot;
};

/// `pointer` moved by `elements` elements of `type`.
template <typename T>
T *advanced(T *pointer, NumericTypeID type, int64_t elements) {
  if (!pointer) return pointer;
  using Byte = typename std::conditional<std::is_const<T>::value, char const, char>::type;
  return reinterpret_cast<T *>(reinterpret_cast<Byte *>(pointer) + elements * (sizeof_bits(type) / 8));
}

/// A problem as the one-GEMM call it is: its group's shape with its own pointers, and the fused
/// epilogue's vectors and aux matrix of batch entry `entry` (bias + entry * batchStride, ...: the
/// problems of the call are the batch entries of the handle's epilogue operands). A problem with
/// an empty output (or a negative size, which its checks refuse) keeps the operands' first
/// entries: it reads none of them, and check_grouped_arguments checks the spans of the others only,
/// so entry * batchStride could overflow for it.
GemmCall problem_call(GemmGroupedCall const &call, ProblemIndex const &index) {
  GemmCall c = call.groups[size_t(index.group)].shape;
  c.A = call.A ? call.A[index.slot] : nullptr;
  c.B = call.B ? call.B[index.slot] : nullptr;
  c.C = call.C ? call.C[index.slot] : nullptr;
  c.D = call.D ? call.D[index.slot] : nullptr;
  if (c.m <= 0 || c.n <= 0) return c;
  GemmEpilogueArguments &e = c.epilogue;
  if (e.kind.element_bias != NumericTypeID::kInvalid) {
    e.bias = advanced(e.bias, e.kind.element_bias, index.entry * e.batch_stride_bias);
  }
  if (e.kind.alpha_vector) {
    e.alpha_vector = advanced(e.alpha_vector, NumericTypeID::kF32, index.entry * e.batch_stride_alpha_vector);
  }
  if (e.kind.element_aux != NumericTypeID::kInvalid) {
    e.aux = advanced(e.aux, e.kind.element_aux, index.entry * e.batch_stride_aux);
  }
  return c;
}

/// True when a group's problems have an empty output (M == 0 or N == 0): they read and write
/// nothing, so their pointers do not matter and one problem stands for all of them.
bool empty_output(GemmGroup const &group) { return group.shape.m == 0 || group.shape.n == 0; }

/// Calls visit(index) for every problem, groups in order, until it returns false; a group with an
/// empty output is visited once (its first problem), so a huge count of such problems costs nothing.
template <typename Visit>
void for_each_problem(GemmGroupedCall const &call, Visit &&visit) {
  int64_t entry = 0, slot = 0;
  for (int64_t g = 0; g < int64_t(call.groups.size()); ++g) {
    GemmGroup const &group = call.groups[size_t(g)];
    int64_t const visited = empty_output(group) ? std::min<int64_t>(group.size, 1) : group.size;
    for (int64_t j = 0; j < visited; ++j) {
      if (!visit(ProblemIndex{g, j, entry + j, slot + j})) return;
    }
    entry += group.size;
    slot += call.packed_arrays ? visited : group.size;
  }
}

/// A failure at (group, problem), -1 where it is the call's or the group's own.
GemmGroupedOutcome at(GemmFailure failure, char const *detail, int64_t group = -1, int64_t problem = -1) {
  GemmGroupedOutcome outcome;
  outcome.failure = failure;
  outcome.detail = detail;
  outcome.group = group;
  outcome.problem = problem;
  return outcome;
}

/// `outcome`, printed with its group and problem index when CUTLASS_LIB_LOG is set.
GemmGroupedOutcome logged(GemmGroupedOutcome const &outcome) {
  if (selection_log_enabled()) {
    if (outcome.group < 0) {
      std::fprintf(stderr, "cutlass_lib: grouped GEMM: %s\n", outcome.detail);
    } else if (outcome.problem < 0) {
      std::fprintf(stderr, "cutlass_lib: grouped GEMM, group %lld: %s\n", (long long)outcome.group, outcome.detail);
    } else {
      std::fprintf(stderr, "cutlass_lib: grouped GEMM, group %lld, problem %lld: %s\n", (long long)outcome.group,
                   (long long)outcome.problem, outcome.detail);
    }
  }
  return outcome;
}

/// Where a pointer array lives, as the copy needs to know it.
enum class ArrayMemory {
  kHost,      ///< null, pageable or pinned host memory, or no device: read in place
  kDevice,    ///< device or managed memory: copied after the stream's earlier work
  kUnknown,   ///< CUDA could not tell (an earlier failure left the context unusable)
};

/// What cudaPointerGetAttributes says of `array`. Managed memory counts as device memory: a kernel
/// on the stream may still be writing it, and the host may not read it while kernels run on
/// devices without concurrent managed access. Without a device or driver every array is host
/// memory (the call then answers NO_DEVICE).
ArrayMemory memory_of(void const *array) {
  if (!array) return ArrayMemory::kHost;
  cudaPointerAttributes attributes{};
  cudaError_t const queried = cudaPointerGetAttributes(&attributes, array);
  if (queried != cudaSuccess) {
    cudaGetLastError();
    bool const no_device = queried == cudaErrorNoDevice || queried == cudaErrorInsufficientDriver ||
                           queried == cudaErrorInitializationError;
    return no_device ? ArrayMemory::kHost : ArrayMemory::kUnknown;
  }
  bool const device = attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  return device ? ArrayMemory::kDevice : ArrayMemory::kHost;
}

/// True when the host may not read `array` in place (check_grouped_arguments' guard).
bool in_device_memory(void const *array) { return memory_of(array) != ArrayMemory::kHost; }

/// The number of problems (the sum of the group sizes) in `*problems`; kInvalidValue for a
/// negative group size or a sum past 2^63 - 1.
GemmGroupedOutcome count_problems(GemmGroupedCall const &call, int64_t *problems) {
  *problems = 0;
  for (int64_t g = 0; g < int64_t(call.groups.size()); ++g) {
    int64_t const size = call.groups[size_t(g)].size;
    if (size < 0) return at(GemmFailure::kInvalidValue, "group_size must be >= 0", g);
    if (__builtin_add_overflow(*problems, size, problems)) {
      return at(GemmFailure::kInvalidValue, "the group sizes add up past 2^63 - 1 problems", g);
    }
  }
  return {};
}

/// Problem `i` through gemm_call without launching (its device, kernels, alignment and
/// workspace; with `check_workspace`, kWorkspaceTooSmall against a caller's workspace): the
/// failure, or none and the workspace the problem needs.
GemmGroupedOutcome plan_problem(GemmGroupedCall const &call, GemmContext const &context, ProblemIndex const &i,
                                bool check_workspace = true) {
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: grouped GEMM, group %lld, problem %lld: select\n", (long long)i.group,
                 (long long)i.problem);
  }
  GemmOutcome const planned = gemm_call(problem_call(call, i), context, /*execute=*/false);
  if (planned.failure != GemmFailure::kNone) return logged(at(planned.failure, planned.detail, i.group, i.problem));
  if (check_workspace && context.workspace_fixed && planned.workspace_bytes > *context.workspace_size) {
    return logged(at(GemmFailure::kWorkspaceTooSmall, "the caller's workspace is smaller than the problem needs",
                     i.group, i.problem));
  }
  GemmGroupedOutcome planned_outcome;
  planned_outcome.workspace_bytes = planned.workspace_bytes;
  return planned_outcome;
}

/// Runs problem `i` through gemm_call on the stream; false (with *outcome its failure, keeping the
/// kernel that ran last) when it failed, else *outcome's kernel is the problem's when it ran one.
bool run_problem(GemmGroupedCall const &call, GemmContext const &context, ProblemIndex const &i,
                 GemmGroupedOutcome *outcome) {
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: grouped GEMM, group %lld, problem %lld: run\n", (long long)i.group,
                 (long long)i.problem);
  }
  GemmOutcome const ran = gemm_call(problem_call(call, i), context, /*execute=*/true);
  if (ran.failure != GemmFailure::kNone) {
    Operation const *last = outcome->operation;
    *outcome = logged(at(ran.failure, ran.detail, i.group, i.problem));
    outcome->operation = last;
    return false;
  }
  if (ran.operation) outcome->operation = ran.operation;
  return true;
}

/// Most problems one grouped launch takes: its group table (~0.8 KB of tensor maps per problem,
/// built on the host per call) stays within ~50 MB of workspace; more go problem by problem.
constexpr size_t kMaxGroupedProblems = size_t(1) << 16;

/// The grouped kernel that runs the call's problems with M, N, K > 0 in one launch, with those
/// problems' arguments in `problems` and the scale-only problems (K == 0 or host alpha == 0:
/// beta * C, for the one-GEMM path) in `k_zero`; null when the call goes problem by problem: no device, a stream being captured
/// (the launch copies its group table from pageable memory), problems of different types or
/// layouts, row-major C / D, more than kMaxGroupedProblems, or no grouped kernel in the
/// build that takes them all (can_implement_grouped).
Operation const *grouped_kernel(GemmGroupedCall const &call, GemmContext const &context,
                                std::vector<GemmUniversalArguments> &problems, std::vector<ProblemIndex> &k_zero) {
  if (context.compute_capability == 0 || !context.has_code) return nullptr;
  GemmFunctionalKey key;
  GemmOperationVector const *kernels = nullptr;   // the grouped kernels of the first problem's key
  bool takes_all = true;
  for_each_problem(call, [&](ProblemIndex const &i) {
    GemmCall const c = problem_call(call, i);
    if (c.m == 0 || c.n == 0) return true;   // reads and writes nothing
    if (runs_scale_only(c)) {                // K == 0 or host alpha == 0: beta * C, A and B unread
      k_zero.push_back(i);
      return true;
    }
    bool const column_major = c.layout_C == LayoutTypeID::kColumnMajor && c.layout_D == LayoutTypeID::kColumnMajor;
    if (!column_major || c.batch_count != 1 || problems.size() >= kMaxGroupedProblems ||
        (!problems.empty() && functional_key(c) != key)) {
      takes_all = false;
      return false;
    }
    if (problems.empty()) {   // the first: a build without grouped kernels for its key stops here
      key = functional_key(c);
      GemmFunctionalKey grouped = key;
      grouped.gemm_kind = GemmKind::kGrouped;
      kernels = Singleton::get().operation_table.find_gemm(grouped);
      if (!kernels) {
        takes_all = false;
        return false;
      }
    }
    problems.push_back(arguments_of(c));
    return true;
  });
  if (!takes_all || problems.empty()) return nullptr;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(context.stream, &capture) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  if (capture != cudaStreamCaptureStatusNone) return nullptr;
  // by estimated time (ties: the build's order), the first that takes every problem (the checks
  // encode no tensor maps: run_grouped does, once)
  int const count = int(problems.size());
  std::vector<std::pair<double, Operation const *>> ranked;
  for (Operation const *op : *kernels) {
    GemmDescription const &desc = gemm_description(op);
    if (!grouped_tile_fits(desc, problems.data(), count)) continue;
    ranked.push_back({grouped_rank(desc, problems.data(), count, context.sm_count), op});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](auto const &a, auto const &b) { return a.first < b.first; });
  for (auto const &[time, op] : ranked) {
    Status const status = op->can_implement_grouped(problems.data(), count);
    if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   grouped %s: estimated %.1f us%s%s\n", op->description().name, time,
                   status == Status::kSuccess ? "" : ", refused: ",
                   status == Status::kSuccess ? "" : cutlassGetStatusString(status));
    }
    if (status == Status::kSuccess) return op;
  }
  return nullptr;
}

/// Runs the call as one launch of a grouped kernel (grouped_kernel), the scale-only problems
/// (beta * C) through the one-GEMM path, planned before anything launches; true when it took the
/// call (*outcome is then the answer), false to go problem by problem: no grouped kernel takes
/// it, the workspace is the caller's and too small or not 256-byte aligned, or the group table
/// cannot be allocated (the loop may need no workspace). Without `execute`, *outcome is the plan
/// (the grouped kernel and the workspace the call needs), nothing allocated or launched.
bool one_launch(GemmGroupedCall const &call, GemmContext const &context, GemmGroupedOutcome *outcome,
                bool execute) {
  std::vector<GemmUniversalArguments> problems;
  std::vector<ProblemIndex> scale_only;
  Operation const *grouped = grouped_kernel(call, context, problems, scale_only);
  if (!grouped) return false;
  size_t const bytes = size_t(grouped->get_grouped_workspace_size(int(problems.size())));
  bool const aligned = *context.workspace == nullptr || reinterpret_cast<uintptr_t>(*context.workspace) % 256 == 0;
  auto dropped = [](char const *why) {
    if (selection_log_enabled()) std::fprintf(stderr, "cutlass_lib: grouped GEMM: not in one launch: %s\n", why);
    return false;
  };
  if (execute && !aligned) return dropped("the caller's workspace is not 256-byte aligned");
  if (execute && context.workspace_fixed && bytes > *context.workspace_size) {
    return dropped("the caller's workspace is too small");
  }
  size_t needed = bytes;
  for (ProblemIndex const &i : scale_only) {
    *outcome = plan_problem(call, context, i, execute);
    if (outcome->failure != GemmFailure::kNone) return true;
    needed = std::max(needed, outcome->workspace_bytes);
  }
  if (!execute) {
    *outcome = {};
    outcome->operation = grouped;
    outcome->workspace_bytes = needed;
    return true;
  }
  if (!ensure_workspace(context, bytes)) return dropped("the group table's workspace could not be allocated");
  workspace_overwritten(context);
  if (selection_log_enabled()) {
    std::fprintf(stderr, "cutlass_lib: grouped GEMM: %zu problems in one launch of %s\n", problems.size(),
                 grouped->description().name);
  }
  Status const launched = grouped->run_grouped(problems.data(), int(problems.size()), *context.workspace, context.stream);
  if (launched == Status::kErrorMisalignedOperand) {   // a tensor map the driver refused: nothing ran
    return dropped("the driver refused a problem's tensor map");
  }
  if (launched != Status::kSuccess) {
    *outcome = logged(at(GemmFailure::kLaunchFailed, "the grouped kernel's launch failed"));
    return true;
  }
  *outcome = {};
  outcome->operation = grouped;
  for (ProblemIndex const &i : scale_only) {
    if (!run_problem(call, context, i, outcome)) break;
  }
  return true;
}

/// The bytes one problem writes: `lines` runs of `run` elements, `ld` elements apart (column-
/// major D: M-element columns; row-major: N-element rows), from `D`. (check_gemm_arguments has
/// bounded the span below 2^63 bytes, counting a sub-byte element as a byte, and made ld >= run:
/// so the span in bytes, counted the same way, cannot overflow; an end past the top of the
/// address space is held at its top.)
struct OutputRegion {
  uintptr_t begin = 0, end = 0;   ///< [begin, end): the first and one past the last byte written
  int64_t run = 0, lines = 0, ld = 0;
  int64_t element_bytes = 0;      ///< 0 for sub-byte types (no exact test, below)
  ProblemIndex index{};
};

OutputRegion output_region(GemmCall const &c, void const *D, ProblemIndex const &index) {
  OutputRegion r;
  bool const column = c.layout_D == LayoutTypeID::kColumnMajor;
  r.run = column ? c.m : c.n;
  r.lines = column ? c.n : c.m;
  r.ld = c.ldd;
  int64_t const bits = sizeof_bits(c.element_D);
  r.element_bytes = bits % 8 == 0 ? bits / 8 : 0;
  r.begin = reinterpret_cast<uintptr_t>(D);
  uintptr_t const bytes = uintptr_t(((r.lines - 1) * r.ld + r.run) * (std::max<int64_t>(bits, 8) / 8));
  r.end = bytes > UINTPTR_MAX - r.begin ? UINTPTR_MAX : r.begin + bytes;
  r.index = index;
  return r;
}

/// Whether two regions (a.begin <= b.begin, byte ranges overlapping, so b starts less than 2^63
/// bytes after a) share an element. Exact when they have one leading dimension and whole-byte
/// element size and b starts a whole number of elements after a: b's runs then sit at rows
/// [dr, dr + run) of a's line grid from line dc on (d = dr + dc * ld elements after a), a run
/// wrapping to the next line past row ld (run <= ld: at most one more line). Otherwise only a
/// shared first byte is known to overlap (the check is "where detectable", issue 17). No sum
/// below can overflow: dr < ld, run <= ld, dc < 2^63.
bool share_an_element(OutputRegion const &a, OutputRegion const &b) {
  if (a.begin == b.begin) return true;
  uintptr_t const bytes = b.begin - a.begin;
  if (a.ld != b.ld || a.element_bytes == 0 || a.element_bytes != b.element_bytes ||
      bytes % uintptr_t(a.element_bytes) != 0) {
    return false;
  }
  int64_t const d = int64_t(bytes / uintptr_t(a.element_bytes)), dr = d % a.ld, dc = d / a.ld;
  // b's rows [row_begin, row_end) on its lines from `line` on, against a's [0, run) x [0, lines)
  auto const meets = [&](int64_t row_begin, int64_t row_end, int64_t line) {
    return row_begin < a.run && row_end > 0 && line < a.lines;
  };
  if (b.run <= a.ld - dr) return meets(dr, dr + b.run, dc);
  return meets(dr, a.ld, dc) || (dc < a.lines - 1 && meets(0, b.run - (a.ld - dr), dc + 1));
}

/// The first problem (in call order) whose output shares an element with an earlier problem's,
/// among the problems that write (M, N > 0); none: index.group == -1; the list of outputs cannot
/// be held: index.group == -2. Regions sorted by address
/// and swept; the exact test runs only on pairs whose byte ranges overlap, against the kCompared
/// latest-starting earlier regions that reach into a region (an output interleaved with more,
/// e.g. one row block of a matrix many problems share, is not compared with all of them: the
/// sweep stays O(problems x kCompared)).
ProblemIndex overlapping_output(GemmGroupedCall const &call) {
  constexpr size_t kCompared = 64;
  std::vector<OutputRegion> regions;
  try {
    for_each_problem(call, [&](ProblemIndex const &i) {
      GemmCall const &shape = call.groups[size_t(i.group)].shape;
      if (shape.m > 0 && shape.n > 0) regions.push_back(output_region(shape, call.D ? call.D[i.slot] : nullptr, i));
      return true;
    });
  } catch (std::bad_alloc const &) {
    return ProblemIndex{-2, -1, -1, -1};
  }
  auto const before = [](OutputRegion const &x, OutputRegion const &y) {
    return x.begin != y.begin ? x.begin < y.begin : x.index.entry < y.index.entry;
  };
  if (!std::is_sorted(regions.begin(), regions.end(), before)) std::sort(regions.begin(), regions.end(), before);
  ProblemIndex found{-1, -1, INT64_MAX, -1};
  std::vector<OutputRegion const *> open;   // regions whose bytes reach past the current begin
  for (OutputRegion const &r : regions) {
    open.erase(std::remove_if(open.begin(), open.end(), [&](OutputRegion const *o) { return o->end <= r.begin; }),
               open.end());
    for (OutputRegion const *o : open) {
      if (share_an_element(*o, r)) {
        ProblemIndex const &later = o->index.entry > r.index.entry ? o->index : r.index;
        if (later.entry < found.entry) found = later;
      }
    }
    if (open.size() == kCompared) open.erase(open.begin());
    open.push_back(&r);
  }
  return found;
}

}  // namespace

GemmGroupedOutcome copy_device_pointer_arrays(GemmGroupedCall *call, cudaStream_t stream, PointerArrayCopies *copies) {
  int64_t problems = 0;
  if (call->packed_arrays || count_problems(*call, &problems).failure != GemmFailure::kNone || problems == 0) return {};
  bool const d_is_c = static_cast<void const *>(call->D) == static_cast<void const *>(call->C);
  ArrayMemory const memory[4] = {memory_of(call->A), memory_of(call->B), memory_of(call->C),
                                 d_is_c ? ArrayMemory::kHost : memory_of(call->D)};
  bool any = false;
  for (ArrayMemory m : memory) {
    if (m == ArrayMemory::kUnknown) {
      return logged(at(GemmFailure::kLaunchFailed, "CUDA cannot tell where a pointer array lives (an earlier failure?)"));
    }
    any = any || m == ArrayMemory::kDevice;
  }
  if (!any) return {};
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t const queried = cudaStreamIsCapturing(stream, &capture);
  if (queried == cudaErrorStreamCaptureImplicit || (queried == cudaSuccess && capture != cudaStreamCaptureStatusNone)) {
    if (queried != cudaSuccess) cudaGetLastError();
    return logged(at(GemmFailure::kNotSupported,
                     "pointer arrays in device memory are copied to the host, which a stream being captured cannot "
                     "wait for (cutlassLibGemmGroupedDeviceSizesEx reads its arrays on the device)"));
  }
  if (queried != cudaSuccess) {
    cudaGetLastError();
    return logged(at(GemmFailure::kLaunchFailed, "the handle's stream cannot be queried (an earlier failure?)"));
  }

  // The entries of the problems for_each_problem visits (a group with an empty output: its
  // first), packed in visiting order: runs of consecutive entries, each one copy per array (one
  // run when no group has an empty output).
  struct Run {
    int64_t entry, slot, count;
  };
  std::vector<Run> runs;
  int64_t slots = 0;
  try {
    for_each_problem(*call, [&](ProblemIndex const &i) {
      if (!runs.empty() && runs.back().entry + runs.back().count == i.entry) {
        ++runs.back().count;
      } else {
        runs.push_back(Run{i.entry, slots, 1});
      }
      ++slots;
      return true;
    });
  } catch (std::bad_alloc const &) {
    return logged(at(GemmFailure::kAllocFailed, "the host cannot hold copies of the pointer arrays"));
  }

  // Not captured: a copy into pageable memory and a wait are legal here even while another stream
  // of this thread is being captured in global mode (they do not touch that stream).
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  GemmFailure failure = GemmFailure::kNone;
  // Enqueues the copies of `from`'s runs into `to`, one pointer per visited problem.
  auto const enqueue = [&](void const *from, auto *to) {
    if (failure != GemmFailure::kNone) return;
    try {
      to->resize(size_t(slots));
    } catch (std::exception const &) {   // bad_alloc, or length_error past the vector's max_size
      failure = GemmFailure::kAllocFailed;
      return;
    }
    for (Run const &run : runs) {
      cudaError_t const copied =
          cudaMemcpyAsync(to->data() + run.slot, static_cast<char const *>(from) + run.entry * sizeof(void *),
                          size_t(run.count) * sizeof(void *), cudaMemcpyDeviceToHost, stream);
      if (copied != cudaSuccess) {
        cudaGetLastError();
        failure = copied == cudaErrorInvalidValue ? GemmFailure::kInvalidValue : GemmFailure::kLaunchFailed;
        return;
      }
    }
  };
  if (memory[0] == ArrayMemory::kDevice) enqueue(call->A, &copies->A);
  if (memory[1] == ArrayMemory::kDevice) enqueue(call->B, &copies->B);
  if (memory[2] == ArrayMemory::kDevice) {
    if (d_is_c) {
      enqueue(call->C, &copies->D);   // one array as C and D (the C API's Carray): one copy
    } else {
      enqueue(call->C, &copies->C);
    }
  }
  if (memory[3] == ArrayMemory::kDevice) enqueue(call->D, &copies->D);
  // wait for the copies enqueued so far, also after a failure (they write into `copies`)
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    cudaGetLastError();
    if (failure == GemmFailure::kNone) failure = GemmFailure::kLaunchFailed;
  }
  cudaThreadExchangeStreamCaptureMode(&mode);
  switch (failure) {
    case GemmFailure::kNone: break;
    case GemmFailure::kAllocFailed:
      return logged(at(failure, "the host cannot hold copies of the pointer arrays"));
    case GemmFailure::kInvalidValue:
      return logged(at(failure, "CUDA refused to copy a pointer array from device memory (shorter than the problems?)"));
    default:
      return logged(at(failure, "copying the pointer arrays from device memory failed (an earlier error on the stream?)"));
  }

  // Every array now packed: those in host memory too (their visited entries, read in place).
  auto const pack = [&](auto const *from, ArrayMemory where, auto *to) -> decltype(to->data()) {
    if (!from) return nullptr;
    if (where != ArrayMemory::kDevice) {
      to->resize(size_t(slots));   // no larger than a device array's copy, which fit
      for (Run const &run : runs) std::copy(from + run.entry, from + run.entry + run.count, to->data() + run.slot);
    }
    return to->data();
  };
  try {
    call->A = pack(call->A, memory[0], &copies->A);
    call->B = pack(call->B, memory[1], &copies->B);
    if (d_is_c) {
      call->D = pack(call->D, memory[2], &copies->D);
      call->C = call->D;
    } else {
      call->C = pack(call->C, memory[2], &copies->C);
      call->D = pack(call->D, memory[3], &copies->D);
    }
  } catch (std::exception const &) {
    return logged(at(GemmFailure::kAllocFailed, "the host cannot hold copies of the pointer arrays"));
  }
  call->packed_arrays = true;
  return {};
}

GemmGroupedOutcome check_grouped_arguments(GemmGroupedCall const &call) {
  int64_t problems = 0;
  GemmGroupedOutcome const counted = count_problems(call, &problems);
  if (counted.failure != GemmFailure::kNone) return logged(counted);
  // NOTE: before any entry is read: reading a device array on the host would crash.
  if (problems > 0 && (in_device_memory(call.A) || in_device_memory(call.B) || in_device_memory(call.C) ||
                       in_device_memory(call.D))) {
    return logged(at(GemmFailure::kInvalidValue,
                     "a pointer array in device memory that was not copied to the host (copy_device_pointer_arrays)"));
  }
  int64_t const group_count = int64_t(call.groups.size());
  // Every argument error of every problem, in problem order, before anything unsupported. A
  // group without problems gets its shape checked as a problem with null pointers would be
  // (the shape alone: sizes, leading dimensions, transposes, types).
  GemmGroupedOutcome first_other;
  auto const note = [&](GemmOutcome const &checked, int64_t g, int64_t j) {
    if (checked.failure != GemmFailure::kNone && checked.failure != GemmFailure::kInvalidValue &&
        first_other.failure == GemmFailure::kNone) {
      first_other = at(checked.failure, checked.detail, g, j);
    }
  };
  for (int64_t g = 0; g < group_count; ++g) {
    GemmGroup const &group = call.groups[size_t(g)];
    if (group.size == 0) {
      GemmOutcome const shape = check_gemm_shape(group.shape);
      if (shape.failure != GemmFailure::kNone) return logged(at(shape.failure, shape.detail, g));
      GemmCall empty = group.shape;
      empty.n = 0;   // a problem with nothing to read or write, its M kept (the aux ld covers it)
      GemmOutcome const arguments = check_gemm_arguments(empty);   // the handle's epilogue and scales
      if (arguments.failure == GemmFailure::kInvalidValue) return logged(at(arguments.failure, arguments.detail, g));
      note(arguments, g, -1);
      if (group.shape.m > INT_MAX || group.shape.n > INT_MAX || group.shape.k > INT_MAX) {
        note(GemmOutcome{GemmFailure::kNotSupported, nullptr, 0, "M, N and K must each fit in 32 bits"}, g, -1);
      }
    }
  }
  bool stop = false;
  for_each_problem(call, [&](ProblemIndex const &i) {
    // the fused epilogue's vectors and aux up to this problem's batch entry (problem_call moves
    // them there: check the span first, as a strided-batched call of entry + 1 batches would)
    GemmCall const &shape = call.groups[size_t(i.group)].shape;
    if (shape.epilogue.kind.fused()) {
      GemmCall spanned = shape;
      spanned.batch_count = i.entry + 1;
      GemmOutcome const span = check_epilogue_arguments(spanned);
      if (span.failure == GemmFailure::kInvalidValue) {
        first_other = at(span.failure, span.detail, i.group, i.problem);
        stop = true;
        return false;
      }
    }
    GemmOutcome const checked = check_gemm_arguments(problem_call(call, i));
    if (checked.failure == GemmFailure::kInvalidValue) {
      first_other = at(checked.failure, checked.detail, i.group, i.problem);
      stop = true;
      return false;
    }
    note(checked, i.group, i.problem);
    return true;
  });
  if (stop) return logged(first_other);
  ProblemIndex const overlap = overlapping_output(call);
  if (overlap.group == -2) return logged(at(GemmFailure::kAllocFailed, "the host cannot hold the problems' output list"));
  if (overlap.group >= 0) {
    return logged(at(GemmFailure::kInvalidValue, "this problem's output shares elements with an earlier problem's",
                     overlap.group, overlap.problem));
  }
  if (first_other.failure != GemmFailure::kNone) return logged(first_other);
  return {};
}

GemmGroupedOutcome gemm_grouped(GemmGroupedCall const &call, GemmContext const &context, bool execute) {
  // 1. Every problem's arguments, before anything else.
  GemmGroupedOutcome const checked = call.arguments_checked ? GemmGroupedOutcome() : check_grouped_arguments(call);
  if (checked.failure != GemmFailure::kNone) return checked;

  // 2. What this version does not offer: the D scale / amax (one amax over every problem) and
  //    outer-vector operand scales (per-tensor scalar scales apply to every problem). The fused
  //    epilogue's vectors and aux are per problem (problem_call).
  for (int64_t g = 0; g < int64_t(call.groups.size()); ++g) {
    GemmEpilogueArguments const &e = call.groups[size_t(g)].shape.epilogue;
    if (e.kind.scale_amax) {
      return logged(at(GemmFailure::kNotSupported, "grouped and pointer-array calls take no D scale or amax", g));
    }
    if (e.scale_a_mode != epilogue::OperandScaleMode::kScalar || e.scale_b_mode != epilogue::OperandScaleMode::kScalar) {
      return logged(at(GemmFailure::kNotSupported,
                       "grouped and pointer-array calls take per-tensor operand scales only, no outer vectors or blocks", g));
    }
    if (e.accumulation != AccumulationMode::kFast) {
      return logged(at(GemmFailure::kNotSupported, "grouped and pointer-array calls accumulate fast only", g));
    }
  }

  GemmGroupedOutcome outcome;

  // 3. One launch for every problem with M, N, K > 0, when a grouped kernel takes them all
  //    (one_launch); otherwise, or when its table cannot be allocated, problem by problem.
  if (one_launch(call, context, &outcome, execute)) return outcome;

  // 4. Otherwise every problem's kernel, nothing launched: the device, the kernels for the types
  //    and layouts, a kernel that takes the problem's alignment, and the workspace it needs.
  size_t needed = 0;
  for_each_problem(call, [&](ProblemIndex const &i) {
    outcome = plan_problem(call, context, i, execute);
    needed = std::max(needed, outcome.workspace_bytes);
    return outcome.failure == GemmFailure::kNone;
  });
  if (outcome.failure != GemmFailure::kNone) return outcome;
  if (!execute) {
    outcome = {};
    outcome.workspace_bytes = needed;   // one problem at a time: the largest need
    return outcome;
  }

  // 5. Each problem in order on the stream, through the same path (quick returns included).
  for_each_problem(call, [&](ProblemIndex const &i) { return run_problem(call, context, i, &outcome); });
  return outcome;
}

}  // namespace library
}  // namespace cutlass
