// Small constructors of Halide IR shared by the passes that write new loops and accesses.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <string>

namespace flowhls {

/// An int32 constant.
Halide::Expr int_const(int64_t v);
/// An int32 variable called `name`.
Halide::Expr int_var(const std::string &name);
/// A dense, unpredicated load of element `index` of `buffer` (no front-end references).
Halide::Expr load(Halide::Type type, const std::string &buffer, const Halide::Expr &index);
/// A dense, unpredicated store of `value` to element `index` of `buffer`.
Halide::Internal::Stmt store(const std::string &buffer, const Halide::Expr &value, const Halide::Expr &index);
/// A serial loop `name` from `min` over `extent` iterations.
Halide::Internal::Stmt serial_for(const std::string &name, Halide::Expr min, Halide::Expr extent,
                                  Halide::Internal::Stmt body);

}  // namespace flowhls
