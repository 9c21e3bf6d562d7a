/// @file cutlass/host_staging.h
/// Host-to-device copies of small per-call tables through page-locked (pinned) staging buffers.
/// A cudaMemcpyAsync from pageable memory may synchronize with the stream to stage the copy (CUDA
/// Runtime API, "API synchronization behavior"), so the caller's host work would wait for the GPU
/// work queued before it; from pinned memory the copy is only enqueued.
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <mutex>

#include <cuda_runtime_api.h>

#include "cutlass/device_once.h"

namespace cutlass {

/// One piece of a staged copy: `bytes` from host `source` to `offset` bytes into the destination.
struct StagedPiece {
  size_t offset;
  void const *source;
  size_t bytes;
};

/// Copies `pieces` (within `bytes` of the destination) to device memory `destination` on
/// `stream` (of the current device, `device`) through one of kSlots pinned buffers of that device:
/// the pieces are assembled in the buffer (the gaps between them are left as they were), then one
/// cudaMemcpyAsync of `bytes`. A buffer is reused once the copy issued from it last has run (an
/// event recorded after it), so up to kSlots copies may be queued ahead of the GPU. False
/// (nothing enqueued) when the stream is being captured, the device id is past the cache, or
/// pinned memory, an event or the copy cannot be had: the caller copies from pageable memory.
/// Buffers live until the process exits (never freed: a static destructor would run after the
/// CUDA context's teardown).
inline bool copy_to_device_pinned(void *destination, std::initializer_list<StagedPiece> pieces, size_t bytes,
                                  int device, cudaStream_t stream) {
  constexpr int kSlots = 4;
  struct Slot {
    void *host = nullptr;
    size_t capacity = 0;
    cudaEvent_t done = nullptr;
  };
  struct Ring {
    std::mutex mutex;
    Slot slots[kSlots];
    int next = 0;
  };
  static Ring rings[kOnceCachedDevices];
  if (device < 0 || device >= kOnceCachedDevices || bytes == 0) return false;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    return false;
  }
  Ring &ring = rings[device];
  std::lock_guard<std::mutex> lock(ring.mutex);
  Slot &slot = ring.slots[ring.next];
  if (slot.done != nullptr && cudaEventSynchronize(slot.done) != cudaSuccess) {   // its last copy has run
    cudaGetLastError();
    return false;
  }
  if (slot.done == nullptr && cudaEventCreateWithFlags(&slot.done, cudaEventDisableTiming) != cudaSuccess) {
    cudaGetLastError();
    slot.done = nullptr;
    return false;
  }
  if (slot.capacity < bytes) {
    if (slot.host != nullptr) cudaFreeHost(slot.host);
    slot.host = nullptr;
    slot.capacity = 0;
    if (cudaHostAlloc(&slot.host, bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      slot.host = nullptr;
      return false;
    }
    slot.capacity = bytes;
  }
  for (StagedPiece const &piece : pieces) {
    if (piece.bytes > 0) std::memcpy(static_cast<char *>(slot.host) + piece.offset, piece.source, piece.bytes);
  }
  if (cudaMemcpyAsync(destination, slot.host, bytes, cudaMemcpyHostToDevice, stream) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (cudaEventRecord(slot.done, stream) != cudaSuccess) {   // (the copy is enqueued: let it finish)
    cudaGetLastError();
    cudaStreamSynchronize(stream);
    cudaGetLastError();
  }
  ring.next = (ring.next + 1) % kSlots;
  return true;
}

}  // namespace cutlass
