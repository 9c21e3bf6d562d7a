/// One fused-epilogue GEMM problem for the GPU tests: operands on the host and the device
/// (uniform [-1, 1], never zero, NaN in C when beta == 0), D and aux poisoned and surrounded by
/// guard bands, the vectors with batch strides, scale_d and amax; runs through an Operation, the
/// Handle or the C API and checks D, aux and amax element by element against the host reference
/// (fused_reference.h) and every byte outside the M x N regions against its poisoned value.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass/library/library.h"
#include "fused_reference.h"
#include "gpu_test_util.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"

namespace cutlass_lib_test {
namespace fused {

using cutlass::library::EpilogueDescription;
using cutlass::library::GemmDescription;
using cutlass::library::GemmEpilogueArguments;
using cutlass::library::LayoutTypeID;

/// splitmix64 (Steele, Lea, Flood 2014): reproducible host data.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t state_;
};

/// A typed device array with kGuardBytes of guard band before and after it, and its host image.
class GuardedBuffer {
 public:
  static constexpr int64_t kGuardBytes = 256;   // keeps 256-byte alignment of the data

  GuardedBuffer() = default;
  GuardedBuffer(NumericTypeID type, int64_t count)
      : type_(type), count_(count), host_(size_t(count * bytes_of(type) + 2 * kGuardBytes), 0), device_(host_.size()) {}

  NumericTypeID type() const { return type_; }
  int64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  /// Device address of element 0 (null when empty).
  void *ptr() const { return count_ ? device_.bytes_ptr() + kGuardBytes : nullptr; }
  unsigned char *host() { return host_.data() + kGuardBytes; }
  unsigned char const *host() const { return host_.data() + kGuardBytes; }
  std::vector<unsigned char> const &image() const { return host_; }
  double at(int64_t i) const { return load(type_, host(), i); }
  void set(int64_t i, double v) { store(type_, host(), i, v); }
  int64_t guard_elements() const { return kGuardBytes / bytes_of(type_); }

  /// Every element, guard bands included, becomes the type's NaN.
  void poison() {
    int64_t const total = int64_t(host_.size()) / bytes_of(type_);
    for (int64_t i = 0; i < total; ++i) store_nan(type_, host_.data(), i);
  }
  /// Elements [0, count) uniform in [lo, hi], rounded to the type, never zero.
  void fill_uniform(Random &random, double lo = -1, double hi = 1) {
    for (int64_t i = 0; i < count_; ++i) {
      double v = 0;
      while (v == 0) v = round_to(type_, random.uniform(lo, hi));
      set(i, v);
    }
  }
  bool upload() const {
    return host_.empty() || cudaMemcpy(device_.get(), host_.data(), host_.size(), cudaMemcpyHostToDevice) == cudaSuccess;
  }
  bool download() {
    return host_.empty() || cudaMemcpy(host_.data(), device_.get(), host_.size(), cudaMemcpyDeviceToHost) == cudaSuccess;
  }

 private:
  NumericTypeID type_ = NumericTypeID::kInvalid;
  int64_t count_ = 0;
  std::vector<unsigned char> host_;
  DeviceBuffer device_;
};

inline int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

inline LayoutTypeID transposed(LayoutTypeID l) {
  return l == LayoutTypeID::kColumnMajor ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
}

/// What one run computes, in the caller's view (row-major C/D allowed on the Handle path).
struct Case {
  NumericTypeID element_A = NumericTypeID::kBF16, element_B = NumericTypeID::kBF16;
  NumericTypeID element_C = NumericTypeID::kBF16;   ///< C and D
  LayoutTypeID layout_A = LayoutTypeID::kRowMajor, layout_B = LayoutTypeID::kColumnMajor;
  LayoutTypeID layout_C = LayoutTypeID::kColumnMajor;   ///< C, D and aux
  EpilogueDescription kind;
  /// Extents are rounded up to these (a kernel's documented rule when it runs directly; 1 on the
  /// Handle path, which handles ragged problems itself) and leading dimensions padded beyond them.
  int align_A = 1, align_B = 1, align_C = 1;
  int small_limit = 0;   ///< the kernel's max_small_extent: shape() keeps min(M, N) within it
  int64_t m = 1, n = 1, k = 1, batch = 1;
  double alpha = 1.25, beta = 0;
  VectorBroadcast bias_broadcast = VectorBroadcast::kPerRow;
  VectorBroadcast alpha_broadcast = VectorBroadcast::kPerColumn;
  bool c_is_d = false;        ///< C and D are the same buffer (beta != 0)
  bool scale_d_null = false;  ///< scale_amax with a null scale_d (means 1)
  double scale_d = 1.5;
  double clamp_lo = -0.5, clamp_hi = 0.75;
  float amax_initial = 0.f;   ///< *amax before the run (the library zeroes it; an Operation does not)
  uint64_t seed = 1;

  /// A case for kernel `d` run directly: its types, layouts, pieces and alignments.
  static Case for_kernel(GemmDescription const &d) {
    Case c;
    c.element_A = d.A.element, c.element_B = d.B.element, c.element_C = d.C.element;
    c.layout_A = d.A.layout, c.layout_B = d.B.layout, c.layout_C = LayoutTypeID::kColumnMajor;
    c.kind = d.epilogue;
    c.align_A = d.A.alignment, c.align_B = d.B.alignment, c.align_C = d.C.alignment;
    c.small_limit = d.max_small_extent;
    return c;
  }
  Case &shape(int64_t m_, int64_t n_, int64_t k_, int64_t batch_ = 1) {
    m = m_, n = n_, k = k_, batch = batch_;
    cutlass_lib_test::fit_small_side(small_limit, m, n);
    return *this;
  }
  Case &vectors(VectorBroadcast bias, VectorBroadcast alpha_vector) {
    bias_broadcast = bias, alpha_broadcast = alpha_vector;
    return *this;
  }
};

inline char const *broadcast_name(VectorBroadcast b) { return b == VectorBroadcast::kPerRow ? "row" : "column"; }

class Problem {
 public:
  explicit Problem(Case const &c) : c_(c) {
    bool const a_column = c.layout_A == LayoutTypeID::kColumnMajor;
    bool const b_column = c.layout_B == LayoutTypeID::kColumnMajor;
    bool const c_column = c.layout_C == LayoutTypeID::kColumnMajor;
    int64_t const align_m = std::lcm<int64_t>(c_column ? c.align_C : 1, a_column ? c.align_A : 1);
    int64_t const align_n = std::lcm<int64_t>(c_column ? 1 : c.align_C, b_column ? 1 : c.align_B);
    int64_t const align_k = std::lcm<int64_t>(a_column ? 1 : c.align_A, b_column ? c.align_B : 1);
    m = round_up(c.m, align_m), n = round_up(c.n, align_n), k = round_up(c.k, align_k), batch = c.batch;
    lda = (a_column ? m : k) + c.align_A;
    ldb = (b_column ? k : n) + c.align_B;
    int64_t const extent = c_column ? m : n, others = c_column ? n : m;
    ldc = extent + c.align_C;
    ldd = extent + 2 * c.align_C;
    ldaux = extent + 3;
    stride_A = lda * (a_column ? k : m) + c.align_A;
    stride_B = ldb * (b_column ? n : k) + c.align_B;
    stride_C = ldc * others + c.align_C;
    stride_D = ldd * others + c.align_C;
    stride_aux = ldaux * others + 7;
    bias_length = c.bias_broadcast == VectorBroadcast::kPerRow ? m : n;
    alpha_length = c.alpha_broadcast == VectorBroadcast::kPerRow ? m : n;
    stride_bias = batch > 1 ? bias_length + 5 : 0;
    stride_alpha = batch > 1 ? alpha_length + 3 : 0;

    Random random(c.seed);
    A = GuardedBuffer(c.element_A, stride_A * batch);
    B = GuardedBuffer(c.element_B, stride_B * batch);
    A.fill_uniform(random);
    B.fill_uniform(random);
    D = GuardedBuffer(c.element_C, stride_D * batch);
    D.poison();
    if (c.c_is_d) {
      D.fill_uniform(random);   // the source values; the guard bands stay poisoned
    } else {
      C = GuardedBuffer(c.element_C, stride_C * batch);
      C.poison();
      if (c.beta != 0) C.fill_uniform(random);   // beta == 0: NaN in C must not reach D
    }
    if (has_bias()) {
      bias = GuardedBuffer(c.kind.element_bias, stride_bias * (batch - 1) + bias_length);
      bias.fill_uniform(random);
    }
    if (c.kind.alpha_vector) {
      alpha_vector = GuardedBuffer(NumericTypeID::kF32, stride_alpha * (batch - 1) + alpha_length);
      alpha_vector.fill_uniform(random);
    }
    if (has_aux()) {
      aux = GuardedBuffer(c.kind.element_aux, stride_aux * batch);
      aux.poison();
    }
    if (c.kind.scale_amax) {
      scalars = GuardedBuffer(NumericTypeID::kF32, 4);   // [guard, scale_d, amax, guard]
      scalars.poison();
      scalars.set(1, c.scale_d);
      scalars.set(2, c.amax_initial);
    }
    D_before = D.image();
    aux_before = aux.image();
    scalars_before = scalars.image();
    for (GuardedBuffer const *b : {&A, &B, &C, &D, &bias, &alpha_vector, &aux, &scalars}) {
      if (!b->upload()) ADD_FAILURE() << "upload failed";
    }
    // The exact product A*B per element (the device reference GEMM sums in double, stores f32).
    product = DeviceBuffer(size_t(m * n * batch) * sizeof(float));
    cutlass::reference::GemmProblem p;
    p.m = m, p.n = n, p.k = k, p.batch_count = batch;
    p.element_A = c.element_A, p.element_B = c.element_B, p.element_C = NumericTypeID::kF32;
    p.layout_A = c.layout_A, p.layout_B = c.layout_B, p.layout_C = LayoutTypeID::kColumnMajor;
    p.alpha = 1, p.beta = 0;
    p.A = A.ptr(), p.lda = lda, p.batch_stride_A = stride_A;
    p.B = B.ptr(), p.ldb = ldb, p.batch_stride_B = stride_B;
    p.D = product.get(), p.ldd = m, p.batch_stride_D = m * n;
    if (m * n * batch > 0 && !cutlass::reference::reference_gemm(p)) ADD_FAILURE() << "reference GEMM failed";
  }

  bool has_bias() const { return c_.kind.element_bias != NumericTypeID::kInvalid; }
  bool has_aux() const { return c_.kind.element_aux != NumericTypeID::kInvalid; }
  Case const &spec() const { return c_; }

  void const *c_ptr() const { return c_.c_is_d ? D.ptr() : C.ptr(); }
  int64_t c_ld() const { return c_.c_is_d ? ldd : ldc; }
  int64_t c_stride() const { return c_.c_is_d ? stride_D : stride_C; }
  float *amax_ptr() const { return c_.kind.scale_amax ? static_cast<float *>(scalars.ptr()) + 2 : nullptr; }
  float const *scale_d_ptr() const {
    return c_.kind.scale_amax && !c_.scale_d_null ? static_cast<float const *>(scalars.ptr()) + 1 : nullptr;
  }

  GemmEpilogueArguments epilogue_arguments() const {
    GemmEpilogueArguments e;
    e.kind = c_.kind;
    e.bias = bias.ptr();
    e.bias_broadcast = c_.bias_broadcast;
    e.batch_stride_bias = stride_bias;
    e.alpha_vector = static_cast<float const *>(alpha_vector.ptr());
    e.alpha_vector_broadcast = c_.alpha_broadcast;
    e.batch_stride_alpha_vector = stride_alpha;
    e.aux = aux.ptr();
    e.ldaux = has_aux() ? ldaux : 0;
    e.batch_stride_aux = has_aux() ? stride_aux : 0;
    e.scale_d = scale_d_ptr();
    e.amax = amax_ptr();
    e.clamp_min = float(c_.clamp_lo);
    e.clamp_max = float(c_.clamp_hi);
    return e;
  }

  std::string describe() const {
    std::ostringstream s;
    s << "m=" << m << " n=" << n << " k=" << k << " batch=" << batch << " alpha=" << c_.alpha << " beta=" << c_.beta
      << (c_.beta == 0 && !c_.c_is_d ? " (NaN C)" : "") << (c_.c_is_d ? " C==D" : "")
      << (c_.layout_C == LayoutTypeID::kRowMajor ? " row-major D" : "") << " act=" << activation_name(c_.kind.activation);
    if (has_bias()) s << " bias per " << broadcast_name(c_.bias_broadcast);
    if (c_.kind.alpha_vector) s << " alpha vector per " << broadcast_name(c_.alpha_broadcast);
    if (has_aux()) s << " aux ld " << ldaux;
    if (c_.kind.scale_amax) s << " scale_d " << (c_.scale_d_null ? "null" : std::to_string(c_.scale_d));
    if (c_.kind.activation == ActivationKind::kClamp) s << " clamp [" << c_.clamp_lo << ", " << c_.clamp_hi << "]";
    return s.str();
  }

  /// Runs `op` on the problem as the existing kernel test does (C/D column-major only); the
  /// caller zeroes amax (amax_initial = 0), as the library does.
  void run_operation(cutlass::library::Operation const *op) const {
    using namespace cutlass::library;
    ASSERT_EQ(LayoutTypeID::kColumnMajor, c_.layout_C);
    float const scalars_host[2] = {float(c_.alpha), float(c_.beta)};
    GemmUniversalConfiguration cfg;
    cfg.mode = batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;
    cfg.problem_size = cutlass::gemm::GemmCoord(int(m), int(n), int(k));
    cfg.batch_count = int(batch);
    cfg.lda = lda, cfg.ldb = ldb, cfg.ldc = c_ld(), cfg.ldd = ldd;
    GemmUniversalArguments args;
    args.problem_size = cfg.problem_size;
    args.batch_count = cfg.batch_count;
    args.A = A.ptr(), args.B = B.ptr(), args.C = c_ptr(), args.D = D.ptr();
    args.alpha = &scalars_host[0], args.beta = &scalars_host[1];
    args.lda = lda, args.ldb = ldb, args.ldc = c_ld(), args.ldd = ldd;
    args.batch_stride_A = stride_A, args.batch_stride_B = stride_B;
    args.batch_stride_C = c_stride(), args.batch_stride_D = stride_D;
    args.epilogue = epilogue_arguments();
    ASSERT_EQ(cutlass::Status::kSuccess, op->can_implement(cfg, args)) << describe();
    DeviceBuffer workspace(op->get_device_workspace_size(cfg, args));
    std::vector<uint8_t> host_workspace(op->get_host_workspace_size(cfg));
    ASSERT_EQ(cutlass::Status::kSuccess, op->initialize(cfg, host_workspace.data(), workspace.get(), nullptr));
    ASSERT_EQ(cutlass::Status::kSuccess, op->run(args, host_workspace.data(), workspace.get(), nullptr)) << describe();
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << cudaGetErrorString(cudaGetLastError()) << " " << describe();
  }

  /// Runs the problem through Handle::gemm_universal with the fused epilogue.
  cutlass::Status run_handle(cutlass::library::Handle &h) const {
    using namespace cutlass::library;
    float const alpha = float(c_.alpha), beta = float(c_.beta);
    auto const mode = batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;
    return h.gemm_universal(mode, int(m), int(n), int(k), 1, 1, 1, 1, 1, 1, NumericTypeID::kF32, NumericTypeID::kF32,
                            &alpha, c_.element_A, c_.layout_A, ComplexTransform::kNone, A.ptr(), lda, c_.element_B,
                            c_.layout_B, ComplexTransform::kNone, B.ptr(), ldb, &beta, c_.element_C, c_.layout_C,
                            c_ptr(), c_ld(), c_.element_C, c_.layout_C, D.ptr(), ldd, int(batch), stride_A, stride_B,
                            c_stride(), stride_D, epilogue_arguments());
  }

  /// Compares D, aux and amax with the host reference and checks the guard bands and the
  /// padding between columns (everything outside the M x N regions) kept their poison.
  void check(std::string const &where) {
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << where;
    ASSERT_TRUE(D.download());
    ASSERT_TRUE(aux.download());
    ASSERT_TRUE(scalars.download());
    std::vector<float> acc(size_t(m * n * batch));
    if (!acc.empty()) {
      ASSERT_EQ(cudaSuccess, cudaMemcpy(acc.data(), product.get(), acc.size() * sizeof(float), cudaMemcpyDeviceToHost));
    }
    bool const column = c_.layout_C == LayoutTypeID::kColumnMajor;
    auto offset = [&](int64_t i, int64_t j, int64_t ld) { return column ? i + j * ld : i * ld + j; };
    Spec s;
    s.activation = c_.kind.activation;
    s.alpha = c_.alpha, s.beta = c_.beta;
    s.scale_d = c_.kind.scale_amax && !c_.scale_d_null ? double(float(c_.scale_d)) : 1.0;
    s.clamp_lo = double(float(c_.clamp_lo)), s.clamp_hi = double(float(c_.clamp_hi));
    s.k = k;
    s.fast_math = bytes_of(c_.element_C) <= 2;
    s.fp8_inputs = is_fp8(c_.element_A);
    bool const fp8 = is_fp8(c_.element_C);

    // The source values as the kernel saw them: C, or D before the run when C is D.
    GuardedBuffer const *source = c_.c_is_d ? nullptr : &C;
    auto source_at = [&](int64_t index) {
      return source ? source->at(index) : load(c_.element_C, D_before.data() + GuardedBuffer::kGuardBytes, index);
    };

    int64_t d_bad = 0, aux_bad = 0;
    double amax_ref = 0, amax_err = 0;
    std::ostringstream report;
    for (int64_t l = 0; l < batch; ++l) {
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < m; ++i) {
          double const a = acc[size_t(l * m * n + i + j * m)];
          double const cv = c_.beta != 0 ? source_at(l * c_stride() + offset(i, j, c_ld())) : 0.0;
          double const bv = has_bias() ? bias.at(l * stride_bias + (c_.bias_broadcast == VectorBroadcast::kPerRow ? i : j)) : 0.0;
          double const av =
              c_.kind.alpha_vector ? alpha_vector.at(l * stride_alpha + (c_.alpha_broadcast == VectorBroadcast::kPerRow ? i : j)) : 1.0;
          Element const e = reference_element(s, a, cv, bv, av);
          amax_ref = std::max(amax_ref, std::fabs(e.y));
          amax_err = std::max(amax_err, e.ey);
          int64_t const di = l * stride_D + offset(i, j, ldd);
          bool ok;
          double got;
          if (fp8) {
            uint8_t const code = D.host()[di];
            got = load(c_.element_C, D.host(), di);
            ok = within_one_fp8_code(c_.element_C, code, e.d, e.ed);
          } else {
            got = D.at(di);
            ok = within(c_.element_C, got, e.d, e.ed);
          }
          if (!ok && ++d_bad <= 5) {
            report << "\n  D(" << i << ", " << j << ", batch " << l << ") = " << got << ", reference " << e.d
                   << " (bound " << e.ed << "; x = " << e.x << ", acc = " << a << ", C = " << cv << ", bias = " << bv
                   << ", alpha_vector = " << av << ")";
          }
          if (has_aux()) {
            double const x = aux.at(l * stride_aux + offset(i, j, ldaux));
            if (!within(c_.kind.element_aux, x, e.x, e.ex) && ++aux_bad <= 5) {
              report << "\n  aux(" << i << ", " << j << ", batch " << l << ") = " << x << ", reference " << e.x
                     << " (bound " << e.ex << ")";
            }
          }
        }
      }
    }
    EXPECT_EQ(0, d_bad) << where << ": " << d_bad << " of " << m * n * batch << " D elements off" << report.str();
    EXPECT_EQ(0, aux_bad) << where << ": " << aux_bad << " aux elements off" << report.str();

    int64_t const extent = column ? m : n, others = column ? n : m;
    EXPECT_EQ("", outside_changes(D, D_before, ldd, stride_D, extent, others, batch)) << where << ": D";
    if (has_aux()) EXPECT_EQ("", outside_changes(aux, aux_before, ldaux, stride_aux, extent, others, batch)) << where << ": aux";
    if (c_.kind.scale_amax) {
      EXPECT_EQ(0, std::memcmp(scalars.image().data(), scalars_before.data(), GuardedBuffer::kGuardBytes + 8))
          << where << ": the kernel wrote before amax (or changed scale_d)";
      EXPECT_EQ(0, std::memcmp(scalars.image().data() + GuardedBuffer::kGuardBytes + 12,
                               scalars_before.data() + GuardedBuffer::kGuardBytes + 12, GuardedBuffer::kGuardBytes + 4))
          << where << ": the kernel wrote after amax";
      double const amax = scalars.at(2);
      EXPECT_LE(std::fabs(amax - amax_ref), amax_err * (1 + 1e-6) + std::ldexp(1.0, -23) * amax_ref)
          << where << ": amax " << amax << ", reference max |act(x)| " << amax_ref << " (bound " << amax_err << ")";
    }
  }

  /// "" when every element of `b` outside the (extent x others) regions of its `batch` entries
  /// (leading dimension ld, batch stride `stride`), guard bands included, kept its bytes; else a report.
  static std::string outside_changes(GuardedBuffer const &b, std::vector<unsigned char> const &before, int64_t ld,
                                     int64_t stride, int64_t extent, int64_t others, int64_t batch) {
    int64_t const eb = bytes_of(b.type());
    int64_t const total = int64_t(before.size()) / eb, guard = b.guard_elements();
    int64_t changed = 0;
    std::ostringstream s;
    for (int64_t slot = 0; slot < total; ++slot) {
      int64_t const index = slot - guard;
      bool inside = false;
      if (index >= 0 && index < b.count()) {
        int64_t const l = index / stride, r = index % stride;
        inside = l < batch && r % ld < extent && r / ld < others;
      }
      if (inside || std::memcmp(b.image().data() + slot * eb, before.data() + slot * eb, size_t(eb)) == 0) continue;
      if (++changed <= 5) s << " element " << index << " (of " << b.count() << ") now " << load(b.type(), b.image().data(), slot);
    }
    if (!changed) return "";
    return std::to_string(changed) + " elements outside the M x N regions changed:" + s.str();
  }

  int64_t m = 0, n = 0, k = 0, batch = 1;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0, ldaux = 0;
  int64_t stride_A = 0, stride_B = 0, stride_C = 0, stride_D = 0, stride_aux = 0;
  int64_t bias_length = 0, alpha_length = 0, stride_bias = 0, stride_alpha = 0;
  GuardedBuffer A, B, C, D, bias, alpha_vector, aux, scalars;

 private:
  Case c_;
  std::vector<unsigned char> D_before, aux_before, scalars_before;
  DeviceBuffer product;
};

}  // namespace fused
}  // namespace cutlass_lib_test
