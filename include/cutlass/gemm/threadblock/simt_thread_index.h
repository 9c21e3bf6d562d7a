/// @file cutlass/gemm/threadblock/simt_thread_index.h
/// threadIdx.x and blockIdx read through volatile PTX moves (PTX ISA, "Special Registers":
/// %tid, %ctaid). Unlike the builtins, two volatile reads are never merged into one value, so
/// a SIMT kernel's epilogue can derive its indices afresh after the mainloop: ptxas then has
/// nothing to hold (or spill) across the loop, where the 8x8 thread tile needs every register.
#pragma once

#include "cutlass/cutlass.h"

namespace cutlass {
namespace gemm {
namespace threadblock {

#if defined(__CUDACC__)
CUTLASS_DEVICE unsigned simt_thread_idx_x() {
  unsigned v;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));
  return v;
}
CUTLASS_DEVICE unsigned simt_block_idx_x() {
  unsigned v;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(v));
  return v;
}
CUTLASS_DEVICE unsigned simt_block_idx_y() {
  unsigned v;
  asm volatile("mov.u32 %0, %%ctaid.y;" : "=r"(v));
  return v;
}
CUTLASS_DEVICE unsigned simt_block_idx_z() {
  unsigned v;
  asm volatile("mov.u32 %0, %%ctaid.z;" : "=r"(v));
  return v;
}
#endif

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass
