/// @file cutlass/library/singleton.h
/// The process-wide manifest and operation table, built once on first use (thread-safe:
/// a function-local static).
#pragma once

#include "cutlass/library/export.h"
#include "cutlass/library/manifest.h"
#include "cutlass/library/operation_table.h"

namespace cutlass {
namespace library {

class CUTLASS_LIB_API Singleton {
 public:
  Manifest manifest;
  OperationTable operation_table;

  static Singleton const &get();

 private:
  Singleton();
};

}  // namespace library
}  // namespace cutlass
