/// @file src/library/transpose.h
/// The packing route's transposing copy (internal): an MN-major operand copied K-major into the
/// workspace, for kernels that take K-major operands only (wgmma reads 8- and 32-bit operands
/// K-major from shared memory; PTX ISA, "Matrix Descriptor Format" / wgmma operand layouts).
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

namespace cutlass {
namespace library {

/// dst(j, i) = src(i, j) for a rows x columns column-major matrix `src` (leading dimension
/// ld_src >= rows) into the columns x rows column-major matrix `dst` (ld_dst >= columns), for
/// each of batch_count batches stride_src / stride_dst elements apart; elements of
/// `element_bytes` bytes (1, 2, 4 or 8; moved as bits, any type). Leaves dst's elements past
/// columns x rows untouched. Launches on `stream`; false for another element size or a failed
/// launch. One 32 x 32 tile per CTA iteration through shared memory, so both the reads and the
/// writes run along contiguous columns.
bool launch_transpose(void *dst, int64_t ld_dst, int64_t stride_dst, void const *src, int64_t ld_src,
                      int64_t stride_src, int64_t rows, int64_t columns, int64_t batch_count, int element_bytes,
                      cudaStream_t stream);

}  // namespace library
}  // namespace cutlass
