/// @file src/profiler/gemm_profiler.cpp
/// Per problem: allocate and fill the operand copies; compute the reference results once
/// (reference GEMM, cuBLAS; with a fused epilogue the epilogue reference, cuBLAS + the separate
/// epilogue kernel and cuBLASLt's fused epilogue); then one row per fitting kernel, one for the
/// Handle, one for cuBLAS (and cuBLASLt), each verified on copy 0 and timed on rotating copies.
#include "gemm_profiler.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "cutlass/library/util.h"
#include "epilogue_buffers.h"
#include "epilogue_reference.h"
#include "gemm_reference.h"
#include "kernel_call.h"
#include "kernel_selection.h"
#include "scalar.h"
#include "verification.h"

namespace cutlass {
namespace profiler {

using library::NumericTypeID;
using library::Operation;

/// The state of the problem being profiled.
struct GemmProfiler::Problem {
  int index = 0;
  GemmSpec spec;
  OperandBuffers buffers;
  EpilogueBuffers epilogue;           ///< the fused epilogue's operands (nothing when plain)
  References references;
  std::string cublas_status;          ///< "" when cuBLAS ran the problem (on copy 0), else why not
  Verification cublas_verification;   ///< cuBLAS's own result against the reference GEMM
  std::vector<float> cublas_samples;  ///< every cuBLAS launch timed while pairing with others
  std::string lt_status;              ///< "" when cuBLASLt's fused epilogue ran (fused problems only)
  std::string lt_operation;           ///< "cublasLtMatmul(CUBLASLT_EPILOGUE_...)"
  bool lt_not_supported = false;     ///< lt_status says cuBLASLt cannot run it (rather than it broke)
  Verification lt_verification;
  std::vector<float> lt_samples;

  bool fused() const { return spec.epilogue.fused(); }
};

namespace {

/// Accumulator and alpha/beta types the Handle is called with (as the C API maps computeType): s8
/// inputs accumulate in s32, with s32 scalars for an s32 C (COMPUTE_32I) and f32 ones for any
/// other C (bf16 / f16 / f32: int8 dequantization, s8: requantization; COMPUTE_32F).
std::pair<NumericTypeID, NumericTypeID> handle_compute_types(GemmSpec const &spec) {
  if (spec.A.element == NumericTypeID::kF64) return {NumericTypeID::kF64, NumericTypeID::kF64};
  if (spec.A.element == NumericTypeID::kS8) {
    return {NumericTypeID::kS32, spec.C.element == NumericTypeID::kS32 ? NumericTypeID::kS32 : NumericTypeID::kF32};
  }
  return {NumericTypeID::kF32, NumericTypeID::kF32};
}

/// Statuses that mean "cannot run this problem" rather than "broke while running it".
bool means_not_supported(Status status) {
  return status == Status::kErrorMisalignedOperand || status == Status::kErrorInvalidDataType ||
         status == Status::kErrorInvalidLayout || status == Status::kErrorNotSupported ||
         status == Status::kErrorArchMismatch || status == Status::kErrorInvalidProblem;
}

/// Waits for `stream`; "" on success, else the CUDA error.
std::string synchronize(cudaStream_t stream) {
  cudaError_t const status = cudaStreamSynchronize(stream);
  return status == cudaSuccess ? std::string() : std::string("CUDA error: ") + cudaGetErrorString(status);
}

bool poison_output(GemmSpec const &spec, void *D, cudaStream_t stream) {
  return reference::fill_poison(spec.C.element, D, spec.elements_C() * spec.batch_count, stream);
}

/// Poisons D and, with a fused epilogue, aux (`aux`, may be null) and zeroes amax of `slot`.
bool poison_outputs(GemmSpec const &spec, EpilogueBuffers const &epilogue, void *D, void *aux, AmaxSlot slot,
                    cudaStream_t stream) {
  bool ok = poison_output(spec, D, stream);
  if (aux) ok = ok && reference::fill_poison(spec.epilogue.element_aux, aux, spec.elements_C() * spec.batch_count, stream);
  return ok && epilogue.clear_amax(slot, stream);
}

/// The aux and amax a verification run left behind (synchronizes for amax).
ExtraOutputs extra_outputs(GemmSpec const &spec, EpilogueBuffers const &epilogue, void const *aux, AmaxSlot slot) {
  ExtraOutputs extra;
  extra.aux = spec.epilogue.variant.aux ? aux : nullptr;
  if (float const *amax = epilogue.amax(slot)) {
    extra.amax = reference::read_device_float(amax);
    extra.has_amax = true;
  }
  return extra;
}

/// Why the separate epilogue kernel cannot stand in for the fused one ("" when it can).
std::string unfused_unsupported(GemmSpec const &spec) {
  NumericTypeID const c = spec.C.element;
  if (c != NumericTypeID::kF16 && c != NumericTypeID::kBF16 && c != NumericTypeID::kF32) {
    return "no separate epilogue kernel for " + std::string(library::to_string(c)) + " outputs";
  }
  if (spec.epilogue.variant.alpha_vector && spec.beta != 0) {
    return "an alpha vector after cuBLAS's beta * C is not the fused math (beta != 0)";
  }
  return "";
}

}  // namespace

Stream::Stream() {
  if (cudaStreamCreate(&stream_) != cudaSuccess) {
    cudaGetLastError();
    stream_ = nullptr;   // the legacy default stream serves instead
  }
}

Stream::~Stream() {
  if (stream_) cudaStreamDestroy(stream_);
}

GemmProfiler::GemmProfiler(Options const &options, DeviceFacts const &device,
                           std::vector<library::Operation const *> kernels, TableReport &table, CsvReport *csv)
    : options_(options),
      device_(device),
      kernels_(std::move(kernels)),
      table_(table),
      csv_(csv),
      cublas_(stream_.get()),
      handle_(options.workspace_bytes > 0 ? library::Handle(stream_.get(), options.workspace_bytes)
                                           : library::Handle(stream_.get())),
      timer_(stream_.get()) {
  // (a failed reset leaves the kernels' workspace to grow per kernel, as without the option)
  if (options.workspace_bytes > 0) workspace_.reset(options.workspace_bytes);
}

bool GemmProfiler::profile(int index, GemmSpec const &spec) {
  Problem problem;
  rows_.clear();
  problem.index = index;
  problem.spec = spec;
  cudaStream_t const stream = stream_.get();

  std::vector<Operation const *> fitting;
  int other_arch = 0;
  // split-K slices are the handle's route (its slice kernels are the f32-output problem's)
  if (options_.providers.cutlass && spec.split_k_slices <= 1) {
    for (Operation const *kernel : kernels_) {
      library::GemmDescription const &desc = gemm_description(*kernel);
      if (!kernel_fits(desc, spec)) continue;
      if (runs_on(desc, device_.compute_capability)) {
        fitting.push_back(kernel);
      } else {
        ++other_arch;
      }
    }
  }

  std::string error;
  bool const allocated =
      problem.buffers.initialize(spec, device_.l2_bytes, stream, &error) &&
      problem.epilogue.initialize(spec, problem.buffers.copies(), options_.verification_enabled, stream, &error);
  std::string const memory_note =
      allocated ? "operands: " + std::to_string(problem.buffers.copies()) + " copies of " +
                      std::to_string(problem.buffers.bytes_per_copy() >> 20) + " MiB rotate past the " +
                      std::to_string(device_.l2_bytes >> 20) + " MiB L2"
                : std::string();
  table_.problem_header(index, spec, memory_note);
  if (!allocated) {
    table_.note("not profiled: " + error);
    ++failed_rows_;
    return context_usable("allocating the operands");
  }
  if (options_.providers.cutlass && spec.split_k_slices > 1) {
    table_.note(std::string("cutlass: the kernels' rows are not run with split_k_slices > 1") +
                (options_.providers.handle ? " (the handle's row runs its split-K route)" : ""));
  } else if (options_.providers.cutlass && fitting.empty()) {
    table_.note("cutlass: no kernel matches (" + std::to_string(kernels_.size()) +
                " kernels pass --kernels/--ignore-kernels" +
                (other_arch ? ", " + std::to_string(other_arch) + " fit the types but not sm_" +
                                  std::to_string(device_.compute_capability)
                            : std::string()) +
                (spec.epilogue.fused() ? ", epilogue " + spec.epilogue.variant.name() : std::string()) + ")");
  }

  compute_references(problem);
  if (!context_usable("the reference GEMMs")) return false;

  for (Operation const *kernel : fitting) {
    record(problem, profile_kernel(problem, *kernel));
    if (!context_usable(kernel->description().name)) return false;
  }
  if (options_.providers.handle) {
    record(problem, profile_handle(problem));
    if (!context_usable("the handle")) return false;
  }
  if (options_.providers.cublas) {
    record(problem, profile_cublas(problem));
    if (!context_usable("cuBLAS")) return false;
    if (races_cublaslt(problem)) {
      record(problem, profile_cublaslt(problem));
      if (!context_usable("cuBLASLt")) return false;
    }
  }
  table_.summary(index, spec, rows_);
  return true;
}

void GemmProfiler::compute_references(Problem &problem) {
  GemmSpec const &spec = problem.spec;
  cudaStream_t const stream = stream_.get();
  bool const verifying = options_.verification_enabled;
  EpilogueBuffers const &epilogue = problem.epilogue;

  if (verifying && options_.verifiers.device) {
    OperandPointers p = problem.buffers.copy(0);
    p.D = problem.buffers.reference_D();
    bool ok = poison_outputs(spec, epilogue, p.D, epilogue.reference_aux(), AmaxSlot::kReference, stream);
    if (!problem.fused()) {
      ok = ok && reference::reference_gemm(reference_problem(spec, p), stream);
    } else {
      // The plain product A*B in f32, then the fused math elementwise.
      reference::GemmProblem product = reference_problem(spec, p);
      product.element_C = NumericTypeID::kF32;
      product.alpha = 1;
      product.beta = 0;
      product.C = nullptr;
      product.D = epilogue.product();
      ok = ok && reference::reference_gemm(product, stream) &&
           reference::reference_epilogue(reference_problem(spec, p), epilogue.product(),
                                         epilogue.operands(0, AmaxSlot::kReference, epilogue.reference_aux()), stream);
    }
    std::string const status = synchronize(stream);
    if (ok && status.empty()) {
      problem.references.device = p.D;
      problem.references.device_aux = epilogue.reference_aux();
      if (float const *amax = epilogue.amax(AmaxSlot::kReference)) {
        problem.references.device_amax = reference::read_device_float(amax);
      }
    } else {
      table_.note(std::string(problem.fused() ? "the reference GEMM + epilogue failed" : "the reference GEMM failed") +
                  (status.empty() ? std::string() : ": " + status));
    }
  }

  if (!cublas_.available()) {
    problem.cublas_status = cublas_.unavailable_reason();
  } else if (!options_.providers.cublas && !(verifying && options_.verifiers.cublas)) {
    problem.cublas_status = "not requested";
  } else if (problem.fused() && !unfused_unsupported(spec).empty()) {
    problem.cublas_status = unfused_unsupported(spec);
  } else {
    OperandPointers p = problem.buffers.copy(0);
    p.D = problem.buffers.cublas_D();
    problem.cublas_status =
        poison_outputs(spec, epilogue, p.D, epilogue.cublas_aux(), AmaxSlot::kCublas, stream)
            ? cublas_.run(reference_problem(spec, p))
            : std::string("poisoning D failed");
    if (problem.cublas_status.empty() && problem.fused() &&
        !reference::unfused_epilogue(spec.C.element, spec.C.layout, spec.m, spec.n, spec.batch_count, p.D, spec.ldc(),
                                     spec.elements_C(),
                                     epilogue.operands(0, AmaxSlot::kCublas, epilogue.cublas_aux()), stream)) {
      problem.cublas_status = "the separate epilogue kernel failed to launch";
    }
    if (problem.cublas_status.empty()) problem.cublas_status = synchronize(stream);
    if (problem.cublas_status.empty() && verifying) {
      ExtraOutputs const extra = extra_outputs(spec, epilogue, epilogue.cublas_aux(), AmaxSlot::kCublas);
      References device_only;
      device_only.device = problem.references.device;
      device_only.device_aux = problem.references.device_aux;
      device_only.device_amax = problem.references.device_amax;
      problem.cublas_verification = verify(spec, p.D, device_only, extra);
      if (problem.cublas_verification.disposition == Disposition::kFailed) {
        table_.note("cuBLAS's result fails the reference GEMM check; it verifies nothing in this problem");
      } else if (options_.verifiers.cublas) {
        problem.references.cublas = p.D;
        problem.references.cublas_aux = extra.aux;
        problem.references.cublas_amax = extra.amax;
      }
    }
  }

  // cuBLASLt (its fused epilogue, or DEFAULT for a plain problem): prepared once, verified on
  // copy 0 (like our kernels).
  if (!races_cublaslt(problem)) return;
  reference::EpilogueOperands const first = epilogue.operands(0, AmaxSlot::kCublasLt);
  char const *const lt_name = cublaslt_epilogue_name(spec.epilogue.variant);
  problem.lt_operation = CublasRunner::lt_function_name(*lt_name ? lt_name : "no fused epilogue");
  if (!cublas_.available()) {
    problem.lt_status = cublas_.unavailable_reason();
    return;
  }
  if (!CublasRunner::lt_supports(first, spec.C.layout)) {
    problem.lt_status = *lt_name ? "cuBLASLt's bias is per row of its column-major D" : "cuBLASLt has no such epilogue";
    problem.lt_not_supported = true;
    return;
  }
  OperandPointers const p = problem.buffers.copy(0);
  problem.lt_status = cublas_.lt_prepare(reference_problem(spec, p), first);
  if (!problem.lt_status.empty()) {
    // The heuristic finding no algorithm, or cuBLASLt refusing the types, means "cannot run".
    problem.lt_not_supported = problem.lt_status.compare(0, 7, "CUBLAS_") == 0;
    return;
  }
  problem.lt_status = poison_outputs(spec, epilogue, p.D, epilogue.aux(0), AmaxSlot::kCublasLt, stream)
                          ? cublas_.lt_run(reference_problem(spec, p), first)
                          : std::string("poisoning D failed");
  if (problem.lt_status.empty()) problem.lt_status = synchronize(stream);
  if (problem.lt_status.empty() && verifying) {
    problem.lt_verification =
        verify(spec, p.D, problem.references, extra_outputs(spec, epilogue, epilogue.aux(0), AmaxSlot::kCublasLt));
  }
}

ResultRow GemmProfiler::profile_kernel(Problem &problem, Operation const &kernel) {
  GemmSpec const &spec = problem.spec;
  library::GemmDescription const &desc = gemm_description(kernel);
  cudaStream_t const stream = stream_.get();
  ResultRow row;
  row.problem = problem.index;
  row.provider = "cutlass";
  row.operation = desc.name;
  row.kernel = &desc;

  HostScalar const alpha(desc.element_epilogue, spec.alpha), beta(desc.element_epilogue, spec.beta);
  reference::EpilogueOperands const first = problem.epilogue.operands(0, AmaxSlot::kOutput);
  KernelCall const call = kernel_call(spec, problem.buffers.copy(0), alpha.data(), beta.data(), &first);
  Status status = kernel.can_implement(call.configuration, call.arguments);
  if (status != Status::kSuccess) {
    row.status = library::to_string(status);
    row.disposition = Disposition::kNotSupported;
    return row;
  }
  uint64_t const workspace_bytes = kernel.get_device_workspace_size(call.configuration, call.arguments);
  if (workspace_bytes > workspace_.size() && !workspace_.reset(workspace_bytes)) {
    row.status = library::to_string(Status::kErrorMemoryAllocation);
    row.disposition = Disposition::kFailed;
    return row;
  }
  std::vector<uint8_t> host_workspace(kernel.get_host_workspace_size(call.configuration));
  status = kernel.initialize(call.configuration, host_workspace.data(), workspace_.data(), stream);
  if (status != Status::kSuccess) {
    row.status = library::to_string(status);
    row.disposition = Disposition::kFailed;
    return row;
  }

  // Verification on copy 0, outputs poisoned first (amax zeroed: Operation::run max-reduces into it).
  if (options_.verification_enabled &&
      !poison_outputs(spec, problem.epilogue, call.arguments.D, problem.epilogue.aux(0), AmaxSlot::kOutput, stream)) {
    row.status = "poisoning D failed";
    row.disposition = Disposition::kFailed;
    return row;
  }
  status = kernel.run(call.arguments, host_workspace.data(), workspace_.data(), stream);
  std::string const sync_error = synchronize(stream);
  if (status != Status::kSuccess || !sync_error.empty()) {
    row.status = status != Status::kSuccess ? library::to_string(status) : sync_error;
    row.disposition = Disposition::kFailed;
    return row;
  }
  if (options_.verification_enabled) {
    Verification const v = verify(spec, call.arguments.D, problem.references,
                                  extra_outputs(spec, problem.epilogue, problem.epilogue.aux(0), AmaxSlot::kOutput));
    row.disposition = v.disposition;
    row.relative_error = v.relative_error;
    row.detail = v.detail;
  }

  Launch const ours = [&] {
    OperandPointers const p = problem.buffers.next();
    reference::EpilogueOperands const operands = problem.epilogue.operands(p.copy, AmaxSlot::kTiming);
    KernelCall const next = kernel_call(spec, p, alpha.data(), beta.data(), &operands);
    return kernel.run(next.arguments, host_workspace.data(), workspace_.data(), stream) == Status::kSuccess;
  };
  time_against_cublas(problem, ours, row);
  return row;
}

ResultRow GemmProfiler::profile_handle(Problem &problem) {
  GemmSpec const &spec = problem.spec;
  cudaStream_t const stream = stream_.get();
  ResultRow row;
  row.problem = problem.index;
  row.provider = "handle";

  auto const [element_compute, element_scalar] = handle_compute_types(spec);
  HostScalar const alpha(element_scalar, spec.alpha), beta(element_scalar, spec.beta);
  auto const run = [&](OperandPointers const &p, AmaxSlot slot) {
    library::GemmEpilogueArguments epilogue =
        spec.epilogue.fused() ? epilogue_arguments(spec, problem.epilogue.operands(p.copy, slot), /*transposed=*/false)
                              : library::GemmEpilogueArguments{};
    set_scaling(spec, p, /*transposed=*/false, epilogue);
    // kGemm's batch_count is the split-K slice count (1: the library decides), as in CUTLASS
    bool const batched = spec.batch_count > 1;
    return handle_.gemm_universal(
        batched ? gemm::GemmUniversalMode::kBatched : gemm::GemmUniversalMode::kGemm, int(spec.m),
        int(spec.n), int(spec.k), 1, 1, 1, 1, 1, 1, element_compute, element_scalar, alpha.data(), spec.A.element,
        spec.A.layout, library::ComplexTransform::kNone, p.A, spec.lda(), spec.B.element, spec.B.layout,
        library::ComplexTransform::kNone, p.B, spec.ldb(), beta.data(), spec.C.element, spec.C.layout, p.C,
        spec.ldc(), spec.C.element, spec.C.layout, p.D, spec.ldc(),
        int(batched ? spec.batch_count : spec.split_k_slices), spec.elements_A(),
        spec.elements_B(), spec.elements_C(), spec.elements_C(), epilogue);
  };

  OperandPointers const first = problem.buffers.copy(0);
  if (options_.verification_enabled &&
      !poison_outputs(spec, problem.epilogue, first.D, problem.epilogue.aux(0), AmaxSlot::kOutput, stream)) {
    row.status = "poisoning D failed";
    row.disposition = Disposition::kFailed;
    return row;
  }
  Status const status = run(first, AmaxSlot::kOutput);
  std::string const sync_error = synchronize(stream);
  if (Operation const *chosen = handle_.get_last_operation()) {
    row.operation = chosen->description().name;
    row.kernel = &gemm_description(*chosen);
  }
  if (status != Status::kSuccess || !sync_error.empty()) {
    row.status = status != Status::kSuccess ? library::to_string(status) : sync_error;
    row.disposition = means_not_supported(status) ? Disposition::kNotSupported : Disposition::kFailed;
    return row;
  }
  if (options_.verification_enabled) {
    Verification const v = verify(spec, first.D, problem.references,
                                  extra_outputs(spec, problem.epilogue, problem.epilogue.aux(0), AmaxSlot::kOutput));
    row.disposition = v.disposition;
    row.relative_error = v.relative_error;
    row.detail = v.detail;
  }

  Launch const ours = [&] { return run(problem.buffers.next(), AmaxSlot::kTiming) == Status::kSuccess; };
  time_against_cublas(problem, ours, row);
  return row;
}

bool GemmProfiler::launch_cublas(Problem &problem) {
  GemmSpec const &spec = problem.spec;
  OperandPointers const p = problem.buffers.next();
  reference::GemmProblem g = reference_problem(spec, p);
  g.C = g.D;   // in place, as BLAS: no copy of C into D inside the timed launch
  if (!cublas_.run(g).empty()) return false;
  if (!problem.fused()) return true;
  return reference::unfused_epilogue(spec.C.element, spec.C.layout, spec.m, spec.n, spec.batch_count, p.D, spec.ldc(),
                                     spec.elements_C(), problem.epilogue.operands(p.copy, AmaxSlot::kTiming),
                                     stream_.get());
}

bool GemmProfiler::launch_cublaslt(Problem &problem) {
  OperandPointers const p = problem.buffers.next();
  return cublas_.lt_run(reference_problem(problem.spec, p), problem.epilogue.operands(p.copy, AmaxSlot::kTiming))
      .empty();
}

ResultRow GemmProfiler::profile_cublas(Problem &problem) {
  ResultRow row;
  row.problem = problem.index;
  row.provider = "cublas";
  row.operation = CublasRunner::function_name(problem.spec.batch_count);
  if (problem.fused()) row.operation += "+unfused_epilogue";
  if (!cublas_.available()) {
    row.status = problem.cublas_status;
    row.disposition = Disposition::kNotRun;
    return row;
  }
  if (!problem.cublas_status.empty()) {
    row.status = problem.cublas_status;
    bool const unsupported = problem.cublas_status == "CUBLAS_STATUS_NOT_SUPPORTED" ||
                             (problem.fused() && problem.cublas_status == unfused_unsupported(problem.spec));
    row.disposition = unsupported ? Disposition::kNotSupported : Disposition::kFailed;
    return row;
  }
  if (options_.verification_enabled) {
    row.disposition = problem.cublas_verification.disposition;
    row.relative_error = problem.cublas_verification.relative_error;
    row.detail = problem.cublas_verification.detail;
  }
  if (options_.profiling_iterations == 0) return row;
  if (!time_alone([&] { return launch_cublas(problem); }, problem.cublas_samples, row)) return row;
  row.runtime_ms = median(problem.cublas_samples);
  row.cublas_ms = row.runtime_ms;
  if (!problem.lt_samples.empty()) row.cublaslt_ms = median(problem.lt_samples);
  return row;
}

bool GemmProfiler::races_cublaslt(Problem const &problem) const {
  // fp8 inputs: cublasGemmEx has none, so cuBLASLt is the baseline
  NumericTypeID const a = problem.spec.A.element;
  bool const fp8_inputs = a == NumericTypeID::kFE4M3 || a == NumericTypeID::kFE5M2;
  return options_.providers.cublas && (problem.fused() || options_.providers.cublaslt || fp8_inputs);
}

ResultRow GemmProfiler::profile_cublaslt(Problem &problem) {
  ResultRow row;
  row.problem = problem.index;
  row.provider = "cublaslt";
  row.operation = problem.lt_operation;
  if (!cublas_.available()) {
    row.status = problem.lt_status;
    row.disposition = Disposition::kNotRun;
    return row;
  }
  if (!problem.lt_status.empty()) {
    row.status = problem.lt_status;
    row.disposition = problem.lt_not_supported ? Disposition::kNotSupported : Disposition::kFailed;
    return row;
  }
  if (options_.verification_enabled) {
    row.disposition = problem.lt_verification.disposition;
    row.relative_error = problem.lt_verification.relative_error;
    row.detail = problem.lt_verification.detail;
  }
  if (options_.profiling_iterations == 0) return row;
  if (!time_alone([&] { return launch_cublaslt(problem); }, problem.lt_samples, row)) return row;
  row.runtime_ms = median(problem.lt_samples);
  row.cublaslt_ms = row.runtime_ms;
  if (!problem.cublas_samples.empty()) row.cublas_ms = median(problem.cublas_samples);
  return row;
}

bool GemmProfiler::time_alone(Launch const &launch, std::vector<float> &samples, ResultRow &row) {
  if (!samples.empty()) return true;   // already timed, interleaved with one of our kernels
  InterleavedTimes times;
  std::string error;
  if (!timer_.time(launch, nullptr, options_.warmup_iterations, options_.profiling_iterations, &times, &error,
                   options_.back_to_back)) {
    row.status = error;
    row.disposition = Disposition::kFailed;
    return false;
  }
  samples = times.first;
  return true;
}

void GemmProfiler::time_against_cublas(Problem &problem, Launch const &ours, ResultRow &row) {
  if (options_.profiling_iterations == 0) return;
  bool const pair = options_.providers.cublas && problem.cublas_status.empty();
  bool const pair_lt = races_cublaslt(problem) && problem.lt_status.empty();
  Launch const theirs = [&] { return launch_cublas(problem); };
  Launch const lt = [&] { return launch_cublaslt(problem); };
  std::vector<Launch const *> launches{&ours};
  if (pair) launches.push_back(&theirs);
  if (pair_lt) launches.push_back(&lt);
  std::vector<std::vector<float>> times;
  std::string error;
  if (!timer_.time(launches, options_.warmup_iterations, options_.profiling_iterations, &times, &error,
                   options_.back_to_back)) {
    row.status = error;
    row.disposition = Disposition::kFailed;
    return;
  }
  row.runtime_ms = median(times[0]);
  size_t next = 1;
  if (pair) {
    row.cublas_ms = median(times[next]);
    problem.cublas_samples.insert(problem.cublas_samples.end(), times[next].begin(), times[next].end());
    ++next;
  }
  if (pair_lt) {
    row.cublaslt_ms = median(times[next]);
    problem.lt_samples.insert(problem.lt_samples.end(), times[next].begin(), times[next].end());
  }
}

void GemmProfiler::record(Problem &problem, ResultRow row) {
  if (row.disposition == Disposition::kFailed) ++failed_rows_;
  if (row.disposition == Disposition::kPassed || row.disposition == Disposition::kFailed ||
      row.disposition == Disposition::kNotVerified) {
    ++run_rows_;
  }
  table_.row(row, problem.spec);
  if (csv_) csv_->row(row, problem.spec);
  rows_.push_back(std::move(row));
}

bool GemmProfiler::context_usable(char const *after) {
  cudaGetLastError();   // clears errors the context recovers from (e.g. a bad launch configuration)
  cudaError_t const status = cudaDeviceSynchronize();
  if (status == cudaSuccess) return true;
  table_.note(std::string("stopping: the CUDA context is unusable after ") + after + " (" +
              cudaGetErrorString(status) + ")");
  ++failed_rows_;
  return false;
}

}  // namespace profiler
}  // namespace cutlass
