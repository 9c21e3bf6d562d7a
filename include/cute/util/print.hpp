/// @file cute/util/print.hpp
/// `print` for integers and strings, in the notation of the CuTe documentation: a dynamic integer
/// prints as its value (`8`), a static integer with a leading underscore (`_8`). Uses printf, so
/// it works in device code too. Tuples, layouts and tensors add their own overloads.
#pragma once

#include <cstdio>
#include <type_traits>

#include "cute/config.hpp"
#include "cute/numeric/integral_constant.hpp"

namespace cute {

/// Prints a dynamic integer, e.g. `8`, `-3`.
template <class T, std::enable_if_t<is_std_integral<T>::value, int> = 0>
CUTE_HOST_DEVICE void print(T const& t) {
  if constexpr (std::is_same<remove_cvref_t<T>, bool>::value) {
    printf("%s", t ? "true" : "false");
  } else if constexpr (std::is_signed<T>::value) {
    printf("%lld", static_cast<long long>(t));
  } else {
    printf("%llu", static_cast<unsigned long long>(t));
  }
}

/// Prints a static integer with the static marker, e.g. `_8`.
template <auto v>
CUTE_HOST_DEVICE void print(C<v>) {
  printf("_");
  print(v);
}

/// Prints a string as it is.
CUTE_HOST_DEVICE void print(char const* s) { printf("%s", s); }

/// Prints one character.
CUTE_HOST_DEVICE void print(char c) { printf("%c", c); }

}  // namespace cute
