/// @file cutlass/arch/tma_sm90.h
/// The Tensor Memory Accelerator (sm_90): tensor maps made on the host with the driver's
/// cuTensorMapEncodeTiled (reached through cudaGetDriverEntryPointByVersion, so nothing links
/// libcuda directly), and the device-side bulk tensor copies and mbarrier operations from
/// CCCL's cuda::ptx (PTX ISA, "cp.async.bulk.tensor", "mbarrier").
#pragma once

#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#if defined(__CUDACC__)
#include <cuda/ptx>
#endif

#include "cutlass/cutlass.h"

namespace cutlass {
namespace arch {

// ---- host -------------------------------------------------------------------------------------

/// The driver's cuTensorMapEncodeTiled, looked up once; null if the driver lacks it.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 const fn = [] {
    void *entry = nullptr;
    cudaDriverEntryPointQueryResult query;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &query) !=
            cudaSuccess ||
        query != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);
  }();
  return fn;
}

/// The L2 promotion of every tensor map (how much L2 fetches from DRAM around a TMA request). None:
/// on the H200 (s37, docs/NOTES.md) a TMA-only stream of a K-major bf16 weight (64-row x 128-byte
/// boxes, 20 stages, 132 CTAs) ran at 3.86-4.13 TB/s with no promotion or 128 B and 3.69-3.94 TB/s
/// with 256 B; the swap-AB decode tiles ran 2-4% faster, the large GEMMs within 1%.
/// CUTLASS_LIB_TMA_L2_PROMOTION = 0 (none), 1 (64 B), 2 (128 B) or 3 (256 B) overrides it, a
/// measurement aid read once (host).
inline CUtensorMapL2promotion tma_l2_promotion() {
  static CUtensorMapL2promotion const promotion = [] {
    CUtensorMapL2promotion const all[] = {CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
    return all[env_int_in("CUTLASS_LIB_TMA_L2_PROMOTION", 0, 3, 0)];
  }();
  return promotion;
}

/// A 3-D (inner, outer, batch) tiled tensor map with 128-byte swizzle, zero fill out of bounds and
/// tma_l2_promotion().
/// Extents and box in elements; outer and batch strides in BYTES (multiples of 16). The inner box
/// spans at most 128 bytes with this swizzle; each box dimension is at most 256.
/// Returns false when the driver rejects the map (alignment, sizes) or is unavailable.
inline bool make_tensor_map_3d(CUtensorMap *map, CUtensorMapDataType type, void const *base, uint64_t inner,
                               uint64_t outer, uint64_t batch, uint64_t outer_stride_bytes,
                               uint64_t batch_stride_bytes, uint32_t box_inner, uint32_t box_outer) {
  auto encode = tensor_map_encode_tiled();
  if (!encode) return false;
  cuuint64_t dims[3] = {inner, outer, batch};
  cuuint64_t strides[2] = {outer_stride_bytes, batch_stride_bytes};
  cuuint32_t box[3] = {box_inner, box_outer, 1};
  cuuint32_t element_strides[3] = {1, 1, 1};
  CUresult result = encode(map, type, 3, const_cast<void *>(base), dims, strides, box, element_strides,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, tma_l2_promotion(),
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return result == CUDA_SUCCESS;
}

// ---- device -----------------------------------------------------------------------------------

#if defined(__CUDACC__)

CUTLASS_DEVICE uint32_t smem_address(void const *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

/// Loads one box at (c0, c1, c2) into shared memory; completes its bytes on `barrier`.
CUTLASS_DEVICE void tma_load_3d(void *smem, CUtensorMap const *map, int c0, int c1, int c2, uint64_t *barrier) {
  int32_t const coords[3] = {c0, c1, c2};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem, map, coords, barrier);
}

/// Loads one box at (c0, c1, c2) into the same shared-memory offset of every CTA of the cluster
/// whose bit is set in `cta_mask` (bit i = the CTA of rank i), completing its bytes on the
/// barrier at `barrier`'s offset in each of those CTAs.
CUTLASS_DEVICE void tma_load_3d_multicast(void *smem, CUtensorMap const *map, int c0, int c1, int c2,
                                          uint64_t *barrier, uint16_t cta_mask) {
  int32_t const coords[3] = {c0, c1, c2};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem, map, coords, barrier,
                                  cta_mask);
}

/// Stores one box from shared memory at (c0, c1, c2); out-of-bounds elements are not written.
CUTLASS_DEVICE void tma_store_3d(CUtensorMap const *map, int c0, int c1, int c2, void const *smem) {
  int32_t const coords[3] = {c0, c1, c2};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, coords, smem);
}

CUTLASS_DEVICE void tma_store_commit() { cuda::ptx::cp_async_bulk_commit_group(); }

/// Waits until at most N committed bulk stores still read shared memory.
template <int N>
CUTLASS_DEVICE void tma_store_wait_read() {
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<N>{});
}

/// Waits until at most N committed bulk stores are incomplete.
template <int N>
CUTLASS_DEVICE void tma_store_wait() {
  cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<N>{});
}

CUTLASS_DEVICE void prefetch_tensor_map(CUtensorMap const *map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

/// Before the first TMA that uses a tensor map in global memory written outside this kernel's
/// tensormap proxy (generic stores of an earlier kernel on the device, e.g. a grouped launch's
/// prologue): the tensormap proxy is not acquired from the generic proxy at kernel start, so a
/// reused address could serve a stale map (PTX ISA, "fence.proxy.tensormap"). GPU scope: every
/// map the kernels read this way is written on this GPU (the grouped prologues); maps the host
/// writes go in as kernel parameters.
CUTLASS_DEVICE void tensor_map_acquire(CUtensorMap const *map) {
  cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_gpu, map,
                                           cuda::ptx::n32_t<128>{});
}

CUTLASS_DEVICE void mbarrier_init(uint64_t *barrier, uint32_t count) { cuda::ptx::mbarrier_init(barrier, count); }

/// Makes barrier initialization visible to the async proxy (TMA) and the cluster.
CUTLASS_DEVICE void mbarrier_init_fence() {
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

CUTLASS_DEVICE void mbarrier_arrive_expect_tx(uint64_t *barrier, uint32_t bytes) {
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared,
                                       barrier, bytes);
}

CUTLASS_DEVICE void mbarrier_arrive(uint64_t *barrier) { cuda::ptx::mbarrier_arrive(barrier); }

/// Spins until the phase with the given parity has completed.
CUTLASS_DEVICE void mbarrier_wait(uint64_t *barrier, uint32_t parity) {
  while (!cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) {
  }
}

/// Arrives on the barrier at `barrier`'s shared-memory offset in the CTA of rank `cta_rank` of this
/// cluster (this CTA's own rank included): the address is mapped into that CTA's shared memory
/// (mapa) and the arrive goes through the shared::cluster window. Relaxed: it orders none of this
/// thread's earlier memory accesses (a release at cluster scope costs a MEMBAR.ALL.GPU per arrive
/// in SASS). For its use, a consumer giving a stage back, nothing needs ordering: the stage's only
/// readers are wgmma operations that wgmma.wait_group has already completed.
CUTLASS_DEVICE void mbarrier_arrive_cluster(uint64_t *barrier, uint32_t cta_rank) {
  auto *remote = static_cast<uint64_t *>(__cluster_map_shared_rank(barrier, cta_rank));
  cuda::ptx::mbarrier_arrive(cuda::ptx::sem_relaxed, cuda::ptx::scope_cluster, cuda::ptx::space_cluster, remote);
}

/// This CTA's rank in its cluster (0 without a cluster launch).
CUTLASS_DEVICE uint32_t cluster_cta_rank() { return cuda::ptx::get_sreg_cluster_ctarank(); }

/// Cluster-wide barrier of every thread of every CTA of the cluster: arrive (release; relaxed
/// orders nothing, enough after mbarrier_init_fence, which releases the barrier initialization
/// to the cluster itself) ...
CUTLASS_DEVICE void cluster_arrive() { cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release); }
CUTLASS_DEVICE void cluster_arrive_relaxed() { cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_relaxed); }

/// ... and wait (acquire). Also a barrier over the CTA's own threads.
CUTLASS_DEVICE void cluster_wait() { cuda::ptx::barrier_cluster_wait(cuda::ptx::sem_acquire); }

/// Orders this thread's generic-proxy shared-memory writes before later async-proxy accesses
/// (TMA stores, wgmma).
CUTLASS_DEVICE void fence_view_async_shared() { cuda::ptx::fence_proxy_async(cuda::ptx::space_shared); }

/// Barrier over `threads` threads (a multiple of 32) with a named barrier id (1..15).
CUTLASS_DEVICE void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

#endif  // __CUDACC__

}  // namespace arch
}  // namespace cutlass
