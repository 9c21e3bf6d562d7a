/// @file src/library/staging.h
/// The "packing" route into the fastest kernel (internal). A problem whose pointers, leading
/// dimensions or extents break the preferred kernel's alignment (TMA's 16-byte rule for the
/// sm90 family: e.g. 4095 x 4095 x 4095 with packed leading dimensions) would otherwise run a
/// slow align1 kernel. Instead, the misaligned operands are copied into the handle's
/// workspace with aligned leading dimensions, zero-padded to extents that are multiples of the
/// alignment, the preferred kernel runs on the copies, and D is copied back. Zero padding along
/// K adds nothing to the products; padded rows and columns of D are computed and dropped.
/// The copies are cudaMemcpy2DAsync / cudaMemsetAsync on the handle's stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

#include "cutlass/library/library.h"
#include "gemm_call.h"

namespace cutlass {
namespace library {

/// How a column-major-output call is re-expressed on staged copies.
struct StagingPlan {
  GemmCall staged;             ///< the call the kernel runs (workspace pointers where staged)
  bool stage_a = false, stage_b = false, stage_d = false;
  bool zero_a = false, zero_b = false;   ///< the copy has padding that must read as zero
  bool source = false;         ///< C is read (beta != 0, or scalars on the device)
  bool copy_c_into_d = false;  ///< C goes into D (or its staged copy) before the kernel
  bool zero_d = false;         ///< the staged D (holding C) has padding that must read as zero
  size_t bytes_a = 0, bytes_b = 0, bytes_d = 0;   ///< sizes of the staged copies (for the zero fill)
  size_t workspace_bytes = 0;  ///< total staging bytes
};

/// Plans staging of `call` (column-major output) for a kernel with description `desc`; false
/// when nothing would change (the call already fits), an operand type is unknown, or a padded
/// extent would pass INT_MAX (the call then gets the kernels that fit it unpadded, or none). The plan's
/// pointers assume the workspace starts at `workspace` (256-byte aligned).
bool plan_staging(GemmCall const &call, GemmDescription const &desc, void *workspace, StagingPlan *plan);

/// The number of copies and fills stage_in and stage_out launch for `plan`.
int staging_copies(StagingPlan const &plan);

/// Copies the operands in (zero fill, A, B, C) on `stream`; false if a copy failed to launch.
bool stage_in(StagingPlan const &plan, GemmCall const &call, cudaStream_t stream);

/// Copies D's M x N results out of its staged copy, if D was staged.
bool stage_out(StagingPlan const &plan, GemmCall const &call, cudaStream_t stream);

}  // namespace library
}  // namespace cutlass
