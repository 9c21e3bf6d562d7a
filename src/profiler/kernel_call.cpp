/// @file src/profiler/kernel_call.cpp
#include "kernel_call.h"

namespace cutlass {
namespace profiler {

KernelCall kernel_call(GemmSpec const &spec, OperandPointers const &pointers, void const *alpha, void const *beta) {
  bool const row_major_C = spec.C.layout == LayoutTypeID::kRowMajor;
  int64_t const m = row_major_C ? spec.n : spec.m;
  int64_t const n = row_major_C ? spec.m : spec.n;
  KernelCall call;
  library::GemmUniversalConfiguration &cfg = call.configuration;
  cfg.mode = spec.batch_count > 1 ? gemm::GemmUniversalMode::kBatched : gemm::GemmUniversalMode::kGemm;
  cfg.problem_size = gemm::GemmCoord(int(m), int(n), int(spec.k));
  cfg.batch_count = int(spec.batch_count);
  cfg.lda = row_major_C ? spec.ldb() : spec.lda();
  cfg.ldb = row_major_C ? spec.lda() : spec.ldb();
  cfg.ldc = spec.ldc();
  cfg.ldd = spec.ldc();

  library::GemmUniversalArguments &args = call.arguments;
  args.problem_size = cfg.problem_size;
  args.batch_count = cfg.batch_count;
  args.A = row_major_C ? pointers.B : pointers.A;
  args.B = row_major_C ? pointers.A : pointers.B;
  args.C = pointers.C;
  args.D = pointers.D;
  args.alpha = alpha;
  args.beta = beta;
  args.pointer_mode = library::ScalarPointerMode::kHost;
  args.lda = cfg.lda;
  args.ldb = cfg.ldb;
  args.ldc = cfg.ldc;
  args.ldd = cfg.ldd;
  args.batch_stride_A = row_major_C ? spec.elements_B() : spec.elements_A();
  args.batch_stride_B = row_major_C ? spec.elements_A() : spec.elements_B();
  args.batch_stride_C = spec.elements_C();
  args.batch_stride_D = spec.elements_C();
  return call;
}

}  // namespace profiler
}  // namespace cutlass
