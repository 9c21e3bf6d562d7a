/// Calls and kernel descriptions made up for the host selection tests (test_selection.cpp,
/// test_raster.cpp): descriptions carry only what the cost model reads, and pointers are made-up
/// addresses that are never dereferenced.
#pragma once

#include <cstdint>

#include "gemm_call.h"

namespace selection_test {

using namespace cutlass::library;

inline void const *address(uintptr_t a) { return reinterpret_cast<void const *>(a); }

/// A bf16 x bf16 -> bf16 TN call (A row-major, B column-major), column-major D, 16-byte aligned.
inline GemmCall bf16_tn_call(int64_t m, int64_t n, int64_t k) {
  GemmCall c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.element_compute = c.element_scalar = NumericTypeID::kF32;
  c.element_A = c.element_B = c.element_C = c.element_D = NumericTypeID::kBF16;
  c.layout_A = LayoutTypeID::kRowMajor;
  c.layout_B = LayoutTypeID::kColumnMajor;
  c.A = address(0x100000);
  c.B = address(0x200000);
  c.C = address(0x300000);
  c.D = const_cast<void *>(address(0x400000));
  c.lda = k;
  c.ldb = k;
  c.ldc = c.ldd = m;
  return c;
}

/// A description with only what wave_cost reads: the CTA tile and the tile scheduler.
inline GemmDescription tiled(int m, int n, TileSchedulerType scheduler = TileSchedulerType::kDefault) {
  GemmDescription d;
  d.tile_description.threadblock_shape = cutlass::gemm::GemmCoord(m, n, 64);
  d.tile_description.tile_scheduler = scheduler;
  return d;
}

/// An sm90 bf16 tensor-op description as estimated_time reads it: tile, scheduler, compute
/// capability, opcode class, element and alignment.
inline GemmDescription sm90_bf16(int m, int n, TileSchedulerType scheduler = TileSchedulerType::kPersistent) {
  GemmDescription d = tiled(m, n, scheduler);
  d.tile_description.minimum_compute_capability = d.tile_description.maximum_compute_capability = 90;
  d.tile_description.math_instruction.opcode_class = OpcodeClassID::kTensorOp;
  for (TensorDescription *t : {&d.A, &d.B, &d.C, &d.D}) {
    t->element = NumericTypeID::kBF16;
    t->alignment = 8;
  }
  return d;
}

}  // namespace selection_test
