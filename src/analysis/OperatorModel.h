// Which device operator (fadd, imul32, ...) an IR expression node is implemented with.
#pragma once

#include <Halide.h>

#include <string>

namespace flowhls {

/// Contract: the name of the device-library operator that computes the top node of `e`
/// ("fadd", "fmul", "iadd32", "imul16", "fcmp", "select", "fcvt", "fsqrt", "fcall", ...), or
/// "" for wires: variables, constants, broadcasts, bit casts, casts between integers, and
/// products by constants (shifts and adds, costed as an adder). Loads and stores are not
/// operators here (the memory model times them). Pure.
std::string operator_of(const Halide::Expr &e);

/// Whether `op` is an integer product by a constant that is not a power of two: what Vitis HLS
/// maps to a DSP multiplier when it cannot be strength-reduced out of a pipeline (the row
/// address of a flattened loop nest).
bool is_constant_index_product(const Halide::Expr &e);

}  // namespace flowhls
