/// @file test/kernel_compile/simt_instances.cu
/// Compile-only check of the SIMT kernel family (nothing runs): instantiates GemmSimt for the
/// sgemm and dgemm tiles of the generator's sm50_simt table, and for s8 -> s32 and 16-bit inputs
/// (float accumulation, half/bf16/float output) at 64x64x16, each in all four A/B layouts. Build with
///   nvcc -std=c++17 -I include -Xptxas -v -gencode=arch=compute_80,code=sm_80
///        -gencode=arch=compute_90a,code=sm_90a -c test/kernel_compile/simt_instances.cu
/// (one command line) and expect "0 bytes spill stores, 0 bytes spill loads" for every
/// gemm_simt_kernel. sm_75 builds exercise the register (non-cp.async) operand path.
#include <cstdint>

#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/kernel/gemm_simt.h"

namespace {

using cutlass::gemm::GemmShape;
using cutlass::layout::ColumnMajor;
using cutlass::layout::RowMajor;
using half = cutlass::half_t;
using bf16 = cutlass::bfloat16_t;

template <typename A, typename B, typename C, typename Acc, typename Compute, typename LayoutA, typename LayoutB,
          typename Tile, typename Warp>
using Simt = cutlass::gemm::kernel::GemmSimt<A, LayoutA, 1, B, LayoutB, 1, C, 1, Acc, Tile, Warp, GemmShape<1, 1, 1>,
                                             cutlass::epilogue::thread::LinearCombination<C, Acc, Compute>, 2>;

}  // namespace

/// Odr-uses run() (and with it the __global__ kernel) of one configuration in layouts nn, nt, tn, tt.
template <typename A, typename B, typename C, typename Acc, typename Compute, typename Tile, typename Warp>
void simt_instantiate_all_layouts() {
  (void)&Simt<A, B, C, Acc, Compute, ColumnMajor, ColumnMajor, Tile, Warp>::run;
  (void)&Simt<A, B, C, Acc, Compute, ColumnMajor, RowMajor, Tile, Warp>::run;
  (void)&Simt<A, B, C, Acc, Compute, RowMajor, ColumnMajor, Tile, Warp>::run;
  (void)&Simt<A, B, C, Acc, Compute, RowMajor, RowMajor, Tile, Warp>::run;
}

// sgemm
template void simt_instantiate_all_layouts<float, float, float, float, float, GemmShape<128, 128, 8>, GemmShape<32, 64, 8>>();
template void simt_instantiate_all_layouts<float, float, float, float, float, GemmShape<128, 64, 8>, GemmShape<32, 32, 8>>();
template void simt_instantiate_all_layouts<float, float, float, float, float, GemmShape<64, 64, 8>, GemmShape<32, 32, 8>>();
// dgemm
template void simt_instantiate_all_layouts<double, double, double, double, double, GemmShape<64, 64, 8>, GemmShape<32, 32, 8>>();
template void simt_instantiate_all_layouts<double, double, double, double, double, GemmShape<128, 64, 8>, GemmShape<64, 32, 8>>();
// s8 x s8 -> s32
template void simt_instantiate_all_layouts<int8_t, int8_t, int32_t, int32_t, int32_t, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>>();
// 16-bit inputs, float accumulation
template void simt_instantiate_all_layouts<half, half, half, float, float, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>>();
template void simt_instantiate_all_layouts<half, half, float, float, float, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>>();
template void simt_instantiate_all_layouts<bf16, bf16, bf16, float, float, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>>();
template void simt_instantiate_all_layouts<bf16, bf16, float, float, float, GemmShape<64, 64, 16>, GemmShape<32, 32, 16>>();
