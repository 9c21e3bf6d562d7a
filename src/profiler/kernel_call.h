/// @file src/profiler/kernel_call.h
/// The configuration and arguments that run one problem on one of the library's kernels
/// (Operation::can_implement / get_device_workspace_size / run).
#pragma once

#include "cutlass/library/library.h"
#include "gemm_spec.h"

namespace cutlass {
namespace profiler {

struct KernelCall {
  library::GemmUniversalConfiguration configuration;
  library::GemmUniversalArguments arguments;
};

/// The kernel call for one copy of the operands. A row-major C/D problem becomes the
/// column-major N x M problem D^T = B^T A^T: the kernel's A is the problem's B and vice versa,
/// with their leading dimensions unchanged. alpha and beta point to host scalars of the
/// kernel's epilogue type. batch_count > 1 uses kBatched with packed batch strides.
KernelCall kernel_call(GemmSpec const &spec, OperandPointers const &pointers, void const *alpha, void const *beta);

}  // namespace profiler
}  // namespace cutlass
