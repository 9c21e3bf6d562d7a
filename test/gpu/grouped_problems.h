/// The problems of the grouped GPU tests (test_grouped.cu, test_grouped_device_sizes.cu): groups
/// of bf16 or e4m3 problems on the device, their call arguments, and every problem checked
/// against the device reference with every byte of the shared C buffer outside the problems'
/// M x N regions unchanged.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cutlass/library/handle.h"
#include "cutlass_lib.h"
#include "gemm_reference.h"
#include "gpu_test_util.h"
#include "grouped_fused_check.h"

namespace cutlass_lib_test {
namespace grouped {

using cutlass::library::EpilogueDescription;
using cutlass::library::LayoutTypeID;
using cutlass::library::NumericTypeID;
namespace ref = cutlass::reference;

constexpr int64_t kBf16Bytes = 2;

/// One group of problems (bf16 or e4m3 A and B, bf16 C, f32 accumulate): its transposes, sizes
/// and scalars.
struct Group {
  cutlassLibOperation_t transa, transb;
  int64_t m, n, k;
  float alpha, beta;
  int64_t size;
};

inline LayoutTypeID layout_of(cutlassLibOperation_t op) {
  return op == CUTLASS_LIB_OP_N ? LayoutTypeID::kColumnMajor : LayoutTypeID::kRowMajor;
}

/// The handle's bias epilogues the grouped fused tests run (the C API value and its activation):
/// the default set's fused grouped kernels (bias, bias+ReLU, bias+GELU; bf16 TN).
struct BiasEpilogue {
  cutlassLibEpilogue_t epilogue;
  cutlass::epilogue::ActivationKind activation;
};
inline constexpr BiasEpilogue kBiasEpilogues[] = {
    {CUTLASS_LIB_EPILOGUE_BIAS, cutlass::epilogue::ActivationKind::kIdentity},
    {CUTLASS_LIB_EPILOGUE_RELU_BIAS, cutlass::epilogue::ActivationKind::kReLU},
    {CUTLASS_LIB_EPILOGUE_GELU_BIAS, cutlass::epilogue::ActivationKind::kGELU}};

/// The groups' problems on the device: A and B of each in its own buffer (none when k == 0:
/// the call gets NULL there, which it must not read), every C in one buffer with 8 padding rows
/// (ldc = m + 8) and 64 elements between problems, laid out in reverse problem order so the
/// pointer arrays are not sorted. Every leading dimension is its extent plus 16 bytes (16-byte
/// multiples for extents of 16-byte multiples). C starts as NaN (the poison) with random values
/// in the M x N regions of the problems that read C (beta != 0, or scalars on the device).
/// `input` is A's and B's type (kBF16 or kFE4M3), `output` C's (kBF16 or kF32).
class GroupedProblems {
 public:
  GroupedProblems(std::vector<Group> const &groups, bool device_scalars, uint64_t seed,
                  NumericTypeID input = NumericTypeID::kBF16, NumericTypeID output = NumericTypeID::kBF16)
      : groups_(groups), input_(input), output_(output), input_bytes_(input == NumericTypeID::kBF16 ? 2 : 1),
        output_bytes_(output == NumericTypeID::kF32 ? 4 : 2) {
    int64_t c_elements = 0;
    for (Group const &g : groups_) {
      for (int64_t j = 0; j < g.size; ++j) {
        Problem p = shaped(g);
        p.group = &g;
        if (g.k > 0) {
          int64_t const a_count = p.lda * (g.transa == CUTLASS_LIB_OP_N ? g.k : g.m);
          int64_t const b_count = p.ldb * (g.transb == CUTLASS_LIB_OP_N ? g.n : g.k);
          p.A = DeviceBuffer(size_t(a_count * input_bytes_));
          p.B = DeviceBuffer(size_t(b_count * input_bytes_));
          EXPECT_TRUE(ref::fill_uniform(input_, p.A.get(), a_count, seed++));
          EXPECT_TRUE(ref::fill_uniform(input_, p.B.get(), b_count, seed++));
        }
        problems_.push_back(std::move(p));
      }
    }
    for (size_t e = problems_.size(); e-- > 0;) {   // reverse order
      problems_[e].c_offset = c_elements;
      c_elements += problems_[e].ldc * problems_[e].group->n + 64;
    }
    c_bytes_ = size_t(c_elements * output_bytes_);
    C_ = DeviceBuffer(c_bytes_);
    C_before_ = DeviceBuffer(c_bytes_);
    EXPECT_TRUE(ref::fill_poison(output_, C_.get(), c_elements));
    for (Problem const &p : problems_) {
      if (p.group->beta == 0 && !device_scalars) continue;   // beta == 0 must not read the NaN
      for (int64_t column = 0; column < p.group->n; ++column) {
        EXPECT_TRUE(ref::fill_uniform(output_, c(p) + column * p.ldc * output_bytes_, p.group->m, seed++));
      }
    }
    EXPECT_EQ(cudaSuccess, cudaMemcpy(C_before_.get(), C_.get(), c_bytes_, cudaMemcpyDeviceToDevice));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());   // the fills ran on the legacy stream
  }

  /// The arguments of cutlassLibGemmGroupedBatchedEx: per group, then per problem.
  std::vector<cutlassLibOperation_t> transa() const { return per_group([](Group const &g) { return g.transa; }); }
  std::vector<cutlassLibOperation_t> transb() const { return per_group([](Group const &g) { return g.transb; }); }
  std::vector<int64_t> m() const { return per_group([](Group const &g) { return g.m; }); }
  std::vector<int64_t> n() const { return per_group([](Group const &g) { return g.n; }); }
  std::vector<int64_t> k() const { return per_group([](Group const &g) { return g.k; }); }
  std::vector<int64_t> size() const { return per_group([](Group const &g) { return g.size; }); }
  std::vector<float> alpha() const { return per_group([](Group const &g) { return g.alpha; }); }
  std::vector<float> beta() const { return per_group([](Group const &g) { return g.beta; }); }
  /// Leading dimensions per group: every problem of a group has the same ones.
  std::vector<int64_t> lda() const { return per_group_problem([](Problem const &p) { return p.lda; }); }
  std::vector<int64_t> ldb() const { return per_group_problem([](Problem const &p) { return p.ldb; }); }
  std::vector<int64_t> ldc() const { return per_group_problem([](Problem const &p) { return p.ldc; }); }
  std::vector<void const *> A() const {
    std::vector<void const *> out;
    for (Problem const &p : problems_) out.push_back(p.A.get());
    return out;
  }
  std::vector<void const *> B() const {
    std::vector<void const *> out;
    for (Problem const &p : problems_) out.push_back(p.B.get());
    return out;
  }
  std::vector<void *> C() const {
    std::vector<void *> out;
    for (Problem const &p : problems_) out.push_back(c(p));
    return out;
  }

  /// A's and B's CUDA type.
  cudaDataType input_type() const { return input_ == NumericTypeID::kBF16 ? CUDA_R_16BF : CUDA_R_8F_E4M3; }
  /// C's CUDA type.
  cudaDataType output_type() const { return output_ == NumericTypeID::kF32 ? CUDA_R_32F : CUDA_R_16BF; }

  /// The handle's fused epilogue of a call: `activation`, a bf16 bias (PER_ROW, or PER_COLUMN
  /// when `per_column`; null: none) whose batch entry e (problem e's) starts `bias_stride`
  /// elements after entry e - 1's, and an f32 PER_ROW alpha vector (null: none) likewise with
  /// `alpha_stride`.
  struct Fused {
    cutlass::epilogue::ActivationKind activation;
    char const *bias;
    int64_t bias_stride;
    bool per_column = false;
    float const *alpha_vector = nullptr;
    int64_t alpha_stride = 0;
    /// The fused pieces the call asks of its kernel.
    EpilogueDescription description() const {
      EpilogueDescription d;
      d.activation = activation;
      d.element_bias = bias ? NumericTypeID::kBF16 : NumericTypeID::kInvalid;
      d.alpha_vector = alpha_vector != nullptr;
      return d;
    }
  };

  /// Every problem against the device reference (on C as it was before the call, with alpha times
  /// `operand_scales`: the handle's per-tensor scales; with `fused`, against the fused reference of
  /// grouped_fused_check.h), and every byte of the C buffer outside the problems' M x N regions as
  /// it was.
  void expect_results(double operand_scales = 1.0, Fused const *fused = nullptr) const {
    DeviceBuffer R(c_bytes_), expected(c_bytes_);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(R.get(), C_before_.get(), c_bytes_, cudaMemcpyDeviceToDevice));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(expected.get(), C_before_.get(), c_bytes_, cudaMemcpyDeviceToDevice));
    for (size_t e = 0; e < problems_.size(); ++e) {
      Problem const &p = problems_[e];
      Group const &g = *p.group;
      std::string const where = "problem " + std::to_string(e) + " (" + std::to_string(g.m) + "x" +
                                std::to_string(g.n) + "x" + std::to_string(g.k) + ")";
      if (g.m == 0 || g.n == 0) continue;   // nothing to compute: the whole-buffer check covers it
      ref::GemmProblem r;
      r.m = g.m, r.n = g.n, r.k = g.k;
      r.element_A = r.element_B = input_;
      r.element_C = output_;
      r.layout_A = layout_of(g.transa), r.layout_B = layout_of(g.transb);
      r.alpha = g.alpha * operand_scales, r.beta = g.beta;
      r.A = p.A.get(), r.lda = p.lda, r.B = p.B.get(), r.ldb = p.ldb;
      r.C = C_before_.bytes_ptr() + p.c_offset * output_bytes_, r.ldc = p.ldc;
      r.D = R.bytes_ptr() + p.c_offset * output_bytes_, r.ldd = p.ldc;
      if (fused) {
        cutlass_lib_test::FusedRegion region;
        region.product = r;
        region.activation = fused->activation;
        region.alpha = r.alpha, region.beta = r.beta;
        region.before = r.C, region.got = c(p), region.ldc = p.ldc;
        if (fused->bias) {
          (fused->per_column ? region.column_bias : region.row_bias) =
              fused->bias + int64_t(e) * fused->bias_stride * kBf16Bytes;
        }
        if (fused->alpha_vector) region.row_alpha = fused->alpha_vector + int64_t(e) * fused->alpha_stride;
        EXPECT_TRUE(cutlass_lib_test::fused_region_matches(region)) << where;
      } else {
        ASSERT_TRUE(ref::reference_gemm(r)) << where;
        ref::Comparison const cmp = ref::compare(output_, g.m, g.n, 1, c(p), p.ldc, 0, r.D, p.ldc, 0);
        ASSERT_TRUE(cmp.ok) << where;
        EXPECT_EQ(0, cmp.nonfinite) << where << ": elements left unwritten, or NaN read from C";
        EXPECT_LE(cmp.relative_error, ref::error_bound(input_, output_, g.k)) << where;
      }
      ASSERT_EQ(cudaSuccess, cudaMemcpy2D(expected.bytes_ptr() + p.c_offset * output_bytes_, p.ldc * output_bytes_,
                                          c(p), p.ldc * output_bytes_, g.m * output_bytes_, g.n,
                                          cudaMemcpyDeviceToDevice));
    }
    EXPECT_TRUE(ref::bytes_equal(expected.get(), C_.get(), c_bytes_)) << "a call wrote outside the problems' C";
  }

  /// Whether C is byte for byte as it was before the call.
  bool c_untouched() const { return ref::bytes_equal(C_before_.get(), C_.get(), c_bytes_); }

 private:
  struct Problem {
    Group const *group = nullptr;
    int64_t lda = 0, ldb = 0, ldc = 0, c_offset = 0;
    DeviceBuffer A, B;
  };

  char *c(Problem const &p) const { return C_.bytes_ptr() + p.c_offset * output_bytes_; }

  /// A problem of g's shape with its leading dimensions (extent + 16 bytes), no operands yet.
  Problem shaped(Group const &g) const {
    int64_t const pad = 16 / input_bytes_;
    Problem p;
    p.lda = (g.transa == CUTLASS_LIB_OP_N ? g.m : g.k) + pad;
    p.ldb = (g.transb == CUTLASS_LIB_OP_N ? g.k : g.n) + pad;
    p.ldc = g.m + 8;
    return p;
  }

  template <typename F>
  auto per_group(F f) const -> std::vector<decltype(f(std::declval<Group const &>()))> {
    std::vector<decltype(f(std::declval<Group const &>()))> out;
    for (Group const &g : groups_) out.push_back(f(g));
    return out;
  }
  /// f of a group's first problem; f of a stand-in problem of the group's shape for an empty group.
  template <typename F>
  std::vector<int64_t> per_group_problem(F f) const {
    std::vector<int64_t> out;
    size_t e = 0;
    for (Group const &g : groups_) {
      if (g.size == 0) {
        out.push_back(f(shaped(g)));
        continue;
      }
      out.push_back(f(problems_[e]));
      e += size_t(g.size);
    }
    return out;
  }

  std::vector<Group> groups_;
  NumericTypeID input_, output_;
  int64_t input_bytes_, output_bytes_;
  std::vector<Problem> problems_;
  DeviceBuffer C_, C_before_;
  size_t c_bytes_ = 0;
};

/// The first of kBiasEpilogues without a grouped bf16 TN kernel in this build, as NO_KERNEL_FOR's
/// text, or "" when every one has one.
inline std::string missing_bias_epilogue_kernel() {
  for (BiasEpilogue const &v : kBiasEpilogues) {
    EpilogueDescription d;
    d.activation = v.activation;
    d.element_bias = NumericTypeID::kBF16;
    if (!build_has_grouped_kernel(NumericTypeID::kBF16, LayoutTypeID::kRowMajor, LayoutTypeID::kColumnMajor,
                                  NumericTypeID::kBF16, d)) {
      return std::string("a grouped bf16 TN GEMM with bias and ") + cutlass::library::to_string(v.activation);
    }
  }
  return "";
}

}  // namespace grouped
}  // namespace cutlass_lib_test
