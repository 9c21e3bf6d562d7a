/// GPU test of every plain-epilogue kernel compiled into the library (the fused ones:
/// test_epilogues.cu), driven by the manifest: one test per kernel and case, named after the
/// kernel (so --gtest_filter takes the same wildcards as CUTLASS_LIBRARY_KERNELS). Each kernel
/// runs through the Operation interface on random [-1, 1] data, ragged shapes, alpha/beta
/// variants, NaN in C with beta = 0, D aliasing C and a batched problem; its output is compared
/// with the device reference and with cuBLAS, and the memory around D must be left untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "cutlass/library/singleton.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#if defined(CUTLASS_ENABLE_CUBLAS)
#include "cublas_gemm.h"
#endif

namespace {

using namespace cutlass::library;
using cutlass_lib_test::DeviceBuffer;
using cutlass_lib_test::element_bytes;
namespace ref = cutlass::reference;

GemmDescription const &description(size_t index) {
  return static_cast<GemmDescription const &>(Singleton::get().manifest.operations()[index]->description());
}

int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

bool is_integer(NumericTypeID t) { return t == NumericTypeID::kS8 || t == NumericTypeID::kS32; }

/// Scalars in the kernel's epilogue type, from doubles.
struct Scalars {
  float f[2];
  double d[2];
  int32_t i[2];
  void const *alpha = nullptr;
  void const *beta = nullptr;
  Scalars(NumericTypeID type, double alpha_value, double beta_value) {
    f[0] = float(alpha_value), f[1] = float(beta_value);
    d[0] = alpha_value, d[1] = beta_value;
    i[0] = int32_t(alpha_value), i[1] = int32_t(beta_value);
    void const *base = type == NumericTypeID::kF64 ? static_cast<void const *>(d)
                       : type == NumericTypeID::kS32 ? static_cast<void const *>(i)
                                                     : static_cast<void const *>(f);
    size_t const size = type == NumericTypeID::kF64 ? 8 : 4;
    alpha = base;
    beta = static_cast<char const *>(base) + size;
  }
};

/// One GEMM problem on device buffers with guard regions around every operand.
struct Problem {
  GemmDescription const *desc = nullptr;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  int64_t stride_A = 0, stride_B = 0, stride_C = 0, stride_D = 0;
  RasterOrder raster_order = RasterOrder::kHeuristic;   ///< the sm90 persistent kernels' tile order
  int swizzle_size = 0;
  static constexpr int64_t kGuardBytes = 256;   // before and after each operand, keeps 16-byte alignment
  DeviceBuffer A, B, C, D, D_ref, D_cublas, D_before;

  /// `pad`: elements added to each leading dimension beyond its extent (default: the kernel's alignment).
  Problem(GemmDescription const &d, int64_t m_, int64_t n_, int64_t k_, int64_t batch_, int64_t pad = 0)
      : desc(&d), batch(batch_) {
    cutlass_lib_test::fit_small_side(d.max_small_extent, m_, n_);   // GEMV / skinny kernels: one small side
    // Round the contiguous extents to the kernel's alignments (the kernels' documented rule),
    // and pad leading dimensions beyond the extent to exercise ld > extent.
    int64_t const align_m = std::lcm<int64_t>(d.C.alignment, d.A.layout == LayoutTypeID::kColumnMajor ? d.A.alignment : 1);
    int64_t const align_k = std::lcm<int64_t>(d.A.layout == LayoutTypeID::kRowMajor ? d.A.alignment : 1,
                                              d.B.layout == LayoutTypeID::kColumnMajor ? d.B.alignment : 1);
    int64_t const align_n = d.B.layout == LayoutTypeID::kRowMajor ? d.B.alignment : 1;
    m = round_up(m_, align_m);
    n = round_up(n_, align_n);
    k = round_up(k_, align_k);
    lda = (d.A.layout == LayoutTypeID::kColumnMajor ? m : k) + (pad ? pad : d.A.alignment);
    ldb = (d.B.layout == LayoutTypeID::kColumnMajor ? k : n) + (pad ? pad : d.B.alignment);
    ldc = m + d.C.alignment;
    ldd = m + 2 * d.C.alignment;
    stride_A = lda * (d.A.layout == LayoutTypeID::kColumnMajor ? k : m) + d.A.alignment;
    stride_B = ldb * (d.B.layout == LayoutTypeID::kColumnMajor ? n : k) + d.B.alignment;
    stride_C = ldc * n + d.C.alignment;
    stride_D = ldd * n + d.C.alignment;
    A = alloc(d.A.element, stride_A);
    B = alloc(d.B.element, stride_B);
    C = alloc(d.C.element, stride_C);
    D = alloc(d.C.element, stride_D);
    D_ref = alloc(d.C.element, stride_D);
    D_cublas = alloc(d.C.element, stride_D);
    D_before = alloc(d.C.element, stride_D);
  }

  DeviceBuffer alloc(NumericTypeID type, int64_t stride) const {
    return DeviceBuffer(size_t(stride * batch * element_bytes(type) + 2 * kGuardBytes));
  }
  static void *at(DeviceBuffer const &b) { return b.bytes_ptr() + kGuardBytes; }

  void fill(uint64_t seed, bool nan_c) {
    double lo = is_integer(desc->A.element) ? -2 : -1, hi = -lo;
    ASSERT_TRUE(ref::fill_uniform(desc->A.element, A.get(), A.size() / element_bytes(desc->A.element), seed, lo, hi));
    ASSERT_TRUE(ref::fill_uniform(desc->B.element, B.get(), B.size() / element_bytes(desc->B.element), seed + 1, lo, hi));
    int64_t const c_count = int64_t(C.size()) / element_bytes(desc->C.element);
    if (nan_c) {
      ASSERT_TRUE(ref::fill_poison(desc->C.element, C.get(), c_count));
    } else {
      ASSERT_TRUE(ref::fill_uniform(desc->C.element, C.get(), c_count, seed + 2, lo, hi));
    }
    int64_t const d_count = int64_t(D.size()) / element_bytes(desc->C.element);
    for (DeviceBuffer const *b : {&D, &D_ref, &D_cublas}) ASSERT_TRUE(ref::fill_poison(desc->C.element, b->get(), d_count));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(D_before.get(), D.get(), D.size(), cudaMemcpyDeviceToDevice));
  }

  ref::GemmProblem reference_problem(double alpha, double beta, void const *c_ptr, int64_t c_ld, int64_t c_stride,
                                     void *d_ptr) const {
    ref::GemmProblem p;
    p.m = m, p.n = n, p.k = k, p.batch_count = batch;
    p.element_A = desc->A.element, p.element_B = desc->B.element, p.element_C = desc->C.element;
    p.layout_A = desc->A.layout, p.layout_B = desc->B.layout;
    p.alpha = alpha, p.beta = beta;
    p.A = at(A), p.lda = lda, p.batch_stride_A = stride_A;
    p.B = at(B), p.ldb = ldb, p.batch_stride_B = stride_B;
    p.C = c_ptr, p.ldc = c_ld, p.batch_stride_C = c_stride;
    p.D = d_ptr, p.ldd = ldd, p.batch_stride_D = stride_D;
    return p;
  }
};

/// A device workspace kept across run_and_check calls: the first call sizes it, fills it with
/// 0xFF bytes and initializes it; later calls run on it as the earlier runs left it.
struct SharedWorkspace {
  DeviceBuffer buffer;
  bool initialized = false;
};

/// Runs kernel `index` on the problem with D = at(D) (and C = at(C) unless c_is_d), `runs` times
/// on one initialized workspace (D restored to its poisoned state before each run after the
/// first; needs !c_is_d), checking each result and that every run gives the same bits. The
/// operands are filled from a seed of `index` and `seed`; with `shared`, the workspace is that one.
void run_and_check(size_t index, Problem &p, double alpha, double beta, bool nan_c, bool c_is_d, int runs = 1,
                   uint64_t seed = 0, SharedWorkspace *shared = nullptr) {
  Operation const *op = Singleton::get().manifest.operations()[index].get();
  GemmDescription const &d = *p.desc;
  p.fill(0x1234 + index + 7919 * seed, nan_c);
  if (c_is_d) {   // D starts as C: the kernel reads and overwrites the same elements
    ASSERT_TRUE(ref::fill_uniform(d.C.element, p.D.get(), p.D.size() / element_bytes(d.C.element), 99, -1, 1));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(p.D_before.get(), p.D.get(), p.D.size(), cudaMemcpyDeviceToDevice));
  }
  void const *c_ptr = c_is_d ? Problem::at(p.D) : Problem::at(p.C);
  int64_t const c_ld = c_is_d ? p.ldd : p.ldc;
  int64_t const c_stride = c_is_d ? p.stride_D : p.stride_C;

  // Reference first, from a pristine copy of C (when C is D, from D_before).
  void const *ref_c = c_is_d ? Problem::at(p.D_before) : c_ptr;
  ASSERT_TRUE(ref::reference_gemm(p.reference_problem(alpha, beta, ref_c, c_ld, c_stride, Problem::at(p.D_ref))));

  Scalars s(d.element_epilogue, alpha, beta);
  GemmUniversalConfiguration cfg;
  cfg.mode = p.batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;
  cfg.problem_size = cutlass::gemm::GemmCoord(int(p.m), int(p.n), int(p.k));
  cfg.batch_count = int(p.batch);
  cfg.lda = p.lda, cfg.ldb = p.ldb, cfg.ldc = c_ld, cfg.ldd = p.ldd;
  GemmUniversalArguments args;
  args.problem_size = cfg.problem_size;
  args.batch_count = cfg.batch_count;
  args.A = Problem::at(p.A), args.B = Problem::at(p.B), args.C = c_ptr, args.D = Problem::at(p.D);
  args.alpha = s.alpha, args.beta = s.beta;
  args.lda = p.lda, args.ldb = p.ldb, args.ldc = c_ld, args.ldd = p.ldd;
  args.batch_stride_A = p.stride_A, args.batch_stride_B = p.stride_B;
  args.batch_stride_C = c_stride, args.batch_stride_D = p.stride_D;
  args.raster_order = p.raster_order, args.swizzle_size = p.swizzle_size;
  // block-scaled kernels take the calls that ask for them: precise accumulation, no scales (= 1)
  if (cutlass_lib_test::is_block_scaled(op->description())) args.epilogue.accumulation = AccumulationMode::kPrecise;
  ASSERT_EQ(cutlass::Status::kSuccess, op->can_implement(cfg, args)) << "m=" << p.m << " n=" << p.n << " k=" << p.k;
  SharedWorkspace own;
  SharedWorkspace &ws = shared ? *shared : own;
  std::vector<uint8_t> host_workspace(op->get_host_workspace_size(cfg));
  if (!ws.initialized) {
    ws.buffer = DeviceBuffer(op->get_device_workspace_size(cfg, args));
    if (ws.buffer.size()) ASSERT_EQ(cudaSuccess, cudaMemset(ws.buffer.get(), 0xFF, ws.buffer.size()));
    ASSERT_EQ(cutlass::Status::kSuccess, op->initialize(cfg, host_workspace.data(), ws.buffer.get(), nullptr));
    ws.initialized = true;
  }
  ASSERT_GE(ws.buffer.size(), op->get_device_workspace_size(cfg, args));
  DeviceBuffer &workspace = ws.buffer;
  ASSERT_TRUE(runs == 1 || !c_is_d);
  DeviceBuffer first_result(runs > 1 ? p.D.size() : 0);
  for (int run = 0; run < runs; ++run) {
    if (run > 0) {
      ASSERT_EQ(cudaSuccess, cudaMemcpy(first_result.get(), p.D.get(), p.D.size(), cudaMemcpyDeviceToDevice));
      ASSERT_EQ(cudaSuccess, cudaMemcpy(p.D.get(), p.D_before.get(), p.D.size(), cudaMemcpyDeviceToDevice));
    }
    ASSERT_EQ(cutlass::Status::kSuccess, op->run(args, host_workspace.data(), workspace.get(), nullptr));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << cudaGetErrorString(cudaGetLastError());
    if (run > 0) {
      EXPECT_TRUE(ref::bytes_equal(first_result.get(), p.D.get(), p.D.size()))
          << "run " << run << " on the same workspace differs from run 0";
    }
  }

  std::string const where = "m=" + std::to_string(p.m) + " n=" + std::to_string(p.n) + " k=" + std::to_string(p.k) +
                            " batch=" + std::to_string(p.batch) + " alpha=" + std::to_string(alpha) +
                            " beta=" + std::to_string(beta) + (nan_c ? " NaN C" : "") + (c_is_d ? " C==D" : "") +
                            " raster " + std::to_string(int(p.raster_order)) + "/" + std::to_string(p.swizzle_size);
  double const bound = ref::error_bound(d.A.element, d.C.element, p.k);
  ref::Comparison c = ref::compare(d.C.element, p.m, p.n, p.batch, Problem::at(p.D), p.ldd, p.stride_D,
                                   Problem::at(p.D_ref), p.ldd, p.stride_D);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(0, c.nonfinite) << where << ": output elements left unwritten or NaN leaked from C";
  // relative to D or, where D cancels to near zero (e.g. M = N = 1, K = 2, a seed that makes the
  // two products nearly opposite), relative to D's typical size for inputs uniform in [-1, 1]:
  // |alpha| sqrt(K) + |beta| (a wrong result is off by about that much, so it still fails)
  double const scale = std::fabs(alpha) * std::sqrt(double(p.k)) + std::fabs(beta);
  if (is_integer(d.C.element)) {
    EXPECT_EQ(0, c.mismatches) << where;
  } else {
    EXPECT_TRUE(c.relative_error <= bound || c.max_abs_error <= bound * scale)
        << where << ": relative error " << c.relative_error << " > " << bound << " and max abs error "
        << c.max_abs_error << " > " << bound * scale;
  }

  // Nothing outside D's M x N (per batch) changed: compare the whole buffer with a copy whose
  // M x N regions are overwritten by the kernel's results.
  DeviceBuffer expected(p.D.size());
  ASSERT_EQ(cudaSuccess, cudaMemcpy(expected.get(), p.D_before.get(), p.D.size(), cudaMemcpyDeviceToDevice));
  int64_t const eb = element_bytes(d.C.element);
  for (int64_t l = 0; l < p.batch; ++l) {
    ASSERT_EQ(cudaSuccess, cudaMemcpy2D(static_cast<char *>(Problem::at(expected)) + l * p.stride_D * eb, p.ldd * eb,
                                        static_cast<char *>(Problem::at(p.D)) + l * p.stride_D * eb, p.ldd * eb,
                                        p.m * eb, p.n, cudaMemcpyDeviceToDevice));
  }
  EXPECT_TRUE(ref::bytes_equal(expected.get(), p.D.get(), p.D.size())) << where << ": the kernel wrote outside D";

#if defined(CUTLASS_ENABLE_CUBLAS)
  static cublasHandle_t cublas = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    return h;
  }();
  if (!c_is_d) {
    ref::GemmProblem cp = p.reference_problem(alpha, beta, c_ptr, c_ld, c_stride, Problem::at(p.D_cublas));
    if (ref::cublas_gemm(cublas, cp) == CUBLAS_STATUS_SUCCESS) {
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
      ref::Comparison cb = ref::compare(d.C.element, p.m, p.n, p.batch, Problem::at(p.D), p.ldd, p.stride_D,
                                        Problem::at(p.D_cublas), p.ldd, p.stride_D);
      if (is_integer(d.C.element)) {
        EXPECT_EQ(0, cb.mismatches) << where << " vs cuBLAS";
      } else {   // as against the reference: relative, or absolute where C's term cancels the product
        EXPECT_TRUE(cb.relative_error <= 2 * bound || cb.max_abs_error <= 2 * bound * scale)
            << where << " vs cuBLAS: relative error " << cb.relative_error << " > " << 2 * bound
            << " and max abs error " << cb.max_abs_error << " > " << 2 * bound * scale;
      }
    }
  }
#endif
}

class KernelTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
  GemmDescription const &desc() const { return description(GetParam()); }
};

TEST_P(KernelTest, RaggedShapes) {
  auto const &tb = desc().tile_description.threadblock_shape;
  struct Shape {
    int64_t m, n, k;
  };
  Shape const shapes[] = {
      {1, 1, 1},     {1, 37, 19},   {37, 1, 23},  {9, 13, 1},     {129, 67, 45},
      {tb.m() * 2 + 3, tb.n() + 5, tb.k() * 3 + 7}, {300, 260, 515},
  };
  for (Shape const &s : shapes) {
    Problem p(desc(), s.m, s.n, s.k, 1);
    run_and_check(GetParam(), p, 1.0, 0.0, /*nan_c=*/true, /*c_is_d=*/false);
    if (HasFatalFailure()) return;
  }
}

TEST_P(KernelTest, AlphaBeta) {
  bool const integer = is_integer(desc().C.element);
  double const alpha = integer ? 2 : 1.25, beta = integer ? -1 : -0.5;
  Problem p(desc(), 131, 77, 200, 1);
  run_and_check(GetParam(), p, alpha, beta, false, false);
  Problem q(desc(), 64, 64, 64, 1);
  run_and_check(GetParam(), q, alpha, 1.0, false, false);
}

TEST_P(KernelTest, DAliasesC) {
  Problem p(desc(), 150, 90, 70, 1);
  run_and_check(GetParam(), p, 1.0, is_integer(desc().C.element) ? 1.0 : 0.5, false, /*c_is_d=*/true);
}

TEST_P(KernelTest, Batched) {
  Problem p(desc(), 70, 45, 33, 3);
  run_and_check(GetParam(), p, 1.0, 1.0, false, false);
}

/// Stream-K kernels (TileSchedulerType::kStreamK) on problems whose tile counts, from this
/// device's SM count S, reach each branch of Sm90StreamKScheduler: T >= 2S with a partial wave
/// (a partial wave of 8-23 tiles: kTail falls back to whole waves, then one wave plus the
/// remainder split), S <= T < 2S (all split), T < S with a long K (about 8 CTAs per tile),
/// batched, and T ~ 2.5S (a half-full partial wave, which the default kTail split splits alone;
/// run under CUTLASS_LIB_STREAM_K=wave to test the older split there). Each runs twice on one
/// workspace, bit-identical, then on new operands on the same workspace without initializing it
/// again (a flag left raised would let a sum take the earlier operands' partial); the workspace
/// starts as 0xFF bytes, so initialize() must clear the flags.
class StreamKKernelTest : public KernelTest {};

TEST_P(StreamKKernelTest, Splits) {
  int const sms = cutlass_lib_test::device_sm_count();
  ASSERT_GT(sms, 0);
  auto const &tb = desc().tile_description.threadblock_shape;
  int64_t const tm = tb.m(), tn = tb.n(), tk = tb.k();
  int64_t const hybrid_n_tiles = (2 * sms + 8 + 15) / 16;   // 16 tile rows: 2S + 8 .. 2S + 23 tiles
  int64_t const tail_n_tiles = (2 * sms + sms / 2 + 15) / 16;
  struct Case {
    int64_t m, n, k, batch;
  };
  Case const cases[] = {
      {16 * tm - 3, hybrid_n_tiles * tn - 50, 17 * tk - 9, 1},
      {12 * tm, ((sms + 11) / 12 + 1) * tn - 7, 9 * tk, 1},
      {std::max<int64_t>(3 * tm - 84, 2 * tm + 5), std::max<int64_t>(3 * tn - 124, 2 * tn + 5), 63 * tk - 32, 1},
      {2 * tm + 1, tn + 5, 40 * tk + 3, 3},
      // T = 16 x tail_n_tiles, about 2.5 S: a partial wave of ~S / 2 tiles, which the kTail split
      // (the default) splits alone
      {16 * tm - 3, tail_n_tiles * tn - 50, 17 * tk - 9, 1},
  };
  // integer kernels take integer scalars (their s32 alpha / beta would truncate 1.25 and -0.5)
  bool const integer = is_integer(desc().C.element);
  double const alpha = integer ? 2 : 1.25, beta = integer ? -1 : -0.5;
  for (Case const &c : cases) {
    SharedWorkspace workspace;
    for (uint64_t seed = 0; seed < 2; ++seed) {
      Problem p(desc(), c.m, c.n, c.k, c.batch);
      run_and_check(GetParam(), p, alpha, beta, false, false, 2, seed, &workspace);
      if (HasFatalFailure()) return;
    }
  }
}

/// The sm90 persistent and stream-K kernels in every run-time tile order (along M / N, bands of
/// 1, 2, 4 and 8 tiles) on a problem of 6 x 7 tiles (ragged at both edges) and two batches, and
/// in two orders on 12 x 13 tiles of 9 k-blocks (more tiles than SMs: CTAs take several units,
/// and stream-K splits the partial wave's tiles): the order only permutes the tiles, so each is
/// checked against the reference like the default.
class RasterKernelTest : public KernelTest {};

TEST_P(RasterKernelTest, EveryOrderGivesTheReference) {
  auto const &tb = desc().tile_description.threadblock_shape;
  int64_t const tm = tb.m(), tn = tb.n(), tk = tb.k();
  bool const integer = is_integer(desc().C.element);
  struct Case {
    int64_t m, n, k, batch;
    RasterOrder order;
    int swizzle;
  };
  std::vector<Case> cases;
  for (RasterOrder order : {RasterOrder::kAlongM, RasterOrder::kAlongN}) {
    for (int swizzle : {1, 2, 4, 8}) cases.push_back({6 * tm - 5, 7 * tn - 3, 3 * tk + 8, 2, order, swizzle});
  }
  cases.push_back({12 * tm - 5, 13 * tn - 3, 9 * tk - 8, 1, RasterOrder::kAlongM, 2});
  cases.push_back({12 * tm - 5, 13 * tn - 3, 9 * tk - 8, 1, RasterOrder::kAlongN, 4});
  for (Case const &c : cases) {
    Problem p(desc(), c.m, c.n, c.k, c.batch);
    p.raster_order = c.order;
    p.swizzle_size = c.swizzle;
    run_and_check(GetParam(), p, integer ? 2 : 1.25, integer ? -1 : -0.5, false, false, 1, c.swizzle);
    if (HasFatalFailure()) return;
  }
}

/// The bandwidth kernels (GEMV: M or N == 1; skinny: min(M, N) <= 8 / 16), both orientations, at
/// the edge sizes issue 20 names: the small side 1, 2, 7, 8 (and 9, 16 where the kernel takes
/// them), the large side and K 1, 2, 8, 9, 255, 257 (K rounded up to the kernel's alignment), with
/// leading dimensions padded by 8 elements, so the 16-byte vector paths run wherever the extents
/// allow them and the element paths elsewhere; alpha and beta both non-trivial.
class BandwidthKernelTest : public KernelTest {};

TEST_P(BandwidthKernelTest, EdgeSizes) {
  int const limit = desc().max_small_extent;
  bool const integer = is_integer(desc().C.element);
  for (int64_t small : {1, 2, 7, 8, 9, 16}) {
    if (small > limit) continue;
    for (int64_t big : {1, 2, 8, 9, 255, 257}) {
      for (int64_t k : {1, 2, 9, 257}) {
        for (bool n_small : {true, false}) {
          Problem p(desc(), n_small ? big : small, n_small ? small : big, k, 1, /*pad=*/8);
          run_and_check(GetParam(), p, integer ? 2 : 1.25, integer ? -1 : -0.5, false, false);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

/// The GEMV family on long rows: K split over CTAs that meet through the workspace, a scalar tail
/// past the last whole vector (K % vector != 0 with an aligned ld), one and several batch entries
/// (batch strides rounded to 16 bytes so the vector loads run), both orientations; each run twice
/// on one workspace (the same bits), then on new operands without initializing it again.
TEST_P(BandwidthKernelTest, GemvLongRows) {
  if (desc().max_small_extent != 1) GTEST_SKIP() << "not a GEMV kernel";
  bool const integer = is_integer(desc().C.element);
  int64_t const vector_a = 16 / element_bytes(desc().A.element), vector_b = 16 / element_bytes(desc().B.element);
  struct Case {
    int64_t big, k, pad, batch;
  };
  Case const cases[] = {{300, 3001, 7, 1}, {37, 8192, 8, 3}, {9, 8, 8, 1}, {2, 20000, 0, 2}, {1, 4096, 0, 1}};
  for (Case const &c : cases) {
    for (bool n_small : {true, false}) {
      SharedWorkspace workspace;
      for (uint64_t seed = 0; seed < 2; ++seed) {
        int64_t const pad = c.pad ? c.pad : (vector_a - c.k % vector_a) % vector_a + vector_a;
        Problem p(desc(), n_small ? c.big : 1, n_small ? 1 : c.big, c.k, c.batch, pad);
        p.stride_A -= p.stride_A % vector_a;
        p.stride_B -= p.stride_B % vector_b;
        run_and_check(GetParam(), p, integer ? 2 : 1.25, integer ? -1 : -0.5, false, false, 2, seed, &workspace);
        if (HasFatalFailure()) return;
      }
    }
  }
}

std::string kernel_test_name(::testing::TestParamInfo<size_t> const &info) { return description(info.param).name; }

/// The plain kernels with a small-side limit (the bandwidth families).
std::vector<size_t> bandwidth_kernels(std::vector<size_t> const &indices) {
  std::vector<size_t> out;
  for (size_t i : indices) {
    if (description(i).max_small_extent > 0) out.push_back(i);
  }
  return out;
}

/// The kernels that read the run-time tile order: the sm90 persistent and stream-K ones.
std::vector<size_t> raster_kernels(std::vector<size_t> const &indices) {
  std::vector<size_t> out;
  for (size_t i : indices) {
    auto const &t = description(i).tile_description;
    if (t.minimum_compute_capability >= 90 && description(i).max_small_extent == 0 &&
        (t.tile_scheduler == TileSchedulerType::kPersistent || t.tile_scheduler == TileSchedulerType::kStreamK)) {
      out.push_back(i);
    }
  }
  return out;
}

/// The plain kernels; those with a fused epilogue need its operands and are covered by
/// FusedKernelTest (test_epilogues.cu); the grouped kernels take groups (run_grouped: the C
/// API's grouped tests, test_grouped.cu, and test/sm90/test_sm90_grouped.cu).
std::vector<size_t> plain_kernels() {
  std::vector<size_t> out;
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    if (!description(i).epilogue.fused() && description(i).gemm_kind != GemmKind::kGrouped) out.push_back(i);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Manifest, KernelTest, ::testing::ValuesIn(plain_kernels()), kernel_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KernelTest);

INSTANTIATE_TEST_SUITE_P(Manifest, BandwidthKernelTest, ::testing::ValuesIn(bandwidth_kernels(plain_kernels())),
                         kernel_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BandwidthKernelTest);

INSTANTIATE_TEST_SUITE_P(Manifest, RasterKernelTest, ::testing::ValuesIn(raster_kernels(plain_kernels())),
                         kernel_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RasterKernelTest);

INSTANTIATE_TEST_SUITE_P(Manifest, StreamKKernelTest, ::testing::ValuesIn(cutlass_lib_test::stream_k_only(plain_kernels())),
                         kernel_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StreamKKernelTest);

}  // namespace
