/// Block-scaled fp8 GEMMs and precise accumulation through the C API (cutlassLibSetMatrixScale
/// with VEC128_32F / BLK128x128_32F, cutlassLibSetAccumulation), on the block-scaled sm90 kernels
/// ("..._blockscale"): e4m3 x e4m3 and the mixed pairings e4m3 x e5m2, e5m2 x e4m3. The reference: each 128-deep k-block's product from the f64-summing
/// reference GEMM, scaled and summed on the host in double, so the scales' layout and indexing
/// are checked independently of the kernel.
#include <gtest/gtest.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "cutlass/library/singleton.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"

namespace {

using namespace cutlass::library;
namespace ref = cutlass::reference;
using cutlass_lib_test::DeviceBuffer;

/// Whether the build has a block-scaled TN kernel with operands `a` x `b` and output `c` for this device.
bool build_has_block_scaled(NumericTypeID c, NumericTypeID a = NumericTypeID::kFE4M3,
                            NumericTypeID b = NumericTypeID::kFE4M3) {
  int const cc = cutlass_lib_test::device_compute_capability();
  for (auto const &op : Singleton::get().manifest.operations()) {
    auto const &d = static_cast<GemmDescription const &>(op->description());
    if (cutlass_lib_test::is_block_scaled(d) && d.A.element == a && d.B.element == b && d.C.element == c &&
        cc >= d.tile_description.minimum_compute_capability &&
        cc <= d.tile_description.maximum_compute_capability) {
      return true;
    }
  }
  return false;
}

/// Host copy of an f32 device array.
std::vector<float> to_host(void const *device, int64_t count) {
  std::vector<float> host(static_cast<size_t>(count));
  EXPECT_EQ(cudaSuccess, cudaMemcpy(host.data(), device, host.size() * 4, cudaMemcpyDeviceToHost));
  return host;
}

/// The C API's name of an fp8 type.
cudaDataType_t cuda_type(NumericTypeID t) { return t == NumericTypeID::kFE5M2 ? CUDA_R_8F_E5M2 : CUDA_R_8F_E4M3; }

/// A (M x K row-major, "T") and B (K x N column-major, "N") fp8 (e4m3 unless asked), uniform [-1, 1].
struct Operands {
  int64_t m, n, k;
  NumericTypeID type_a, type_b;
  DeviceBuffer A, B;
  Operands(int64_t m_, int64_t n_, int64_t k_, uint64_t seed, NumericTypeID a = NumericTypeID::kFE4M3,
           NumericTypeID b = NumericTypeID::kFE4M3)
      : m(m_), n(n_), k(k_), type_a(a), type_b(b), A(size_t(m_ * k_ + 16)), B(size_t(k_ * n_ + 16)) {
    EXPECT_TRUE(ref::fill_uniform(type_a, A.get(), m * k, seed, -1, 1));
    EXPECT_TRUE(ref::fill_uniform(type_b, B.get(), k * n, seed + 1, -1, 1));
  }

  /// The f32 product of K-slice [k0, k0 + depth) (column-major M x N), summed in double.
  std::vector<float> product(int64_t k0, int64_t depth) const {
    DeviceBuffer D(size_t(m * n * 4));
    ref::GemmProblem p;
    p.m = m, p.n = n, p.k = depth;
    p.element_A = type_a, p.element_B = type_b, p.element_C = NumericTypeID::kF32;
    p.layout_A = LayoutTypeID::kRowMajor, p.layout_B = LayoutTypeID::kColumnMajor;
    p.A = A.bytes_ptr() + k0, p.lda = k, p.B = B.bytes_ptr() + k0, p.ldb = k;
    p.C = D.get(), p.ldc = m, p.D = D.get(), p.ldd = m;
    EXPECT_TRUE(ref::reference_gemm(p));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
    return to_host(D.get(), m * n);
  }

  /// D = alpha * op(A) op(B) through the C API into an f32 D (poisoned first).
  std::vector<float> run(cutlassLibHandle_t handle, float alpha) const {
    DeviceBuffer D(size_t(m * n * 4));
    EXPECT_TRUE(ref::fill_poison(NumericTypeID::kF32, D.get(), m * n));
    float const beta = 0;
    EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibGemmEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.get(), cuda_type(type_a), k,
                               B.get(), cuda_type(type_b), k, &beta, D.get(), CUDA_R_32F, m, CUTLASS_LIB_COMPUTE_32F));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
    return to_host(D.get(), m * n);
  }
};

/// sqrt(sum (x - y)^2 / sum y^2), counting non-finite values of x in `nonfinite`.
double relative_error(std::vector<float> const &x, std::vector<double> const &y, int64_t &nonfinite) {
  double error = 0, norm = 0;
  nonfinite = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    nonfinite += std::isfinite(x[i]) ? 0 : 1;
    error += (x[i] - y[i]) * (x[i] - y[i]);
    norm += y[i] * y[i];
  }
  return std::sqrt(error / norm);
}

/// The leading dimension of a 128x128 scale: the k-blocks rounded up to a multiple of 4 (cuBLASLt's).
int64_t padded(int64_t k_blocks) { return (k_blocks + 3) / 4 * 4; }

/// The scale of index i (row of A / column of B) in k-block kb under `mode` (the header's layout,
/// cuBLASLt's).
double scale_at(std::vector<float> const &s, cutlassLibMatrixScale_t mode, int64_t extent, int64_t k_blocks,
                int64_t kb, int64_t i) {
  if (mode == CUTLASS_LIB_MATRIX_SCALE_VEC128_32F) return s[size_t(kb * extent + i)];   // MN fastest
  return s[size_t((i / 128) * padded(k_blocks) + kb)];   // K fastest, rows padded to 4 k-blocks
}

int64_t scale_count(cutlassLibMatrixScale_t mode, int64_t extent, int64_t k_blocks) {
  return mode == CUTLASS_LIB_MATRIX_SCALE_VEC128_32F ? k_blocks * extent : padded(k_blocks) * ((extent + 127) / 128);
}

struct ModeCase {
  cutlassLibMatrixScale_t a, b;
  char const *name;
};

class BlockScalesGpu : public ::testing::TestWithParam<ModeCase> {};

/// D(i, j) = alpha * sum_kb sa(i, kb) sb(j, kb) P_kb(i, j): the expected D of x's operands with
/// scales sa / sb in `mode`'s layouts, each k-block's product P_kb from the reference GEMM.
std::vector<double> scaled_sum(Operands const &x, ModeCase mode, std::vector<float> const &sa,
                               std::vector<float> const &sb, double alpha) {
  int64_t const m = x.m, n = x.n, k = x.k, k_blocks = (k + 127) / 128;
  std::vector<double> sum(size_t(m * n), 0.0);
  for (int64_t kb = 0; kb < k_blocks; ++kb) {
    std::vector<float> const p = x.product(128 * kb, std::min<int64_t>(128, k - 128 * kb));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < m; ++i) {
        sum[size_t(i + j * m)] += alpha * scale_at(sa, mode.a, m, k_blocks, kb, i) *
                                  scale_at(sb, mode.b, n, k_blocks, kb, j) * p[size_t(i + j * m)];
      }
    }
  }
  return sum;
}

/// The case of one mode pairing: operands, scales (host and device) and the expected D, for M, N off
/// the tile sizes and a K whose last k-block is partial. The device scale arrays start `offset`
/// floats into their buffers: 0 (16-byte aligned: the kernels bulk-copy 1x128 scales, whose
/// extents here are multiples of 4) or 1 (misaligned: each lane copies its share, zeros past M / N).
struct ScaledCase {
  static constexpr int64_t m = 200, n = 136;
  static constexpr float alpha = 1.5f;
  int64_t k, k_blocks, offset;
  Operands x;
  std::vector<float> sa, sb;
  DeviceBuffer device_sa, device_sb;
  std::vector<double> expected;

  ScaledCase(ModeCase mode, int64_t k_, int64_t offset_ = 0, NumericTypeID a = NumericTypeID::kFE4M3,
             NumericTypeID b = NumericTypeID::kFE4M3)
      : k(k_), k_blocks((k_ + 127) / 128), offset(offset_), x(m, n, k_, 71, a, b),
        sa(size_t(scale_count(mode.a, m, k_blocks))), sb(size_t(scale_count(mode.b, n, k_blocks))),
        device_sa((sa.size() + offset_) * 4), device_sb((sb.size() + offset_) * 4) {
    for (size_t i = 0; i < sa.size(); ++i) sa[i] = 0.25f + float((i * 37) % 16) / 8.0f;   // 0.25 .. 2.125
    for (size_t i = 0; i < sb.size(); ++i) sb[i] = 0.5f + float((i * 53) % 11) / 4.0f;    // 0.5 .. 3
    EXPECT_EQ(cudaSuccess, cudaMemcpy(const_cast<float *>(scale_a()), sa.data(), sa.size() * 4, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaSuccess, cudaMemcpy(const_cast<float *>(scale_b()), sb.data(), sb.size() * 4, cudaMemcpyHostToDevice));
    expected = scaled_sum(x, mode, sa, sb, alpha);
  }
  float const *scale_a() const { return static_cast<float const *>(device_sa.get()) + offset; }
  float const *scale_b() const { return static_cast<float const *>(device_sb.get()) + offset; }
};

/// The C API: each pairing of the block modes on the kernel the handle selects (DeepSeek-V3's
/// pairing is BLK128x128 weights as A with VEC128 activations as B), for each operand-type pairing
/// (e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3) whose f32-output kernels the build has.
TEST_P(BlockScalesGpu, SumOfScaledKBlocks) {
  SKIP_WITHOUT_GPU();
  ModeCase const mode = GetParam();
  constexpr NumericTypeID e4m3 = NumericTypeID::kFE4M3, e5m2 = NumericTypeID::kFE5M2;
  int ran = 0;
  for (auto const &types : {std::make_pair(e4m3, e4m3), std::make_pair(e4m3, e5m2), std::make_pair(e5m2, e4m3)}) {
    if (!build_has_block_scaled(NumericTypeID::kF32, types.first, types.second)) continue;
    SCOPED_TRACE(types.first == types.second ? "e4m3 x e4m3" : types.first == e4m3 ? "e4m3 x e5m2" : "e5m2 x e4m3");
    // lda = ldb = 600 bytes: the handle's packing route (TMA needs 16-byte strides)
    ScaledCase const c(mode, 600, 0, types.first, types.second);
    cutlassLibHandle_t handle = nullptr;
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_A, mode.a, c.scale_a()));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_B, mode.b, c.scale_b()));
    std::vector<float> const ours = c.x.run(handle, c.alpha);
    cutlassLibDestroy(handle);
    int64_t nonfinite = 0;
    double const error = relative_error(ours, c.expected, nonfinite);
    EXPECT_EQ(0, nonfinite);
    EXPECT_LE(error, ref::error_bound(types.first, NumericTypeID::kF32, c.k)) << mode.name;
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "the block-scaled fp8 -> f32 kernels are opt-in and not in this build";
}

/// Strided-batched: two batch entries, each with its own operands and scales, the scales of entry
/// l after entry l - 1's in each array (the header's layouts: l is the slowest index), through
/// cutlassLibGemmStridedBatchedEx.
TEST_P(BlockScalesGpu, StridedBatched) {
  SKIP_WITHOUT_GPU();
  if (!build_has_block_scaled(NumericTypeID::kF32)) {
    GTEST_SKIP() << "the block-scaled e4m3 -> f32 kernels are opt-in and not in this build";
  }
  ModeCase const mode = GetParam();
  int64_t const k = 592;   // 16-byte leading dimensions: the kernels run the batch directly
  ScaledCase const first(mode, k);   // entry 0: its operands, scales and expected D
  int64_t const m = ScaledCase::m, n = ScaledCase::n;
  // entry 1: operands of another seed, entry 0's scales reversed
  DeviceBuffer A(size_t(2 * m * k)), B(size_t(2 * k * n));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(A.get(), first.x.A.get(), size_t(m * k), cudaMemcpyDeviceToDevice));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(B.get(), first.x.B.get(), size_t(k * n), cudaMemcpyDeviceToDevice));
  Operands const second(m, n, k, 173);
  ASSERT_EQ(cudaSuccess, cudaMemcpy(A.bytes_ptr() + m * k, second.A.get(), size_t(m * k), cudaMemcpyDeviceToDevice));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(B.bytes_ptr() + k * n, second.B.get(), size_t(k * n), cudaMemcpyDeviceToDevice));
  std::vector<float> sa(first.sa), sb(first.sb);
  sa.insert(sa.end(), first.sa.rbegin(), first.sa.rend());
  sb.insert(sb.end(), first.sb.rbegin(), first.sb.rend());
  DeviceBuffer device_sa(sa.size() * 4), device_sb(sb.size() * 4);
  ASSERT_EQ(cudaSuccess, cudaMemcpy(device_sa.get(), sa.data(), sa.size() * 4, cudaMemcpyHostToDevice));
  ASSERT_EQ(cudaSuccess, cudaMemcpy(device_sb.get(), sb.data(), sb.size() * 4, cudaMemcpyHostToDevice));
  // entry 1's expected D from its own operands and the reversed scales
  std::vector<float> const sa1(first.sa.rbegin(), first.sa.rend()), sb1(first.sb.rbegin(), first.sb.rend());
  std::vector<double> const expected1 = scaled_sum(second, mode, sa1, sb1, ScaledCase::alpha);
  DeviceBuffer D(size_t(2 * m * n * 4));
  ASSERT_TRUE(ref::fill_poison(NumericTypeID::kF32, D.get(), 2 * m * n));
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_A, mode.a, static_cast<float const *>(device_sa.get())));
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibSetMatrixScale(handle, CUTLASS_LIB_MATRIX_B, mode.b, static_cast<float const *>(device_sb.get())));
  float const alpha = ScaledCase::alpha, beta = 0;
  EXPECT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
            cutlassLibGemmStridedBatchedEx(handle, CUTLASS_LIB_OP_T, CUTLASS_LIB_OP_N, m, n, k, &alpha, A.get(),
                                           CUDA_R_8F_E4M3, k, m * k, B.get(), CUDA_R_8F_E4M3, k, k * n, &beta, D.get(),
                                           CUDA_R_32F, m, m * n, 2, CUTLASS_LIB_COMPUTE_32F));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  cutlassLibDestroy(handle);
  std::vector<float> const ours = to_host(D.get(), 2 * m * n);
  for (int l = 0; l < 2; ++l) {
    std::vector<float> const part(ours.begin() + l * m * n, ours.begin() + (l + 1) * m * n);
    int64_t nonfinite = 0;
    double const error = relative_error(part, l == 0 ? first.expected : expected1, nonfinite);
    EXPECT_EQ(0, nonfinite) << "batch entry " << l;
    EXPECT_LE(error, ref::error_bound(NumericTypeID::kFE4M3, NumericTypeID::kF32, k)) << mode.name << " entry " << l;
  }
}

/// Host floats of a device array of f32, bf16 or f16.
std::vector<float> output_to_host(NumericTypeID type, void const *device, int64_t count) {
  if (type == NumericTypeID::kF32) return to_host(device, count);
  std::vector<uint16_t> bits(static_cast<size_t>(count));
  EXPECT_EQ(cudaSuccess, cudaMemcpy(bits.data(), device, bits.size() * 2, cudaMemcpyDeviceToHost));
  std::vector<float> host(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) {
    if (type == NumericTypeID::kBF16) {
      __nv_bfloat16 v;
      std::memcpy(&v, &bits[i], 2);
      host[i] = __bfloat162float(v);
    } else {
      __half v;
      std::memcpy(&v, &bits[i], 2);
      host[i] = __half2float(v);
    }
  }
  return host;
}

/// The kernel-level mode of a C API block mode (VEC128_32F or BLK128x128_32F).
cutlass::epilogue::OperandScaleMode block_mode(cutlassLibMatrixScale_t mode) {
  return mode == CUTLASS_LIB_MATRIX_SCALE_VEC128_32F ? cutlass::epilogue::OperandScaleMode::kBlock1x128
                                                     : cutlass::epilogue::OperandScaleMode::kBlock128x128;
}

/// Every block-scaled kernel of the build (each operand pairing, tile, cluster and output type) run directly
/// with each pairing, so kernels the handle would not pick for this shape are checked too, at K of
/// 1, 2, 3, 5 and 6 k-blocks (the mainloop's pipeline has a different tail for each parity; K = 112
/// and 592 end in a partial k-block), the scales 16-byte aligned at odd k-block counts and
/// misaligned at even ones (the producer's two ways of copying 1x128 scales), and at K = 256 and
/// 384 with beta != 0 too (C read in the epilogue; with 1x128 scales on B the square tiles run
/// transposed, Sm90BlockScales::swaps). K a multiple of 16: 16-byte leading dimensions, the kernels' own rule.
TEST_P(BlockScalesGpu, EveryKernel) {
  SKIP_WITHOUT_GPU();
  ModeCase const mode = GetParam();
  int const cc = cutlass_lib_test::device_compute_capability();
  int ran = 0;
  for (int64_t const depth : {112, 256, 384, 592, 768}) {
    int64_t const k_blocks = (depth + 127) / 128;
    std::map<std::pair<NumericTypeID, NumericTypeID>, std::unique_ptr<ScaledCase>> cases;   // per operand pairing
    for (auto const &op : Singleton::get().manifest.operations()) {
      auto const &d = static_cast<GemmDescription const &>(op->description());
      if (!cutlass_lib_test::is_block_scaled(d) || cc < d.tile_description.minimum_compute_capability ||
          cc > d.tile_description.maximum_compute_capability) {
        continue;
      }
      SCOPED_TRACE(std::string(d.name) + " K=" + std::to_string(depth));
      SCOPED_TRACE(k_blocks % 2 ? "scales 16-byte aligned" : "scales misaligned");
      std::unique_ptr<ScaledCase> &c = cases[std::make_pair(d.A.element, d.B.element)];
      if (!c) c.reset(new ScaledCase(mode, depth, k_blocks % 2 ? 0 : 1, d.A.element, d.B.element));
      int64_t const m = ScaledCase::m, n = ScaledCase::n, k = c->k;
      // beta = 0, and at K = 256 and 384 (both scale copy paths) also beta = 8 with a C of uniform
      // [-1, 1], large enough against A B (RMS ~19 here) that C read from the wrong place in one
      // eighth of D fails the bound (the epilogue reads C back in the layout it writes D:
      // transposed for the swapped promotion)
      bool const with_c = depth == 256 || depth == 384;
      for (float const beta : with_c ? std::vector<float>{0.f, 8.f} : std::vector<float>{0.f}) {
        SCOPED_TRACE(beta == 0 ? "beta 0" : "beta 8");
        DeviceBuffer D(size_t(m * n * 4)), C(size_t(m * n * 4));
        ASSERT_TRUE(ref::fill_poison(d.C.element, D.get(), m * n));
        ASSERT_TRUE(ref::fill_uniform(d.C.element, C.get(), m * n, 97, -1, 1));
        std::vector<double> expected = c->expected;
        if (beta != 0) {
          std::vector<float> const source = output_to_host(d.C.element, C.get(), m * n);
          for (size_t e = 0; e < expected.size(); ++e) expected[e] += double(beta) * source[e];
        }
        GemmUniversalConfiguration cfg;
        cfg.mode = cutlass::gemm::GemmUniversalMode::kGemm;
        cfg.problem_size = cutlass::gemm::GemmCoord(int(m), int(n), int(k));
        cfg.lda = k, cfg.ldb = k, cfg.ldc = m, cfg.ldd = m;
        GemmUniversalArguments args;
        args.problem_size = cfg.problem_size;
        args.A = c->x.A.get(), args.B = c->x.B.get(), args.D = D.get();
        args.C = beta != 0 ? C.get() : nullptr;
        args.alpha = &c->alpha, args.beta = &beta;
        args.lda = k, args.ldb = k, args.ldc = m, args.ldd = m;
        args.epilogue.accumulation = AccumulationMode::kPrecise;
        args.epilogue.scale_a = c->scale_a(), args.epilogue.scale_b = c->scale_b();
        args.epilogue.scale_a_mode = block_mode(mode.a), args.epilogue.scale_b_mode = block_mode(mode.b);
        ASSERT_EQ(cutlass::Status::kSuccess, op->can_implement(cfg, args));
        std::vector<uint8_t> host_workspace(op->get_host_workspace_size(cfg));
        DeviceBuffer workspace(op->get_device_workspace_size(cfg, args));
        ASSERT_EQ(cutlass::Status::kSuccess, op->initialize(cfg, host_workspace.data(), workspace.get(), nullptr));
        ASSERT_EQ(cutlass::Status::kSuccess, op->run(args, host_workspace.data(), workspace.get(), nullptr));
        ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
        int64_t nonfinite = 0;
        double const error = relative_error(output_to_host(d.C.element, D.get(), m * n), expected, nonfinite);
        EXPECT_EQ(0, nonfinite);
        EXPECT_LE(error, ref::error_bound(d.A.element, d.C.element, k)) << mode.name;
      }
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "the block-scaled fp8 kernels are opt-in and not in this build";
}

INSTANTIATE_TEST_SUITE_P(Modes, BlockScalesGpu,
                         ::testing::Values(ModeCase{CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F,
                                                    CUTLASS_LIB_MATRIX_SCALE_VEC128_32F, "blk_vec"},
                                           ModeCase{CUTLASS_LIB_MATRIX_SCALE_VEC128_32F,
                                                    CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F, "vec_blk"},
                                           ModeCase{CUTLASS_LIB_MATRIX_SCALE_VEC128_32F,
                                                    CUTLASS_LIB_MATRIX_SCALE_VEC128_32F, "vec_vec"},
                                           ModeCase{CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F,
                                                    CUTLASS_LIB_MATRIX_SCALE_BLK128x128_32F, "blk_blk"}),
                         [](::testing::TestParamInfo<ModeCase> const &info) { return std::string(info.param.name); });

/// Precise accumulation against fast at K = 4096 and 16384 (e4m3, f32 out, uniform [-1, 1]):
/// precise within the fp8 bound of the suite and no worse than fast; both errors are printed (the
/// table in docs/NOTES.md and cutlass_lib.h).
TEST(PreciseAccumulationGpu, NoWorseThanFastAtLongK) {
  SKIP_WITHOUT_GPU();
  if (!build_has_block_scaled(NumericTypeID::kF32)) {
    GTEST_SKIP() << "the block-scaled e4m3 -> f32 kernels are opt-in and not in this build";
  }
  if (!cutlass_lib_test::build_has_kernel(NumericTypeID::kFE4M3, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                          NumericTypeID::kF32)) {
    NO_KERNEL_FOR("e4m3 -> f32 TN (fast accumulation)");
  }
  cutlassLibHandle_t handle = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle));
  for (int64_t k : {4096, 16384}) {
    int64_t const m = 256, n = 256;
    Operands const x(m, n, k, 91);
    std::vector<float> const p = x.product(0, k);
    std::vector<double> const expected(p.begin(), p.end());
    double error[2];
    for (int precise = 0; precise < 2; ++precise) {
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibSetAccumulation(handle, precise ? CUTLASS_LIB_ACCUMULATION_PRECISE : CUTLASS_LIB_ACCUMULATION_FAST));
      int64_t nonfinite = 0;
      error[precise] = relative_error(x.run(handle, 1.0f), expected, nonfinite);
      EXPECT_EQ(0, nonfinite);
    }
    EXPECT_LE(error[1], ref::error_bound(NumericTypeID::kFE4M3, NumericTypeID::kF32, k)) << "K = " << k;
    std::printf("e4m3 K = %lld: relative error fast %.3e, precise %.3e\n", static_cast<long long>(k), error[0], error[1]);
    EXPECT_LE(error[1], error[0]) << "K = " << k;
  }
  cutlassLibDestroy(handle);
}

}  // namespace
