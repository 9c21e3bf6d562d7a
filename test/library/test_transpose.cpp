/// The packing route's transposing copy (src/library/transpose.h) on the GPU: every element size,
/// 16-byte aligned operands (the 16-byte kernel) and misaligned ones (the element kernel), ragged
/// extents against both kernels' tiles, batches, and dst's padding left as it was. Skips without
/// a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <cuda_runtime_api.h>
#include <vector>

#include "transpose.h"

namespace {

bool has_device() {
  int count = 0;
  bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError();
  return ok;
}

struct TransposeCase {
  int64_t rows, columns, ld_src, ld_dst, batch;
  int64_t offset;   ///< elements the operands start into their buffers (misaligns them when odd)
};

/// Runs one case for elements of `bytes` bytes and checks dst(j, i) = src(i, j) in every batch,
/// and every other byte of dst's buffer unchanged.
void check(TransposeCase const &c, int bytes) {
  SCOPED_TRACE(testing::Message() << bytes << "-byte elements, " << c.rows << " x " << c.columns << ", ld " << c.ld_src
                                  << " / " << c.ld_dst << ", batch " << c.batch << ", offset " << c.offset);
  int64_t const stride_src = c.ld_src * c.columns + 16, stride_dst = c.ld_dst * c.rows + 16;   // 16: a gap
  size_t const src_bytes = size_t((c.offset + stride_src * c.batch) * bytes);
  size_t const dst_bytes = size_t((c.offset + stride_dst * c.batch) * bytes);
  std::vector<uint8_t> src(src_bytes), dst(dst_bytes), before(dst_bytes);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t((i * 2654435761u) >> 13);
  for (size_t i = 0; i < before.size(); ++i) before[i] = uint8_t(0xA5 ^ i);
  void *d_src = nullptr, *d_dst = nullptr;
  ASSERT_EQ(cudaSuccess, cudaMalloc(&d_src, src_bytes));
  ASSERT_EQ(cudaSuccess, cudaMalloc(&d_dst, dst_bytes));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(d_src, src.data(), src_bytes, cudaMemcpyHostToDevice));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(d_dst, before.data(), dst_bytes, cudaMemcpyHostToDevice));
  EXPECT_TRUE(cutlass::library::launch_transpose(static_cast<uint8_t *>(d_dst) + c.offset * bytes, c.ld_dst,
                                                 stride_dst, static_cast<uint8_t *>(d_src) + c.offset * bytes, c.ld_src,
                                                 stride_src, c.rows, c.columns, c.batch, bytes, nullptr));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  ASSERT_EQ(cudaSuccess, cudaMemcpy(dst.data(), d_dst, dst_bytes, cudaMemcpyDeviceToHost));
  cudaFree(d_src);
  cudaFree(d_dst);
  std::vector<uint8_t> expected(before);
  for (int64_t l = 0; l < c.batch; ++l) {
    for (int64_t j = 0; j < c.columns; ++j) {
      for (int64_t i = 0; i < c.rows; ++i) {
        int64_t const from = c.offset + l * stride_src + i + j * c.ld_src;
        int64_t const to = c.offset + l * stride_dst + j + i * c.ld_dst;
        std::memcpy(&expected[size_t(to * bytes)], &src[size_t(from * bytes)], size_t(bytes));
      }
    }
  }
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < dst.size(); ++i) {
    if (dst[i] != expected[i] && wrong++ == 0) first = i;
  }
  EXPECT_EQ(0u, wrong) << "first wrong byte " << first << " (element " << first / size_t(bytes) << ")";
}

TEST(TransposeGpu, EveryElementSizeAndAlignment) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  TransposeCase const cases[] = {
      {300, 517, 320, 528, 2, 0},   // 16-byte aligned (ld, strides, pointers): ragged against 8V x 8V tiles
      {300, 517, 301, 517, 2, 0},   // odd leading dimensions: the element kernel
      {256, 256, 256, 256, 1, 1},   // whole tiles, misaligned pointers
      {1, 1, 16, 16, 1, 0},
      {7, 130, 16, 144, 3, 0},
      {130, 7, 144, 16, 1, 0},
  };
  for (int const bytes : {1, 2, 4, 8}) {
    for (TransposeCase const &c : cases) check(c, bytes);
  }
}

}  // namespace
