/// @file src/library/transpose.cu
#include "transpose.h"

#include <algorithm>
#include <cstdint>

namespace cutlass {
namespace library {

namespace {

// ---- any alignment: one element per thread and access ------------------------------------------

constexpr int kTile = 32;   ///< a CTA moves 32 x 32 elements at a time
constexpr int kRows = 8;    ///< 32 x 8 threads: four elements each

template <typename T>
__global__ void transpose_kernel(T *dst, int64_t ld_dst, int64_t stride_dst, T const *src, int64_t ld_src,
                                 int64_t stride_src, int64_t rows, int64_t columns, int64_t batch_count) {
  __shared__ T tile[kTile][kTile + 1];   // +1: the column reads of the write phase hit distinct banks
  int64_t const tiles_r = (rows + kTile - 1) / kTile;
  int64_t const tiles = tiles_r * ((columns + kTile - 1) / kTile);
  int const x = threadIdx.x, y = threadIdx.y;
  for (int64_t l = blockIdx.y; l < batch_count; l += gridDim.y) {
    T const *s = src + l * stride_src;
    T *d = dst + l * stride_dst;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      int64_t const r0 = (t % tiles_r) * kTile, c0 = (t / tiles_r) * kTile;
      // tile[c - c0][r - r0] = src(r, c): lanes along src's contiguous rows
      for (int i = 0; i < kTile; i += kRows) {
        int64_t const r = r0 + x, c = c0 + y + i;
        if (r < rows && c < columns) tile[y + i][x] = s[r + c * ld_src];
      }
      __syncthreads();
      // dst(c, r) = tile[c - c0][r - r0]: lanes along dst's contiguous rows (src's columns)
      for (int i = 0; i < kTile; i += kRows) {
        int64_t const c = c0 + x, r = r0 + y + i;
        if (r < rows && c < columns) d[c + r * ld_dst] = tile[x][y + i];
      }
      __syncthreads();
    }
  }
}

// ---- 16-byte aligned operands: 16-byte accesses ------------------------------------------------
//
// A tile is kV x kV chunks of src, a chunk being 16 bytes of one column (V = 16 / sizeof(T)
// elements): 8V rows x 8V columns of elements, 128 bytes along each. Shared memory holds the tile
// as rows tile[c][r] of 8 chunks (src's columns, 128 bytes each), chunk q of row c at position
// q ^ ((c / V) % 8). The read phase: 8 lanes per src column read its 8 chunks (one 128-byte line),
// 16-byte stores. The write phase: lane (q, j) of a warp gathers the V elements of dst chunk q of
// dst column r0 + j (src row), from V tile rows (q V + e) at one element each, and writes 16 bytes:
// 8 lanes per dst column write its 128-byte line. The swizzle sends a write-phase load's 8 chunk
// columns q to 8 different chunk positions (all 32 banks), the read phase's stores of a row to 8
// different ones.

constexpr int kChunks = 8;          ///< 16-byte chunks along each side of a tile (128 bytes)
constexpr int kVectorThreads = 256;

template <typename T>
struct Vector {
  static constexpr int kV = 16 / int(sizeof(T));   ///< elements per chunk
  static constexpr int kSide = kChunks * kV;       ///< tile side in elements
};

template <typename T>
__device__ __forceinline__ int swizzled(int row, int chunk) {
  return chunk ^ ((row / Vector<T>::kV) % kChunks);
}

template <typename T>
__global__ void __launch_bounds__(kVectorThreads)
    transpose_vector_kernel(T *dst, int64_t ld_dst, int64_t stride_dst, T const *src, int64_t ld_src,
                            int64_t stride_src, int64_t rows, int64_t columns, int64_t batch_count) {
  constexpr int kV = Vector<T>::kV, kSide = Vector<T>::kSide;
  __shared__ alignas(16) T tile[kSide][kSide];   // tile[c - c0][swizzled r - r0]
  int64_t const tiles_r = (rows + kSide - 1) / kSide;
  int64_t const tiles = tiles_r * ((columns + kSide - 1) / kSide);
  int const lane_chunk = threadIdx.x % kChunks;   // the chunk this thread moves along a line
  int const line0 = threadIdx.x / kChunks;        // its first line (32 lines per pass of 256 threads)
  constexpr int kLinesPerPass = kVectorThreads / kChunks;
  for (int64_t l = blockIdx.y; l < batch_count; l += gridDim.y) {
    T const *s = src + l * stride_src;
    T *d = dst + l * stride_dst;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      int64_t const r0 = (t % tiles_r) * kSide, c0 = (t / tiles_r) * kSide;
      // read: src column c0 + c, chunk lane_chunk (rows r0 + kV lane_chunk ..)
      for (int c = line0; c < kSide; c += kLinesPerPass) {
        int64_t const col = c0 + c, row = r0 + int64_t(kV) * lane_chunk;
        T *slot = &tile[c][kV * swizzled<T>(c, lane_chunk)];
        if (col < columns && row + kV <= rows) {
          *reinterpret_cast<uint4 *>(slot) = *reinterpret_cast<uint4 const *>(s + row + col * ld_src);
        } else if (col < columns) {
#pragma unroll
          for (int e = 0; e < kV; ++e) {
            if (row + e < rows) slot[e] = s[row + e + col * ld_src];
          }
        }
      }
      __syncthreads();
      // write: dst column r0 + j (src row), chunk lane_chunk (dst rows c0 + kV lane_chunk ..)
      for (int j = line0; j < kSide; j += kLinesPerPass) {
        int64_t const dcol = r0 + j, drow = c0 + int64_t(kV) * lane_chunk;
        if (dcol >= rows) continue;
        union {
          uint4 bits;
          T e[kV];
        } v;
#pragma unroll
        for (int e = 0; e < kV; ++e) {
          int const c = kV * lane_chunk + e;
          v.e[e] = tile[c][kV * swizzled<T>(c, j / kV) + j % kV];
        }
        if (drow + kV <= columns) {
          *reinterpret_cast<uint4 *>(d + drow + dcol * ld_dst) = v.bits;
        } else {
#pragma unroll
          for (int e = 0; e < kV; ++e) {
            if (drow + e < columns) d[drow + e + dcol * ld_dst] = v.e[e];
          }
        }
      }
      __syncthreads();
    }
  }
}

bool aligned16(void const *p, int64_t ld, int64_t stride, int element_bytes, int64_t batch_count) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0 && (ld * element_bytes) % 16 == 0 &&
         (batch_count == 1 || (stride * element_bytes) % 16 == 0);
}

template <typename T>
bool launch(void *dst, int64_t ld_dst, int64_t stride_dst, void const *src, int64_t ld_src, int64_t stride_src,
            int64_t rows, int64_t columns, int64_t batch_count, cudaStream_t stream) {
  unsigned const batches = unsigned(std::min<int64_t>(batch_count, 65535));
  if (aligned16(dst, ld_dst, stride_dst, int(sizeof(T)), batch_count) &&
      aligned16(src, ld_src, stride_src, int(sizeof(T)), batch_count)) {
    constexpr int kSide = Vector<T>::kSide;
    int64_t const tiles = ((rows + kSide - 1) / kSide) * ((columns + kSide - 1) / kSide);
    dim3 const grid(unsigned(std::min<int64_t>(tiles, 8192)), batches);
    transpose_vector_kernel<T><<<grid, kVectorThreads, 0, stream>>>(static_cast<T *>(dst), ld_dst, stride_dst,
                                                                     static_cast<T const *>(src), ld_src, stride_src,
                                                                     rows, columns, batch_count);
  } else {
    int64_t const tiles = ((rows + kTile - 1) / kTile) * ((columns + kTile - 1) / kTile);
    dim3 const grid(unsigned(std::min<int64_t>(tiles, 8192)), batches);
    transpose_kernel<T><<<grid, dim3(kTile, kRows), 0, stream>>>(static_cast<T *>(dst), ld_dst, stride_dst,
                                                                  static_cast<T const *>(src), ld_src, stride_src,
                                                                  rows, columns, batch_count);
  }
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace

bool launch_transpose(void *dst, int64_t ld_dst, int64_t stride_dst, void const *src, int64_t ld_src,
                      int64_t stride_src, int64_t rows, int64_t columns, int64_t batch_count, int element_bytes,
                      cudaStream_t stream) {
  if (rows <= 0 || columns <= 0 || batch_count <= 0) return true;
  switch (element_bytes) {
    case 1: return launch<uint8_t>(dst, ld_dst, stride_dst, src, ld_src, stride_src, rows, columns, batch_count, stream);
    case 2: return launch<uint16_t>(dst, ld_dst, stride_dst, src, ld_src, stride_src, rows, columns, batch_count, stream);
    case 4: return launch<uint32_t>(dst, ld_dst, stride_dst, src, ld_src, stride_src, rows, columns, batch_count, stream);
    case 8: return launch<uint64_t>(dst, ld_dst, stride_dst, src, ld_src, stride_src, rows, columns, batch_count, stream);
    default: return false;
  }
}

}  // namespace library
}  // namespace cutlass
