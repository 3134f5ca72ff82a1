// Converters of ONNX Runtime's quantized com.microsoft ops QLinearConcat, QLinearAveragePool and
// QLinearGlobalAveragePool (also what fuse_qdq makes of QDQ Concat and average pools).
#include <algorithm>
#include <cmath>

#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"
#include "frontend/onnx/ops/Pool.h"
#include "frontend/onnx/ops/QuantSupport.h"
#include "frontend/onnx/ops/ShapeSupport.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

// Refuses a scale or zero point (input `input`) holding more than one value.
void require_per_tensor(const NodeContext &ctx, int input) {
    if (ctx.has_input(input) && ctx.input(input).size() != 1) {
        ctx.unsupported("per-axis scale or zero point '" + ctx.input(input).name + "' (only per tensor)");
    }
}

// QLinearConcat operand `first` (X, then its scale and zero point) brought to the output's
// scale `sy` / zero point `zy` (inputs 0 and 1): unchanged when both match, else requantized
// by an integer multiply and shift when integer_requantization proves it exact for every
// 8-bit value, else in float as DequantizeLinear then QuantizeLinear compute it.
Tensor concat_operand(NodeContext &ctx, int first, int out_type, int index) {
    const Tensor &x = ctx.input(first);
    require_per_tensor(ctx, first + 1);
    require_per_tensor(ctx, first + 2);
    Tensor t = x;
    t.elem_type = out_type;
    t.type = storage_type(out_type);
    t.constant = Halide::Buffer<>();
    t.test_value = Halide::Buffer<>();
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> at = as_exprs(v);
    double sx = 0, zx = 0, sy = 0, zy = 0;
    bool constant = single_constant(ctx, first + 1, &sx) && single_constant(ctx, first + 2, &zx) &&
                    single_constant(ctx, 0, &sy) && single_constant(ctx, 1, &zy);
    if (constant && static_cast<float>(sx) == static_cast<float>(sy) && zx == zy && x.elem_type == out_type) return x;
    Expr diff = Halide::cast<int32_t>(x.at(at)) - zero_point_at(ctx, first + 2, x, 0, {});
    t.func = ctx.func("x" + std::to_string(index));
    QuantRange in = quant_range(x.elem_type, static_cast<int64_t>(zx));
    QuantRange out = quant_range(out_type, static_cast<int64_t>(zy));
    IntegerRequant r;
    std::string why;
    if (constant && integer_requantization(static_cast<float>(sx), 1.0f, static_cast<float>(sy), in.qmin - in.zero_point,
                                           in.qmax - in.zero_point, out, &r, &why)) {
        define(t.func, v, requantize_integer(diff, Expr(r.multiplier), r.shift, out, out_type));
    } else {
        Expr real = Halide::cast<float>(diff) * per_axis(ctx, first + 1, x, 0, {});
        define(t.func, v, quantize_value(real, per_axis(ctx, 0, x, 0, {}), zero_point_at(ctx, 1, x, 0, {}), out_type));
    }
    return t;
}

// QLinearConcat(Y_scale, Y_zero_point, (X, X_scale, X_zero_point)...): each operand
// requantized to Y's parameters, then concatenated along `axis`.
void convert_qlinear_concat(NodeContext &ctx) {
    if (ctx.num_inputs() < 5 || (ctx.num_inputs() - 2) % 3 != 0) {
        ctx.invalid("QLinearConcat takes Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples; it has " +
                    std::to_string(ctx.num_inputs()) + " inputs");
    }
    if (!ctx.has_attr("axis")) ctx.invalid("the axis attribute is missing");
    require_per_tensor(ctx, 0);
    require_per_tensor(ctx, 1);
    int out_type = ctx.input(1).elem_type;
    std::vector<Tensor> parts;
    for (int first = 2; first < ctx.num_inputs(); first += 3) {
        parts.push_back(concat_operand(ctx, first, out_type, static_cast<int>(parts.size())));
    }
    define_concat(ctx, parts, normalize_axis(ctx.attr_int("axis", 0), parts[0].rank()), out_type);
}

// rhe(acc / count) in int64 exactly: floor division, then up when the remainder passes half
// (or is half and the quotient odd).
Expr divide_half_even(Expr acc, Expr count) {
    Expr a = Halide::cast<int64_t>(acc), c = Halide::cast<int64_t>(count);
    Expr q = a / c, r = a - q * c;  // Halide divides rounding down for a positive divisor
    Expr up = 2 * r > c || (2 * r == c && (q & Expr(int64_t(1))) != Expr(int64_t(0)));
    return q + Halide::select(up, Expr(int64_t(1)), Expr(int64_t(0)));
}

// The integer requantization of an average pool's window sum: one multiplier per count (a
// literal, or a table indexed by the count) with one shared shift, each proven exact for
// every sum its count allows; false when some count is not proven.
struct CountRequant {
    std::vector<int64_t> multipliers;  // indexed by count
    int shift = 0;
};

bool average_requant(float sx, const QuantRange &in, float sy, const QuantRange &out, const AverageWindow &w,
                     CountRequant *cr) {
    int shift = 64;
    std::string why;
    auto prove = [&](int64_t c, int fixed, IntegerRequant *r) {
        return integer_requantization(sx, 1.0f, sy, c * (in.qmin - in.zero_point), c * (in.qmax - in.zero_point), out,
                                      r, &why, fixed, c);
    };
    for (int64_t c : w.counts) {
        IntegerRequant r;
        if (!prove(c, 0, &r)) return false;
        shift = std::min(shift, r.shift);
    }
    cr->shift = shift;
    cr->multipliers.assign(static_cast<size_t>(w.counts.back() + 1), 0);
    for (int64_t c : w.counts) {
        IntegerRequant r;
        if (!prove(c, shift, &r)) return false;
        cr->multipliers[static_cast<size_t>(c)] = r.multiplier;
    }
    return true;
}

// QLinearAveragePool / QLinearGlobalAveragePool (X, x_scale, x_zero_point, y_scale,
// y_zero_point): y = clamp(rhe(sum(x - zx) * sx / (count * sy)) + zy) over AveragePool's window
// (padding adds 0, i.e. the zero point). With constant parameters the window sum is an int32
// and the division exact in integers: rhe(sum / count) when sx == sy, else an integer multiply
// and shift per count proven exact by integer_requantization; otherwise (or when not proven)
// the float path of DequantizeLinear, AveragePool, QuantizeLinear.
void convert_qlinear_average_pool(NodeContext &ctx, bool global) {
    if (ctx.attr_int("channels_last", 0) != 0) ctx.unsupported("channels_last = 1");
    const Tensor &xq = ctx.input(0);
    if (xq.rank() < 3) ctx.unsupported("input rank " + std::to_string(xq.rank()));
    for (int i = 1; i <= 4; i++) require_per_tensor(ctx, i);
    int out_type = xq.elem_type;
    double sx = 0, zx = 0, sy = 0, zy = 0;
    bool constant = single_constant(ctx, 1, &sx) && single_constant(ctx, 2, &zx) && single_constant(ctx, 3, &sy) &&
                    single_constant(ctx, 4, &zy);
    QuantRange in = quant_range(xq.elem_type, static_cast<int64_t>(zx));
    QuantRange out = quant_range(out_type, static_cast<int64_t>(zy));
    Tensor x = centered(ctx, xq, 2, 1, "x");
    Func y = ctx.func("requant");
    // The int32 sum holds at most 2^31 / 256 positions.
    AverageWindow w = average_window(ctx, x, global);
    if (constant && w.counts.back() < (int64_t(1) << 23)) {
        Expr sum = w.sum(halide_args(w.v));
        CountRequant cr;
        if (static_cast<float>(sx) == static_cast<float>(sy) && sx > 0 && std::isfinite(sx)) {
            Expr q = divide_half_even(sum, w.count) + Expr(out.zero_point);
            define(y, w.v, Halide::cast(storage_type(out_type), Halide::clamp(q, Expr(out.qmin), Expr(out.qmax))));
            ctx.set_output(0, y, w.out_shape, out_type);
            return;
        }
        if (average_requant(static_cast<float>(sx), in, static_cast<float>(sy), out, w, &cr)) {
            Expr mult = Expr(cr.multipliers[static_cast<size_t>(w.counts[0])]);
            if (w.counts.size() > 1) {
                Halide::Buffer<int32_t> table(static_cast<int>(cr.multipliers.size()));
                for (size_t c = 0; c < cr.multipliers.size(); c++) {
                    table(static_cast<int>(c)) = static_cast<int32_t>(cr.multipliers[c]);
                }
                mult = ctx.constant("multiplier", table, {static_cast<int64_t>(cr.multipliers.size())},
                                    TensorProto::INT32)
                           .at({w.count});
            }
            define(y, w.v, requantize_integer(sum, mult, cr.shift, out, out_type));
            ctx.set_output(0, y, w.out_shape, out_type);
            return;
        }
    }
    // Float: the dequantized values averaged in float32, then quantized.
    Tensor xf = x;
    xf.elem_type = TensorProto::FLOAT;
    xf.type = Halide::Float(32);
    std::vector<Var> v = make_vars(x.rank());
    xf.func = ctx.func("dequant");
    define(xf.func, v, Halide::cast<float>(x.at(as_exprs(v))) * per_axis(ctx, 1, xq, 0, {}));
    w = average_window(ctx, xf, global);
    Expr avg = w.sum(halide_args(w.v)) / Halide::cast<float>(w.count);
    define(y, w.v, quantize_value(avg, per_axis(ctx, 3, xq, 0, {}), zero_point_at(ctx, 4, xq, 0, {}), out_type));
    ctx.set_output(0, y, w.out_shape, out_type);
}

std::string check_qlinear_concat(const onnx::NodeProto &node, const std::vector<int> &types) {
    std::vector<int> quantized = {1}, floats = {0};
    for (int first = 2; first < static_cast<int>(types.size()); first += 3) {
        quantized.push_back(first);
        floats.push_back(first + 1);
        quantized.push_back(first + 2);
    }
    return check_types(quantized, floats)(node, types);
}

}  // namespace

void add_qlinear_contrib_converters(ConverterTable &t) {
    t["QLinearConcat"] = {convert_qlinear_concat, check_qlinear_concat};
    t["QLinearAveragePool"] = {[](NodeContext &ctx) { convert_qlinear_average_pool(ctx, false); },
                               check_types({0, 2, 4}, {1, 3})};
    t["QLinearGlobalAveragePool"] = {[](NodeContext &ctx) { convert_qlinear_average_pool(ctx, true); },
                                     check_types({0, 2, 4}, {1, 3})};
}

}  // namespace flowhls::onnx_import
