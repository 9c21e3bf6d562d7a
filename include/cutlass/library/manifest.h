/// @file cutlass/library/manifest.h
/// The Manifest owns every precompiled kernel of the library. The generated function
/// initialize_all(Manifest&) appends them in the generator's preference order.
/// Singleton::get().manifest is filled once, thread-safely, on first use.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "cutlass/library/export.h"
#include "cutlass/library/library.h"

namespace cutlass {
namespace library {

using OperationVector = std::vector<std::unique_ptr<Operation>>;

class CUTLASS_LIB_API Manifest {
 public:
  explicit Manifest(Provider provider = Provider::kCUTLASS) : provider_(provider) {}

  /// Clears the manifest and appends every kernel compiled into the library.
  Status initialize();

  void reserve(size_t operation_count) { operations_.reserve(operation_count); }

  /// Appends an operation, taking ownership.
  void append(Operation *operation) { operations_.emplace_back(operation); }

  OperationVector const &operations() const { return operations_; }
  OperationVector::const_iterator begin() const { return operations_.begin(); }
  OperationVector::const_iterator end() const { return operations_.end(); }
  size_t size() const { return operations_.size(); }
  Provider provider() const { return provider_; }

 private:
  Provider provider_;
  OperationVector operations_;
};

/// Generated: appends every kernel of this build, in preference order.
CUTLASS_LIB_API void initialize_all(Manifest &manifest);

}  // namespace library
}  // namespace cutlass
