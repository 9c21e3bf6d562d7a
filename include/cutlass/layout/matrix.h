/// @file cutlass/layout/matrix.h
/// Matrix layout tags. A ColumnMajor M x N matrix stores element (i, j) at offset i + j * ld
/// (ld >= max(1, M)); a RowMajor one at i * ld + j (ld >= max(1, N)). Offsets and ld in elements.
#pragma once

#include <cstdint>
#include "cutlass/cutlass.h"

namespace cutlass {
namespace layout {

/// Column-major: consecutive rows are adjacent in memory ("n" in kernel names).
struct ColumnMajor {
  CUTLASS_HOST_DEVICE static int64_t offset(int64_t row, int64_t column, int64_t ld) {
    return row + column * ld;
  }
};

/// Row-major: consecutive columns are adjacent in memory ("t" in kernel names).
struct RowMajor {
  CUTLASS_HOST_DEVICE static int64_t offset(int64_t row, int64_t column, int64_t ld) {
    return row * ld + column;
  }
};

}  // namespace layout
}  // namespace cutlass
