/// @file src/library/manifest.cpp
#include "cutlass/library/manifest.h"

namespace cutlass {
namespace library {

Status Manifest::initialize() {
  operations_.clear();
  initialize_all(*this);
  return Status::kSuccess;
}

}  // namespace library
}  // namespace cutlass
