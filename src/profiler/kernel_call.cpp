/// @file src/profiler/kernel_call.cpp
#include "kernel_call.h"

namespace cutlass {
namespace profiler {

library::GemmEpilogueArguments epilogue_arguments(GemmSpec const &spec, reference::EpilogueOperands const &o,
                                                  bool transposed) {
  auto orient = [&](epilogue::VectorBroadcast b) { return transposed ? epilogue::transposed(b) : b; };
  library::GemmEpilogueArguments e;
  e.kind = spec.epilogue.description();
  e.bias = o.bias;
  e.bias_broadcast = orient(o.bias_broadcast);
  e.batch_stride_bias = o.batch_stride_bias;
  e.alpha_vector = o.alpha_vector;
  e.alpha_vector_broadcast = orient(o.alpha_vector_broadcast);
  e.batch_stride_alpha_vector = o.batch_stride_alpha_vector;
  e.aux = o.aux;
  e.ldaux = o.ldaux;
  e.batch_stride_aux = o.batch_stride_aux;
  e.scale_d = o.scale_d;
  e.amax = o.amax;
  e.clamp_min = o.clamp_min;
  e.clamp_max = o.clamp_max;
  return e;
}

void set_scaling(GemmSpec const &spec, OperandPointers const &pointers, bool transposed,
                 library::GemmEpilogueArguments &arguments) {
  ScalingSpec const &s = spec.scaling;
  auto const mode = [](std::optional<epilogue::OperandScaleMode> m) { return m.value_or(epilogue::OperandScaleMode::kScalar); };
  arguments.scale_a = transposed ? pointers.scale_B : pointers.scale_A;
  arguments.scale_b = transposed ? pointers.scale_A : pointers.scale_B;
  arguments.scale_a_mode = mode(transposed ? s.B : s.A);
  arguments.scale_b_mode = mode(transposed ? s.A : s.B);
  arguments.accumulation = s.accumulation;
}

KernelCall kernel_call(GemmSpec const &spec, OperandPointers const &pointers, void const *alpha, void const *beta,
                       reference::EpilogueOperands const *epilogue) {
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
  // the tile order in the problem's terms: the transposed run's M is the problem's N
  args.raster_order = row_major_C ? gemm::transposed(spec.raster_order) : spec.raster_order;
  args.swizzle_size = spec.swizzle_size;
  if (epilogue && spec.epilogue.fused()) args.epilogue = epilogue_arguments(spec, *epilogue, row_major_C);
  set_scaling(spec, pointers, row_major_C, args.epilogue);
  return call;
}

}  // namespace profiler
}  // namespace cutlass
