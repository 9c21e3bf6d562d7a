/// @file src/library/staging.cpp
#include "staging.h"

#include <algorithm>
#include <climits>

#include "cutlass/library/util.h"
#include "gemm_selection.h"
#include "transpose.h"

namespace cutlass {
namespace library {

namespace {

int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

size_t align_256(size_t bytes) { return (bytes + 255) / 256 * 256; }

/// The layout an operand's copy takes for a kernel: the kernel's, where its description names one.
LayoutTypeID kernel_layout(TensorDescription const &kernel, LayoutTypeID call) {
  bool const named = kernel.layout == LayoutTypeID::kColumnMajor || kernel.layout == LayoutTypeID::kRowMajor;
  return named ? kernel.layout : call;
}

/// Copies `rows` x `columns` elements per batch between column-major storages.
bool copy_2d(void *dst, int64_t ld_dst, int64_t stride_dst, void const *src, int64_t ld_src, int64_t stride_src,
             int64_t rows, int64_t columns, int64_t batch_count, int element_bytes, cudaStream_t stream) {
  for (int64_t l = 0; l < batch_count; ++l) {
    char *d = static_cast<char *>(dst) + l * stride_dst * element_bytes;
    char const *s = static_cast<char const *>(src) + l * stride_src * element_bytes;
    if (cudaMemcpy2DAsync(d, size_t(ld_dst) * element_bytes, s, size_t(ld_src) * element_bytes,
                          size_t(rows) * element_bytes, size_t(columns), cudaMemcpyDeviceToDevice,
                          stream) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
  }
  return true;
}

}  // namespace

bool plan_staging(GemmCall const &call, GemmDescription const &desc, void *workspace, StagingPlan *plan) {
  int const ea = sizeof_bits(call.element_A) / 8, eb = sizeof_bits(call.element_B) / 8;
  int const ec = sizeof_bits(call.element_C) / 8;
  if (ea == 0 || eb == 0 || ec == 0) return false;
  // The copies take the kernel's operand layouts (a transposing copy where the call's differs).
  LayoutTypeID const layout_a = kernel_layout(desc.A, call.layout_A), layout_b = kernel_layout(desc.B, call.layout_B);
  bool const a_column = layout_a == LayoutTypeID::kColumnMajor;
  bool const b_column = layout_b == LayoutTypeID::kColumnMajor;
  int64_t const ta = desc.A.alignment, tb = desc.B.alignment, tc = desc.C.alignment;

  // Extents padded to the alignments of the operands that hold them contiguously.
  int64_t const m = round_up(call.m, std::max<int64_t>(a_column ? ta : 1, tc));
  int64_t const k = round_up(call.k, std::max<int64_t>(a_column ? 1 : ta, b_column ? tb : 1));
  int64_t const n = round_up(call.n, b_column ? 1 : tb);
  // The staged call must still be a valid call: padding may not push an extent past 32 bits,
  // and no staged copy's size (elements x batches x bytes) may overflow.
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX) return false;
  int64_t const largest = std::max(m * k, std::max(k * n, m * n));
  if (largest > INT64_MAX / std::max<int64_t>(1, call.batch_count) / 16) return false;

  StagingPlan p;
  p.staged = call;
  p.staged.m = m;
  p.staged.n = n;
  p.staged.k = k;
  p.staged.layout_A = layout_a;
  p.staged.layout_B = layout_b;
  p.source = gemm_reads_c(call);

  // A is M x K, B is K x N, D is M x N: a padded extent reshapes every operand that has it.
  // (the alignment checks read the call's operands, in the call's layouts)
  int64_t const extent_a = leading_extent(call.layout_A, call.m, call.k);
  int64_t const extent_b = leading_extent(call.layout_B, call.k, call.n);
  p.stage_a = layout_a != call.layout_A || m != call.m || k != call.k ||
              operand_alignment(call.element_A, call.A, call.lda, call.batch_stride_A, call.batch_count, extent_a) < ta;
  p.stage_b = layout_b != call.layout_B || k != call.k || n != call.n ||
              operand_alignment(call.element_B, call.B, call.ldb, call.batch_stride_B, call.batch_count, extent_b) < tb;
  p.stage_d = m != call.m || n != call.n ||
              operand_alignment(call.element_D, call.D, call.ldd, call.batch_stride_D, call.batch_count, call.m) < tc;
  bool const c_misaligned =
      p.source && operand_alignment(call.element_C, call.C, call.ldc, call.batch_stride_C, call.batch_count, call.m) < tc;
  if (!p.stage_a && !p.stage_b && !p.stage_d && !c_misaligned) return false;

  // Each staged operand: a dense rows x columns copy per batch, 256-byte aligned in the workspace.
  size_t offset = 0;
  auto place = [&](int64_t rows, int64_t columns, int element_bytes, void const **ptr, int64_t *ld,
                   int64_t *batch_stride) {
    *ld = rows;
    *batch_stride = rows * columns;
    size_t const bytes = size_t(rows * columns * call.batch_count) * element_bytes;
    *ptr = static_cast<char *>(workspace) + offset;
    offset += align_256(bytes);
    return bytes;
  };
  if (p.stage_a) {
    p.zero_a = m != call.m || k != call.k;
    p.bytes_a = place(a_column ? m : k, a_column ? k : m, ea, &p.staged.A, &p.staged.lda, &p.staged.batch_stride_A);
  }
  if (p.stage_b) {
    p.zero_b = k != call.k || n != call.n;
    p.bytes_b = place(b_column ? k : n, b_column ? n : k, eb, &p.staged.B, &p.staged.ldb, &p.staged.batch_stride_B);
  }
  if (p.stage_d) {
    void const *d = nullptr;
    p.bytes_d = place(m, n, ec, &d, &p.staged.ldd, &p.staged.batch_stride_D);
    p.staged.D = const_cast<void *>(d);
  }
  // The kernel's source: C itself when it fits and D is not staged; otherwise C goes into D
  // (or D's staged copy) first and the kernel reads D in place (D may alias C).
  if (!p.source) {
    p.staged.C = nullptr;
    p.staged.ldc = p.staged.ldd;
    p.staged.batch_stride_C = p.staged.batch_stride_D;
  } else if (p.stage_d || c_misaligned) {
    p.copy_c_into_d = true;
    // Padding rows/columns of a staged D must read as zero C (they feed amax and activations).
    p.zero_d = p.stage_d && (m != call.m || n != call.n);
    p.staged.C = p.staged.D;
    p.staged.ldc = p.staged.ldd;
    p.staged.batch_stride_C = p.staged.batch_stride_D;
  }
  p.workspace_bytes = offset;
  *plan = p;
  return true;
}

int staging_copies(StagingPlan const &p) {
  return int(p.stage_a) + int(p.zero_a) + int(p.stage_b) + int(p.zero_b) + int(p.zero_d) + int(p.copy_c_into_d) +
         int(p.stage_d);
}

bool stage_in(StagingPlan const &p, GemmCall const &call, cudaStream_t stream) {
  int const ea = sizeof_bits(call.element_A) / 8, eb = sizeof_bits(call.element_B) / 8;
  int const ec = sizeof_bits(call.element_C) / 8;
  // One operand (rows x columns of `layout` as a column-major storage) into its staged copy: a
  // 2-D copy, or a transpose where the copy's layout differs.
  auto stage = [&](LayoutTypeID layout, LayoutTypeID staged_layout, int64_t rows, int64_t columns, void const *src,
                   int64_t ld, int64_t stride, void const *copy, int64_t ld_copy, int64_t stride_copy, bool zero,
                   size_t bytes, int element_bytes) {
    bool const column = layout == LayoutTypeID::kColumnMajor;
    int64_t const storage_rows = column ? rows : columns, storage_columns = column ? columns : rows;
    void *dst = const_cast<void *>(copy);
    if (zero && cudaMemsetAsync(dst, 0, bytes, stream) != cudaSuccess) return false;
    if (staged_layout != layout) {
      return launch_transpose(dst, ld_copy, stride_copy, src, ld, stride, storage_rows, storage_columns,
                              call.batch_count, element_bytes, stream);
    }
    return copy_2d(dst, ld_copy, stride_copy, src, ld, stride, storage_rows, storage_columns, call.batch_count,
                   element_bytes, stream);
  };
  if (p.stage_a && !stage(call.layout_A, p.staged.layout_A, call.m, call.k, call.A, call.lda, call.batch_stride_A,
                          p.staged.A, p.staged.lda, p.staged.batch_stride_A, p.zero_a, p.bytes_a, ea)) {
    return false;
  }
  if (p.stage_b && !stage(call.layout_B, p.staged.layout_B, call.k, call.n, call.B, call.ldb, call.batch_stride_B,
                          p.staged.B, p.staged.ldb, p.staged.batch_stride_B, p.zero_b, p.bytes_b, eb)) {
    return false;
  }
  if (p.zero_d && cudaMemsetAsync(p.staged.D, 0, p.bytes_d, stream) != cudaSuccess) return false;
  if (p.copy_c_into_d && call.C != p.staged.D) {
    if (!copy_2d(p.staged.D, p.staged.ldd, p.staged.batch_stride_D, call.C, call.ldc, call.batch_stride_C, call.m,
                 call.n, call.batch_count, ec, stream)) {
      return false;
    }
  }
  return true;
}

bool stage_out(StagingPlan const &p, GemmCall const &call, cudaStream_t stream) {
  if (!p.stage_d) return true;
  int const ec = sizeof_bits(call.element_D) / 8;
  return copy_2d(call.D, call.ldd, call.batch_stride_D, p.staged.D, p.staged.ldd, p.staged.batch_stride_D, call.m,
                 call.n, call.batch_count, ec, stream);
}

}  // namespace library
}  // namespace cutlass
