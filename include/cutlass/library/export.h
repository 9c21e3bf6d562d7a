/// @file cutlass/library/export.h
/// CUTLASS_LIB_API marks what libcutlass_lib.so exports; everything else is built hidden.
#pragma once

#if defined(_WIN32)
#define CUTLASS_LIB_API
#else
#define CUTLASS_LIB_API __attribute__((visibility("default")))
#endif
