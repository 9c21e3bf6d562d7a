/// @file cutlass/arch/memory_sm90.h
/// Warp-wide register->shared matrix stores (stmatrix, sm_90 and later), the inverse of
/// ldmatrix (memory_sm80.h). Source: PTX ISA 8.x, section "stmatrix".
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

namespace cutlass {
namespace arch {

/// stmatrix .x4: four 8x8 matrices of 16-bit elements; lane 8*j + r supplies the 16-byte-aligned
/// shared address of row r of matrix j. Lane l provides in s[j] the elements (row l/4, columns
/// 2*(l%4) and 2*(l%4)+1) of matrix j [low, high half]: an mma/wgmma accumulator fragment's own
/// layout (what ldsm_x4 reads back).
CUTLASS_DEVICE void stsm_x4(uint32_t row_address, uint32_t const (&s)[4]) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(row_address), "r"(s[0]),
               "r"(s[1]), "r"(s[2]), "r"(s[3])
               : "memory");
#endif
}

/// stmatrix .x4 .trans: four 8x8 matrices of 16-bit elements; lane 8*j + r supplies the
/// 16-byte-aligned shared address of row r of matrix j. Lane l provides in s[j] the elements
/// (row 2*(l%4), column l/4) [low half] and (row 2*(l%4)+1, column l/4) [high half] of matrix j,
/// i.e. an mma/wgmma accumulator fragment stored transposed (what ldsm_x4_trans reads back).
CUTLASS_DEVICE void stsm_x4_trans(uint32_t row_address, uint32_t const (&s)[4]) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(row_address),
               "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3])
               : "memory");
#endif
}

}  // namespace arch
}  // namespace cutlass
