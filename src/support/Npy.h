// Writing Halide buffers as NumPy .npy files (the data format of generated testbenches).
#pragma once

#include <Halide.h>

#include <string>

namespace flowhls {

/// The .npy dtype descriptor of a scalar type ("<f4", "|u1", ...).
std::string npy_descr(Halide::Type t);

/// The .npy file contents of a dense buffer (C order: Halide dimension 0 is the last axis).
std::string npy_bytes(const Halide::Buffer<> &buffer);

}  // namespace flowhls
