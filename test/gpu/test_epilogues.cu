/// GPU tests of the fused epilogues (bias, alpha vectors, aux, activations, fp8 D scale + amax),
/// against the host reference of fused_reference.h (problem setup and checks: fused_problem.h).
///
///  - FusedKernelTest.<case>/<kernel>: every fused kernel of the manifest, run directly through
///    its Operation: ragged shapes (rounded to the kernel's alignments), bias per row and per
///    column, alpha vectors per row and per column, beta 0 (NaN in C) and non-zero, batched with
///    vector and aux batch strides, C aliasing D, clamp bounds, fp8 D with scale_d != 1 and amax.
///  - FusedHandleTest.<case>/<kernel>: one kernel per functional key (types, layouts, epilogue)
///    through Handle::gemm_universal: truly ragged problems (M, N, K = 1, 7, 9, 13, ...) that
///    the library runs on padded copies, row-major C/D, the library zeroing amax.
///  - HandleFused.*: the Handle's statuses for fused calls and plain calls never picking a fused
///    kernel. CApiEpilogueGpu.*: cutlassLibGemmEx / GemmExSelect with a fused epilogue.
/// Everything needing a device skips without one; the argument checks run anywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "cutlass/library/handle.h"
#include "cutlass/library/operation_table.h"
#include "cutlass/library/singleton.h"
#include "cutlass_lib.h"
#include "fused_problem.h"
#include "gpu_test_util.h"

namespace {

using namespace cutlass::library;
using cutlass::epilogue::ActivationKind;
using cutlass::epilogue::VectorBroadcast;
namespace fz = cutlass_lib_test::fused;

constexpr VectorBroadcast kRow = VectorBroadcast::kPerRow;
constexpr VectorBroadcast kColumn = VectorBroadcast::kPerColumn;

GemmDescription const &description(size_t index) {
  return static_cast<GemmDescription const &>(Singleton::get().manifest.operations()[index]->description());
}

/// Manifest indices of the kernels with a fused epilogue that run single calls (the grouped
/// kernels take groups: test_grouped.cu and test_grouped_contiguous.cu run their fused epilogues).
std::vector<size_t> fused_kernels() {
  std::vector<size_t> out;
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    if (description(i).epilogue.fused() && description(i).gemm_kind != GemmKind::kGrouped) out.push_back(i);
  }
  return out;
}

/// Same functional key (GemmFunctionalKey's fields; its operator== is not exported).
bool same_key(GemmFunctionalKey const &a, GemmFunctionalKey const &b) {
  return a.provider == b.provider && a.gemm_kind == b.gemm_kind && a.element_compute == b.element_compute &&
         a.element_scalar == b.element_scalar && a.element_A == b.element_A && a.layout_A == b.layout_A &&
         a.transform_A == b.transform_A && a.element_B == b.element_B && a.layout_B == b.layout_B &&
         a.transform_B == b.transform_B && a.element_C == b.element_C && a.layout_C == b.layout_C &&
         a.element_D == b.element_D && a.layout_D == b.layout_D && a.epilogue == b.epilogue;
}

/// The first fused kernel (manifest order) of each functional key.
std::vector<size_t> fused_keys() {
  std::vector<size_t> out;
  std::vector<GemmFunctionalKey> seen;
  for (size_t i : fused_kernels()) {
    GemmFunctionalKey const key = make_gemm_functional_key(description(i));
    if (std::none_of(seen.begin(), seen.end(), [&](GemmFunctionalKey const &s) { return same_key(s, key); })) {
      seen.push_back(key);
      out.push_back(i);
    }
  }
  return out;
}

int device_compute_capability() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return major * 10 + minor;
}

bool runs_here(GemmDescription const &d) {
  int const cc = device_compute_capability();
  return cc >= d.tile_description.minimum_compute_capability && cc <= d.tile_description.maximum_compute_capability;
}

std::string kernel_name(::testing::TestParamInfo<size_t> const &info) { return description(info.param).name; }

// ---- the host reference itself (no device) ----------------------------------------------------

/// The host encoders round-trip every code and agree with CUDA's own host conversions.
TEST(FusedReference, NumberFormats) {
  for (NumericTypeID t : {NumericTypeID::kF16, NumericTypeID::kBF16, NumericTypeID::kFE4M3, NumericTypeID::kFE5M2}) {
    fz::Format const f = fz::format_of(t);
    uint32_t const codes = 1u << (1 + f.exponent + f.mantissa);
    for (uint32_t code = 0; code < codes; ++code) {
      double const v = fz::decode_bits(f, code);
      if (std::isnan(v)) continue;
      ASSERT_EQ(code, fz::encode_bits(f, v)) << fz::bytes_of(t) << "-byte type, value " << v;
    }
  }
  EXPECT_EQ(65504.0, fz::max_finite(fz::format_of(NumericTypeID::kF16)));
  EXPECT_EQ(448.0, fz::max_finite(fz::format_of(NumericTypeID::kFE4M3)));
  EXPECT_EQ(57344.0, fz::max_finite(fz::format_of(NumericTypeID::kFE5M2)));
  EXPECT_EQ(1.0, fz::round_to(NumericTypeID::kF16, 1.0 + std::ldexp(1.0, -11))) << "ties to even";
  EXPECT_EQ(1.0 + std::ldexp(1.0, -9), fz::round_to(NumericTypeID::kF16, 1.0 + 3 * std::ldexp(1.0, -11)));
  EXPECT_TRUE(std::isinf(fz::round_to(NumericTypeID::kF16, 65520.0)));
  EXPECT_EQ(65504.0, fz::round_to(NumericTypeID::kF16, 65519.0));
  // tf32 operands: fp32 storage, 10 mantissa bits (the tests fill them with values the MMA reads exactly)
  EXPECT_EQ(1.0, fz::round_to(NumericTypeID::kTF32, 1.0 + std::ldexp(1.0, -11))) << "ties to even";
  EXPECT_EQ(1.0 + std::ldexp(1.0, -9), fz::round_to(NumericTypeID::kTF32, 1.0 + 3 * std::ldexp(1.0, -11)));
  EXPECT_EQ(-0.75 - std::ldexp(1.0, -11), fz::round_to(NumericTypeID::kTF32, -0.75 - std::ldexp(1.3, -11)));
  EXPECT_EQ(4, fz::bytes_of(NumericTypeID::kTF32));
  fz::Random random(3);
  for (int i = 0; i < 20000; ++i) {
    double const v = random.uniform(-1, 1) * std::ldexp(1.0, int(random.next() % 40) - 30);
    float const vf = float(v);
    __half const h = __float2half_rn(vf);
    __nv_bfloat16 const b = __float2bfloat16_rn(vf);
    uint16_t hb, bb;
    std::memcpy(&hb, &h, 2);
    std::memcpy(&bb, &b, 2);
    ASSERT_EQ(hb, fz::encode_bits(fz::format_of(NumericTypeID::kF16), vf)) << v;
    ASSERT_EQ(bb, fz::encode_bits(fz::format_of(NumericTypeID::kBF16), vf)) << v;
    if (std::fabs(vf) <= 448) {
      ASSERT_EQ(__nv_cvt_float_to_fp8(vf, __NV_SATFINITE, __NV_E4M3), fz::encode_bits(fz::format_of(NumericTypeID::kFE4M3), vf)) << v;
    }
    ASSERT_EQ(__nv_cvt_float_to_fp8(vf, __NV_SATFINITE, __NV_E5M2), fz::encode_bits(fz::format_of(NumericTypeID::kFE5M2), vf)) << v;
  }
}

TEST(FusedReference, Activations) {
  EXPECT_NEAR(0.8411919906082768, fz::activation(ActivationKind::kGELU, 1.0, 0, 0), 1e-15);
  EXPECT_NEAR(-0.15880800939172324, fz::activation(ActivationKind::kGELU, -1.0, 0, 0), 1e-15);
  EXPECT_NEAR(0.8413447460685429, fz::activation(ActivationKind::kGELUErf, 1.0, 0, 0), 1e-15);
  EXPECT_NEAR(0.7310585786300049, fz::activation(ActivationKind::kSiLU, 1.0, 0, 0), 1e-15);
  EXPECT_NEAR(0.2689414213699951, fz::activation(ActivationKind::kSigmoid, -1.0, 0, 0), 1e-15);
  EXPECT_EQ(0.0, fz::activation(ActivationKind::kReLU, -2.0, 0, 0));
  EXPECT_EQ(-0.5, fz::activation(ActivationKind::kClamp, -2.0, -0.5, 0.75));
  EXPECT_EQ(0.75, fz::activation(ActivationKind::kClamp, 2.0, -0.5, 0.75));
}

/// The error bounds hold for an f32 emulation of the kernels' epilogue (the formulas of
/// activation.h in f32, tanh perturbed by its documented fast-math error, output rounding) over
/// random elements with exact accumulators: the bounds are not tighter than the arithmetic.
TEST(FusedReference, BoundsCoverTheF32Epilogue) {
  fz::Random random(11);
  for (ActivationKind act : {ActivationKind::kIdentity, ActivationKind::kReLU, ActivationKind::kGELU,
                             ActivationKind::kGELUErf, ActivationKind::kSiLU, ActivationKind::kSigmoid,
                             ActivationKind::kClamp}) {
    for (NumericTypeID out : {NumericTypeID::kF32, NumericTypeID::kF16, NumericTypeID::kBF16, NumericTypeID::kFE4M3,
                              NumericTypeID::kFE5M2}) {
      fz::Spec s;
      s.activation = act;
      s.alpha = 1.25, s.beta = -0.5, s.scale_d = fz::is_fp8(out) ? 1.5 : 1.0, s.clamp_lo = -0.5, s.clamp_hi = 0.75;
      s.k = 64;
      s.fast_math = fz::bytes_of(out) <= 2;
      for (int i = 0; i < 4000; ++i) {
        double const acc = double(float(random.uniform(-6, 6))), c = fz::round_to(out, random.uniform(-1, 1));
        double const bias = fz::round_to(NumericTypeID::kBF16, random.uniform(-1, 1));
        double const av = double(float(random.uniform(-1, 1)));
        float const x = float(s.alpha) * float(av) * float(acc) + float(s.beta) * float(c) + float(bias);
        float const tanh_error = (i % 2 ? 1.f : -1.f) * std::ldexp(1.f, -11);
        float y = x;
        switch (act) {
          case ActivationKind::kReLU: y = x < 0 ? 0.f : x; break;
          case ActivationKind::kGELU: {
            float t = std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x));
            if (s.fast_math) t *= 1.f + tanh_error;
            y = 0.5f * x * (1.f + t);
            break;
          }
          case ActivationKind::kGELUErf: y = 0.5f * x * (1.f + std::erf(x * 0.7071067811865476f)); break;
          case ActivationKind::kSiLU: y = x / (1.f + std::exp(-x)); break;
          case ActivationKind::kSigmoid: y = 1.f / (1.f + std::exp(-x)); break;
          case ActivationKind::kClamp: y = x < -0.5f ? -0.5f : (x > 0.75f ? 0.75f : x); break;
          default: break;
        }
        float const d = y * float(s.scale_d);
        fz::Element const e = fz::reference_element(s, acc, c, bias, av);
        double const got = fz::round_to(out, d);
        unsigned char code[8];
        fz::store(out, code, 0, d);
        bool const ok = fz::is_fp8(out) ? fz::within_one_fp8_code(out, code[0], e.d, e.ed) : fz::within(out, got, e.d, e.ed);
        ASSERT_TRUE(ok) << fz::activation_name(act) << " output of " << fz::bytes_of(out) << " bytes: x " << x
                        << " got " << got << " reference " << e.d << " bound " << e.ed;
        ASSERT_LE(std::fabs(double(y) - e.y), e.ey) << fz::activation_name(act) << " x " << x;
      }
    }
  }
}

// ---- every fused kernel, through its Operation -------------------------------------------------

class FusedKernelTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!runs_here(desc())) GTEST_SKIP() << "the kernel does not run on compute capability " << device_compute_capability();
  }
  GemmDescription const &desc() const { return description(GetParam()); }
  Operation const *op() const { return Singleton::get().manifest.operations()[GetParam()].get(); }

  void run(fz::Case c) {
    c.seed = 0x5eed + GetParam() * 131 + c.m * 7 + c.n * 3 + c.k;
    fz::Problem p(c);
    if (HasFatalFailure()) return;
    p.run_operation(op());
    if (HasFatalFailure()) return;
    p.check(p.describe());
  }
};

/// M, N, K around 1, 7, 129, 257 and past whole tiles (rounded to the kernel's alignments); each
/// combination of bias direction (row, column) and beta (0 with NaN in C, non-zero) occurs.
TEST_P(FusedKernelTest, RaggedShapes) {
  auto const &tb = desc().tile_description.threadblock_shape;
  struct Shape {
    int64_t m, n, k;
  };
  Shape const shapes[] = {{1, 1, 1}, {7, 129, 7}, {129, 7, 257}, {257, 129, 129}, {tb.m() * 2 + 3, tb.n() + 5, tb.k() * 3 + 1}};
  int i = 0;
  for (Shape const &s : shapes) {
    fz::Case c = fz::Case::for_kernel(desc()).shape(s.m, s.n, s.k);
    c.vectors(i % 2 ? kColumn : kRow, i % 2 ? kRow : kColumn);
    c.beta = (i / 2) % 2 ? -0.5 : 0.0;
    run(c);
    if (HasFatalFailure()) return;
    ++i;
  }
}

/// Bias and alpha vector each per row and per column, on one ragged shape, with beta != 0 and
/// clamp bounds of either sign.
TEST_P(FusedKernelTest, VectorDirections) {
  for (VectorBroadcast bias : {kRow, kColumn}) {
    for (VectorBroadcast alpha : {kRow, kColumn}) {
      fz::Case c = fz::Case::for_kernel(desc()).shape(129, 67, 45).vectors(bias, alpha);
      c.beta = 0.75;
      c.clamp_lo = bias == kRow ? -1.5 : 0.25, c.clamp_hi = bias == kRow ? 2.0 : 0.5;
      run(c);
      if (HasFatalFailure()) return;
    }
  }
}

/// Two batch entries: bias, alpha vector and aux advance by their batch strides; the second case
/// has a null scale_d (means 1) when the kernel scales D.
TEST_P(FusedKernelTest, Batched) {
  fz::Case c = fz::Case::for_kernel(desc()).shape(70, 45, 33, 2).vectors(kRow, kColumn);
  c.beta = 1.0;
  run(c);
  if (HasFatalFailure()) return;
  fz::Case d = fz::Case::for_kernel(desc()).shape(33, 70, 45, 2).vectors(kColumn, kRow);
  d.beta = 0.0;
  d.scale_d_null = true;
  run(d);
}

/// C and D the same buffer (each element read before it is overwritten).
TEST_P(FusedKernelTest, DAliasesC) {
  fz::Case c = fz::Case::for_kernel(desc()).shape(150, 90, 70).vectors(kColumn, kRow);
  c.beta = 0.5;
  c.c_is_d = true;
  c.scale_d = 0.625;
  run(c);
}

INSTANTIATE_TEST_SUITE_P(Manifest, FusedKernelTest, ::testing::ValuesIn(fused_kernels()), kernel_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FusedKernelTest);

/// Stream-K fused kernels on problems whose tiles are split (sizes from this device's SM count
/// S): T < S tiles with a long K (about 8 CTAs add into each tile before its epilogue), and
/// S <= T < 2S (every tile split). Only the CTA that finishes a tile runs the fused epilogue.
class FusedStreamKTest : public FusedKernelTest {};

TEST_P(FusedStreamKTest, Splits) {
  int const sms = cutlass_lib_test::device_sm_count();
  ASSERT_GT(sms, 0);
  auto const &tb = desc().tile_description.threadblock_shape;
  // (at least two whole tiles and a ragged third on every side, the few-token tiles included)
  int64_t const m = std::max<int64_t>(3 * tb.m() - 84, 2 * tb.m() + 5), n = std::max<int64_t>(3 * tb.n() - 124, 2 * tb.n() + 5);
  fz::Case c = fz::Case::for_kernel(desc()).shape(m, n, 63 * tb.k() - 32).vectors(kRow, kColumn);
  c.beta = -0.5;
  run(c);
  if (HasFatalFailure()) return;
  fz::Case d = fz::Case::for_kernel(desc()).shape(12 * tb.m(), ((sms + 11) / 12 + 1) * tb.n() - 7, 9 * tb.k())
                   .vectors(kColumn, kRow);
  d.beta = 0.0;
  run(d);
}

INSTANTIATE_TEST_SUITE_P(Manifest, FusedStreamKTest, ::testing::ValuesIn(cutlass_lib_test::stream_k_only(fused_kernels())),
                         kernel_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FusedStreamKTest);

// ---- one kernel per functional key, through the Handle --------------------------------------

class FusedHandleTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!runs_here(desc())) GTEST_SKIP() << "the kernel does not run on compute capability " << device_compute_capability();
  }
  GemmDescription const &desc() const { return description(GetParam()); }

  /// Runs `c` through a Handle whose workspace holds garbage (0x5A bytes: large finite values
  /// in every element type), as it may after earlier calls, and *amax starts at 1e9: the library
  /// zeroes it. Checks the kernel that ran has exactly the requested pieces.
  void run(fz::Case c) {
    c.seed = 0xface + GetParam() * 17 + c.m * 5 + c.n * 3 + c.k;
    c.amax_initial = 1e9f;
    fz::Problem p(c);
    if (HasFatalFailure()) return;
    Handle h;
    if (h.get_workspace()) ASSERT_EQ(cudaSuccess, cudaMemset(h.get_workspace(), 0x5A, h.get_workspace_size()));
    std::string const where = p.describe();
    ASSERT_EQ(cutlass::Status::kSuccess, p.run_handle(h)) << where;
    ASSERT_NE(nullptr, h.get_last_operation()) << where;
    auto const &ran = static_cast<GemmDescription const &>(h.get_last_operation()->description());
    EXPECT_TRUE(ran.epilogue == c.kind) << where << ": ran " << ran.name;
    p.check(where + " ran " + ran.name);
  }
};

/// Problems no kernel takes directly (M, N, K not multiples of the alignments, odd leading
/// dimensions): the library runs the fused kernel on padded copies. Vectors, aux and amax must
/// cover the caller's M x N only, whatever the padding holds: with beta > 0 and M padded (the
/// 7 x 9 x 13 case), C is copied into the padded copy of D, whose padding rows keep the
/// workspace's garbage (positive, so act(beta * garbage) is large for every activation).
TEST_P(FusedHandleTest, RaggedShapes) {
  struct Shape {
    int64_t m, n, k, batch;
    double beta;
    VectorBroadcast bias;
    bool c_is_d;
  };
  Shape const shapes[] = {
      {1, 1, 1, 1, 0.0, kRow, false},        {7, 9, 13, 1, 0.5, kColumn, false},
      {37, 129, 19, 2, -0.5, kRow, true},    {133, 70, 61, 1, 1.0, kColumn, false},
      {9, 300, 7, 1, 0.0, kColumn, false},
  };
  for (Shape const &s : shapes) {
    fz::Case c = fz::Case::for_kernel(desc()).shape(s.m, s.n, s.k, s.batch).vectors(s.bias, s.bias == kRow ? kColumn : kRow);
    c.align_A = c.align_B = c.align_C = 1;
    c.beta = s.beta;
    c.c_is_d = s.c_is_d;
    run(c);
    if (HasFatalFailure()) return;
  }
}

/// Row-major C/D (and aux): per-row and per-column keep their meaning for the caller's D. The
/// caller's A and B are the kernel's B and A transposed (the library computes D^T = B^T A^T).
TEST_P(FusedHandleTest, RowMajorOutput) {
  GemmDescription const &d = desc();
  auto row_major_case = [&](bool aligned) {
    fz::Case c = fz::Case::for_kernel(d);
    c.element_A = d.B.element, c.element_B = d.A.element;
    c.layout_A = fz::transposed(d.B.layout), c.layout_B = fz::transposed(d.A.layout);
    c.layout_C = LayoutTypeID::kRowMajor;
    c.align_A = aligned ? d.B.alignment : 1, c.align_B = aligned ? d.A.alignment : 1, c.align_C = aligned ? d.C.alignment : 1;
    return c;
  };
  fz::Case a = row_major_case(true).shape(64, 40, 32).vectors(kRow, kColumn);
  a.beta = 0.5;
  run(a);
  if (HasFatalFailure()) return;
  fz::Case b = row_major_case(true).shape(48, 72, 40).vectors(kColumn, kRow);
  b.beta = 0.0;
  run(b);
  if (HasFatalFailure()) return;
  fz::Case r = row_major_case(false).shape(29, 13, 11, 2).vectors(kColumn, kRow);
  r.beta = -1.0;
  run(r);
}

std::string key_name(::testing::TestParamInfo<size_t> const &info) { return description(info.param).name; }

INSTANTIATE_TEST_SUITE_P(Keys, FusedHandleTest, ::testing::ValuesIn(fused_keys()), key_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FusedHandleTest);

// ---- Handle statuses -----------------------------------------------------------------------------

void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }

/// A bf16 TN call through the fused gemm_universal with made-up, never dereferenced addresses
/// (every status below is decided before anything is read).
cutlass::Status fused_call(Handle &h, int m, int n, int k, GemmEpilogueArguments const &e,
                           NumericTypeID element = NumericTypeID::kBF16) {
  float const alpha = 1, beta = 0;
  return h.gemm_universal(cutlass::gemm::GemmUniversalMode::kGemm, m, n, k, 1, 1, 1, 1, 1, 1, NumericTypeID::kF32,
                          NumericTypeID::kF32, &alpha, element, LayoutTypeID::kRowMajor, ComplexTransform::kNone,
                          address(0x100000), std::max(k, 1), element, LayoutTypeID::kColumnMajor,
                          ComplexTransform::kNone, address(0x200000), std::max(k, 1), &beta, element, LayoutTypeID::kColumnMajor, address(0x300000), m,
                          element, LayoutTypeID::kColumnMajor, const_cast<void *>(address(0x400000)), m, 1, 0, 0, 0,
                          0, e);
}

GemmEpilogueArguments bias_gelu(NumericTypeID bias_type = NumericTypeID::kBF16) {
  GemmEpilogueArguments e;
  e.kind.activation = ActivationKind::kGELU;
  e.kind.element_bias = bias_type;
  e.bias = address(0x500000);
  return e;
}

/// K == 0 with a fused epilogue: kErrorNotSupported (decided before the device is consulted).
TEST(HandleFused, KZeroIsNotSupported) {
  Handle h;
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, fused_call(h, 64, 64, 0, bias_gelu()));
  EXPECT_EQ(nullptr, h.get_last_operation());
}

/// A piece without its operand, ldaux below D's leading extent, negative vector batch strides,
/// clamp_min > clamp_max and an invalid activation: kErrorInvalidProblem (no device needed).
TEST(HandleFused, MissingOrBadOperandsAreInvalidProblem) {
  Handle h;
  GemmEpilogueArguments e = bias_gelu();
  e.bias = nullptr;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "missing bias";

  e = GemmEpilogueArguments{};
  e.kind.alpha_vector = true;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "missing alpha vector";

  e = bias_gelu();
  e.kind.element_aux = NumericTypeID::kBF16;
  e.ldaux = 64;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "missing aux";
  e.aux = const_cast<void *>(address(0x600000));
  e.ldaux = 63;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "ldaux < M";

  e = bias_gelu();
  e.batch_stride_bias = -1;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "negative bias batch stride";

  e = GemmEpilogueArguments{};
  e.kind.activation = ActivationKind::kClamp;
  e.clamp_min = 1.f, e.clamp_max = -1.f;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "clamp_min > clamp_max";
  e.clamp_min = NAN;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "NaN clamp bound";

  e = GemmEpilogueArguments{};
  e.kind.activation = ActivationKind::kInvalid;
  EXPECT_EQ(cutlass::Status::kErrorInvalidProblem, fused_call(h, 64, 48, 32, e)) << "invalid activation";
  EXPECT_EQ(nullptr, h.get_last_operation());
}

/// Pieces no kernel of the build has (f64 bias and aux with bf16 inputs): kErrorNotSupported.
TEST(HandleFused, NoSuchKernelIsNotSupported) {
  SKIP_WITHOUT_GPU();
  GemmEpilogueArguments e = bias_gelu(NumericTypeID::kF64);
  e.kind.activation = ActivationKind::kSigmoid;
  e.kind.alpha_vector = true;
  e.kind.element_aux = NumericTypeID::kF64;
  e.alpha_vector = static_cast<float const *>(address(0x700000));
  e.aux = const_cast<void *>(address(0x600000));
  e.ldaux = 128;
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    ASSERT_FALSE(description(i).epilogue == e.kind) << description(i).name;
  }
  Handle h;
  EXPECT_EQ(cutlass::Status::kErrorNotSupported, fused_call(h, 128, 64, 32, e));
  EXPECT_EQ(nullptr, h.get_last_operation());
}

/// The unfused epilogue route (src/library/split_k.h; opt-in while it has not run on a GPU:
/// CUTLASS_LIB_UNFUSED_EPILOGUE=1): pieces no built bf16 TN kernel has run as the plain
/// f32-output kernel into the workspace and a second pass applying them. Every piece the pass
/// takes, both vector directions, beta reading C (also C = D), row-major output, ragged shapes;
/// the plain f32-output kernel is what ran. Without the variable the same calls answer
/// kErrorNotSupported.
TEST(HandleFused, UnfusedEpilogueRouteMatchesTheReference) {
  SKIP_WITHOUT_GPU();
  struct Pieces {
    ActivationKind activation;
    bool bias, alpha_vector, aux;
  };
  Pieces const pieces[] = {{ActivationKind::kIdentity, true, false, false},
                           {ActivationKind::kSiLU, true, false, false},
                           {ActivationKind::kSigmoid, false, true, true},
                           {ActivationKind::kClamp, true, true, false},
                           {ActivationKind::kGELUErf, false, false, true}};
  struct Shape {
    int64_t m, n, k;
    double beta;
    LayoutTypeID layout_C;
    bool c_is_d;
  };
  Shape const shapes[] = {{256, 96, 512, 0.0, LayoutTypeID::kColumnMajor, false},
                          {37, 129, 64, 0.5, LayoutTypeID::kColumnMajor, true},
                          {200, 24, 136, -1.0, LayoutTypeID::kRowMajor, false},
                          {64, 40, 100, 0.0, LayoutTypeID::kColumnMajor, false}};   // K of no 16-byte multiple
  int ran = 0;
  for (Pieces const &pc : pieces) {
    EpilogueDescription kind;
    kind.activation = pc.activation;
    kind.element_bias = pc.bias ? NumericTypeID::kBF16 : NumericTypeID::kInvalid;
    kind.alpha_vector = pc.alpha_vector;
    kind.element_aux = pc.aux ? NumericTypeID::kBF16 : NumericTypeID::kInvalid;
    bool built = false;   // a fused bf16 kernel of exactly these pieces: the route is not taken
    for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
      GemmDescription const &d = description(i);   // a dense (not grouped) bf16 kernel
      built = built || (d.epilogue == kind && d.gemm_kind == GemmKind::kUniversal &&
                        d.A.element == NumericTypeID::kBF16 && d.C.element == NumericTypeID::kBF16);
    }
    if (built) continue;
    for (Shape const &sh : shapes) {
      fz::Case c;
      c.kind = kind;
      c.shape(sh.m, sh.n, sh.k).vectors(sh.m % 2 ? kColumn : kRow, sh.m % 2 ? kRow : kColumn);
      c.beta = sh.beta;
      c.layout_C = sh.layout_C;
      c.c_is_d = sh.c_is_d;
      c.seed = 0xf00d + uint64_t(sh.m * 7 + sh.n);
      fz::Problem p(c);
      ASSERT_FALSE(HasFatalFailure());
      std::string const where = p.describe();
      Handle off;
      ASSERT_EQ(0, unsetenv("CUTLASS_LIB_UNFUSED_EPILOGUE"));
      EXPECT_EQ(cutlass::Status::kErrorNotSupported, p.run_handle(off)) << where << ": the route is opt-in";
      ASSERT_EQ(0, setenv("CUTLASS_LIB_UNFUSED_EPILOGUE", "1", 1));
      Handle h;
      cutlass::Status const status = p.run_handle(h);
      ASSERT_EQ(0, unsetenv("CUTLASS_LIB_UNFUSED_EPILOGUE"));
      ASSERT_EQ(cutlass::Status::kSuccess, status) << where;
      ASSERT_NE(nullptr, h.get_last_operation()) << where;
      auto const &kernel = static_cast<GemmDescription const &>(h.get_last_operation()->description());
      EXPECT_EQ(NumericTypeID::kF32, kernel.C.element) << where << ": ran " << kernel.name;
      EXPECT_FALSE(kernel.epilogue.fused()) << where << ": ran " << kernel.name;
      p.check(where + " (unfused route, " + kernel.name + ")");
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "this build has a fused bf16 kernel for every piece combination tried";
}

/// Every operation-table entry holds kernels of exactly its key's epilogue, so a plain key never
/// reaches a fused kernel (runs without a device).
TEST(HandleFused, PlainKeysHoldOnlyPlainKernels) {
  for (auto const &entry : Singleton::get().operation_table.gemm_operations) {
    for (Operation const *op : entry.second) {
      auto const &d = static_cast<GemmDescription const &>(op->description());
      EXPECT_TRUE(d.epilogue == entry.first.epilogue) << d.name << " under a key with another epilogue";
    }
  }
}

/// Plain calls with the types and layouts of every fused key run a plain kernel (or, for fp8
/// outputs, which exist only fused, find none): aligned and ragged shapes, checked against the
/// reference.
TEST(HandleFused, PlainCallsNeverPickFusedKernels) {
  SKIP_WITHOUT_GPU();
  std::vector<GemmFunctionalKey> done;
  for (size_t index : fused_keys()) {
    GemmDescription const &d = description(index);
    if (!runs_here(d)) continue;
    GemmFunctionalKey key = make_gemm_functional_key(d);
    key.epilogue = EpilogueDescription{};
    if (std::any_of(done.begin(), done.end(), [&](GemmFunctionalKey const &k) { return same_key(k, key); })) continue;
    done.push_back(key);
    // A plain call runs a plain kernel of the key; the block-scaled ones share it but need scales.
    GemmOperationVector const *plain = Singleton::get().operation_table.find_gemm(key);
    bool const plain_exists = plain && std::any_of(plain->begin(), plain->end(), [](Operation const *op) {
                                return !static_cast<GemmDescription const &>(op->description()).block_scaled;
                              });
    for (int ragged = 0; ragged < 2; ++ragged) {
      fz::Case c = fz::Case::for_kernel(d);
      c.kind = EpilogueDescription{};
      if (ragged) {
        c.align_A = c.align_B = c.align_C = 1;
        c.shape(37, 21, 19);
      } else {
        c.shape(128, 64, 64);
      }
      c.beta = 0.5;
      c.seed = index * 2 + ragged;
      fz::Problem p(c);
      Handle h;
      cutlass::Status const status = p.run_handle(h);
      std::string const where = std::string(d.name) + " (plain call with its types) " + p.describe();
      if (!plain_exists) {
        // NOT_SUPPORTED without any kernel of the key; "no kernel fits" when only block-scaled ones
        EXPECT_TRUE(status == cutlass::Status::kErrorNotSupported ||
                    (plain && status == cutlass::Status::kErrorMisalignedOperand))
            << where;
        EXPECT_EQ(nullptr, h.get_last_operation()) << where;
        continue;
      }
      ASSERT_EQ(cutlass::Status::kSuccess, status) << where;
      ASSERT_NE(nullptr, h.get_last_operation());
      auto const &ran = static_cast<GemmDescription const &>(h.get_last_operation()->description());
      EXPECT_FALSE(ran.epilogue.fused()) << where << " ran the fused kernel " << h.last_operation_name();
      p.check(where + " ran " + ran.name);
    }
  }
}

// ---- the C API on a GPU -----------------------------------------------------------------------

class CApiEpilogueGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibCreate(&handle_));
  }
  void TearDown() override {
    if (handle_) cutlassLibDestroy(handle_);
  }

  /// The kernel GemmEx would run for p (C in place: p.c_is_d), or the status.
  cutlassLibStatus_t select(fz::Problem const &p, cudaDataType_t ab, cudaDataType_t c, char const **name) {
    float const alpha = float(p.spec().alpha), beta = float(p.spec().beta);
    return cutlassLibGemmExSelect(handle_, op(p.spec().layout_A), op(p.spec().layout_B), p.m, p.n, p.k, &alpha,
                                  p.A.ptr(), ab, p.lda, p.B.ptr(), ab, p.ldb, &beta, p.D.ptr(), c, p.ldd,
                                  CUTLASS_LIB_COMPUTE_32F, name);
  }
  cutlassLibStatus_t gemm(fz::Problem const &p, cudaDataType_t ab, cudaDataType_t c) {
    float const alpha = float(p.spec().alpha), beta = float(p.spec().beta);
    if (p.batch == 1) {
      return cutlassLibGemmEx(handle_, op(p.spec().layout_A), op(p.spec().layout_B), p.m, p.n, p.k, &alpha, p.A.ptr(),
                              ab, p.lda, p.B.ptr(), ab, p.ldb, &beta, p.D.ptr(), c, p.ldd, CUTLASS_LIB_COMPUTE_32F);
    }
    return cutlassLibGemmStridedBatchedEx(handle_, op(p.spec().layout_A), op(p.spec().layout_B), p.m, p.n, p.k, &alpha,
                                          p.A.ptr(), ab, p.lda, p.stride_A, p.B.ptr(), ab, p.ldb, p.stride_B, &beta,
                                          p.D.ptr(), c, p.ldd, p.stride_D, p.batch, CUTLASS_LIB_COMPUTE_32F);
  }
  static cutlassLibOperation_t op(LayoutTypeID l) { return l == LayoutTypeID::kColumnMajor ? CUTLASS_LIB_OP_N : CUTLASS_LIB_OP_T; }

  /// Sets the handle's operands from p (bias, alpha vector, aux, scale / amax, clamp).
  void set_operands(fz::Problem const &p, cudaDataType_t vector_type) {
    auto mode = [](VectorBroadcast b) { return b == kRow ? CUTLASS_LIB_VECTOR_PER_ROW : CUTLASS_LIB_VECTOR_PER_COLUMN; };
    if (p.has_bias()) {
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
                cutlassLibSetEpilogueBias(handle_, p.bias.ptr(), vector_type, mode(p.spec().bias_broadcast), p.stride_bias));
    }
    if (p.has_aux()) {
      ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueAux(handle_, p.aux.ptr(), vector_type, p.ldaux, p.stride_aux));
    }
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS,
              cutlassLibSetEpilogueAlphaVector(handle_, static_cast<float const *>(p.alpha_vector.ptr()),
                                               mode(p.spec().alpha_broadcast), p.stride_alpha));
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, p.scale_d_ptr(), p.amax_ptr()));
  }

  /// A bf16 TN problem with C updated in place (C is D), as GemmEx computes.
  static fz::Case bf16_tn(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
    fz::Case c;
    c.element_A = c.element_B = c.element_C = NumericTypeID::kBF16;
    c.layout_A = LayoutTypeID::kRowMajor, c.layout_B = LayoutTypeID::kColumnMajor;
    c.shape(m, n, k, batch);
    c.c_is_d = true;
    c.beta = 0.5;
    return c;
  }

  /// p through cutlassLibGemmEx (cutlassLibGemmStridedBatchedEx when batched; A, B of type ab, C
  /// of type c), the handle's epilogue operands set from p (bias and aux in bf16): the kernel
  /// selected must end in `suffix`, D is checked; the test skips when the build has no kernel.
  void run_selected(fz::Problem &p, cudaDataType_t ab, cudaDataType_t c, char const *suffix) {
    set_operands(p, CUDA_R_16BF);
    if (HasFatalFailure()) return;
    char const *name = nullptr;
    cutlassLibStatus_t const s = select(p, ab, c, &name);
    if (s == CUTLASS_LIB_STATUS_NO_KERNEL) GTEST_SKIP() << "this build has no " << suffix << " kernel for " << p.describe();
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, s);
    ASSERT_NE(nullptr, name);
    EXPECT_TRUE(ends_with(name, suffix)) << name;
    ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, gemm(p, ab, c)) << p.describe();
    p.check(p.describe() + " via the C API, selected " + name);
  }

  static bool ends_with(std::string const &s, std::string const &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  cutlassLibHandle_t handle_ = nullptr;
};

/// GELU_BIAS on bf16 TN (bias per row, cuBLASLt's orientation): GemmExSelect names a *bias_gelu
/// kernel and GemmEx matches the reference, aligned and ragged.
TEST_F(CApiEpilogueGpu, GeluBiasBf16TnMatchesReference) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  for (int ragged = 0; ragged < 2; ++ragged) {
    fz::Case c = bf16_tn(ragged ? 77 : 256, ragged ? 33 : 136, ragged ? 50 : 96);
    c.kind.activation = ActivationKind::kGELU;
    c.kind.element_bias = NumericTypeID::kBF16;
    c.vectors(kRow, kColumn);
    if (!ragged) c.align_A = c.align_B = c.align_C = 8;
    c.seed = 40 + ragged;
    fz::Problem p(c);
    run_selected(p, CUDA_R_16BF, CUDA_R_16BF, "bias_gelu");
    if (IsSkipped() || HasFatalFailure()) return;
  }
}

/// GemmStridedBatchedEx with a per-column bias and its batch stride; then the DEFAULT epilogue
/// selects a plain kernel again.
TEST_F(CApiEpilogueGpu, StridedBatchedBiasPerColumnThenDefault) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU_BIAS));
  fz::Case c = bf16_tn(96, 64, 40, 3);
  c.kind.activation = ActivationKind::kReLU;
  c.kind.element_bias = NumericTypeID::kBF16;
  c.vectors(kColumn, kRow);
  c.align_A = c.align_B = c.align_C = 8;
  c.beta = -0.75;
  c.seed = 77;
  fz::Problem p(c);
  run_selected(p, CUDA_R_16BF, CUDA_R_16BF, "bias_relu");
  if (IsSkipped() || HasFatalFailure()) return;

  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_DEFAULT));
  char const *name = nullptr;
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, select(p, CUDA_R_16BF, CUDA_R_16BF, &name));
  ASSERT_NE(nullptr, name);
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    if (std::strcmp(description(i).name, name) == 0) EXPECT_FALSE(description(i).epilogue.fused()) << name;
  }
}

/// bf16 x bf16 -> e4m3 with bias + GELU, scale_d = 1.5 and amax (amax starts non-zero: the
/// library zeroes it). Needs the fp8 epilogue kernel (full set only: skips without it).
TEST_F(CApiEpilogueGpu, Fp8OutputScaleAmax) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_GELU_BIAS));
  fz::Case c = bf16_tn(128, 96, 64);
  c.element_C = NumericTypeID::kFE4M3;
  c.kind.activation = ActivationKind::kGELU;
  c.kind.element_bias = NumericTypeID::kBF16;
  c.kind.scale_amax = true;
  c.vectors(kRow, kColumn);
  c.align_A = c.align_B = 8, c.align_C = 16;
  c.amax_initial = 1e9f;
  c.seed = 88;
  fz::Problem p(c);
  run_selected(p, CUDA_R_16BF, CUDA_R_8F_E4M3, "bias_gelu_amax");
  if (IsSkipped() || HasFatalFailure()) return;

  // Without scale/amax set, fp8 outputs are not offered.
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogueScaleAmax(handle_, nullptr, nullptr));
  char const *name = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NOT_SUPPORTED, select(p, CUDA_R_16BF, CUDA_R_8F_E4M3, &name));
}

/// e4m3 operands to e4m3 / e5m2 through cutlassLibGemmEx: bias (bf16) + ReLU, D scale and amax.
TEST_F(CApiEpilogueGpu, Fp8OperandsToFp8OutputScaleAmax) {
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU_BIAS));
  for (cudaDataType_t out : {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2}) {
    fz::Case c = bf16_tn(136, 80, 256);
    c.element_A = c.element_B = NumericTypeID::kFE4M3;
    c.element_C = out == CUDA_R_8F_E4M3 ? NumericTypeID::kFE4M3 : NumericTypeID::kFE5M2;
    c.kind.activation = ActivationKind::kReLU;
    c.kind.element_bias = NumericTypeID::kBF16;
    c.kind.scale_amax = true;
    c.vectors(kRow, kRow);
    c.align_A = c.align_B = c.align_C = 16;
    c.amax_initial = -1.f;
    c.seed = out == CUDA_R_8F_E4M3 ? 89 : 90;
    fz::Problem p(c);
    run_selected(p, CUDA_R_8F_E4M3, out, "bias_relu_amax");
    if (IsSkipped() || HasFatalFailure()) return;
  }
}

/// An epilogue the build lacks for the types (f64 has no fused kernels): NO_KERNEL.
TEST_F(CApiEpilogueGpu, EpilogueWithoutKernelIsNoKernel) {
  for (size_t i = 0; i < Singleton::get().manifest.size(); ++i) {
    GemmDescription const &d = description(i);
    if (d.A.element == NumericTypeID::kF64 && d.epilogue.fused()) GTEST_SKIP() << "this build has fused f64 kernels";
  }
  ASSERT_EQ(CUTLASS_LIB_STATUS_SUCCESS, cutlassLibSetEpilogue(handle_, CUTLASS_LIB_EPILOGUE_RELU));
  cutlass_lib_test::DeviceBuffer a(64 * 64 * 8), b(64 * 64 * 8), cbuf(64 * 64 * 8);
  double const alpha = 1, beta = 0;
  char const *name = nullptr;
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_KERNEL,
            cutlassLibGemmExSelect(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha, a.get(), CUDA_R_64F, 64,
                                   b.get(), CUDA_R_64F, 64, &beta, cbuf.get(), CUDA_R_64F, 64, CUTLASS_LIB_COMPUTE_64F,
                                   &name));
  EXPECT_EQ(CUTLASS_LIB_STATUS_NO_KERNEL,
            cutlassLibGemmEx(handle_, CUTLASS_LIB_OP_N, CUTLASS_LIB_OP_N, 64, 64, 64, &alpha, a.get(), CUDA_R_64F, 64,
                             b.get(), CUDA_R_64F, 64, &beta, cbuf.get(), CUDA_R_64F, 64, CUTLASS_LIB_COMPUTE_64F));
}

}  // namespace
