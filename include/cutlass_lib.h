/**
 * @file cutlass_lib.h
 * The C API of libcutlass_lib: a cuBLAS-shaped GEMM on the library's precompiled kernels.
 * Compiles as C99 and C++ (extern "C").
 *
 * Conventions (as cuBLAS / reference BLAS):
 *  - Storage is column-major. op(A) is m x k, op(B) is k x n, C is m x n.
 *    transa == CUTLASS_LIB_OP_N: A is stored m x k, lda >= max(1, m);
 *    transa == CUTLASS_LIB_OP_T: A is stored k x m, lda >= max(1, k). Likewise B with (k, n).
 *    ldc >= max(1, m). Sizes, leading dimensions and batch strides are in ELEMENTS.
 *  - Scalars alpha and beta are HOST pointers of the compute type's scalar type:
 *    float for CUTLASS_LIB_COMPUTE_32F and _32F_FAST_TF32, double for _64F, int32_t for _32I.
 *  - All calls are asynchronous on the handle's stream (default stream 0).
 *  - C = alpha * op(A) op(B) + beta * C, C updated in place. beta == 0 never reads C (NaN in C
 *    does not leak). k == 0 or alpha == 0 computes C = beta * C without reading A or B
 *    (beta == 1: C untouched, bit for bit). m == 0 or n == 0 does nothing.
 *
 * Type combinations (Atype, Btype, Ctype, computeType); every other one -> NOT_SUPPORTED:
 *    CUDA_R_16F  x CUDA_R_16F  -> CUDA_R_16F or CUDA_R_32F, COMPUTE_32F   (f32 accumulate)
 *    CUDA_R_16BF x CUDA_R_16BF -> CUDA_R_16BF or CUDA_R_32F, COMPUTE_32F  (f32 accumulate)
 *    CUDA_R_32F  x CUDA_R_32F  -> CUDA_R_32F, COMPUTE_32F                 (SIMT sgemm)
 *    CUDA_R_32F  x CUDA_R_32F  -> CUDA_R_32F, COMPUTE_32F_FAST_TF32       (tf32 tensor cores)
 *    CUDA_R_64F  x CUDA_R_64F  -> CUDA_R_64F, COMPUTE_64F                 (SIMT dgemm)
 *    CUDA_R_8I   x CUDA_R_8I   -> CUDA_R_32I, COMPUTE_32I                 (s32 accumulate, wraps)
 *    CUDA_R_8I   x CUDA_R_8I   -> CUDA_R_16BF, _16F or _32F, COMPUTE_32F (int8 dequantization:
 *                                 exact s32 sums, then alpha, per-tensor or per-row / per-column
 *                                 f32 scales (cutlassLibSetMatrixScale) and beta in f32; sm90
 *                                 kernels "..._s8_s8_s32_bf16_..." etc., the 128x128 tile of each
 *                                 output in the default set, the others opt-in by name; TN at
 *                                 16-byte alignment, other layouts on transposed copies)
 *    CUDA_R_8I   x CUDA_R_8I   -> CUDA_R_8I, COMPUTE_32F                  (int8 requantization: as
 *                                 above, then rounded to nearest even and saturated to s8, NaN
 *                                 -> 0; sm90 kernels "..._s8_s8_s32_s8_s8_...", opt-in by name
 *                                 (GPU-tested, s17); C, when read, is s8)
 *    CUDA_R_16F/16BF (both)    -> CUDA_R_8F_E4M3 or _E5M2, COMPUTE_32F     (only with the fp8 epilogue)
 *    CUDA_R_8F_E4M3 (both)     -> CUDA_R_8F_E4M3 or _E5M2, COMPUTE_32F     (only with the fp8 epilogue;
 *                                 sm90 kernels "..._e4m3_e4m3_f32_e4m3_e4m3_..._amax" etc., TN:
 *                                 amax, bias + ReLU + amax and bias + GELU + amax on the 128x128,
 *                                 128x64 and 128x32 tiles (e5m2 out: 128x128) in the default set,
 *                                 the other pieces opt-in by name; bias in CUDA_R_16BF)
 *    CUDA_R_8F_E4M3 (both)     -> CUDA_R_16BF, _16F or _32F, COMPUTE_32F   (sm90 kernels, in the
 *                                 default set; the kernels take transa T, transb N (both operands
 *                                 K-major) at 16-byte alignment; other transposes and alignments
 *                                 run on transposed / aligned copies in the workspace (Alignment,
 *                                 below), as do s8 and tf32 on sm90; the tensor core's own accumulation, which
 *                                 keeps about 14 bits of each k-block's sum, or the precise one:
 *                                 cutlassLibSetAccumulation; per-tensor, row-wise or 1x128 /
 *                                 128x128 block scales of A and B: cutlassLibSetMatrixScale)
 *    CUDA_R_8F_E4M3 x CUDA_R_8F_E5M2, CUDA_R_8F_E5M2 x CUDA_R_8F_E4M3
 *                              -> CUDA_R_16BF, _16F or _32F, COMPUTE_32F   (as e4m3 x e4m3: sm90
 *                                 kernels "..._e4m3_e5m2_..." / "..._e5m2_e4m3_..." in the default
 *                                 set, on the 128x128, 64x128 and stream-K 128x128 tiles)
 *
 * Alignment: the fastest kernels need every pointer, leading dimension and batch stride (and the
 * contiguous extent of each operand) to be a multiple of 16 bytes. Anything less runs a slower
 * kernel of the same types (down to 1-element alignment), not an error, or the fast kernel on
 * copies of the operands in the handle's workspace (aligned, zero-padded, and transposed to K-major
 * for kernels that take only K-major operands), whichever the cost model estimates faster (with a
 * caller's workspace, cutlassLibSetWorkspace, copies that do not fit it are taken only when no
 * kernel accepts the operands as they are); a call that no kernel in the build accepts gets
 * CUTLASS_LIB_STATUS_NO_KERNEL.
 *
 * Statuses (numbers match cublasStatus_t where they overlap):
 *    NOT_INITIALIZED  the handle is null
 *    INVALID_VALUE    m, n, k < 0; an ld below its minimum; null alpha/beta; null A/B when they
 *                     would be read; null C when m, n > 0; a transpose flag other than N/T
 *                     (cuBLAS takes CUBLAS_OP_C on real types as T; this API has no OP_C);
 *                     batchCount < 1 or a negative stride; an ld and stride with which an
 *                     operand (or the aux output, bias or alpha vector) would span more
 *                     than 2^63 - 1 bytes (each operand at its type's storage size, also for
 *                     types outside the table; sub-byte types count one byte); the grouped
 *                     calls' own (their section below)
 *    NOT_SUPPORTED    a type / compute-type combination outside the table above; m, n or k
 *                     above 2^31-1; batchCount above 65535; operand scales
 *                     (cutlassLibSetOperandScales / SetMatrixScale) set for operands that are
 *                     neither fp8 nor CUDA_R_8I with COMPUTE_32F; with the pointer-array and
 *                     grouped calls, a D scale / amax epilogue, any non-scalar operand scale or
 *                     PRECISE accumulation; an fp8 Ctype without the D scale / amax epilogue
 *    NO_DEVICE        no usable CUDA device
 *    NO_KERNEL        the build has no kernel for this combination and layout, or none accepts
 *                     these pointers / leading dimensions
 *    ARCH_MISMATCH    kernels exist for the types, none for this device's compute capability
 *                     (kernels are built as SASS for CUTLASS_NVCC_ARCHS: 80 runs on 8.x,
 *                     90a on 9.0 only); the k == 0 / alpha == 0 quick returns answer it too
 *    ALLOC_FAILED     host or device memory could not be allocated (also: the handle's own
 *                     workspace would have to grow while its stream is being captured into a
 *                     CUDA graph; call once before capturing, or set one: cutlassLibSetWorkspace)
 *    EXECUTION_FAILED the kernel launch failed
 *    WORKSPACE_TOO_SMALL  the caller's workspace (cutlassLibSetWorkspace) is smaller than the
 *                     call needs (cutlassLibGetWorkspaceSize says how much); nothing runs
 * A GEMM call answers with the first check that fails, in this order: the handle
 * (NOT_INITIALIZED); the transpose flags and the values above (INVALID_VALUE; the epilogue's
 * operands included, e.g. ldaux >= max(1, m) is checked here, at the call); sizes and batchCount
 * (NOT_SUPPORTED); the type combination and what the handle's settings ask of it (NOT_SUPPORTED:
 * e.g. an fp8 Ctype without the D scale / amax piece); the device (NO_DEVICE); the kernels
 * (NO_KERNEL, ARCH_MISMATCH). So a bad lda with an unsupported type is INVALID_VALUE, and without
 * a device even a call with m == 0 answers NO_DEVICE. Outputs other than fp8 with the D scale /
 * amax piece set have no kernel: NO_KERNEL.
 */
#ifndef CUTLASS_LIB_H_
#define CUTLASS_LIB_H_

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include <library_types.h>

#if defined(_WIN32)
#define CUTLASS_LIB_C_API
#else
#define CUTLASS_LIB_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this header (cutlassLibGetVersion() gives the library binary's as
 *  major*10000 + minor*100 + patch). */
#define CUTLASS_LIB_VERSION_MAJOR 0
#define CUTLASS_LIB_VERSION_MINOR 1
#define CUTLASS_LIB_VERSION_PATCH 0

/** Opaque handle: holds the device, the stream and the device workspace. */
typedef struct cutlassLibContext *cutlassLibHandle_t;

/* Every enum ends in an ..._ENUM_RANGE_ = INT_MIN enumerator that is not a value: it makes any int,
 * negative ones included (-1 as an "invalid" sentinel), a valid value of the enum type in C++ (whose
 * enums hold only the range their enumerators span, [dcl.enum]: with a negative enumerator, that of
 * the smallest two's-complement bit-field holding them all, here 32 bits), so a caller's
 * out-of-range value reaches the argument checks, which answer INVALID_VALUE / NOT_SUPPORTED as
 * documented, instead of being undefined behaviour. */
typedef enum {
  CUTLASS_LIB_STATUS_SUCCESS = 0,
  CUTLASS_LIB_STATUS_NOT_INITIALIZED = 1,
  CUTLASS_LIB_STATUS_ALLOC_FAILED = 3,
  CUTLASS_LIB_STATUS_INVALID_VALUE = 7,
  CUTLASS_LIB_STATUS_ARCH_MISMATCH = 8,
  CUTLASS_LIB_STATUS_EXECUTION_FAILED = 13,
  CUTLASS_LIB_STATUS_INTERNAL_ERROR = 14,
  CUTLASS_LIB_STATUS_NOT_SUPPORTED = 15,
  CUTLASS_LIB_STATUS_NO_KERNEL = 100,
  CUTLASS_LIB_STATUS_NO_DEVICE = 101,
  CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL = 102, /**< the workspace set by cutlassLibSetWorkspace is
                                                     smaller than the call needs (cutlassLibGetWorkspaceSize) */
  CUTLASS_LIB_STATUS_ENUM_RANGE_ = -0x7fffffff - 1 /**< not a status (see the note above) */
} cutlassLibStatus_t;

/** Transposes (values as cublasOperation_t's CUBLAS_OP_N / CUBLAS_OP_T). */
typedef enum { CUTLASS_LIB_OP_N = 0, CUTLASS_LIB_OP_T = 1, CUTLASS_LIB_OP_ENUM_RANGE_ = -0x7fffffff - 1 } cutlassLibOperation_t;

/** Where alpha and beta live (values as cublasPointerMode_t): HOST (default) host pointers, read
 *  during the call; DEVICE device pointers of the compute type's scalar, read by the kernel when
 *  it runs, so a call captured in a CUDA graph takes new scalars at every replay. */
typedef enum {
  CUTLASS_LIB_POINTER_MODE_HOST = 0,
  CUTLASS_LIB_POINTER_MODE_DEVICE = 1,
  CUTLASS_LIB_POINTER_MODE_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibPointerMode_t;

/** Compute types (names and values as cublasComputeType_t's CUBLAS_COMPUTE_32F, _32F_FAST_TF32,
 *  _64F and _32I, cublas_api.h; its other values, as any outside the table above, answer
 *  NOT_SUPPORTED). */
typedef enum {
  CUTLASS_LIB_COMPUTE_32F = 68,            /**< f32 accumulate (f16/bf16/f32 inputs) */
  CUTLASS_LIB_COMPUTE_32F_FAST_TF32 = 77,  /**< f32 inputs on tf32 tensor cores, f32 accumulate */
  CUTLASS_LIB_COMPUTE_64F = 70,            /**< f64 */
  CUTLASS_LIB_COMPUTE_32I = 72,            /**< s8 inputs, s32 accumulate */
  CUTLASS_LIB_COMPUTE_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibComputeType_t;

/** Creates a handle on the current device with the default stream. Succeeds without a GPU
 *  (queries work; GEMM calls then return NO_DEVICE). ALLOC_FAILED, or INVALID_VALUE if handle is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibCreate(cutlassLibHandle_t *handle);

/** Destroys a handle (NULL is accepted and ignored). Does not synchronize the stream. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibDestroy(cutlassLibHandle_t handle);

/** Stream of later calls (0 = the legacy default stream). The calls share the handle's own device
 *  workspace, so a change of stream first waits for the handle's work on the old stream
 *  (cudaStreamSynchronize); with a caller's workspace (cutlassLibSetWorkspace) it does not wait:
 *  the caller orders that workspace's use across streams. NOT_INITIALIZED if handle is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetStream(cutlassLibHandle_t handle, cudaStream_t stream);
/** The stream of later calls into *stream. NOT_INITIALIZED if handle is null, INVALID_VALUE if
 *  stream is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGetStream(cutlassLibHandle_t handle, cudaStream_t *stream);

/** The scalar pointer mode of later calls. INVALID_VALUE for a mode outside the enum (or a null
 *  mode pointer); NOT_INITIALIZED if handle is null. With DEVICE, alpha == 0 is not seen on the
 *  host: the GEMM runs (and reads A and B, which must then be valid) and C is read; k == 0 still
 *  takes the quick return C = beta * C (beta read on the device), without reading A or B. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetPointerMode(cutlassLibHandle_t handle, cutlassLibPointerMode_t mode);
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGetPointerMode(cutlassLibHandle_t handle, cutlassLibPointerMode_t *mode);

/** A caller-owned device workspace for later calls (as cublasSetWorkspace; PyTorch hands cuBLAS one
 *  from its caching allocator): the handle frees its own workspace, after its stream's work, and
 *  allocates none while this one is set; a call that needs more returns WORKSPACE_TOO_SMALL and
 *  launches nothing. The split-K partial sums of the bandwidth kernels, stream-K's and the
 *  staging copies of misaligned operands live there. workspace must be 256-byte aligned and stay
 *  valid (and unused by others) while the handle's work runs; replacing one caller workspace by
 *  another does not synchronize (frameworks set one per stream, also during graph capture); NULL
 *  with 0 bytes returns to the handle's own workspace, grown on demand. INVALID_VALUE for a misaligned pointer or NULL with
 *  bytes > 0; NOT_INITIALIZED if handle is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetWorkspace(cutlassLibHandle_t handle, void *workspace,
                                                            size_t workspaceSizeInBytes);

/** The device workspace (bytes) a cutlassLibGemmStridedBatchedEx call with these arguments needs
 *  on this handle's device (cutlassLibGemmEx: strides 0, batchCount 1), 0 when none; nothing is
 *  launched. Statuses as the call itself would return before launching (never
 *  WORKSPACE_TOO_SMALL: the size is the answer); INVALID_VALUE if workspaceSizeInBytes is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGetWorkspaceSize(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
    cudaDataType_t Btype, int64_t ldb, int64_t strideB, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
    int64_t strideC, int64_t batchCount, cutlassLibComputeType_t computeType, size_t *workspaceSizeInBytes);

/** C = alpha * op(A) op(B) + beta * C (see the conventions above). */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmEx(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                                      cutlassLibOperation_t transb, int64_t m, int64_t n, int64_t k,
                                                      const void *alpha, const void *A, cudaDataType_t Atype,
                                                      int64_t lda, const void *B, cudaDataType_t Btype, int64_t ldb,
                                                      const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
                                                      cutlassLibComputeType_t computeType);

/** batchCount independent GEMMs: matrix i of A starts at A + i*strideA elements (likewise B, C).
 *  Strides must be >= 0 (0 reuses one A or B for every batch); the alignment rules above apply to
 *  the strides too. batchCount in [1, 65535]. Outputs must not overlap: with batchCount > 1, a
 *  strideC smaller than one C matrix (ldc * n) makes batches write the same elements at once,
 *  and the result is undefined (as in cuBLAS; not checked). */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmStridedBatchedEx(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
    cudaDataType_t Btype, int64_t ldb, int64_t strideB, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
    int64_t strideC, int64_t batchCount, cutlassLibComputeType_t computeType);

/* ---- Pointer-array batched and grouped GEMMs ------------------------------------------------
 * Many independent GEMMs in one call, as cuBLAS's cublasGemmBatchedEx and
 * cublasGemmGroupedBatchedEx take them: problem i reads A = Aarray[i], B = Barray[i] and updates
 * C = Carray[i] in place, each with the conventions above (column-major, sizes and leading
 * dimensions in elements, the type table, the alignment rules per pointer). Problems are
 * independent and may run concurrently (one grouped launch, below): no C may overlap another
 * problem's A, B or C, as in cuBLAS.
 *
 * Pointer arrays: Aarray, Barray and Carray may be in device memory, as cuBLAS takes them, or
 * in host memory. The library reads the entries on the host during the call, like the size
 * arrays, so the arrays may be reused as soon as the call returns. An array in device or managed
 * memory (cudaPointerGetAttributes tells) is first copied to the host on the handle's stream, and
 * the call waits for that stream (cudaStreamSynchronize), so entries the caller's work on it
 * wrote are seen: the call then blocks the host until the stream's earlier work is done, and
 * answers NOT_SUPPORTED while the stream is being captured into a CUDA graph. Only the entries
 * the call reads are copied (one per problem, one for a whole group whose m or n is 0). Arrays
 * in pageable or pinned host memory are read in place at once, without waiting for the stream:
 * the caller fills them before the call. Host arrays save the wait; for arrays written on the
 * device in a captured step, cutlassLibGemmGroupedDeviceSizesEx reads pointers and sizes on the
 * device. A device array shorter than the problem count is an error CUDA may not tell
 * (INVALID_VALUE when it does; else the entries past it are whatever memory follows).
 *
 * Differences from cuBLAS, in this version:
 *  - When the build has a grouped kernel for the call's types and layouts (names
 *    "..._grouped_...": bf16 / f16 in and out, every layout; e4m3 in, bf16 / f16 out, TN; bf16 /
 *    f16 in, f32 out, TN; sm_90; the default set has a 128x128 tile of each, a 256x128 tile for
 *    bf16 / f16 TN and a 64x32 token tile for B K-major, a 64x16 token tile (bf16 / f16, B
 *    K-major) being opt-in, the cost model picking among them (src/library/
 *    gemm_selection.h, estimated_grouped_time); cutlassLibGemmGroupedBatchedExSelect tells) and every
 *    problem with m, n, k > 0 has the same types and layouts (each its own m, n and k), the TMA
 *    alignment and no row-major C, and the stream is not being captured into a CUDA graph, those problems run in ONE launch of it
 *    (its group table is copied from pageable host memory, which may block the host until the
 *    stream's earlier work is done); the k == 0 and host alpha == 0 problems (beta * C) run as in
 *    cutlassLibGemmEx. Otherwise (also with 65536 or more such problems, when the table cannot be
 *    allocated, or when the caller's workspace is too small for it or not 256-byte aligned) the problems run one
 *    after another on the handle's stream, each through the same path as cutlassLibGemmEx (one
 *    launch per problem, or none for the quick returns), each selecting its own kernel
 *    (cutlassLibGemmExSelect of its arguments names it).
 *  - The handle's fused epilogue (cutlassLibSetEpilogue: activation, bias, aux; the alpha vector)
 *    applies to every problem, problem e (its entry in the pointer arrays) taking batch entry e
 *    of the epilogue's vectors and aux matrix, as batch e of cutlassLibGemmStridedBatchedEx
 *    would: bias + e * batchStride (so one experts x m array with batchStride m gives each
 *    expert its bias), aux + e * batchStride. The grouped kernels with fused epilogues: bias,
 *    bias + ReLU and bias + GELU (16-bit, transa = T, transb = N) in the default set, every other
 *    piece and layout opt-in ("..._grouped_..._epi_tma_bias_silu"); a build without the one the
 *    call needs runs the problems one after another, each needing its own fused kernel (else
 *    NO_KERNEL). A D scale / amax (cutlassLibSetEpilogueScaleAmax) answers NOT_SUPPORTED, and so
 *    does any non-scalar operand scale (cutlassLibSetMatrixScale) and PRECISE accumulation. Per-tensor fp8 operand
 *    scales (cutlassLibSetOperandScales, SCALAR_32F) apply to every problem; per-expert
 *    per-tensor scales (an fp8 MoE layer's scale_a * scale_b of expert g) go into that group's
 *    alpha (alpha_array[g], a device array in DEVICE pointer mode when the scales are on the GPU).
 *  - Sizes, leading dimensions and counts are int64_t (cuBLAS's _64 variants).
 * A NULL pointer array counts as an array of NULL pointers: an error exactly where a NULL pointer
 * would be one in cutlassLibGemmEx (e.g. Aarray may be NULL when every problem has k == 0).
 *
 * Statuses: those of cutlassLibGemmEx, with these rules. Pointer arrays in device memory are
 * copied after the call's own argument checks (the handle, group_count, the NULL per-group
 * arrays, the handle's epilogue arguments; a negative group_size or sizes adding up past
 * 2^63 - 1 skip the copy) and before the problems' checks:
 * NOT_SUPPORTED while the stream is being captured, ALLOC_FAILED when the host cannot hold the
 * copies, INVALID_VALUE when CUDA refuses a copy, EXECUTION_FAILED when CUDA cannot tell where an
 * array lives or the copy or the wait fails (an earlier failure on the stream). Then every
 * problem's arguments are checked before anything else, and every INVALID_VALUE of any problem comes before a NOT_SUPPORTED of any
 * (then the type combination, then the D scale / amax, outer-vector scales and precise
 * accumulation); then every
 * problem's kernel is selected (NO_DEVICE, NO_KERNEL, ARCH_MISMATCH) and its workspace compared
 * with a caller's workspace (WORKSPACE_TOO_SMALL); only then does the first problem run. So a bad or unsupported problem
 * anywhere in the call launches nothing; only ALLOC_FAILED (the handle's own workspace cannot
 * grow) and EXECUTION_FAILED can come after earlier problems ran. With CUTLASS_LIB_LOG=1 in the
 * environment a failure is printed with the index of its group and of the problem in the group.
 * Scalars follow the pointer mode: host scalars by default; with CUTLASS_LIB_POINTER_MODE_DEVICE
 * alpha and beta (alpha_array and beta_array) are in device memory and read by the kernels. */

/** batchCount GEMMs of one shape (cublasGemmBatchedEx):
 *      C[i] = alpha * op(A[i]) op(B[i]) + beta * C[i],   A[i] = Aarray[i], ... for 0 <= i < batchCount,
 *  with transa, transb, m, n, k, lda, ldb, ldc, alpha and beta as in cutlassLibGemmEx, shared by
 *  every problem. Aarray, Barray, Carray: arrays of batchCount device pointers, in device memory
 *  (as cuBLAS's) or host memory (see the section's pointer-array rules). batchCount == 0
 *  returns SUCCESS after the argument checks, touching nothing (also without a device). Statuses
 *  as the conventions of this section state; INVALID_VALUE for batchCount < 0 (unlike
 *  cutlassLibGemmStridedBatchedEx, which needs batchCount >= 1), and no upper limit on
 *  batchCount. It is cutlassLibGemmGroupedBatchedEx with one group of batchCount problems. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmBatchedEx(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *const Aarray[], cudaDataType_t Atype, int64_t lda,
    const void *const Barray[], cudaDataType_t Btype, int64_t ldb, const void *beta, void *const Carray[],
    cudaDataType_t Ctype, int64_t ldc, int64_t batchCount, cutlassLibComputeType_t computeType);

/** group_count groups of GEMMs (cublasGemmGroupedBatchedEx): group g holds group_size[g] problems
 *  that share transa_array[g], transb_array[g], m_array[g], n_array[g], k_array[g], lda_array[g],
 *  ldb_array[g], ldc_array[g], and the scalars alpha_array[g] and beta_array[g] (arrays of
 *  group_count values of the compute type's scalar type: float for COMPUTE_32F, double for
 *  COMPUTE_64F, int32_t for COMPUTE_32I; host memory, or device memory in DEVICE pointer mode;
 *  arrays in the other memory than the mode names are not detected and fault, as in cuBLAS).
 *  The pointer arrays hold one entry per problem, sum(group_size) in all, groups in order: group
 *  g's problem j is entry group_size[0] + ... + group_size[g-1] + j. Atype, Btype, Ctype and
 *  computeType are the whole call's (one row of the type table).
 *      C[e] = alpha[g] * op_g(A[e]) op_g(B[e]) + beta[g] * C[e]   for every problem e of group g
 *  Per problem, as in cutlassLibGemmEx: m or n == 0 does nothing; k == 0 (or alpha == 0 with host
 *  scalars) gives C = beta * C without reading A or B (so their entries may be NULL); beta == 0
 *  never reads C. A group may be empty (group_size[g] == 0); its transposes, sizes and leading
 *  dimensions, and m, n, k against 2^31 - 1, are still checked. group_count == 0 returns SUCCESS
 *  before any other check (the arrays are not read); a call whose groups are all empty returns
 *  SUCCESS after the checks (so a type, epilogue or scale the call cannot take still answers
 *  NOT_SUPPORTED), touching nothing, also without a device. Problems with m or n == 0 cost
 *  nothing whatever their number (one stands for the group).
 *  INVALID_VALUE, besides a single call's reasons in any group: group_count < 0; a NULL size,
 *  transpose, leading-dimension, alpha, beta or group_size array when group_count > 0;
 *  group_size[g] < 0 (or sizes adding up past 2^63 - 1); a fused
 *  epilogue's vector or aux batchStride with which the call's problems' entries span more than
 *  2^63 - 1 bytes; a problem whose output (C) shares an element with an earlier problem's, told
 *  (after every problem's own checks) at the later problem: exactly for outputs of one ldc and
 *  type whose starts are whole elements apart (outputs may interleave, e.g. row blocks of one
 *  matrix), among the 64 latest-starting outputs that reach into each; outputs that start at the
 *  same address always.
 *  NOT_SUPPORTED: the type combination (whole call); m, n or k above 2^31 - 1 in any group; a
 *  D scale / amax, any non-scalar operand scale or precise accumulation on the handle; a fused
 *  epilogue with k == 0
 *  in a group with problems (as cutlassLibGemmEx). See the section's conventions for the order. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedBatchedEx(
    cutlassLibHandle_t handle, const cutlassLibOperation_t transa_array[], const cutlassLibOperation_t transb_array[],
    const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
    const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    cudaDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    cutlassLibComputeType_t computeType);

/** A mixture-of-experts layer in ONE launch, its token counts in DEVICE memory (the "contiguous"
 *  layout; torch._grouped_mm's 2D x 3D case seen column-major): group_count groups (experts)
 *  share m, k, the types and leading dimensions; group g's tokens are the columns
 *  [offsets[g - 1], offsets[g]) of B and C (offsets[-1] = 0), packed expert after expert in n
 *  columns, and its matrix is A + g * strideA (elements):
 *      C[:, j] = alpha * op(A_g) B[:, j] + beta * C[:, j]   for every column j of group g.
 *  A framework's y_g = x_g W_g^T (row-major x: tokens x in, W: experts x out x in, y: tokens x
 *  out) is transa = T, transb = N, m = out, k = in, n = all tokens, A = W, lda = in,
 *  strideA = out * in, B = x, ldb = in, C = y, ldc = out.
 *  offsets: group_count int32 in device memory (or managed / pinned host memory), written by the
 *  caller's kernels on the handle's stream before the call (routing computed on the GPU): the
 *  library never reads them on the host, so the call launches two kernels (a prologue that
 *  builds each group's tensor maps with tensormap.replace, then one persistent grouped GEMM) and
 *  copies nothing: it can be captured into a CUDA graph and replayed with new offsets.
 *  Graphs: the graph keeps the address of the workspace the call used. Capture with a workspace
 *  set by cutlassLibSetWorkspace that outlives the graph (the handle's own workspace is freed
 *  when a later call grows it), or call once with the same group_count before capturing and
 *  make no call that needs more workspace on the handle while the graph is in use; the handle's
 *  workspace never grows while the stream is being captured (ALLOC_FAILED instead).
 *  Groups never overlap: a group whose end is smaller than an earlier group's end, or larger
 *  than n, is skipped (its columns are not written), and so is every group after an end larger
 *  than n; columns past the last group's end are not written. Groups may be empty (equal
 *  offsets) and cost nothing.
 *  The handle's fused epilogue applies (cutlassLibSetEpilogue; the grouped kernels as
 *  cutlassLibGemmGroupedBatchedEx names them): a PER_ROW bias or alpha vector (m values) of
 *  group g is batch entry g's (bias + g * batchStride: per-expert biases as one experts x m
 *  array with batchStride m; batchStride 0 shares one), a PER_COLUMN vector has n values, one
 *  per packed column (token), and the aux matrix is m x n over the packed columns (ldaux); a
 *  column no group owns gets no aux either.
 *  Requirements (else NOT_SUPPORTED): transb = N (each token's K values contiguous), k >= 1 and
 *  alpha != 0 (with host scalars, without a fused epilogue; C = beta * C over columns only the
 *  device knows is not offered), no D scale / amax, non-scalar operand scale or precise
 *  accumulation on the handle,
 *  group_count, m, n, k <= 2^31 - 1. A build with a grouped kernel for the types and transa
 *  (bf16 / f16 in and out, or e4m3 in with transa = T and bf16 / f16 out; sm_90; the default set
 *  has them; else NO_KERNEL, or ARCH_MISMATCH on a device of another architecture). The TMA rules
 *  (else NO_KERNEL: no kernel takes the call): A, B, C 16-byte aligned, lda, ldb, ldc and strideA
 *  multiples of 16 bytes, m a multiple of 8 elements and k of 16 bytes (8 bf16 / f16 or 16 e4m3
 *  elements: the extent each vector access runs along); a workspace set by
 *  cutlassLibSetWorkspace 256-byte aligned. Scalars as in cutlassLibGemmEx (host, or
 *  device in DEVICE pointer mode).
 *  Statuses, in this order: INVALID_VALUE for cutlassLibGemmEx's argument errors of the packed
 *  problem (A holds group 0's matrix, the epilogue's operands checked against it), group_count < 0, strideA < 0 or one with which the groups'
 *  A span more than 2^63 - 1 bytes (likewise a PER_ROW bias / alpha vector's batchStride), a NULL or not 4-byte aligned
 *  offsets array or one in pageable host memory when group_count > 0 (told with a device only:
 *  without one, NO_DEVICE comes first); NOT_SUPPORTED for the type
 *  combination, for what cutlassLibGemmEx would not take of the packed problem but its sizes (e.g.
 *  an fp8 C without the D scale / amax, operand scales set for other types), and for a D scale /
 *  amax, non-scalar operand scale or precise accumulation on the handle; SUCCESS at once for
 *  group_count == 0, m == 0 or n == 0 (nothing read or written); the other NOT_SUPPORTED cases
 *  above (m, n or k above 2^31 - 1 among them); then NO_DEVICE, NO_KERNEL, ARCH_MISMATCH,
 *  WORKSPACE_TOO_SMALL, ALLOC_FAILED, EXECUTION_FAILED as cutlassLibGemmEx. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedContiguousEx(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
    cudaDataType_t Btype, int64_t ldb, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
    int64_t group_count, const int32_t *offsets, cutlassLibComputeType_t computeType);

/** group_count GEMMs in ONE launch whose sizes, leading dimensions and pointers are all in DEVICE
 *  memory (device, managed or pinned host memory), never read on the host: group g computes
 *      C_g = alpha * op(A_g) op(B_g) + beta * C_g    (column-major C_g, m_g x n_g, in place)
 *  with (m_g, n_g, k_g) = problem_sizes[3g], [3g + 1], [3g + 2] (int32), A_g = Aarray[g] (lda_array[g]
 *  elements, int64), B_g = Barray[g] (ldb_array[g]), C_g = Carray[g] (ldc_array[g]); transa,
 *  transb, the types and alpha, beta (host, or device in DEVICE pointer mode) are the whole call's.
 *  So routing computed on the GPU (a mixture-of-experts layer's expert sizes and pointers) can
 *  write the arrays on the handle's stream before the call, and the call (a prologue kernel that
 *  checks each group and writes its tile count and tensor maps, then one persistent grouped GEMM;
 *  no copy) can be captured into a CUDA graph and replayed with new contents; the graph rules of
 *  cutlassLibGemmGroupedContiguousEx apply (a workspace that outlives the graph). max_n: an upper
 *  bound on every n_g when the caller knows one (e.g. the step's tokens), else 0; it only picks
 *  the tile (<= 32 or so: the token tile, when built).
 *  The handle's fused epilogue (cutlassLibSetEpilogue: bias, ReLU / GELU / ..., alpha vector)
 *  applies to group g as to batch entry g of a strided call: its bias is bias + g * batchStride
 *  (cutlassLibSetEpilogueBias; PER_ROW: m_g values, PER_COLUMN: n_g), its alpha vector alike, so
 *  batchStride is 0 (one vector for every group) or at least the largest group's m_g / n_g (not
 *  checked: the sizes are on the device).
 *  What the kernels do per group (nothing can be reported back to the host): m_g or n_g == 0
 *  does nothing; k_g == 0, or alpha == 0 with host scalars, writes beta * C_g (A_g, B_g not
 *  read; beta == 0 writes zeros without reading C_g) with the plain epilogue; with a fused one
 *  a k_g == 0 group is skipped, C_g untouched (a fused cutlassLibGemmEx with k == 0 is
 *  NOT_SUPPORTED), and host alpha == 0 runs the GEMM as that call does; a group the kernels
 *  cannot run is skipped, C_g untouched: a negative size, a null C_g (or null A_g / B_g with k_g > 0), ldc < m_g
 *  or an lda / ldb below the stored extent (k_g for transa = T / transb = N, else m_g / n_g), a
 *  pointer, leading dimension or contiguous extent (m_g; k_g, m_g or n_g as stored) that is not a
 *  multiple of 16 bytes, a leading dimension of 2^40 bytes or more, more than (2^31 - 1) /
 *  group_count units (output tiles, or tile pairs on 2-CTA-cluster kernels). Groups may not overlap (not checked: the device owns the pointers).
 *  With host scalars and beta == 0, C is never read.
 *  Requirements (else NOT_SUPPORTED): no aux output and no D scale / amax, per-tensor scales
 *  only, fast accumulation, group_count <= 2^30 - 1; a build with a grouped kernel for the types,
 *  transposes and epilogue (the 16-bit rows, e4m3 TN: the grouped tiles; the default set's fused
 *  ones: bias, bias+ReLU, bias+GELU for 16-bit TN; else NO_KERNEL, ARCH_MISMATCH on a device of
 *  another architecture).
 *  Statuses, in this order: NOT_INITIALIZED for a null handle; INVALID_VALUE for a transpose flag
 *  other than N / T, group_count < 0, max_n < 0, null alpha or beta, and, when group_count > 0,
 *  a null per-group array, one in pageable host memory (told with a device only) or one not
 *  aligned to its element type, and the handle's epilogue / scale argument errors; NOT_SUPPORTED
 *  for the type combination and the requirements above; SUCCESS at once for group_count == 0;
 *  then NO_DEVICE, NO_KERNEL, ARCH_MISMATCH, WORKSPACE_TOO_SMALL, ALLOC_FAILED, EXECUTION_FAILED as
 *  cutlassLibGemmEx (NO_KERNEL also for a caller's workspace that is not 256-byte aligned).
 *  Workspace: the group table, less than 1024 x group_count + 512 bytes (exactly:
 *  cutlassLibGemmGroupedDeviceSizesExSelect; a workspace set by cutlassLibSetWorkspace: 256-byte
 *  aligned); a call before capturing grows the handle's own. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedDeviceSizesEx(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
    const int32_t *problem_sizes, const void *alpha, const void *const *Aarray, cudaDataType_t Atype,
    const int64_t *lda_array, const void *const *Barray, cudaDataType_t Btype, const int64_t *ldb_array,
    const void *beta, void *const *Carray, cudaDataType_t Ctype, const int64_t *ldc_array, int64_t group_count,
    int64_t max_n, cutlassLibComputeType_t computeType);

/** What cutlassLibGemmGroupedDeviceSizesEx would do with these arguments, without running or
 *  allocating anything; the device arrays are checked as the call checks them (null, pageable,
 *  aligned), their contents never read. On SUCCESS *kernel_name is the grouped kernel the call
 *  would launch (NULL when it would launch nothing: group_count == 0) and *workspaceSizeInBytes
 *  the workspace it needs (its group table: a workspace set by cutlassLibSetWorkspace, e.g. for
 *  graph capture, must hold at least this many bytes, 256-byte aligned). Statuses as
 *  cutlassLibGemmGroupedDeviceSizesEx's before its launch, never WORKSPACE_TOO_SMALL,
 *  ALLOC_FAILED or the unaligned caller workspace's NO_KERNEL (the caller's workspace is not
 *  looked at); NOT_INITIALIZED for a null handle, then INVALID_VALUE if kernel_name or
 *  workspaceSizeInBytes is null; past those two checks the outputs are NULL and 0 unless the
 *  answer is SUCCESS. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedDeviceSizesExSelect(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb,
    const int32_t *problem_sizes, const void *alpha, const void *const *Aarray, cudaDataType_t Atype,
    const int64_t *lda_array, const void *const *Barray, cudaDataType_t Btype, const int64_t *ldb_array,
    const void *beta, void *const *Carray, cudaDataType_t Ctype, const int64_t *ldc_array, int64_t group_count,
    int64_t max_n, cutlassLibComputeType_t computeType, const char **kernel_name, size_t *workspaceSizeInBytes);

/** What cutlassLibGemmGroupedBatchedEx would do with these arguments, without running or
 *  allocating anything (the arrays are read as that call reads them). On SUCCESS *kernel_name is
 *  the grouped kernel that would run every problem in one launch, or NULL when the problems would
 *  run one after another (each call's kernel: cutlassLibGemmExSelect of its arguments) or none
 *  would launch; *workspaceSizeInBytes is the workspace the call needs (its group table, or the
 *  largest problem's need), the least a workspace set by cutlassLibSetWorkspace must hold for
 *  the call to run as planned (a smaller one sends the problems one after another, or answers
 *  WORKSPACE_TOO_SMALL). The plan is that of a call made now: while the handle's stream is being
 *  captured, the problems would run one after another. Statuses as cutlassLibGemmGroupedBatchedEx's
 *  before its launch, never WORKSPACE_TOO_SMALL (the caller's workspace is not compared; ALLOC_FAILED
 *  only when the host cannot hold the call's problem list); NOT_INITIALIZED for a null handle, then
 *  INVALID_VALUE if kernel_name or workspaceSizeInBytes is null; past those two checks the outputs
 *  are NULL and 0 unless the answer is SUCCESS. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedBatchedExSelect(
    cutlassLibHandle_t handle, const cutlassLibOperation_t transa_array[], const cutlassLibOperation_t transb_array[],
    const int64_t m_array[], const int64_t n_array[], const int64_t k_array[], const void *alpha_array,
    const void *const Aarray[], cudaDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    cudaDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    cudaDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    cutlassLibComputeType_t computeType, const char **kernel_name, size_t *workspaceSizeInBytes);

/** What cutlassLibGemmGroupedContiguousEx would do with these arguments, without running or
 *  allocating anything (offsets is checked as the call checks it, its contents not read). On SUCCESS *kernel_name is the grouped kernel it
 *  would launch (NULL when it would launch nothing: group_count, m or n == 0) and
 *  *workspaceSizeInBytes the workspace it needs (the group table of group_count groups: a
 *  workspace set by cutlassLibSetWorkspace must hold at least this many bytes, 256-byte aligned,
 *  e.g. for capturing the call into a CUDA graph). Statuses as cutlassLibGemmGroupedContiguousEx's
 *  before its launch, never WORKSPACE_TOO_SMALL, ALLOC_FAILED or the unaligned caller workspace's
 *  NO_KERNEL (the caller's workspace is not looked at); NOT_INITIALIZED for a null handle, then
 *  INVALID_VALUE if kernel_name or workspaceSizeInBytes is null; past those two checks the outputs
 *  are NULL and 0 unless the answer is SUCCESS. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmGroupedContiguousExSelect(
    cutlassLibHandle_t handle, cutlassLibOperation_t transa, cutlassLibOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType_t Atype, int64_t lda, int64_t strideA, const void *B,
    cudaDataType_t Btype, int64_t ldb, const void *beta, void *C, cudaDataType_t Ctype, int64_t ldc,
    int64_t group_count, const int32_t *offsets, cutlassLibComputeType_t computeType, const char **kernel_name,
    size_t *workspaceSizeInBytes);

/** Which kernel cutlassLibGemmEx would run for these arguments, without running anything.
 *  On SUCCESS *kernel_name is the kernel's procedural name, or NULL when the call would launch no
 *  GEMM kernel (m == 0, n == 0, or without a fused epilogue k == 0 or a host alpha == 0; with
 *  device scalars alpha is not seen and the kernel is named). Statuses as cutlassLibGemmEx;
 *  INVALID_VALUE if kernel_name is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGemmExSelect(cutlassLibHandle_t handle, cutlassLibOperation_t transa,
                                                            cutlassLibOperation_t transb, int64_t m, int64_t n,
                                                            int64_t k, const void *alpha, const void *A,
                                                            cudaDataType_t Atype, int64_t lda, const void *B,
                                                            cudaDataType_t Btype, int64_t ldb, const void *beta,
                                                            void *C, cudaDataType_t Ctype, int64_t ldc,
                                                            cutlassLibComputeType_t computeType,
                                                            const char **kernel_name);

/* ---- Fused epilogues ------------------------------------------------------------------------
 * A handle carries an epilogue that applies to its later GemmEx / GemmStridedBatchedEx /
 * GemmExSelect calls until it is changed, and to the grouped and pointer-array calls (their
 * sections say how their problems take the vectors; they answer NOT_SUPPORTED while the D
 * scale / amax is set). cutlassLibSetEpilogue(h, CUTLASS_LIB_EPILOGUE_DEFAULT)
 * drops the activation, bias and aux; the alpha vector and the D scale / amax are pieces of their
 * own, on while their pointers are non-null (with DEFAULT they give the alphavec / amax kernels),
 * so the plain GEMM also needs cutlassLibSetEpilogueAlphaVector(h, NULL, ...) and
 * cutlassLibSetEpilogueScaleAmax(h, NULL, NULL) when those were set. Per element of the m x n
 * output, in f32:
 *     x = alpha [* alphaVector] * op(A) op(B) + beta * C [+ bias]
 *     aux = x                                   (the _AUX epilogues: pre-activation value)
 *     C = activation(x) [* scaleD]              (then converted to Ctype)
 *     amax = max |activation(x)| over C         (before scaleD; for fp8 outputs)
 * Activations: RELU max(x, 0); GELU the tanh approximation 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))
 * and GELU_ERF the exact 0.5x(1 + erf(x/sqrt(2))) (Hendrycks & Gimpel, arXiv:1606.08415); SILU
 * x/(1 + exp(-x)); SIGMOID 1/(1 + exp(-x)); CLAMP min(max(x, lo), hi).
 * Only kernels built with exactly the requested pieces run (see the kernel names' _epi_ suffix);
 * a build without one returns NO_KERNEL. Opt-in, NOT yet run on a GPU: with
 * CUTLASS_LIB_UNFUSED_EPILOGUE=1 in the environment (read at each call) such a call instead runs
 * the plain kernel with an f32 output into the workspace (m x n floats) and a second pass that
 * applies the pieces above in f32 (one batch, f32 scalars, bf16 / f16 / f32 C with bias and aux of
 * C's type, no scaleD / amax, m x n below 2^31, no kernel with the pieces on K-major copies
 * either; the plain kernel takes the call's own operands, never aligned copies, so a call none
 * of them fits still answers NO_KERNEL / NOT_SUPPORTED; not the contiguous and device-sized
 * grouped calls); cutlassLibGemmExSelect then names the plain kernel. A fused call with k == 0 (and m, n > 0) is NOT_SUPPORTED;
 * alpha == 0 still runs the kernel (A and B must then be valid).
 * fp8 outputs (Ctype CUDA_R_8F_E4M3 / CUDA_R_8F_E5M2, with 16-bit or e4m3 A/B) exist only with
 * scaleD or amax set (cutlassLibSetEpilogueScaleAmax): without, NOT_SUPPORTED. */

/** The epilogue. Enumerators that cuBLASLt's cublasLtEpilogue_t (cublasLt.h) also has carry its
 *  values (value 4 = bias, value 128 = aux, as bits of the others); the others are cutlass_lib's. Unlike cuBLASLt's RELU_AUX (a bit mask), every
 *  _AUX epilogue here stores the pre-activation value, so only the GELU ones are offered. */
typedef enum {
  CUTLASS_LIB_EPILOGUE_DEFAULT = 1,
  CUTLASS_LIB_EPILOGUE_RELU = 2,
  CUTLASS_LIB_EPILOGUE_BIAS = 4,
  CUTLASS_LIB_EPILOGUE_RELU_BIAS = 6,
  CUTLASS_LIB_EPILOGUE_GELU = 32,
  CUTLASS_LIB_EPILOGUE_GELU_BIAS = 36,
  CUTLASS_LIB_EPILOGUE_GELU_AUX = 160,
  CUTLASS_LIB_EPILOGUE_GELU_AUX_BIAS = 164,
  CUTLASS_LIB_EPILOGUE_GELU_ERF = 0x10000,
  CUTLASS_LIB_EPILOGUE_GELU_ERF_BIAS = 0x10004,
  CUTLASS_LIB_EPILOGUE_SILU = 0x20000,
  CUTLASS_LIB_EPILOGUE_SILU_BIAS = 0x20004,
  CUTLASS_LIB_EPILOGUE_SIGMOID = 0x30000,
  CUTLASS_LIB_EPILOGUE_SIGMOID_BIAS = 0x30004,
  CUTLASS_LIB_EPILOGUE_CLAMP = 0x40000,
  CUTLASS_LIB_EPILOGUE_CLAMP_BIAS = 0x40004,
  CUTLASS_LIB_EPILOGUE_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibEpilogue_t;

/** Which index of C a vector follows: PER_ROW = element i of row i (m values; cuBLASLt's bias),
 *  PER_COLUMN = element j of column j (n values). */
typedef enum {
  CUTLASS_LIB_VECTOR_PER_ROW = 0,
  CUTLASS_LIB_VECTOR_PER_COLUMN = 1,
  CUTLASS_LIB_VECTOR_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibVectorMode_t;

/** Sets the epilogue of later calls. INVALID_VALUE for a value outside the enum. The operands
 *  (bias, aux, ...) are kept separately and are not cleared by this call. Get: INVALID_VALUE if
 *  epilogue is null. Every setter and getter: NOT_INITIALIZED if handle is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogue(cutlassLibHandle_t handle, cutlassLibEpilogue_t epilogue);
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibGetEpilogue(cutlassLibHandle_t handle, cutlassLibEpilogue_t *epilogue);

/** The bias of the _BIAS epilogues: a device vector of biasType (CUDA_R_32F, CUDA_R_16F or
 *  CUDA_R_16BF; others NOT_SUPPORTED), m values (PER_ROW) or n (PER_COLUMN); batch i uses
 *  bias + i * batchStride elements. A _BIAS epilogue without a bias is INVALID_VALUE at the call.
 *  The generator builds fused kernels whose bias and aux types are Ctype (16-bit and f32
 *  outputs) or Atype (fp8 outputs); a call with another bias or aux type answers NO_KERNEL.
 *  INVALID_VALUE for a mode outside the enum or batchStride < 0, then NOT_SUPPORTED for biasType.
 *  A later call whose bias (or aux, or alpha vector) is not aligned to its element size answers
 *  INVALID_VALUE. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogueBias(cutlassLibHandle_t handle, const void *bias,
                                                               cudaDataType_t biasType, cutlassLibVectorMode_t mode,
                                                               int64_t batchStride);

/** The aux output of the _AUX epilogues: an m x n column-major device matrix of auxType (CUDA_R_32F,
 *  CUDA_R_16F or CUDA_R_16BF), ldaux >= max(1, m) elements, batch i at aux + i * batchStride.
 *  INVALID_VALUE for ldaux < 1 or batchStride < 0 (ldaux >= m is checked at the call, which knows
 *  m), then NOT_SUPPORTED for auxType. An _AUX epilogue without an aux, or with a NULL one, is
 *  INVALID_VALUE at the call. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogueAux(cutlassLibHandle_t handle, void *aux,
                                                              cudaDataType_t auxType, int64_t ldaux,
                                                              int64_t batchStride);

/** Per-row or per-column alpha: a device f32 vector multiplying alpha (m or n values). Non-null
 *  turns the piece on for later calls, NULL turns it off. INVALID_VALUE for a mode outside the
 *  enum or batchStride < 0. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogueAlphaVector(cutlassLibHandle_t handle,
                                                                      const float *alphaVector,
                                                                      cutlassLibVectorMode_t mode,
                                                                      int64_t batchStride);

/** D scale and amax (device f32 scalars; scaleD NULL means 1, amax NULL means not written). Either
 *  non-null turns the piece on, both NULL turn it off. amax is overwritten (not accumulated). A
 *  later call with scaleD or amax not 4-byte aligned answers INVALID_VALUE. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogueScaleAmax(cutlassLibHandle_t handle, const float *scaleD,
                                                                    float *amax);

/** Per-tensor scales of fp8 operands (cuBLASLt's CUBLASLT_MATMUL_DESC_A_SCALE_POINTER and
 *  B_SCALE_POINTER): device f32 scalars, read by the kernel, multiplying alpha, so later calls
 *  compute D = alpha * (*scaleA) * (*scaleB) * op(A) op(B) + beta * C (then the epilogue's other
 *  pieces); NULL means 1, both NULL turn them off. Only calls with fp8 Atype / Btype, or
 *  CUDA_R_8I ones with COMPUTE_32F (int8 dequantization), take them: a call of other types while
 *  one is set answers NOT_SUPPORTED. The k == 0 / alpha == 0 quick
 *  returns do not read them. The same as cutlassLibSetMatrixScale(SCALAR_32F) for A and for B.
 *  NOT_INITIALIZED if handle is null. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetOperandScales(cutlassLibHandle_t handle, const float *scaleA,
                                                                const float *scaleB);

/** Which operand a matrix scale belongs to (cuBLASLt's A / B scale attributes). */
typedef enum {
  CUTLASS_LIB_MATRIX_A = 0,
  CUTLASS_LIB_MATRIX_B = 1,
  CUTLASS_LIB_MATRIX_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibMatrix_t;

/** How an fp8 operand's scale is laid out; names and values are cuBLASLt's
 *  cublasLtMatmulMatrixScale_t (cuBLASLt API, "cublasLtMatmulMatrixScale_t"). */
typedef enum {
  /** one f32 device scalar for the whole operand (as cutlassLibSetOperandScales) */
  CUTLASS_LIB_MATRIX_SCALE_SCALAR_32F = 0,
  /** one f32 per row of op(A) (M values: scale[i] multiplies row i of D) or per column of op(B)
   *  (N values: scale[j] multiplies column j of D); the same vector for every batch entry;
   *  "row-wise" scaling: per-token activations, per-channel weights */
  CUTLASS_LIB_MATRIX_SCALE_OUTER_VEC_32F = 3,
  /** 1 x 128 blocks along K: one f32 per row of op(A) (column of op(B)) per 128 elements of K,
   *  KB = ceil(K / 128) k-blocks (the last one covers K's remainder); A's scale of row i in
   *  k-block kb at scale[kb * M + i] (B: scale[kb * N + j]): rows (columns) run fastest; batch
   *  entry l's scales follow at l * KB * M (N). DeepSeek-V3's activation scaling. */
  CUTLASS_LIB_MATRIX_SCALE_VEC128_32F = 4,
  /** 128 x 128 blocks: one f32 per 128 rows of op(A) (columns of op(B)) x 128 elements of K;
   *  A's block (i / 128, kb) at scale[(i / 128) * KBp + kb]: k-blocks run fastest, each block
   *  row padded to KBp = KB rounded up to a multiple of 4 (16 bytes; K = 640: KB = 5, KBp = 8)
   *  (B: the same with j / 128); ceil(M / 128) * KBp floats per batch entry, entry l's at
   *  l * ceil(M / 128) * KBp. DeepSeek-V3's
   *  weight scaling. Both block layouts are cuBLASLt's (and torch._scaled_mm's): the same scale
   *  arrays gave bit-identical results from cublasLtMatmul and from this library on the H200
   *  (docs/NOTES.md, s13); the padding, which cuBLASLt expects, was found in s29. */
  CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F = 5,
  CUTLASS_LIB_MATRIX_SCALE_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibMatrixScale_t;

/** The scale of fp8 operand `matrix` for later calls, in layout `mode` (device f32 memory, read
 *  by the kernel; NULL turns that operand's scale off, i.e. 1). With both scales set,
 *      D(i, j) = alpha * sum_kb sa(i, kb) * sb(j, kb) * sum_{k in block kb} op(A)(i, k) op(B)(k, j)
 *                + beta * C(i, j)
 *  (kb: the 128-deep k-blocks) where sa(i, kb) is *scale (SCALAR_32F), scale[i] (OUTER_VEC_32F,
 *  M values) or the block scale of row i in k-block kb (VEC128_32F, BLK128x128_32F: layouts at
 *  the enumerators), and sb(j, kb) likewise with N. Example, y = x W^T with x (tokens x in) and
 *  W (out x in) row-major e4m3, called as GemmEx(T, N, m = out, n = tokens, k = in, A = W, B = x):
 *  per-channel weight scales are A's OUTER_VEC (out values), per-token activation scales B's
 *  OUTER_VEC (tokens values). DeepSeek-V3's recipe is A = W with BLK128x128 (ceil(out / 128) x
 *  ceil(in / 128) values: out = 4096, in = 7168 gives 32 x 56, block (r, kb) at scale[r * 56 + kb];
 *  56 is a multiple of 4, so no padding)
 *  and B = x with VEC128 (tokens x ceil(in / 128): token t of k-block kb at scale[kb * tokens + t]).
 *  The block modes run on the block-scaled sm90 kernels only (names "..._blockscale"; e4m3 x
 *  e4m3, e4m3 x e5m2 and e5m2 x e4m3, cuBLASLt's fp8 pairings; TN, 16-byte alignment; a build
 *  without them answers NO_KERNEL), which promote every
 *  k-block's partial sum to f32 registers, so block scales imply precise accumulation.
 *  Only calls with fp8 Atype / Btype take scales, and CUDA_R_8I ones with COMPUTE_32F the
 *  SCALAR_32F and OUTER_VEC_32F modes (int8 dequantization: the s32 sum of each output times
 *  its row's and column's scales); others answer NOT_SUPPORTED while one is set. The k == 0 /
 *  alpha == 0 quick returns do not read them.
 *  A later call with a scale pointer that is not 4-byte aligned answers INVALID_VALUE.
 *  NOT_INITIALIZED if handle is null; INVALID_VALUE for a matrix other than A / B, a mode outside
 *  the enumerators, or OUTER_VEC_32F, VEC128_32F or BLK128x128_32F with a NULL scale. Nothing
 *  changes on an error. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetMatrixScale(cutlassLibHandle_t handle, cutlassLibMatrix_t matrix,
                                                              cutlassLibMatrixScale_t mode, const float *scale);

/** How fp8 GEMMs sum over K. cuBLASLt sets this with the CUBLASLT_MATMUL_DESC_FAST_ACCUM attribute
 *  (1 fast, 0 its default, promoting periodically); these values are NOT that attribute's: here
 *  FAST is 0 and the default. */
typedef enum {
  /** the tensor core's own accumulation across K (the default): wgmma's fp8 adder keeps about
   *  14 bits (DeepSeek-V3 technical report, arXiv:2412.19437, section 3.3.2), so the error grows
 *  with K (see cutlassLibSetAccumulation) */
  CUTLASS_LIB_ACCUMULATION_FAST = 0,
  /** each 128-deep k-block's partial sum is added into f32 registers (DeepSeek-V3 report, section
   *  3.3.2, arXiv:2412.19437, "increasing accumulation precision"); runs on the block-scaled sm90
 *  kernels */
  CUTLASS_LIB_ACCUMULATION_PRECISE = 1,
  CUTLASS_LIB_ACCUMULATION_ENUM_RANGE_ = -0x7fffffff - 1
} cutlassLibAccumulation_t;

/** The accumulation mode of later calls with fp8 Atype / Btype (other types answer NOT_SUPPORTED
 *  while PRECISE is set). PRECISE runs the block-scaled kernels ("..._blockscale"; opt-in, so
 *  NO_KERNEL in a default build); block scales (VEC128_32F, BLK128x128_32F) always accumulate
 *  precisely. Relative error (Frobenius) against an f64 sum of the same e4m3 products, uniform
 *  [-1, 1] data, f32 output, 256 x 256 (H200, test/gpu/test_block_scales.cu):
 *      K = 4096:  FAST 1.19e-3, PRECISE 1.04e-4
 *      K = 16384: FAST 7.47e-4, PRECISE 1.04e-4
 *  Speed (H200, e4m3 -> bf16, ratio to cuBLASLt's same mode in the same run, cutlass_bench
 *  --dtypes=fe4m3 --scale-a/--scale-b/--accumulation on 8192^3, 4096 x 14336 x 4096, 8192 x 8192 x
 *  28672 and 28672 x 256 x 4096; docs/NOTES.md, s30): PRECISE 0.81-0.93x (1175 TFLOP/s at
 *  8192^3, against FAST's 1318 in the same run), block scales BLK128x128 A x VEC128 B 0.73-0.82x
 *  (907 TFLOP/s at 8192^3 against cuBLASLt's 1221), VEC128 A x BLK128x128 B 0.80-0.87x, VEC128 x
 *  VEC128 0.76-0.80x; FAST 0.93-1.04x; OUTER_VEC A and B 0.95-1.00x (s29).
 *  NOT_INITIALIZED if handle is null; INVALID_VALUE for a mode outside the enumerators. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetAccumulation(cutlassLibHandle_t handle, cutlassLibAccumulation_t mode);

/** Bounds of the CLAMP epilogues; INVALID_VALUE unless lo <= hi. */
CUTLASS_LIB_C_API cutlassLibStatus_t cutlassLibSetEpilogueClamp(cutlassLibHandle_t handle, float lo, float hi);

/** "CUTLASS_LIB_STATUS_SUCCESS" etc.; "CUTLASS_LIB_STATUS_UNKNOWN" for other values. */
CUTLASS_LIB_C_API const char *cutlassLibGetStatusName(cutlassLibStatus_t status);
/** A sentence describing the status. */
CUTLASS_LIB_C_API const char *cutlassLibGetStatusString(cutlassLibStatus_t status);
/** Version of the library binary: major*10000 + minor*100 + patch. */
CUTLASS_LIB_C_API int cutlassLibGetVersion(void);
/** Number of kernels compiled into the library. */
CUTLASS_LIB_C_API size_t cutlassLibGetKernelCount(void);
/** Name of kernel `index` (registration order), or NULL when index >= cutlassLibGetKernelCount(). */
CUTLASS_LIB_C_API const char *cutlassLibGetKernelName(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* CUTLASS_LIB_H_ */
