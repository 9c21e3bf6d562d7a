/// @file src/library/singleton.cpp
#include "cutlass/library/singleton.h"

namespace cutlass {
namespace library {

Singleton::Singleton() {
  manifest.initialize();
  operation_table.append(manifest);
}

Singleton const &Singleton::get() {
  static Singleton const instance;   // C++11: initialized once, thread-safe
  return instance;
}

}  // namespace library
}  // namespace cutlass
