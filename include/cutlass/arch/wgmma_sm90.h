/// @file cutlass/arch/wgmma_sm90.h
/// Warpgroup MMA (PTX ISA 8.0+, sm_90a): `wgmma.mma_async` with both operands in shared memory,
/// f16 / bf16 / tf32 / fp8 (e4m3) inputs with f32 accumulators and s8 inputs with s32
/// accumulators, plus the fences and group operations around it
/// (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions").
///
/// WgmmaSS<N, Element, TransA, TransB>::mma(desc_a, desc_b, d, scale_d) issues one m64nNkK
/// instruction for the executing warpgroup: D(64 x N) = A(64 x K) * B(K x N) + scale_d * D, where
/// K = kK = 32 bytes of the element (16 for f16 / bf16, 8 for tf32, 32 for s8 and e4m3).
/// TransA / TransB = true means the operand is MN-major in shared memory (the imm-trans operands,
/// which PTX offers for 16-bit types only: tf32, s8 and fp8 operands must be K-major); false means
/// K-major.
/// tf32 operands are 32-bit containers of which the MMA reads the top 19 bits. s8 products are
/// summed in s32 without saturation (no .satfinite: the sum wraps modulo 2^32, as BLAS s32 sums do),
/// and the integer instruction has no scale immediates (PTX ISA, "wgmma.mma_async").
/// e4m3 products are summed by the tensor core in a reduced-precision adder before they reach the
/// f32 accumulators (about 14 bits kept, DeepSeek-V3 report, section 3.3.2): a long K loses
/// accuracy unless the kernel promotes partial sums itself.
/// Accumulator fragment (per thread, warp w of the warpgroup, lane l):
///   d[4*i + 2*h + c] holds D(16*w + l/4 + 8*h, 8*i + 2*(l%4) + c),  i < N/8, h, c in {0, 1}.
/// Accumulator (float, or int32_t for s8) is WgmmaSS<...>::Accumulator. The forty-eight
/// specializations (N = 32, 64, 96, 128, 192, 256 x f16, bf16, tf32, s8, e4m3, e5m2 and the mixed
/// e4m3 x e5m2 / e5m2 x e4m3; ElementB defaults to Element) are stamped by one macro below.
#pragma once

#include <cstdint>

#include "cutlass/cutlass.h"
#include "cutlass/numeric_types.h"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CUTLASS_ARCH_WGMMA_ENABLED 1
#endif

namespace cutlass {
namespace arch {

/// Orders register accesses to the accumulators before the next wgmma (wgmma.fence).
CUTLASS_DEVICE void wgmma_fence() {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

/// Closes the batch of wgmma issued since the last commit into one wgmma-group.
CUTLASS_DEVICE void wgmma_commit_group() {
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

/// Waits until at most N wgmma-groups of this warpgroup are pending.
template <int N>
CUTLASS_DEVICE void wgmma_wait_group() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

/// Keeps the compiler from moving reads or writes of an accumulator register across the
/// asynchronous wgmma region (an empty asm that "modifies" the value).
CUTLASS_DEVICE void wgmma_fence_operand(float &reg) { asm volatile("" : "+f"(reg)::"memory"); }
CUTLASS_DEVICE void wgmma_fence_operand(int32_t &reg) { asm volatile("" : "+r"(reg)::"memory"); }

/// Releases (dec) or raises (inc) the register budget of the executing warpgroup (setmaxnreg,
/// PTX ISA 8.0). Count: multiple of 8 in [24, 256]. Needs a known register count at kernel entry
/// (__launch_bounds__(threads, 1)), or ptxas ignores it (warning C7508).
template <int RegCount>
CUTLASS_DEVICE void warpgroup_reg_dealloc() {
  static_assert(RegCount % 8 == 0 && RegCount >= 24 && RegCount <= 256, "setmaxnreg count: multiple of 8 in [24, 256]");
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(RegCount));
#endif
}

template <int RegCount>
CUTLASS_DEVICE void warpgroup_reg_alloc() {
  static_assert(RegCount % 8 == 0 && RegCount >= 24 && RegCount <= 256, "setmaxnreg count: multiple of 8 in [24, 256]");
#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(RegCount));
#endif
}

/// 64-bit shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"):
/// bits 0-13 start address >> 4, 16-29 leading-dimension byte offset >> 4, 32-45 stride-dimension
/// byte offset >> 4, 49-51 base offset, 62-63 swizzle (1 = 128B, 2 = 64B, 3 = 32B, 0 = none).
///   K-major, 128B swizzle: rows of 128 bytes (64 16-bit elements of K), 8-row atoms of 1024 B;
///     SBO = byte distance between 8-row groups of M/N; LBO unused.
///   MN-major, 128B swizzle: rows of 128 bytes (64 elements of M/N), one row per k;
///     SBO = byte distance between 8-row groups of K; LBO = byte distance between 64-element
///     groups of M/N.
/// The tile must start 1024-byte aligned (base offset 0). Stepping K inside a swizzle atom
/// moves the start address only; the hardware applies the swizzle to the generated addresses.
CUTLASS_HOST_DEVICE uint64_t make_smem_desc_sw128(uint32_t smem_address, uint32_t leading_byte_offset,
                                                  uint32_t stride_byte_offset) {
  uint64_t desc = 0;
  desc |= uint64_t((smem_address >> 4) & 0x3FFF);
  desc |= uint64_t((leading_byte_offset >> 4) & 0x3FFF) << 16;
  desc |= uint64_t((stride_byte_offset >> 4) & 0x3FFF) << 32;
  desc |= uint64_t(1) << 62;   // 128-byte swizzle
  return desc;
}

/// `desc` with its start address moved `bytes` (a multiple of 16) further: an add to the low word,
/// exact while the start-address field (bits 0-13) does not carry, i.e. while the new address
/// stays below 2^18 bytes, which every shared-memory address of an sm_90 CTA does (227 KB).
/// The high word (stride offset, swizzle) is left alone, so the compiler keeps it a constant.
CUTLASS_HOST_DEVICE uint64_t advance_smem_desc(uint64_t desc, uint32_t bytes) {
  uint32_t const low = uint32_t(desc) + (bytes >> 4);
  return (desc & 0xFFFFFFFF00000000ull) | low;
}

template <int N, typename Element, bool TransA, bool TransB, typename ElementB = Element>
struct WgmmaSS {
  static_assert(N == 16 || N == 32 || N == 64 || N == 96 || N == 128 || N == 192 || N == 208 || N == 256,
                "WgmmaSS: N must be 16 (16-bit types), 32, 64, 96, 128, 192, 208 (16-bit types) or 256");
  static_assert(sizeof(Element) == 0,
                "WgmmaSS: element types must be cutlass::half_t, cutlass::bfloat16_t, cutlass::tfloat32_t or int8_t "
                "(A and B alike), or e4m3 / e5m2 in any pairing");
};

// The accumulator operands of one wgmma: C(d[i]) for 8, 16, 32, 48, 64, 96, 104 or 128 consecutive registers, C
// being "+f" (f32) or "+r" (s32) (inline asm needs one constraint per register), and their
// "%0, %1, ..." lists (each the previous one's string followed by its further operands).
#define CUTLASS_WGMMA_D8(C, i) \
  C(d[i]), C(d[i + 1]), C(d[i + 2]), C(d[i + 3]), C(d[i + 4]), C(d[i + 5]), C(d[i + 6]), C(d[i + 7])
#define CUTLASS_WGMMA_D32(C, i) \
  CUTLASS_WGMMA_D8(C, i), CUTLASS_WGMMA_D8(C, i + 8), CUTLASS_WGMMA_D8(C, i + 16), CUTLASS_WGMMA_D8(C, i + 24)
#define CUTLASS_WGMMA_D_8(C) CUTLASS_WGMMA_D8(C, 0)
#define CUTLASS_WGMMA_D_16(C) CUTLASS_WGMMA_D8(C, 0), CUTLASS_WGMMA_D8(C, 8)
#define CUTLASS_WGMMA_D_32(C) CUTLASS_WGMMA_D32(C, 0)
#define CUTLASS_WGMMA_D_48(C) CUTLASS_WGMMA_D32(C, 0), CUTLASS_WGMMA_D8(C, 32), CUTLASS_WGMMA_D8(C, 40)
#define CUTLASS_WGMMA_D_64(C) CUTLASS_WGMMA_D32(C, 0), CUTLASS_WGMMA_D32(C, 32)
#define CUTLASS_WGMMA_D_96(C) CUTLASS_WGMMA_D32(C, 0), CUTLASS_WGMMA_D32(C, 32), CUTLASS_WGMMA_D32(C, 64)
#define CUTLASS_WGMMA_D_104(C) \
  CUTLASS_WGMMA_D32(C, 0), CUTLASS_WGMMA_D32(C, 32), CUTLASS_WGMMA_D32(C, 64), CUTLASS_WGMMA_D8(C, 96)
#define CUTLASS_WGMMA_D_128(C) \
  CUTLASS_WGMMA_D32(C, 0), CUTLASS_WGMMA_D32(C, 32), CUTLASS_WGMMA_D32(C, 64), CUTLASS_WGMMA_D32(C, 96)
#define CUTLASS_WGMMA_REGS_8 "%0, %1, %2, %3, %4, %5, %6, %7"
#define CUTLASS_WGMMA_REGS_16 CUTLASS_WGMMA_REGS_8 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define CUTLASS_WGMMA_REGS_32 \
  CUTLASS_WGMMA_REGS_16 ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define CUTLASS_WGMMA_REGS_48 \
  CUTLASS_WGMMA_REGS_32 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define CUTLASS_WGMMA_REGS_64 \
  CUTLASS_WGMMA_REGS_48 ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define CUTLASS_WGMMA_REGS_96 \
  CUTLASS_WGMMA_REGS_64 ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define CUTLASS_WGMMA_REGS_104 \
  CUTLASS_WGMMA_REGS_96 ", %96, %97, %98, %99, %100, %101, %102, %103"
#define CUTLASS_WGMMA_REGS_128 \
  CUTLASS_WGMMA_REGS_104 ", %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

/// One WgmmaSS specialization: N columns, ACC = N / 2 accumulators per thread of C++ type ACCT
/// (constraint CON), A's and B's C++ types, the PTX types (".f32.bf16.bf16", ".f32.e4m3.e5m2") and
/// instruction K; A_, B_, P_ are the operand numbers after the accumulators (ACC, ACC + 1, ...),
/// spelled out because the asm string needs them as literals; IMM is the asm text after the
/// scale-d predicate: the scale immediates (floating types) and the two transpose immediates
/// (operands ACC + 3, ACC + 4; 16-bit types only), empty for s8, whose instruction has neither.
#define CUTLASS_WGMMA_SS2(N, ACC, ACCT, CON, ELEMENT, ELEMENT_B, PTX, K, A_, B_, P_, IMM)                 \
  template <bool TransA, bool TransB>                                                                   \
  struct WgmmaSS<N, ELEMENT, TransA, TransB, ELEMENT_B> {                                               \
    static_assert(sizeof(ELEMENT) == 2 || (!TransA && !TransB),                                         \
                  "WgmmaSS: 32-bit (tf32) and 8-bit (s8, fp8) operands must be K-major in shared memory");        \
    using Accumulator = ACCT;                                                                           \
    static constexpr int kAccumulators = ACC;                                                           \
    static constexpr int kK = K;                                                                        \
    CUTLASS_DEVICE static void mma(uint64_t desc_a, uint64_t desc_b, ACCT (&d)[ACC], int scale_d) {     \
      CUTLASS_WGMMA_ASM(N, ACC, CON, PTX, K, A_, B_, P_, IMM)                                           \
    }                                                                                                   \
  };

/// The same with one element type for A and B.
#define CUTLASS_WGMMA_SS(N, ACC, ACCT, CON, ELEMENT, PTX, K, A_, B_, P_, IMM) \
  CUTLASS_WGMMA_SS2(N, ACC, ACCT, CON, ELEMENT, ELEMENT, PTX, K, A_, B_, P_, IMM)

#if defined(CUTLASS_ARCH_WGMMA_ENABLED)
#define CUTLASS_WGMMA_ASM(N, ACC, CON, PTX, K, A_, B_, P_, IMM)                                          \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #P_ ", 0;\n"                                       \
               "wgmma.mma_async.sync.aligned.m64n" #N "k" #K PTX " {" CUTLASS_WGMMA_REGS_##ACC "}, %" #A_   \
               ", %" #B_ ", p" IMM ";\n}\n"                                                               \
               : CUTLASS_WGMMA_D_##ACC(CON)                                                             \
               : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(int(TransA)), "n"(int(TransB)));
#else
#define CUTLASS_WGMMA_ASM(N, ACC, CON, PTX, K, A_, B_, P_, IMM)
#endif

// N = 16 (the swap-AB tile of 16 rows of D): 16-bit types only
CUTLASS_WGMMA_SS(16, 8, float, "+f", half_t, ".f32.f16.f16", 16, 8, 9, 10, ", 1, 1, %11, %12")
CUTLASS_WGMMA_SS(16, 8, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 8, 9, 10, ", 1, 1, %11, %12")
CUTLASS_WGMMA_SS(32, 16, float, "+f", half_t, ".f32.f16.f16", 16, 16, 17, 18, ", 1, 1, %19, %20")
CUTLASS_WGMMA_SS(32, 16, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 16, 17, 18, ", 1, 1, %19, %20")
CUTLASS_WGMMA_SS(32, 16, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 16, 17, 18, ", 1, 1")
CUTLASS_WGMMA_SS(32, 16, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 16, 17, 18, "")
CUTLASS_WGMMA_SS(32, 16, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 16, 17, 18, ", 1, 1")
CUTLASS_WGMMA_SS(64, 32, float, "+f", half_t, ".f32.f16.f16", 16, 32, 33, 34, ", 1, 1, %35, %36")
CUTLASS_WGMMA_SS(64, 32, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 32, 33, 34, ", 1, 1, %35, %36")
CUTLASS_WGMMA_SS(64, 32, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 32, 33, 34, ", 1, 1")
CUTLASS_WGMMA_SS(64, 32, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 32, 33, 34, "")
CUTLASS_WGMMA_SS(64, 32, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 32, 33, 34, ", 1, 1")
CUTLASS_WGMMA_SS(128, 64, float, "+f", half_t, ".f32.f16.f16", 16, 64, 65, 66, ", 1, 1, %67, %68")
CUTLASS_WGMMA_SS(128, 64, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 64, 65, 66, ", 1, 1, %67, %68")
CUTLASS_WGMMA_SS(128, 64, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 64, 65, 66, ", 1, 1")
CUTLASS_WGMMA_SS(128, 64, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 64, 65, 66, "")
CUTLASS_WGMMA_SS(128, 64, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 64, 65, 66, ", 1, 1")
CUTLASS_WGMMA_SS(256, 128, float, "+f", half_t, ".f32.f16.f16", 16, 128, 129, 130, ", 1, 1, %131, %132")
CUTLASS_WGMMA_SS(256, 128, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 128, 129, 130, ", 1, 1, %131, %132")
CUTLASS_WGMMA_SS(256, 128, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 128, 129, 130, ", 1, 1")
CUTLASS_WGMMA_SS(256, 128, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 128, 129, 130, "")
CUTLASS_WGMMA_SS(256, 128, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 128, 129, 130, ", 1, 1")

CUTLASS_WGMMA_SS(96, 48, float, "+f", half_t, ".f32.f16.f16", 16, 48, 49, 50, ", 1, 1, %51, %52")
CUTLASS_WGMMA_SS(96, 48, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 48, 49, 50, ", 1, 1, %51, %52")
CUTLASS_WGMMA_SS(96, 48, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 48, 49, 50, ", 1, 1")
CUTLASS_WGMMA_SS(96, 48, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 48, 49, 50, "")
CUTLASS_WGMMA_SS(96, 48, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 48, 49, 50, ", 1, 1")
CUTLASS_WGMMA_SS(192, 96, float, "+f", half_t, ".f32.f16.f16", 16, 96, 97, 98, ", 1, 1, %99, %100")
CUTLASS_WGMMA_SS(192, 96, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 96, 97, 98, ", 1, 1, %99, %100")
CUTLASS_WGMMA_SS(192, 96, float, "+f", tfloat32_t, ".f32.tf32.tf32", 8, 96, 97, 98, ", 1, 1")
CUTLASS_WGMMA_SS(192, 96, int32_t, "+r", int8_t, ".s32.s8.s8", 32, 96, 97, 98, "")
CUTLASS_WGMMA_SS(192, 96, float, "+f", float_e4m3_t, ".f32.e4m3.e4m3", 32, 96, 97, 98, ", 1, 1")
// N = 208 (200-208 tokens in one tile, 4% padding): 16-bit types only
CUTLASS_WGMMA_SS(208, 104, float, "+f", half_t, ".f32.f16.f16", 16, 104, 105, 106, ", 1, 1, %107, %108")
CUTLASS_WGMMA_SS(208, 104, float, "+f", bfloat16_t, ".f32.bf16.bf16", 16, 104, 105, 106, ", 1, 1, %107, %108")

// e5m2 operands, and e4m3 / e5m2 mixed (the other fp8 pairings)
CUTLASS_WGMMA_SS2(32, 16, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 16, 17, 18, ", 1, 1")
CUTLASS_WGMMA_SS2(32, 16, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 16, 17, 18, ", 1, 1")
CUTLASS_WGMMA_SS2(32, 16, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 16, 17, 18, ", 1, 1")
CUTLASS_WGMMA_SS2(64, 32, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 32, 33, 34, ", 1, 1")
CUTLASS_WGMMA_SS2(64, 32, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 32, 33, 34, ", 1, 1")
CUTLASS_WGMMA_SS2(64, 32, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 32, 33, 34, ", 1, 1")
CUTLASS_WGMMA_SS2(96, 48, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 48, 49, 50, ", 1, 1")
CUTLASS_WGMMA_SS2(96, 48, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 48, 49, 50, ", 1, 1")
CUTLASS_WGMMA_SS2(96, 48, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 48, 49, 50, ", 1, 1")
CUTLASS_WGMMA_SS2(128, 64, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 64, 65, 66, ", 1, 1")
CUTLASS_WGMMA_SS2(128, 64, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 64, 65, 66, ", 1, 1")
CUTLASS_WGMMA_SS2(128, 64, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 64, 65, 66, ", 1, 1")
CUTLASS_WGMMA_SS2(192, 96, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 96, 97, 98, ", 1, 1")
CUTLASS_WGMMA_SS2(192, 96, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 96, 97, 98, ", 1, 1")
CUTLASS_WGMMA_SS2(192, 96, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 96, 97, 98, ", 1, 1")
CUTLASS_WGMMA_SS2(256, 128, float, "+f", float_e5m2_t, float_e5m2_t, ".f32.e5m2.e5m2", 32, 128, 129, 130, ", 1, 1")
CUTLASS_WGMMA_SS2(256, 128, float, "+f", float_e4m3_t, float_e5m2_t, ".f32.e4m3.e5m2", 32, 128, 129, 130, ", 1, 1")
CUTLASS_WGMMA_SS2(256, 128, float, "+f", float_e5m2_t, float_e4m3_t, ".f32.e5m2.e4m3", 32, 128, 129, 130, ", 1, 1")

#undef CUTLASS_WGMMA_SS
#undef CUTLASS_WGMMA_SS2
#undef CUTLASS_WGMMA_ASM
#undef CUTLASS_WGMMA_D_8
#undef CUTLASS_WGMMA_D_16
#undef CUTLASS_WGMMA_D_32
#undef CUTLASS_WGMMA_D_48
#undef CUTLASS_WGMMA_D_64
#undef CUTLASS_WGMMA_D_96
#undef CUTLASS_WGMMA_D_104
#undef CUTLASS_WGMMA_D_128
#undef CUTLASS_WGMMA_D32
#undef CUTLASS_WGMMA_D8
#undef CUTLASS_WGMMA_REGS_8
#undef CUTLASS_WGMMA_REGS_16
#undef CUTLASS_WGMMA_REGS_32
#undef CUTLASS_WGMMA_REGS_48
#undef CUTLASS_WGMMA_REGS_64
#undef CUTLASS_WGMMA_REGS_96
#undef CUTLASS_WGMMA_REGS_104
#undef CUTLASS_WGMMA_REGS_128

}  // namespace arch
}  // namespace cutlass
