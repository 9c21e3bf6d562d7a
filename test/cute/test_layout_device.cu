// The layout algebra in device code: kernels take layouts by value (a static layout is an empty
// type, so it costs no parameter space), evaluate them with the same functions as the host, and
// every element is compared with the host's evaluation of the same layout object.
// Skips with the reason when no CUDA device is present, or the build has no code for it.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>
#include <type_traits>
#include <vector>

#include "cute/atom/smem_layout_atoms.hpp"
#include "cute/tensor.hpp"

using namespace cute;

namespace {

#define CUTE_TEST_CUDA_CHECK(call) ASSERT_EQ((call), cudaSuccess) << cudaGetErrorString(cudaGetLastError())

__global__ void code_probe() {}

// Empty when a device is usable, otherwise why not: none, or this program (built for
// CUTLASS_NVCC_ARCHS, no PTX) has no code for it (cudaFuncGetAttributes of an empty kernel fails).
std::string no_device_reason() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(status);
  if (count == 0) return "cudaGetDeviceCount reports no CUDA device";
  cudaFuncAttributes attributes;
  status = cudaFuncGetAttributes(&attributes, code_probe);
  cudaGetLastError();
  if (status != cudaSuccess) {
    return std::string("this build has no code for the device (CUTLASS_NVCC_ARCHS leaves it out): ") +
           cudaGetErrorString(status);
  }
  return {};
}

#define SKIP_WITHOUT_DEVICE()                       \
  do {                                              \
    std::string const why = no_device_reason();     \
    if (!why.empty()) GTEST_SKIP() << why;          \
  } while (0)

// out[i] = l(i) for every 1-D coordinate i of l.
template <class L>
__global__ void evaluate_1d(L l, int* out) {
  int const n = size(l);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = l(i);
  }
}

// out[m + M*(k + K*p)] = l(m, k, p): the natural 3-D coordinates of a static (M,K,P) layout.
template <class L>
__global__ void evaluate_3d(L l, int* out) {
  constexpr int M = decltype(size<0>(l))::value;
  constexpr int K = decltype(size<1>(l))::value;
  constexpr int P = decltype(size<2>(l))::value;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < M * K * P; i += gridDim.x * blockDim.x) {
    int const m = i % M, k = i / M % K, p = i / (M * K);
    out[i] = l(m, k, p);
  }
}

// Each of the 128 threads of the block writes its id into the elements local_partition gives it.
template <class TileLayout, class ThreadLayout>
__global__ void mark_owner(TileLayout tile_layout, ThreadLayout threads, int* out) {
  auto tile = make_tensor(out, tile_layout);
  auto mine = local_partition(tile, threads, threadIdx.x);
  for (int i = 0; i < size(mine); ++i) mine(i) = int(threadIdx.x);
}

// l(i) for every i, evaluated on the device.
template <class L>
std::vector<int> device_values_1d(L const& l) {
  int const n = size(l);
  std::vector<int> host(static_cast<std::size_t>(n), -1);
  int* dev = nullptr;
  EXPECT_EQ(cudaMalloc(&dev, sizeof(int) * host.size()), cudaSuccess);
  EXPECT_EQ(cudaMemset(dev, 0xff, sizeof(int) * host.size()), cudaSuccess);
  evaluate_1d<<<(n + 255) / 256, 256>>>(l, dev);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(host.data(), dev, sizeof(int) * host.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(cudaFree(dev), cudaSuccess);
  return host;
}

template <class L>
void expect_device_matches_host(L const& l) {
  std::vector<int> const dev = device_values_1d(l);
  ASSERT_EQ(int(dev.size()), int(size(l)));
  int mismatches = 0;
  for (int i = 0; i < size(l); ++i) {
    if (dev[static_cast<std::size_t>(i)] != l(i) && ++mismatches <= 10) {
      ADD_FAILURE() << "at " << i << ": device " << dev[static_cast<std::size_t>(i)] << ", host " << l(i);
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Three 128x64 stages of 16-bit elements in 128-byte-swizzled shared memory (the sm90 TMA/wgmma
// K-major pattern): Sw<3,3,3> o _0 o (_128,_64,_3):(_64,_1,_8192).
using SmemLayout = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<short>{}, make_shape(_128{}, _64{}, _3{})));
static_assert(std::is_empty<SmemLayout>::value, "a static swizzled layout is an empty kernel parameter");

}  // namespace

TEST(CuteDevice, SwizzledSmemLayout1D) {
  SKIP_WITHOUT_DEVICE();
  expect_device_matches_host(SmemLayout{});
}

TEST(CuteDevice, SwizzledSmemLayoutNaturalCoordinates) {
  SKIP_WITHOUT_DEVICE();
  SmemLayout l{};
  std::vector<int> host(128 * 64 * 3, -1);
  int* dev = nullptr;
  CUTE_TEST_CUDA_CHECK(cudaMalloc(&dev, sizeof(int) * host.size()));
  evaluate_3d<<<96, 256>>>(l, dev);
  CUTE_TEST_CUDA_CHECK(cudaGetLastError());
  CUTE_TEST_CUDA_CHECK(cudaMemcpy(host.data(), dev, sizeof(int) * host.size(), cudaMemcpyDeviceToHost));
  CUTE_TEST_CUDA_CHECK(cudaFree(dev));
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 64; ++k)
      for (int m = 0; m < 128; ++m) ASSERT_EQ(host[static_cast<std::size_t>(m + 128 * (k + 64 * p))], l(m, k, p));
}

// The composed layout divided into 64x32 tiles (the swizzle stays outside the division).
TEST(CuteDevice, SwizzledTiles) {
  SKIP_WITHOUT_DEVICE();
  expect_device_matches_host(zipped_divide(SmemLayout{}, make_shape(_64{}, _32{})));
}

// A dynamic layout: a 96x40 column-major matrix with leading dimension 100, in 16x8 tiles.
TEST(CuteDevice, DynamicTiledMatrix) {
  SKIP_WITHOUT_DEVICE();
  auto matrix = make_layout(make_shape(96, 40), make_stride(1, 100));
  expect_device_matches_host(zipped_divide(matrix, make_shape(_16{}, _8{})));
  expect_device_matches_host(logical_divide(matrix, make_tile(Layout<_4, _2>{}, Layout<Shape<_2, _4>, Stride<_1, _10>>{})));
}

// Thread partitioning: the owner of each element of a 128x32 tile, from local_partition over a
// row-major 16x8 thread layout on the device and on the host.
TEST(CuteDevice, ThreadPartition) {
  SKIP_WITHOUT_DEVICE();
  auto tile_layout = Layout<Shape<_128, _32>>{};
  auto threads = Layout<Shape<_16, _8>, Stride<_8, _1>>{};
  std::vector<int> from_device(128 * 32, -1), from_host(128 * 32, -1);
  int* dev = nullptr;
  CUTE_TEST_CUDA_CHECK(cudaMalloc(&dev, sizeof(int) * from_device.size()));
  CUTE_TEST_CUDA_CHECK(cudaMemset(dev, 0xff, sizeof(int) * from_device.size()));
  mark_owner<<<1, 128>>>(tile_layout, threads, dev);
  CUTE_TEST_CUDA_CHECK(cudaGetLastError());
  CUTE_TEST_CUDA_CHECK(cudaMemcpy(from_device.data(), dev, sizeof(int) * from_device.size(), cudaMemcpyDeviceToHost));
  CUTE_TEST_CUDA_CHECK(cudaFree(dev));
  auto tile = make_tensor(from_host.data(), tile_layout);
  for (int t = 0; t < 128; ++t) {
    auto mine = local_partition(tile, threads, t);
    for (int i = 0; i < size(mine); ++i) mine(i) = t;
  }
  EXPECT_EQ(from_device, from_host);
  for (int owner : from_host) EXPECT_NE(owner, -1);
}
