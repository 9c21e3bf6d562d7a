/// @file src/profiler/gemm_spec.cpp
#include "gemm_spec.h"

#include <sstream>

#include "cutlass/library/util.h"

namespace cutlass {
namespace profiler {

std::string to_string(Operand const &operand) {
  return std::string(library::to_string(operand.element)) + ":" + library::to_string(operand.layout);
}

library::EpilogueDescription EpilogueSpec::description() const {
  library::EpilogueDescription d;
  d.activation = variant.activation;
  d.element_bias = variant.bias ? element_bias : NumericTypeID::kInvalid;
  d.alpha_vector = variant.alpha_vector;
  d.element_aux = variant.aux ? element_aux : NumericTypeID::kInvalid;
  d.scale_amax = variant.scale_amax;
  return d;
}

char const *to_string(epilogue::VectorBroadcast broadcast) {
  return broadcast == epilogue::VectorBroadcast::kPerRow ? "row" : "column";
}

int64_t GemmSpec::bias_extent() const { return epilogue.bias_broadcast == epilogue::VectorBroadcast::kPerRow ? m : n; }
int64_t GemmSpec::alpha_vector_extent() const {
  return epilogue.alpha_vector_broadcast == epilogue::VectorBroadcast::kPerRow ? m : n;
}

bool ScalingSpec::block_scaled() const {
  return accumulation == library::AccumulationMode::kPrecise || (A && epilogue::is_block_scale(*A)) ||
         (B && epilogue::is_block_scale(*B));
}

char const *to_string(epilogue::OperandScaleMode mode) {
  switch (mode) {
    case epilogue::OperandScaleMode::kOuterVector: return "row";
    case epilogue::OperandScaleMode::kBlock1x128: return "block128";
    case epilogue::OperandScaleMode::kBlock128x128: return "block128x128";
    default: return "tensor";
  }
}

std::string describe(ScalingSpec const &scaling) {
  std::string text;
  auto add = [&](std::string const &part) { text += (text.empty() ? "" : " ") + part; };
  if (scaling.A) add(std::string("scale_a=") + to_string(*scaling.A));
  if (scaling.B) add(std::string("scale_b=") + to_string(*scaling.B));
  if (scaling.accumulation == library::AccumulationMode::kPrecise) add("accumulation=precise");
  return text;
}

int64_t GemmSpec::scale_entries_A() const {
  return scaling.A ? reference::scale_entries(*scaling.A, m, k, batch_count) : 0;
}
int64_t GemmSpec::scale_entries_B() const {
  return scaling.B ? reference::scale_entries(*scaling.B, n, k, batch_count) : 0;
}

int64_t GemmSpec::lda() const { return A.layout == LayoutTypeID::kColumnMajor ? m : k; }
int64_t GemmSpec::ldb() const { return B.layout == LayoutTypeID::kColumnMajor ? k : n; }
int64_t GemmSpec::ldc() const { return C.layout == LayoutTypeID::kColumnMajor ? m : n; }

bool is_fp8(NumericTypeID type) { return type == NumericTypeID::kFE4M3 || type == NumericTypeID::kFE5M2; }

size_t bytes_of(NumericTypeID type, int64_t count) {
  return size_t(count) * size_t(library::sizeof_bits(type)) / 8;
}

size_t GemmSpec::bytes_A() const { return bytes_of(A.element, elements_A() * batch_count); }
size_t GemmSpec::bytes_B() const { return bytes_of(B.element, elements_B() * batch_count); }
size_t GemmSpec::bytes_C() const { return bytes_of(C.element, elements_C() * batch_count); }

double GemmSpec::flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch_count); }

bool GemmSpec::is_integer() const { return A.element == NumericTypeID::kS8; }

std::string describe(GemmSpec const &spec) {
  std::ostringstream out;
  out << "m=" << spec.m << " n=" << spec.n << " k=" << spec.k << " batch_count=" << spec.batch_count
      << " A=" << to_string(spec.A) << " B=" << to_string(spec.B) << " C=" << to_string(spec.C)
      << " alpha=" << spec.alpha << " beta=" << spec.beta;
  EpilogueSpec const &e = spec.epilogue;
  if (e.fused()) {
    out << " epilogue=" << e.variant.name();
    if (e.variant.bias) out << " bias=" << library::to_string(e.element_bias) << ":" << to_string(e.bias_broadcast);
    if (e.variant.alpha_vector) out << " alpha_vector=f32:" << to_string(e.alpha_vector_broadcast);
    if (e.variant.aux) out << " aux=" << library::to_string(e.element_aux);
    if (e.variant.activation == epilogue::ActivationKind::kClamp) out << " clamp=" << e.clamp_min << "," << e.clamp_max;
    if (e.variant.scale_amax) out << " scale_d=" << EpilogueSpec::kScaleD;
  }
  if (spec.scaling.any()) out << ' ' << describe(spec.scaling);
  if (spec.raster_order != library::RasterOrder::kHeuristic) {
    out << " raster_order=" << (spec.raster_order == library::RasterOrder::kAlongM ? "along_m" : "along_n");
  }
  if (spec.swizzle_size > 0) out << " swizzle_size=" << spec.swizzle_size;
  if (spec.split_k_slices > 1) out << " split_k_slices=" << spec.split_k_slices;
  return out.str();
}

reference::GemmProblem reference_problem(GemmSpec const &spec, OperandPointers const &pointers) {
  reference::GemmProblem p;
  p.m = spec.m;
  p.n = spec.n;
  p.k = spec.k;
  p.batch_count = spec.batch_count;
  p.element_A = spec.A.element;
  p.element_B = spec.B.element;
  p.element_C = spec.C.element;
  p.layout_A = spec.A.layout;
  p.layout_B = spec.B.layout;
  p.layout_C = spec.C.layout;
  p.alpha = spec.alpha;
  p.beta = spec.beta;
  p.A = pointers.A;
  p.lda = spec.lda();
  p.batch_stride_A = spec.elements_A();
  p.B = pointers.B;
  p.ldb = spec.ldb();
  p.batch_stride_B = spec.elements_B();
  p.C = pointers.C;
  p.ldc = spec.ldc();
  p.batch_stride_C = spec.elements_C();
  p.D = pointers.D;
  p.ldd = spec.ldc();
  p.batch_stride_D = spec.elements_C();
  p.scale_A = pointers.scale_A;
  p.scale_B = pointers.scale_B;
  if (spec.scaling.A) p.scale_A_mode = *spec.scaling.A;
  if (spec.scaling.B) p.scale_B_mode = *spec.scaling.B;
  p.accumulation = spec.scaling.accumulation;
  return p;
}

}  // namespace profiler
}  // namespace cutlass
