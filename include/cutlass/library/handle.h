/// @file cutlass/library/handle.h
/// cutlass::library::Handle: runs a GEMM on the precompiled kernel, among those that fit, that
/// its cost model ranks fastest.
///
/// Same parameter lists as CUTLASS's Handle::gemm / Handle::gemm_universal, so code written for
/// CUTLASS's library compiles against this one. Differences a CUTLASS user will notice (all
/// deliberate; CUTLASS's own is tools/library/include/cutlass/library/handle.h in NVIDIA's
/// repository):
///  - gemm() finds the kernels the library was built with (it is gemm_universal(kGemm, ...)).
///  - Arguments are checked first (after the provider: a handle set to a provider other than
///    kCUTLASS answers kErrorNotSupported to every call), BLAS style: M, N, K >= 0;
///    lda >= max(1, rows of A as stored: M when A is column-major, K when row-major), likewise ldb, ldc, ldd; null pointers, or an ld and
///    batch stride with which an operand would span more than 2^63 - 1 bytes ->
///    kErrorInvalidProblem. Then the device (kErrorArchMismatch without one, whatever the
///    sizes). M == 0 or N == 0 returns kSuccess and touches nothing; K == 0 or alpha == 0 (host
///    scalars) writes D = beta * C without reading A or B, and beta == 0 never reads C.
///  - Every candidate's can_implement() is asked, in preference order, and the next is tried on
///    failure; get_last_operation() / last_operation_name() name the kernel that ran.
///  - Alignment is judged per operand in its own element units, including batch strides.
///  - The device workspace grows on demand (kErrorMemoryAllocation if that fails).
///  - gemm_universal accepts row-major C/D (computed as D^T = B^T A^T on column-major kernels).
///  - The constructor does not throw: without a usable device every call returns
///    kErrorArchMismatch (compute capability 0).
///
/// Selection order (the "preference order"), for the kernels registered under the call's
/// functional key (element_compute, element_scalar, A type/layout, B type/layout, C/D type):
///  1. kernels whose [minimum, maximum] compute capability contains the device's (the maximum is
///     the highest device the SASS built for CUTLASS_NVCC_ARCHS runs on: a cubin for X.y runs on
///     X.y to X.9, an arch-specific "a" one on X.y only, so an 80-only build stops at 8.9 and
///     answers an sm_90 device with kErrorArchMismatch);
///  2. higher minimum compute capability first (sm90 > sm80 > SIMT);
///  3. larger max(alignment A, B, C) first;
///  4. then the generator's order (its tile tables list the tile good for large problems first).
/// Among the kernels whose types, layouts, alignment, compute capability and small side fit (the
/// GEMV family takes only M == 1 or N == 1, the skinny family min(M, N) <= 8 or 16, the sm90
/// few-token tile N <= 32 and the sm90 swap-AB (few-row) tiles M <= 16 or 32), a cost model
/// orders them by estimated time (src/library/gemm_selection.h states it; its constants were
/// measured on an H200 and are recorded in docs/NOTES.md):
///     time = max(compute, memory)
///     compute = waves x 2 x tile M x tile N x K / (the family's flop rate per SM), waves =
///               ceil(tiles / SMs), with 0.8 efficiency for tiles under 128x128 and stream-K's split
///               waves at their measured cost; 2-8x slower loads below 16-byte alignment
///     memory  = TMA kernels (sm90): the larger of (A, B and D bytes once, C when read) / HBM
///               bandwidth, paying for the rows of its tiles past M or N, and the busiest CTA's
///               tile bytes (its tiles' A rows and B columns over K, re-reads included) / one
///               CTA's streaming rate (100 GB/s), and the operand panels each wave of CTAs
///               re-reads from HBM in the tile order below / HBM bandwidth; other tiled kernels
///               (sm80, SIMT): the bytes / min(HBM bandwidth, busy CTAs x per-CTA bandwidth)
///     GEMV / skinny: the bytes over 90% / 72% of the HBM bandwidth (or their compute, if larger).
/// Ties keep the order above. The first of these whose can_implement() accepts the problem runs.
/// An sm90 persistent or stream-K kernel runs in its default tile order: bands of 8 tile rows
/// walked along N (raster_order / swizzle_size of GemmUniversalArguments, CUTLASS's names, are
/// run-time arguments of the Operation; the handle leaves them at the default because a model of
/// the order's HBM bytes ranked the orders wrong on the H200: src/library/gemm_raster.h).
/// The GEMV and skinny kernels split K over CTAs (deterministically) when their outputs fill less
/// than half the GPU, in a workspace the handle grows. When the most preferred group refuses only
/// for alignment (e.g. a leading dimension that is not a multiple of 16 bytes, which TMA needs),
/// the best kernel on aligned, zero-padded copies of the operands in the workspace runs instead,
/// when its estimate plus the copies' (2 us per copy, the bytes at HBM bandwidth) beats the
/// kernel that fits the originals, or when nothing else fits (a bandwidth kernel, once chosen, is
/// never staged). A call with at most 8 output tiles of 128x128, K >= 16384, one batch entry, the
/// plain epilogue and an f16 / bf16 / f32 output may run as parallel split-K: K cut into 2..256
/// equal slices (16-byte aligned), one batched GEMM writes each slice's f32 product into the
/// workspace (within a workspace the caller fixed) and a reduction sums them in a fixed order
/// (the same bits on every run) into alpha * sum + beta * C, when the model's estimate of the two
/// beats the direct kernel.
/// A handle remembers its decisions (up to 4096, then it starts over): a call that repeats an
/// earlier one in everything selection reads (types, layouts, epilogue, sizes, leading
/// dimensions, batch strides, each pointer's alignment, host alpha / beta being zero) runs the
/// same kernel by the same route without ranking again (the ranking costs ~1-2 us of host time
/// per call, ~7 us where split-K is considered).
/// CUTLASS_LIB_LOG=1 in the environment prints the chosen kernel and why earlier candidates
/// were passed over (and ranks every call anew).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <cuda_runtime_api.h>

#include "cutlass/library/export.h"
#include "cutlass/library/library.h"

namespace cutlass {
namespace library {

class RouteCache;       // internal (src/library/gemm_route.h)
struct WorkspaceState;  // internal (src/library/workspace.h)

class CUTLASS_LIB_API Handle {
 public:
  /// Binds to the current device. workspace_size: initial device workspace in bytes.
  explicit Handle(cudaStream_t stream = nullptr, size_t workspace_size = (4 << 20));
  ~Handle();
  Handle(Handle const &) = delete;
  Handle &operator=(Handle const &) = delete;
  Handle(Handle &&other) noexcept;
  Handle &operator=(Handle &&other) noexcept;

  /// major*10 + minor of the handle's device; 0 when there is no usable device.
  int compute_capability() const { return compute_capability_; }

  /// Stream of later calls. Calls share the handle's workspace (packing copies, stream-K partial
  /// sums), so a change of stream first waits for the work queued on the old one
  /// (cudaStreamSynchronize) when the handle holds a workspace of its own. A caller's workspace
  /// (set_workspace) is not waited for: the caller orders its use across streams.
  void set_stream(cudaStream_t stream);
  cudaStream_t get_stream() const { return stream_; }

  /// kCUTLASS (default) runs the library's kernels; any other provider gets kErrorNotSupported.
  void set_provider(Provider provider) { provider_ = provider; }
  Provider get_provider() const { return provider_; }

  /// Device workspace. Kernels that need more than this get it grown on demand, unless the
  /// caller set one (set_workspace), or the stream is being captured into a CUDA graph (a call
  /// that would grow it then answers kErrorMemoryAllocation and launches nothing: call once
  /// before capturing, or set a workspace). In its own workspace the handle keeps, between calls,
  /// the split counters and stream-K flags its kernels leave zero, so a later call need not clear
  /// them again (a memset of ~2 us per call): get_workspace() is for inspection, not for writing
  /// nor for another handle's set_workspace (either would leave this handle trusting words it no
  /// longer holds). A caller's workspace is cleared on every call that needs it, and so is the
  /// handle's own once any of its calls has been captured into a CUDA graph.
  size_t get_workspace_size() const { return workspace_size_; }
  void *get_workspace() const { return workspace_; }
  /// A caller-owned device workspace of `bytes` (as frameworks hand cuBLAS one from their caching
  /// allocator): the handle frees its own (after its stream's work) and never allocates while one
  /// is set; a call that needs more answers kErrorWorkspaceNull and launches nothing (the C API's
  /// cutlassLibGetWorkspaceSize names the bytes a call needs). The caller keeps it alive and
  /// unused by others while the handle's work on it runs; replacing a caller's workspace with
  /// another does not synchronize (so it can change between calls, and inside graph capture). `workspace` must be 256-byte aligned
  /// (kErrorMisalignedOperand otherwise); nullptr with bytes 0 returns to the handle's own
  /// workspace, grown on demand; nullptr with bytes > 0 is kErrorInvalidProblem.
  Status set_workspace(void *workspace, size_t bytes);
  /// Reallocates the handle's own workspace to `bytes` (synchronous; a caller's workspace is
  /// dropped, not freed). kErrorMemoryAllocation when the
  /// allocation fails; kErrorArchMismatch without a usable device.
  Status set_workspace_size(size_t bytes);

  /// kHost (default): alpha/beta are host pointers read during the call. kDevice: device pointers
  /// read by the kernel (the alpha == 0 shortcut is then not taken).
  void set_scalar_pointer_mode(ScalarPointerMode mode) { scalar_pointer_mode_ = mode; }
  ScalarPointerMode get_scalar_pointer_mode() const { return scalar_pointer_mode_; }

  /// The kernel the last successful selection chose (null if none ran, e.g. quick returns).
  Operation const *get_last_operation() const { return last_operation_; }
  /// Its name, or "" when none.
  char const *last_operation_name() const;

  /// D = alpha * op(A) * op(B) + beta * C, with C and D column-major M x N.
  /// A is M x K in layout_A, B is K x N in layout_B; ld in elements. element_compute is the
  /// accumulator type, element_scalar the type alpha and beta point to. C may equal D.
  /// Statuses, in the order checked (this one and gemm_universal): kErrorNotSupported for a
  /// provider other than kCUTLASS; kErrorInvalidProblem for the argument errors above;
  /// kErrorNotSupported for a mode other than kGemm / kBatched, split-K slices (kGemm with
  /// batch_count > 1) the route cannot take (below), M, N or K above 2^31 - 1 or batch_count
  /// above 65535;
  /// kErrorArchMismatch without a usable device; kErrorNotSupported when the build has no
  /// kernel for these types and layouts (also for quick returns, which need the types to be
  /// built; C and D differing in layout or type, and complex transforms, have none);
  /// kErrorArchMismatch when it has some, none for this compute capability (or the build has
  /// no code for the device: CUTLASS_NVCC_ARCHS);
  /// kErrorMisalignedOperand when none accepts these pointers and leading dimensions;
  /// kErrorWorkspaceNull when a caller's workspace (set_workspace) is smaller than the call
  /// needs; kErrorMemoryAllocation when the handle's own workspace cannot grow; kErrorInternal
  /// when the launch fails.
  Status gemm(int M, int N, int K,
              NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
              NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A, void const *ptr_A,
              int64_t lda,
              NumericTypeID element_B, LayoutTypeID layout_B, ComplexTransform transform_B, void const *ptr_B,
              int64_t ldb,
              void const *beta,
              NumericTypeID element_C, void const *ptr_C, int64_t ldc,
              void *ptr_D, int64_t ldd);

  /// As gemm(), plus modes and layouts for C and D (which must be equal, column- or row-major).
  /// mode kGemm: batch_count is the number of split-K slices, as in CUTLASS (below 1:
  /// kErrorInvalidProblem). 1: the library decides (it may split K itself, src/library/split_k.h).
  /// Above 1: K is cut into batch_count equal slices whose products (f32) go to the workspace,
  /// all slices in one batched launch of the slice kernel the cost model ranks first, then a
  /// reduction kernel sums them in a fixed order (the same bits on every run) into
  /// D = alpha * sum + beta * C; the batch strides are unused. It takes a plain epilogue, f32
  /// scalars, bf16 / f16 / f32 outputs of C's type, no block scales, K a multiple of batch_count
  /// with each slice's start 16-byte aligned, batch_count <= 65535 and M x N < 2^31; otherwise
  /// kErrorNotSupported (after the argument checks; a call with M, N or K == 0, or host
  /// alpha == 0, takes its quick return as without slices), and so is a request no slice kernel
  /// of the build takes (its types and layouts, its alignment: the requested route runs on the
  /// call's own operands, never on staged copies). The workspace holds batch_count x M x N
  /// floats besides the kernel's own: a caller's fixed workspace too small for them answers
  /// kErrorWorkspaceNull, the handle's own grows to them (the model's own route never needs more
  /// than a caller's workspace holds).
  /// A measuring aid (cutlass_profiler --split_k_slices) more than a tuning knob: the cost model
  /// finds the slice count on its own where the route pays (docs/NOTES.md).
  /// mode kBatched: batch_count GEMMs, operand l at ptr + l * batch_stride (elements).
  /// kGemmSplitKParallel, kArray, kGrouped: kErrorNotSupported.
  /// The cluster arguments exist for source compatibility with CUTLASS and are ignored.
  Status gemm_universal(gemm::GemmUniversalMode mode, int M, int N, int K,
                        int cluster_m, int cluster_n, int cluster_k,
                        int cluster_m_fallback, int cluster_n_fallback, int cluster_k_fallback,
                        NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                        NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A,
                        void const *ptr_A, int64_t lda,
                        NumericTypeID element_B, LayoutTypeID layout_B, ComplexTransform transform_B,
                        void const *ptr_B, int64_t ldb,
                        void const *beta,
                        NumericTypeID element_C, LayoutTypeID layout_C, void const *ptr_C, int64_t ldc,
                        NumericTypeID element_D, LayoutTypeID layout_D, void *ptr_D, int64_t ldd,
                        int batch_count = 1,
                        int64_t batch_stride_A = 0, int64_t batch_stride_B = 0,
                        int64_t batch_stride_C = 0, int64_t batch_stride_D = 0);

  /// gemm_universal with a fused epilogue (library.h, GemmEpilogueArguments):
  ///     D = activation(alpha [* alpha_vector] * op(A) op(B) + beta * C [+ bias]) [* scale_d]
  /// with the optional aux output of the pre-activation value and amax. Only kernels whose
  /// epilogue has exactly the pieces `epilogue.kind` names are candidates (kErrorNotSupported
  /// when the build has none for the types); a missing operand the pieces need, ldaux too small
  /// or clamp_min > clamp_max is kErrorInvalidProblem; K == 0 with a non-empty D is
  /// kErrorNotSupported (alpha == 0 runs the kernel: the epilogue still applies). For row-major
  /// C/D, per-row and per-column keep their meaning for the user's D, and aux has D's layout.
  Status gemm_universal(gemm::GemmUniversalMode mode, int M, int N, int K,
                        int cluster_m, int cluster_n, int cluster_k,
                        int cluster_m_fallback, int cluster_n_fallback, int cluster_k_fallback,
                        NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                        NumericTypeID element_A, LayoutTypeID layout_A, ComplexTransform transform_A,
                        void const *ptr_A, int64_t lda,
                        NumericTypeID element_B, LayoutTypeID layout_B, ComplexTransform transform_B,
                        void const *ptr_B, int64_t ldb,
                        void const *beta,
                        NumericTypeID element_C, LayoutTypeID layout_C, void const *ptr_C, int64_t ldc,
                        NumericTypeID element_D, LayoutTypeID layout_D, void *ptr_D, int64_t ldd,
                        int batch_count,
                        int64_t batch_stride_A, int64_t batch_stride_B,
                        int64_t batch_stride_C, int64_t batch_stride_D,
                        GemmEpilogueArguments const &epilogue);

  /// One group of gemm_grouped: `size` problems that share the layouts, sizes, leading
  /// dimensions and scalars (cublasGemmGroupedBatchedEx's per-group array entries; alpha and beta
  /// of element_scalar, host or device memory as the pointer mode says).
  struct GroupedGemmGroup {
    LayoutTypeID layout_A = LayoutTypeID::kRowMajor, layout_B = LayoutTypeID::kColumnMajor;
    int64_t m = 0, n = 0, k = 0;
    int64_t lda = 0, ldb = 0, ldc = 0;
    void const *alpha = nullptr, *beta = nullptr;
    int64_t size = 0;
  };

  /// group_count groups of GEMMs (the C API's cutlassLibGemmGroupedBatchedEx, which states the
  /// rules, the one-launch conditions and the order of the checks): problem e of group g computes
  /// C[e] = alpha_g * op(A[e]) * op(B[e]) + beta_g * C[e] in place, C column-major; A, B, C are
  /// arrays of sum(size) device pointers, groups in order, in host or device memory (the C API's
  /// pointer-array rules: device arrays are copied to the host on the handle's stream, which the
  /// call waits for; kErrorNotSupported while the stream is being captured). Statuses as gemm_universal's:
  /// kErrorInvalidProblem for any argument error of any problem (checked before anything runs),
  /// then kErrorNotSupported (a D scale / amax, non-scalar operand scales or precise
  /// accumulation in `epilogue`), the device (kErrorArchMismatch without one), the kernels
  /// (kErrorNotSupported for types without kernels), the workspace, the launch. `epilogue`: the
  /// fused pieces of every problem (as gemm_universal's), problem e (counted over all groups)
  /// taking the vectors and aux matrix of batch entry e (bias + e * batch_stride_bias, ...).
  Status gemm_grouped(NumericTypeID element_compute, NumericTypeID element_scalar, NumericTypeID element_A,
                      NumericTypeID element_B, NumericTypeID element_C, GroupedGemmGroup const *groups,
                      int64_t group_count, void const *const *A, void const *const *B, void *const *C,
                      GemmEpilogueArguments const &epilogue = GemmEpilogueArguments());

  /// A mixture-of-experts layer with its group sizes in device memory (the C API's
  /// cutlassLibGemmGroupedContiguousEx, which states the layout, the rules and the statuses):
  /// group g computes columns [offsets[g - 1], offsets[g]) (offsets[-1] = 0) of the column-major
  /// M x N D = alpha * op(A_g) * B + beta * C, with A_g = ptr_A + g * stride_A elements (M x K in
  /// layout_A), B K x N column-major (K-major token columns), C and D column-major M x N (C may
  /// equal D). `offsets`: group_count ints in device-readable memory, never read on the host, so
  /// the call can be captured into a CUDA graph (with a workspace that outlives the graph:
  /// set_workspace). Statuses as gemm_universal's, in the C API's order (kErrorInvalidProblem for
  /// the argument errors, kErrorNotSupported for what it does not offer, then the device, the
  /// kernels, the workspace and the launch). `epilogue`: the fused pieces (as the C API's call
  /// takes the handle's: per-row vectors of group g at batch entry g, per-column vectors and the
  /// aux matrix over the packed N columns).
  Status gemm_grouped_contiguous(int M, int N, int K,
                                 NumericTypeID element_compute, NumericTypeID element_scalar, void const *alpha,
                                 NumericTypeID element_A, LayoutTypeID layout_A, void const *ptr_A, int64_t lda,
                                 int64_t stride_A,
                                 NumericTypeID element_B, void const *ptr_B, int64_t ldb,
                                 void const *beta,
                                 NumericTypeID element_C, void const *ptr_C, int64_t ldc,
                                 void *ptr_D, int64_t ldd,
                                 int64_t group_count, int const *offsets,
                                 GemmEpilogueArguments const &epilogue = GemmEpilogueArguments());

  /// group_count groups whose sizes, leading dimensions and pointers live in DEVICE memory
  /// (`groups`, GroupedDeviceArrays; never read on the host): group g computes the column-major
  /// C_g = alpha * op(A_g) * op(B_g) + beta * C_g in place, (m, n, k) = groups.sizes[3g .. 3g + 2],
  /// layouts and types for all groups (the C API's cutlassLibGemmGroupedDeviceSizesEx states the
  /// rules, the groups the kernels skip and the order of the checks). One launch of a grouped
  /// kernel, no copy: capturable into a CUDA graph (with a workspace that outlives it:
  /// set_workspace). `max_n`: an upper bound on every group's n if known (else 0), which only
  /// picks the tile. Statuses as gemm_universal's: kErrorInvalidProblem, kErrorNotSupported
  /// (an aux output, D scale / amax, non-scalar scales, precise accumulation), then the device
  /// (kErrorArchMismatch without one), the kernels (kErrorNotSupported for types without grouped
  /// kernels), the workspace, the launch. `epilogue`: the fused pieces, group g's
  /// vectors those of batch entry g (bias + g * batch_stride_bias, ...), and per-tensor fp8
  /// operand scales.
  Status gemm_grouped_device_sizes(NumericTypeID element_compute, NumericTypeID element_scalar,
                                   NumericTypeID element_A, LayoutTypeID layout_A, NumericTypeID element_B,
                                   LayoutTypeID layout_B, NumericTypeID element_C, void const *alpha,
                                   void const *beta, int64_t group_count, GroupedDeviceArrays const &groups,
                                   int64_t max_n = 0, GemmEpilogueArguments const &epilogue = GemmEpilogueArguments());

 private:
  friend struct HandleAccess;
  /// Frees the handle's own workspace (a caller's is only dropped) and returns to owning none.
  void release_workspace();
  int device_ = -1;
  int compute_capability_ = 0;
  cudaStream_t stream_ = nullptr;
  Provider provider_ = Provider::kCUTLASS;
  ScalarPointerMode scalar_pointer_mode_ = ScalarPointerMode::kHost;
  void *workspace_ = nullptr;
  size_t workspace_size_ = 0;
  bool workspace_owned_ = true;   ///< false: set_workspace's, never freed or grown here
  Operation const *last_operation_ = nullptr;
  std::unique_ptr<RouteCache> routes_;   ///< remembered selections (see the class comment)
  /// What is known of the handle's own workspace between calls (its zeroed counters and flags);
  /// null: nothing
  std::unique_ptr<WorkspaceState> workspace_state_;
};

}  // namespace library
}  // namespace cutlass
