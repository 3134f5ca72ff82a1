// Converters of QONNX's Quant and Trunc (domains qonnx.custom_op.general and
// finn.custom_op.general, the format Brevitas and FINN write) for bit widths 2 to 8, in float32.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

// A bit width input (`what`) that must be one constant integer in [lo, hi].
int64_t bit_width(const NodeContext &ctx, int input, const std::string &what, int64_t lo, int64_t hi) {
    const Tensor &t = ctx.input(input);
    if (!t.is_constant()) ctx.unsupported(what + " '" + t.name + "' is computed at run time (only constants)");
    if (t.size() != 1) ctx.unsupported(what + " '" + t.name + "' holds " + std::to_string(t.size()) + " values (only one)");
    double b = ctx.constant_doubles(input)[0];
    if (!std::isfinite(b) || b != std::floor(b)) ctx.invalid(what + " " + std::to_string(b) + " is not an integer");
    if (b == 1 && lo == 2) ctx.unsupported(what + " 1 (binary / bipolar quantization: QONNX's BipolarQuant)");
    if (b < static_cast<double>(lo) || b > static_cast<double>(hi)) {
        std::string text = std::abs(b) < 1e15 ? std::to_string(static_cast<int64_t>(b)) : std::to_string(b);
        ctx.unsupported(what + " " + text + " (only " + std::to_string(lo) + " to " + std::to_string(hi) + ")");
    }
    return static_cast<int64_t>(b);
}

// The rounding mode attribute (upper case); Unsupported for modes QONNX does not define.
std::string rounding_mode(const NodeContext &ctx, const std::string &fallback) {
    std::string mode = ctx.attr_string("rounding_mode", fallback);
    std::transform(mode.begin(), mode.end(), mode.begin(), [](unsigned char c) { return std::toupper(c); });
    static const char *const known[] = {"ROUND", "CEIL", "FLOOR", "ROUND_TO_ZERO", "DOWN", "UP", "HALF_UP", "HALF_DOWN"};
    if (std::find(std::begin(known), std::end(known), mode) == std::end(known)) {
        ctx.unsupported("rounding_mode '" + mode + "' (ROUND, CEIL, FLOOR, ROUND_TO_ZERO / DOWN, UP, HALF_UP, " +
                        "HALF_DOWN)");
    }
    return mode;
}

// y rounded to an integer by `mode` in float32: ROUND half to even, CEIL, FLOOR, ROUND_TO_ZERO
// (QONNX's DOWN), UP (away from zero), HALF_UP / HALF_DOWN (ties away from / towards zero).
// The fraction y - trunc(y) is exact, so the half-way tests are too.
Expr round_by(const std::string &mode, Expr y) {
    if (mode == "ROUND") return Halide::round(y);
    if (mode == "CEIL") return Halide::ceil(y);
    if (mode == "FLOOR") return Halide::floor(y);
    Expr t = Halide::trunc(y);
    if (mode == "ROUND_TO_ZERO" || mode == "DOWN") return t;
    Expr away = Halide::select(y < 0.0f, t - 1.0f, t + 1.0f);
    Expr frac = Halide::abs(y - t);
    if (mode == "UP") return Halide::select(frac > 0.0f, away, t);
    if (mode == "HALF_UP") return Halide::select(frac >= 0.5f, away, t);
    return Halide::select(frac > 0.5f, away, t);  // HALF_DOWN
}

// v limited to [lo, hi] by comparisons (NaN stays NaN, as in QONNX's reference).
Expr limit(Expr v, float lo, float hi) {
    return Halide::select(v > hi, Expr(hi), Halide::select(v < lo, Expr(lo), v));
}

// Quant(x, scale, zeropt, bitwidth): q = round(clamp(x / scale + zeropt, min, max)), then
// (q - zeropt) * scale, in float32; min, max from bitwidth, signed and narrow (signed:
// [-2^(b-1) (+1 if narrow), 2^(b-1) - 1]; unsigned: [0, 2^b - 1 (-1 if narrow)]); scale and
// zero point broadcast against x.
void convert_quant(NodeContext &ctx) {
    const Tensor &x = ctx.input(0), &scale = ctx.input(1), &zero = ctx.input(2);
    int64_t bits = bit_width(ctx, 3, "bit width", 2, 8);
    bool is_signed = ctx.attr_int("signed", 1) != 0, narrow = ctx.attr_int("narrow", 0) != 0;
    std::string mode = rounding_mode(ctx, "ROUND");
    double lo = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) + (narrow ? 1 : 0) : 0.0;
    double hi = is_signed ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1 : std::ldexp(1.0, static_cast<int>(bits)) - 1 - (narrow ? 1 : 0);
    std::vector<int64_t> shape = broadcast_shape(broadcast_shape(x.shape, scale.shape), zero.shape);
    if (shape != x.shape) {
        ctx.invalid("scale " + shape_text(scale.shape) + " and zero point " + shape_text(zero.shape) +
                    " do not broadcast to the input " + shape_text(x.shape));
    }
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> at = as_exprs(v);
    Expr s = broadcast_at(scale, at), z = broadcast_at(zero, at);
    Expr q = round_by(mode, limit(x.at(at) / s + z, static_cast<float>(lo), static_cast<float>(hi)));
    Func y = ctx.func();
    define(y, v, (q - z) * s);
    ctx.set_output(0, y, x.shape, TensorProto::FLOAT);
}

// Trunc(x, scale, zeropt, in_bitwidth, out_bitwidth) (QONNX's first form, no clamping):
// y = round_half_even(x / scale + zeropt) / 2^(in - out), rounded by rounding_mode (FLOOR by
// default), then (y - zeropt) * scale, in float32.
void convert_trunc(NodeContext &ctx) {
    if (ctx.num_inputs() != 5) {
        ctx.unsupported("Trunc with " + std::to_string(ctx.num_inputs()) +
                        " inputs (only x, scale, zeropt, in_bitwidth, out_bitwidth; not the form with an output "
                        "scale and zero point)");
    }
    const Tensor &x = ctx.input(0), &scale = ctx.input(1), &zero = ctx.input(2);
    int64_t out_bits = bit_width(ctx, 4, "output bit width", 2, 8);
    int64_t in_bits = bit_width(ctx, 3, "input bit width", out_bits, 32);
    std::string mode = rounding_mode(ctx, "FLOOR");
    if (broadcast_shape(broadcast_shape(x.shape, scale.shape), zero.shape) != x.shape) {
        ctx.invalid("scale " + shape_text(scale.shape) + " and zero point " + shape_text(zero.shape) +
                    " do not broadcast to the input " + shape_text(x.shape));
    }
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> at = as_exprs(v);
    Expr s = broadcast_at(scale, at), z = broadcast_at(zero, at);
    Expr t = Halide::round(x.at(at) / s + z) / static_cast<float>(std::ldexp(1.0, static_cast<int>(in_bits - out_bits)));
    Func y = ctx.func();
    define(y, v, (round_by(mode, t) - z) * s);
    ctx.set_output(0, y, x.shape, TensorProto::FLOAT);
}

// Types: x, scale and zero point float; bit widths float or integer.
CheckFn check_qonnx(int widths) {
    return [widths](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        for (int i = 0; i < static_cast<int>(types.size()); i++) {
            int t = types[i];
            bool width = i >= 3 && i < 3 + widths;
            bool ok = t == 0 || t == TensorProto::FLOAT ||
                      (width && (t == TensorProto::INT32 || t == TensorProto::INT64));
            if (!ok) {
                return "input " + std::to_string(i) + " of type " + elem_type_name(t) +
                       (width ? " (only float, int32, int64)" : " (only float)");
            }
        }
        return "";
    };
}

}  // namespace

void add_qonnx_converters(ConverterTable &t) {
    t["Quant"] = {convert_quant, check_qonnx(1)};
    t["Trunc"] = {convert_trunc, check_qonnx(2)};
}

}  // namespace flowhls::onnx_import
