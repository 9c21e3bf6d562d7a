/// @file src/profiler/kernel_call.h
/// The configuration and arguments that run one problem on one of the library's kernels
/// (Operation::can_implement / get_device_workspace_size / run).
#pragma once

#include "cutlass/library/library.h"
#include "epilogue_reference.h"
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
/// `epilogue`: the fused operands (null or unused for a plain spec), passed as the kernel sees
/// them (kernel_epilogue_arguments with transposed = row-major C).
KernelCall kernel_call(GemmSpec const &spec, OperandPointers const &pointers, void const *alpha, void const *beta,
                       reference::EpilogueOperands const *epilogue = nullptr);

/// Puts the spec's fp8 operand scales (pointers from `pointers`) and accumulation mode into
/// `arguments`; `transposed` as for epilogue_arguments (A's scale becomes the kernel's B scale).
void set_scaling(GemmSpec const &spec, OperandPointers const &pointers, bool transposed,
                 library::GemmEpilogueArguments &arguments);

/// The library's GemmEpilogueArguments for the spec's epilogue and these operands. `transposed`:
/// the call runs D^T = B^T A^T (a kernel called directly on a row-major C problem), so the
/// vectors' broadcasts flip (aux, in C's layout, is already D^T's column-major aux). The Handle
/// takes the user's orientation (transposed = false) and flips on its own.
library::GemmEpilogueArguments epilogue_arguments(GemmSpec const &spec, reference::EpilogueOperands const &operands,
                                                  bool transposed);

}  // namespace profiler
}  // namespace cutlass
