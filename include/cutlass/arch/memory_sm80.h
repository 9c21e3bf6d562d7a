/// @file cutlass/arch/memory_sm80.h
/// Bare PTX wrappers for the sm80 data movement a multistage GEMM uses: asynchronous
/// global->shared copies (cp.async), warp-wide shared->register matrix loads (ldmatrix),
/// 32-bit shared loads, predicated narrow global loads for operands too misaligned for
/// cp.async, and a 16-byte shared store. Addresses in shared memory are 32-bit .shared-window
/// addresses (see shared_address()); sizes are in bytes. No layout knowledge lives here.
///
/// Sources: PTX ISA 8.x, sections "cp.async", "cp.async.commit_group", "cp.async.wait_group",
/// "ldmatrix", "ld", "st". All wrappers need sm_80 or later; the kernels that call them are
/// compiled only where CUTLASS_ARCH_MMA_SM80_ENABLED is defined.
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
/// Defined in device passes that may use cp.async, ldmatrix and mma.sync (sm_80 and later).
#define CUTLASS_ARCH_MMA_SM80_ENABLED 1
#endif

namespace cutlass {
namespace arch {

/// The .shared-window address of a generic pointer that points into shared memory.
CUTLASS_DEVICE uint32_t shared_address(void const *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

/// cp.async of kBytes (4, 8 or 16) from global `src` to shared `dst`, zero-filling when
/// `valid` is false: the src-size operand is then 0, so no global byte is read and all
/// kBytes of dst are written with zeros (PTX ISA "cp.async": bytes past src-size are zero).
/// 16-byte copies bypass L1 (.cg) and hint a 128-byte L2 sector fetch; 4- and 8-byte copies
/// must use .ca (PTX ISA: .cg supports only cp-size 16).
/// @pre dst and src aligned to kBytes.
template <int kBytes>
CUTLASS_DEVICE void cp_async_zfill(uint32_t dst, void const *src, bool valid) {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes");
  int src_bytes = valid ? kBytes : 0;
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(kBytes),
                 "r"(src_bytes)
                 : "memory");
  }
}

/// Closes the group of cp.async operations this thread issued since the previous commit.
CUTLASS_DEVICE void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most kPending of this thread's committed cp.async groups are still in flight.
/// Other threads' copies become visible only after a following barrier (__syncthreads).
template <int kPending>
CUTLASS_DEVICE void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

/// Waits for every cp.async this thread issued (committed or not).
CUTLASS_DEVICE void cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

/// ldmatrix .x4: four 8x8 matrices of 16-bit elements (each row 16 contiguous bytes).
/// Lane 8*j + r supplies the address of row r of matrix j. Lane l receives, in d[j], the
/// 32-bit word (l % 4) of row (l / 4) of matrix j.
/// @pre every row address 16-byte aligned.
CUTLASS_DEVICE void ldsm_x4(uint32_t (&d)[4], uint32_t row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(row_address));
}

/// ldmatrix .x4 .trans: as ldsm_x4, but each matrix is delivered transposed: lane l receives
/// in d[j] the 16-bit elements (row 2*(l%4), column l/4) [low half] and
/// (row 2*(l%4)+1, column l/4) [high half] of matrix j.
CUTLASS_DEVICE void ldsm_x4_trans(uint32_t (&d)[4], uint32_t row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(row_address));
}

/// One 32-bit shared load. @pre address 4-byte aligned.
CUTLASS_DEVICE uint32_t lds_u32(uint32_t address) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(address));
  return v;
}

/// Predicated global load of kBytes (1 or 2) into the low bits of a 32-bit register
/// (zero-extended); returns 0 and touches no memory when `valid` is false.
/// For operands whose alignment is below cp.async's 4-byte minimum.
/// @pre src aligned to kBytes when valid.
template <int kBytes>
CUTLASS_DEVICE uint32_t ld_global_zfill(void const *src, bool valid) {
  static_assert(kBytes == 1 || kBytes == 2, "use cp_async_zfill for 4, 8 and 16 bytes");
  uint32_t v;
  if constexpr (kBytes == 1) {
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n mov.b32 %0, 0;\n @p ld.global.u8 %0, [%1];\n}\n"
        : "=r"(v)
        : "l"(src), "r"(int(valid)));
  } else {
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n mov.b32 %0, 0;\n @p ld.global.u16 %0, [%1];\n}\n"
        : "=r"(v)
        : "l"(src), "r"(int(valid)));
  }
  return v;
}

/// One 16-byte shared store of v[0..3] (v[0] at the lowest address). @pre address 16-byte aligned.
CUTLASS_DEVICE void sts_u32x4(uint32_t address, uint32_t const (&v)[4]) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(address), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3])
               : "memory");
}

}  // namespace arch
}  // namespace cutlass
