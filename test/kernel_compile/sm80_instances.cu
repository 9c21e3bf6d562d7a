/// @file test/kernel_compile/sm80_instances.cu
/// Compile-only check of the sm80 tensor-op family (nothing runs): instantiates GemmSm80 for
/// each math row of the generator's sm80_tensorop table (f16/bf16 -> 16-bit or f32, tf32 -> f32,
/// s8 -> s32) in every layout it allows, at the widest and the narrowest alignment (the latter
/// takes the register path for 16-bit and s8), and every tile of the table once. Build with
///   nvcc -std=c++17 -I include -Xptxas -v -gencode=arch=compute_80,code=sm_80 \
///        -gencode=arch=compute_90a,code=sm_90a -c test/kernel_compile/sm80_instances.cu
/// and expect "0 bytes spill stores, 0 bytes spill loads" for every gemm_sm80_kernel, and
/// HMMA, LDSM and LDGSTS in `cuobjdump --dump-sass` (LDGSTS absent only for the register path).
#include <cstdint>

#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/kernel/gemm_sm80.h"

namespace {

using cutlass::gemm::GemmShape;
using cutlass::layout::ColumnMajor;
using cutlass::layout::RowMajor;
using half = cutlass::half_t;
using bf16 = cutlass::bfloat16_t;
using tf32 = cutlass::tfloat32_t;

/// The generator's AlignmentC: the bytes of one A access (at most 16), in C elements.
template <typename A, int kAlignA, typename C>
constexpr int alignment_c() {
  int bytes = kAlignA * int(sizeof(A)) < 16 ? kAlignA * int(sizeof(A)) : 16;
  return bytes / int(sizeof(C)) > 0 ? bytes / int(sizeof(C)) : 1;
}

template <typename A, typename C, typename Acc, typename LayoutA, typename LayoutB, int kAlign, typename Tile,
          typename Warp, typename Instruction, int kStages>
using Sm80 = cutlass::gemm::kernel::GemmSm80<A, LayoutA, kAlign, A, LayoutB, kAlign, C, alignment_c<A, kAlign, C>(),
                                             Acc, Tile, Warp, Instruction,
                                             cutlass::epilogue::thread::LinearCombination<C, Acc, Acc>, kStages>;

}  // namespace

/// Odr-uses run() (and with it the __global__ kernel) of one configuration in layouts nn, nt, tn, tt.
template <typename A, typename C, typename Acc, int kAlign, typename Tile, typename Warp, typename Instruction,
          int kStages>
void sm80_instantiate_all_layouts() {
  (void)&Sm80<A, C, Acc, ColumnMajor, ColumnMajor, kAlign, Tile, Warp, Instruction, kStages>::run;
  (void)&Sm80<A, C, Acc, ColumnMajor, RowMajor, kAlign, Tile, Warp, Instruction, kStages>::run;
  (void)&Sm80<A, C, Acc, RowMajor, ColumnMajor, kAlign, Tile, Warp, Instruction, kStages>::run;
  (void)&Sm80<A, C, Acc, RowMajor, RowMajor, kAlign, Tile, Warp, Instruction, kStages>::run;
}

/// s8 is TN only.
template <int kAlign, typename Tile, typename Warp, int kStages>
void sm80_instantiate_s8() {
  (void)&Sm80<int8_t, int32_t, int32_t, RowMajor, ColumnMajor, kAlign, Tile, Warp, GemmShape<16, 8, 32>,
              kStages>::run;
}

using I16816 = GemmShape<16, 8, 16>;
using I1688 = GemmShape<16, 8, 8>;

// 16-bit: the default tile at align 8 and align 1 for each output type, then every other tile.
template void sm80_instantiate_all_layouts<half, half, float, 8, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<half, float, float, 8, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<bf16, bf16, float, 8, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<bf16, float, float, 8, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<half, half, float, 1, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<bf16, float, float, 1, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<bf16, bf16, float, 8, GemmShape<256, 128, 32>, GemmShape<64, 64, 32>, I16816, 3>();
template void sm80_instantiate_all_layouts<bf16, bf16, float, 4, GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, I16816, 4>();
template void sm80_instantiate_all_layouts<bf16, bf16, float, 2, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, I16816, 3>();
template void sm80_instantiate_all_layouts<half, half, float, 8, GemmShape<64, 64, 32>, GemmShape<32, 32, 32>, I16816, 5>();
template void sm80_instantiate_all_layouts<half, half, float, 8, GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, I16816, 4>();
// tf32 -> f32
template void sm80_instantiate_all_layouts<tf32, float, float, 4, GemmShape<128, 128, 16>, GemmShape<64, 64, 16>, I1688, 4>();
template void sm80_instantiate_all_layouts<tf32, float, float, 1, GemmShape<128, 128, 16>, GemmShape<64, 64, 16>, I1688, 4>();
template void sm80_instantiate_all_layouts<tf32, float, float, 2, GemmShape<128, 256, 16>, GemmShape<64, 64, 16>, I1688, 3>();
template void sm80_instantiate_all_layouts<tf32, float, float, 4, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>, I1688, 5>();
// s8 x s8 -> s32, TN
template void sm80_instantiate_s8<16, GemmShape<128, 256, 64>, GemmShape<64, 64, 64>, 3>();
template void sm80_instantiate_s8<1, GemmShape<128, 256, 64>, GemmShape<64, 64, 64>, 3>();
template void sm80_instantiate_s8<8, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, 4>();
template void sm80_instantiate_s8<2, GemmShape<64, 64, 64>, GemmShape<32, 32, 64>, 5>();
