/// @file cute/config.hpp
/// Function qualifiers of the layout algebra: every function is usable in host code and, when
/// compiled by nvcc, in device code. Plain C++ compilers (g++ -std=c++17) see ordinary inline
/// functions, so the headers serve host-only tools as well as kernels.
#pragma once

#if defined(__CUDACC__)
#define CUTE_HOST_DEVICE __forceinline__ __host__ __device__
#else
#define CUTE_HOST_DEVICE inline
#endif
