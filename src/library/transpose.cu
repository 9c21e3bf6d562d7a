/// @file src/library/transpose.cu
#include "transpose.h"

#include <algorithm>

namespace cutlass {
namespace library {

namespace {

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

template <typename T>
bool launch(void *dst, int64_t ld_dst, int64_t stride_dst, void const *src, int64_t ld_src, int64_t stride_src,
            int64_t rows, int64_t columns, int64_t batch_count, cudaStream_t stream) {
  int64_t const tiles = ((rows + kTile - 1) / kTile) * ((columns + kTile - 1) / kTile);
  dim3 const grid(unsigned(std::min<int64_t>(tiles, 8192)), unsigned(std::min<int64_t>(batch_count, 65535)));
  transpose_kernel<T><<<grid, dim3(kTile, kRows), 0, stream>>>(static_cast<T *>(dst), ld_dst, stride_dst,
                                                                static_cast<T const *>(src), ld_src, stride_src, rows,
                                                                columns, batch_count);
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
