// Helpers shared by the converters of quantized ops (Quantize.cpp, QLinearContrib.cpp, Qonnx.cpp).
#pragma once

#include "frontend/onnx/Converter.h"
#include "frontend/onnx/Requantize.h"

#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// Whether `elem_type` is int8 or uint8.
bool is_quantized_type(int elem_type);

/// The values an 8-bit quantized type holds, with `zero_point`.
QuantRange quant_range(int elem_type, int64_t zero_point);

/// A scale or zero point of `x` (input `input` of the node): one value for the whole tensor,
/// or one per index along `axis` of `x` (negative: from the end). A constant single value
/// becomes a literal.
Halide::Expr per_axis(const NodeContext &ctx, int input, const Tensor &x, int axis,
                      const std::vector<Halide::Expr> &index);

/// The zero point of input `input` (absent: 0) along `axis` as int32.
Halide::Expr zero_point_at(const NodeContext &ctx, int input, const Tensor &x, int axis,
                           const std::vector<Halide::Expr> &index);

/// `q` minus its zero point (input `zp_input`, one value or one per index of `axis`) as an
/// int32 tensor inlined into its reader.
Tensor centered(const NodeContext &ctx, const Tensor &q, int zp_input, int axis, const std::string &suffix);

/// clamp(rhe(real / scale) + zp) in the type of `elem_type` (float arithmetic as ONNX
/// specifies it; no division without a scale; NaN quantizes to the zero point).
Halide::Expr quantize_value(Halide::Expr real, Halide::Expr scale, Halide::Expr zero_point, int elem_type);

/// The value of a single-element input known at compile time (absent: 0); false otherwise.
bool single_constant(const NodeContext &ctx, int input, double *value);

/// clamp(rhe((acc * multiplier + offset) / 2^shift) + zp) in `out_type`: the product and the
/// offset (undefined or 0: none) in int64, one shift rounding half to even.
Halide::Expr requantize_integer(Halide::Expr acc, Halide::Expr multiplier, int shift, const QuantRange &out,
                                int out_type, Halide::Expr offset = Halide::Expr());

/// Input type checks: which inputs must be 8-bit quantized, float, or int32.
CheckFn check_types(std::vector<int> quantized, std::vector<int> floats, std::vector<int> int32s = {});

}  // namespace flowhls::onnx_import
