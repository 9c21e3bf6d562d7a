/// @file cutlass/arch/mma_sm80.h
/// Bare PTX wrappers for the warp-wide sm80 tensor-core instructions the sm80 GEMM family uses,
/// one struct per instruction. Each computes D = A * B + C in place on the accumulators
/// (d is both C and D), with A row-major ("row") and B column-major ("col") in the
/// instruction's own fragment sense; the fragment layouts (which lane holds which (m, k),
/// (k, n), (m, n)) are those of PTX ISA section "Matrix Fragments for mma.m16n8k16 /
/// m16n8k8 / m16n8k32" and are documented where the fragments are loaded
/// (cutlass/gemm/threadblock/sm80_warp_fragment_loader.h).
///
/// Register counts per lane: A 4 x b32, B 2 x b32, C/D 4 x 32-bit accumulators.
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"
#include "cutlass/gemm_coord.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace arch {

/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: a reg = 2 x f16 (low half = lower k).
struct Mma16816F32F16F16F32 {
  using Shape = gemm::GemmShape<16, 8, 16>;
  using ElementA = half_t;
  using ElementB = half_t;
  using ElementC = float;
  CUTLASS_DEVICE static void fma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

/// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: a reg = 2 x bf16 (low half = lower k).
struct Mma16816F32Bf16Bf16F32 {
  using Shape = gemm::GemmShape<16, 8, 16>;
  using ElementA = bfloat16_t;
  using ElementB = bfloat16_t;
  using ElementC = float;
  CUTLASS_DEVICE static void fma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: a reg = 1 x tf32.
/// The registers hold raw fp32 bit patterns; the tensor core reads only the sign, exponent and
/// top 10 mantissa bits, so the low 13 mantissa bits are dropped (truncation, not rounding).
struct Mma1688F32Tf32Tf32F32 {
  using Shape = gemm::GemmShape<16, 8, 8>;
  using ElementA = tfloat32_t;
  using ElementB = tfloat32_t;
  using ElementC = float;
  CUTLASS_DEVICE static void fma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

/// mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (no .satfinite: the s32 sum wraps):
/// a reg = 4 x s8 (lowest byte = lowest k).
struct Mma16832S32S8S8S32 {
  using Shape = gemm::GemmShape<16, 8, 32>;
  using ElementA = int8_t;
  using ElementB = int8_t;
  using ElementC = int32_t;
  CUTLASS_DEVICE static void fma(int32_t (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
};

}  // namespace arch
}  // namespace cutlass
