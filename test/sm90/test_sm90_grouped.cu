/// GemmSm90 with the grouped tile scheduler (one persistent launch over many problems; the 128x128,
/// 64x32 and 64x16 tiles), run directly (the C API reaches it through cutlassLibGemmGroupedBatchedEx when a grouped kernel is
/// built). bf16 TN, groups of different M and N (some empty) and a common K or a K per group, alpha and beta with
/// C (every other group without C, beta 0), against a host reference in double; D is poisoned
/// before the launch, so every element of every group must be written, and elements outside
/// every group's D must stay poisoned. The launches share one workspace, so each finds the
/// previous launch's tensor maps at the same addresses (the kernel must acquire the new ones).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/kernel/gemm_sm90.h"

namespace {

using bf16 = cutlass::bfloat16_t;
/// The generator's grouped tiles (generator/families/sm90_tensorop.py): 128x128 (prefill) and the
/// 64x32 token tile (decode MoE).
template <int TileM, int TileN, int Stages, int ClusterM = 1, int ClusterN = 1,
          typename Schedule = cutlass::gemm::KernelTmaWarpSpecializedPingpong>
using GroupedKernel = cutlass::gemm::kernel::GemmSm90<
    bf16, cutlass::layout::RowMajor, bf16, cutlass::layout::ColumnMajor, bf16, float,
    cutlass::gemm::GemmShape<TileM, TileN, 64>, cutlass::gemm::GemmShape<ClusterM, ClusterN, 1>, Stages, Schedule,
    cutlass::epilogue::thread::LinearCombination<bf16, float, float>, cutlass::gemm::GroupedScheduler>;
using Kernel = GroupedKernel<128, 128, 6>;
using TokenKernel = GroupedKernel<64, 32, 16>;
/// The opt-in 16-token grouped tile (TILE_GROUPED_FEW_TOKENS16): wgmma m64n16, 20 stages.
using Token16Kernel = GroupedKernel<64, 16, 20>;
/// The opt-in 2x1-cluster grouped tile (TILE_GROUPED_CLUSTER): neighbouring weight tiles of one
/// group share the token tile, multicast.
using ClusterKernel = GroupedKernel<128, 128, 6, 2>;
/// The opt-in cooperative 256x128 tile on a 1x2 cluster (TILE_GROUPED_TALL_PAIR): neighbouring
/// token tiles of one group share the weight tile, multicast.
using TallPairKernel = GroupedKernel<256, 128, 4, 1, 2, cutlass::gemm::KernelTmaWarpSpecializedCooperative>;

bool has_sm90() {
  int count = 0, device = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return false;
  }
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  return major == 9 && minor == 0;
}

float to_float(bf16 x) {
  uint16_t bits;
  std::memcpy(&bits, &x, 2);
  uint32_t const wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

bf16 from_float(float f) {   // round to nearest even (finite values)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  uint16_t const bits = uint16_t(u >> 16);
  bf16 x;
  std::memcpy(&x, &bits, 2);
  return x;
}

/// One group's shape.
struct GroupShape {
  int m, n, k;
};

/// One group: M x N output over its K; its operands live at offsets in shared buffers
/// (A: M x K row-major, B: K x N column-major, C / D: M x N column-major, ld = M).
struct Group {
  int m, n, k;
  size_t a, b, cd;
};

/// One workspace for every launch of the tests (grown when needed, never freed).
void *shared_workspace(size_t bytes) {
  static void *workspace = nullptr;
  static size_t size = 0;
  if (bytes > size) {
    if (workspace) cudaFree(workspace);
    workspace = nullptr;
    size = 0;
    if (cudaMalloc(&workspace, bytes) == cudaSuccess) size = bytes;
  }
  return workspace;
}

/// Runs `shapes` (M, N, K per group) on kernel K with alpha = 1.5 and beta = -0.5 on C (odd
/// groups: no C, beta = 0) and checks every group; `seed` varies the operands.
template <typename K = Kernel>
void run_shaped_groups(std::vector<GroupShape> const &shapes, unsigned seed = 7) {
  using Kernel = K;
  std::vector<Group> groups;
  size_t a_elems = 0, b_elems = 0, cd_elems = 0;
  for (GroupShape const &s : shapes) {
    groups.push_back({s.m, s.n, s.k, a_elems, b_elems, cd_elems});
    // every operand starts 16-byte aligned (8 bf16), as TMA needs
    a_elems += (size_t(s.m) * s.k + 7) / 8 * 8;
    b_elems += (size_t(s.n) * s.k + 7) / 8 * 8;
    cd_elems += (size_t(s.m) * s.n + 7) / 8 * 8 + 8;   // + a poisoned gap after each D
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<bf16> A(a_elems + 8), B(b_elems + 8), C(cd_elems + 8);
  for (auto &x : A) x = from_float(uniform(rng));
  for (auto &x : B) x = from_float(uniform(rng));
  for (auto &x : C) x = from_float(uniform(rng));
  bf16 *dA = nullptr, *dB = nullptr, *dC = nullptr, *dD = nullptr;
  ASSERT_EQ(cudaSuccess, cudaMalloc(&dA, A.size() * 2));
  ASSERT_EQ(cudaSuccess, cudaMalloc(&dB, B.size() * 2));
  ASSERT_EQ(cudaSuccess, cudaMalloc(&dC, C.size() * 2));
  ASSERT_EQ(cudaSuccess, cudaMalloc(&dD, C.size() * 2));
  cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C.data(), C.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(dD, 0xFF, C.size() * 2);   // bf16 0xFFFF: NaN

  float const alpha = 1.5f;
  auto beta_of = [](size_t g) { return g % 2 ? 0.f : -0.5f; };
  std::vector<typename Kernel::Arguments> problems(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    typename Kernel::Arguments &p = problems[g];
    int const k = groups[g].k;
    p.problem_size = cutlass::gemm::GemmCoord(groups[g].m, groups[g].n, k);
    p.epilogue.alpha = alpha;
    p.epilogue.beta = beta_of(g);
    p.ptr_A = dA + groups[g].a;
    p.lda = k;
    p.ptr_B = dB + groups[g].b;
    p.ldb = k;
    p.ptr_C = g % 2 ? nullptr : dC + groups[g].cd;   // no C: the epilogue must not read one
    p.ldc = groups[g].m > 0 ? groups[g].m : 1;
    p.ptr_D = dD + groups[g].cd;
    p.ldd = p.ldc;
  }
  int const count = int(problems.size());
  ASSERT_EQ(cutlass::Status::kSuccess, Kernel::Grouped::can_implement_grouped(problems.data(), count));
  void *const workspace = shared_workspace(Kernel::Grouped::get_grouped_workspace_size(count) + 256);
  ASSERT_NE(nullptr, workspace);
  ASSERT_EQ(cutlass::Status::kSuccess, Kernel::Grouped::run_grouped(problems.data(), count, workspace, nullptr));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  std::vector<bf16> D(C.size());
  cudaMemcpy(D.data(), dD, D.size() * 2, cudaMemcpyDeviceToHost);

  std::vector<char> written(D.size(), 0);
  for (size_t g = 0; g < groups.size(); ++g) {
    Group const &gr = groups[g];
    int const k = gr.k;
    double error = 0, norm = 0;
    int nonfinite = 0;
    for (int j = 0; j < gr.n; ++j) {
      for (int i = 0; i < gr.m; ++i) {
        double sum = 0;
        for (int kk = 0; kk < k; ++kk) {
          sum += double(to_float(A[gr.a + size_t(i) * k + kk])) * double(to_float(B[gr.b + size_t(j) * k + kk]));
        }
        size_t const at = gr.cd + size_t(j) * gr.m + i;
        double const want = alpha * sum + (g % 2 ? 0.0 : beta_of(g) * double(to_float(C[at])));
        double const got = to_float(D[at]);
        written[at] = 1;
        if (!std::isfinite(got)) ++nonfinite;
        error += (got - want) * (got - want);
        norm += want * want;
      }
    }
    EXPECT_EQ(0, nonfinite) << "group " << g << " (" << gr.m << " x " << gr.n << " x " << k << ")";
    if (norm > 0) {
      EXPECT_LT(std::sqrt(error / norm), 1e-2) << "group " << g << " (" << gr.m << " x " << gr.n << " x " << k << ")";
    }
  }
  size_t touched = 0;
  for (size_t i = 0; i < D.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &D[i], 2);
    if (!written[i] && bits != 0xFFFF) ++touched;
  }
  EXPECT_EQ(0u, touched) << "elements outside every group's D were written";
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dD);
}

/// run_shaped_groups with one K for every group.
template <typename K = Kernel>
void run_groups(std::vector<std::pair<int, int>> const &shapes, int k, unsigned seed = 7) {
  std::vector<GroupShape> shaped;
  for (auto const &s : shapes) shaped.push_back({s.first, s.second, k});
  run_shaped_groups<K>(shaped, seed);
}

TEST(Sm90Grouped, GroupsOfDifferentShapesIncludingEmptyOnes) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_groups({{384, 17}, {384, 0}, {256, 300}, {0, 64}, {136, 128}, {8, 1}, {384, 257}}, 256);
}

TEST(Sm90Grouped, OneGroup) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_groups({{512, 200}}, 136);
}

TEST(Sm90Grouped, BackToBackLaunchesOnOneWorkspaceUseTheirOwnMaps) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  // same group table size, different operands and shapes: stale maps would read the last call's
  run_groups({{256, 96}, {128, 40}, {384, 200}}, 128, 11);
  run_groups({{128, 200}, {384, 96}, {256, 40}}, 128, 12);
  run_groups({{384, 40}, {256, 200}, {128, 96}}, 192, 13);
}

TEST(Sm90Grouped, ManySmallGroupsMoreTilesThanSms) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  std::vector<std::pair<int, int>> shapes;
  std::mt19937 rng(3);
  for (int g = 0; g < 300; ++g) shapes.push_back({8 * int(rng() % 40 + 1), int(rng() % 100)});
  run_groups(shapes, 64);
}

TEST(Sm90Grouped, TokenTileGroupsOfDifferentShapesIncludingEmptyOnes) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_groups<TokenKernel>({{384, 17}, {384, 0}, {256, 300}, {0, 64}, {136, 128}, {8, 1}, {384, 33}}, 256);
}

TEST(Sm90Grouped, TokenTileDecodeMoE) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  // experts of 1-16 tokens (some none) over a long K, more tiles than SMs
  std::vector<std::pair<int, int>> shapes;
  std::mt19937 rng(5);
  for (int g = 0; g < 12; ++g) shapes.push_back({1024 + 64 * int(rng() % 4), int(rng() % 17)});
  run_groups<TokenKernel>(shapes, 1024, 9);
}

TEST(Sm90Grouped, SixteenTokenTileDecodeMoEAndGroupsPastOneTile) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  std::vector<std::pair<int, int>> shapes;   // 1-16 tokens (some none), more tiles than SMs
  std::mt19937 rng(7);
  for (int g = 0; g < 12; ++g) shapes.push_back({1024 + 64 * int(rng() % 4), int(rng() % 17)});
  run_groups<Token16Kernel>(shapes, 1024, 11);
  // groups of two and more token tiles, N and M below and past the tile, a K tail, empty groups
  run_shaped_groups<Token16Kernel>({{384, 17, 1024}, {256, 30, 64}, {64, 1, 8}, {136, 16, 4000}, {384, 33, 200},
                                    {0, 5, 64}, {8, 0, 64}});
}

TEST(Sm90Grouped, GroupsOfDifferentK) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  // K from one partial k-block to many, next to each other so a CTA's units (and a ping-pong
  // pair's ring positions) run over groups of different lengths; a K-tail in most
  run_shaped_groups({{384, 17, 64}, {256, 300, 1000}, {128, 0, 8}, {136, 128, 8}, {8, 1, 4104}, {384, 257, 72},
                     {256, 256, 136}, {128, 128, 2048}});
  std::vector<GroupShape> shapes;   // more tiles than SMs, each CTA over many groups
  std::mt19937 rng(21);
  for (int g = 0; g < 200; ++g) shapes.push_back({8 * int(rng() % 40 + 1), int(rng() % 200), 8 * int(rng() % 96 + 1)});
  run_shaped_groups(shapes, 22);
}

TEST(Sm90Grouped, TokenTileGroupsOfDifferentK) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_shaped_groups<TokenKernel>({{384, 17, 1024}, {256, 30, 64}, {64, 1, 8}, {136, 16, 4000}, {384, 33, 200}});
}

/// Groups for a kernel on 2-CTA clusters: tile-row and tile-column counts odd and even (on 2x1
/// clusters the second CTA runs a tile past M at an odd row count, on 1x2 past N at an odd column
/// count: N = 17, 300, 257), one-row and one-column groups, empty ones, M below the tile, then 100
/// random groups (more cluster units than clusters, each cluster walking many groups).
template <typename K>
void run_cluster_groups(unsigned random_groups_seed) {
  run_shaped_groups<K>({{384, 17, 64}, {256, 300, 1000}, {128, 0, 8}, {136, 128, 8}, {8, 1, 4104}, {384, 257, 72},
                        {640, 256, 136}, {128, 128, 2048}});
  std::vector<GroupShape> shapes;
  std::mt19937 rng(random_groups_seed);
  for (int g = 0; g < 100; ++g) shapes.push_back({8 * int(rng() % 64 + 1), int(rng() % 300), 8 * int(rng() % 64 + 1)});
  run_shaped_groups<K>(shapes, 32);
}

TEST(Sm90Grouped, ClusterGroupsOfOddAndEvenTileRowsAndDifferentK) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_cluster_groups<ClusterKernel>(31);
}

TEST(Sm90Grouped, ClusterPairGroupsOfOddAndEvenTileColumnsAndDifferentK) {
  if (!has_sm90()) GTEST_SKIP() << "needs an sm_90 device";
  run_cluster_groups<TallPairKernel>(37);
}

TEST(Sm90Grouped, RefusesWhatItCannotRun) {
  Kernel::Arguments p;   // made-up 16-byte aligned addresses: nothing is launched
  p.problem_size = cutlass::gemm::GemmCoord(128, 128, 64);
  p.ptr_A = reinterpret_cast<bf16 const *>(uintptr_t(0x100000));
  p.ptr_B = reinterpret_cast<bf16 const *>(uintptr_t(0x200000));
  p.ptr_D = reinterpret_cast<bf16 *>(uintptr_t(0x300000));
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, Kernel::can_implement(p)) << "a grouped kernel takes groups";
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, Kernel::run(p, nullptr, nullptr));
  if (!has_sm90()) GTEST_SKIP() << "the group checks read the device's shared-memory limit";
  std::vector<Kernel::Arguments> two(2, p);
  for (auto &q : two) q.lda = q.ldb = q.ldc = q.ldd = 128;
  two[1].problem_size = cutlass::gemm::GemmCoord(128, 128, 128);
  EXPECT_EQ(cutlass::Status::kSuccess, Kernel::Grouped::can_implement_grouped(two.data(), 2)) << "K differs: one launch";
  two[1].problem_size = cutlass::gemm::GemmCoord(128, 128, 0);
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, Kernel::Grouped::can_implement_grouped(two.data(), 2)) << "K == 0: beta * C";
  two[1].problem_size = cutlass::gemm::GemmCoord(128, 128, 64);
  two[1].batch_count = 2;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, Kernel::Grouped::can_implement_grouped(two.data(), 2)) << "batched group";
  EXPECT_EQ(cutlass::Status::kSuccess, Kernel::Grouped::run_grouped(nullptr, 0, nullptr, nullptr)) << "no groups: nothing";
}

}  // namespace
