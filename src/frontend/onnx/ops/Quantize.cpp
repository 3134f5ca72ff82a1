// Converters of the quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul, QLinearAdd (int8 / uint8 operands, int32 sums).
#include <algorithm>
#include <cmath>

#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/Requantize.h"
#include "frontend/onnx/TensorData.h"
#include "frontend/onnx/ops/Linear.h"
#include "frontend/onnx/ops/QuantSupport.h"

namespace flowhls::onnx_import {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;
using onnx::TensorProto;

bool is_quantized_type(int t) {
    return t == TensorProto::UINT8 || t == TensorProto::INT8;
}

// The values an 8-bit quantized type holds.
QuantRange quant_range(int elem_type, int64_t zero_point) {
    if (elem_type == TensorProto::INT8) return {zero_point, -128, 127};
    return {zero_point, 0, 255};
}

// A scale or zero point of `x` (input `input` of the node): one value for the whole tensor,
// or one per index along `axis` of `x` (negative: from the end). A constant single value becomes a literal.
Expr per_axis(const NodeContext &ctx, int input, const Tensor &x, int axis, const std::vector<Expr> &index) {
    const Tensor &p = ctx.input(input);
    if (p.size() == 1) {
        if (p.is_constant()) return Halide::Internal::make_const(p.type, ctx.constant_doubles(input)[0]);
        return p.at(std::vector<Expr>(p.rank(), 0));
    }
    if (axis < 0) axis += x.rank();
    if (p.rank() != 1 || axis < 0 || axis >= x.rank() || p.shape[0] != x.shape[axis]) {
        ctx.invalid("input '" + p.name + "' has shape " + shape_text(p.shape) + "; it must hold one value or one per " +
                    "index of axis " + std::to_string(axis) + " of '" + x.name + "' (" + shape_text(x.shape) + ")");
    }
    return p.at({index[axis]});
}

// The zero point of input `input` (absent: 0 of type `type`) along `axis` as int32.
Expr zero_point_at(const NodeContext &ctx, int input, const Tensor &x, int axis, const std::vector<Expr> &index) {
    if (!ctx.has_input(input)) return Expr(0);
    return Halide::cast<int32_t>(per_axis(ctx, input, x, axis, index));
}

// `q` minus its zero point (input `zp_input`, one value or one per index of `axis`) as an
// int32 tensor inlined into its reader; reads outside stay zero-point-relative (padding = 0).
Tensor centered(const NodeContext &ctx, const Tensor &q, int zp_input, int axis, const std::string &suffix) {
    Tensor t = q;
    t.elem_type = TensorProto::INT32;
    t.type = Halide::Int(32);
    t.constant = Halide::Buffer<>();
    t.test_value = Halide::Buffer<>();
    std::vector<Var> v = make_vars(q.rank());
    std::vector<Expr> index = as_exprs(v);
    t.func = ctx.func(suffix);
    define(t.func, v, Halide::cast<int32_t>(q.at(index)) - zero_point_at(ctx, zp_input, q, axis, index));
    return t;
}

// clamp(rhe(real / scale) + zp) in the type of `elem_type` (float arithmetic as ONNX
// specifies it; no division without a scale; NaN quantizes to the zero point).
Expr quantize_value(Expr real, Expr scale, Expr zero_point, int elem_type) {
    QuantRange r = quant_range(elem_type, 0);
    Expr q = Halide::round(scale.defined() ? real / scale : real);
    q = Halide::select(Halide::is_nan(q), 0.0f, q) + Halide::cast<float>(zero_point);
    q = Halide::clamp(q, static_cast<float>(r.qmin), static_cast<float>(r.qmax));
    return Halide::cast(storage_type(elem_type), q);
}

bool single_constant(const NodeContext &ctx, int input, double *value) {
    if (!ctx.has_input(input)) {
        *value = 0;
        return true;
    }
    const Tensor &t = ctx.input(input);
    if (!t.is_constant() || t.size() != 1) return false;
    *value = ctx.constant_doubles(input)[0];
    return true;
}

Expr requantize_integer(Expr acc, Expr multiplier, int shift, const QuantRange &out, int out_type, Expr offset) {
    Expr prod = Halide::cast<int64_t>(acc) * Halide::cast<int64_t>(multiplier);
    if (offset.defined() && !Halide::Internal::is_const_zero(offset)) prod = prod + Halide::cast<int64_t>(offset);
    Expr half = Expr((int64_t(1) << (shift - 1)) - 1);
    Expr q = (prod + half + ((prod >> shift) & Expr(int64_t(1)))) >> shift;
    q = Halide::clamp(q + Expr(out.zero_point), Expr(out.qmin), Expr(out.qmax));
    return Halide::cast(storage_type(out_type), q);
}

CheckFn check_types(std::vector<int> quantized, std::vector<int> floats, std::vector<int> int32s) {
    return [=](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        auto type = [&](int i) { return i < static_cast<int>(types.size()) ? types[i] : 0; };
        for (int i : quantized) {
            if (type(i) && !is_quantized_type(type(i)))
                return "input " + std::to_string(i) + " of type " + elem_type_name(type(i)) + " (only int8 and uint8)";
        }
        for (int i : floats) {
            if (type(i) && type(i) != TensorProto::FLOAT)
                return "input " + std::to_string(i) + " of type " + elem_type_name(type(i)) + " (only float)";
        }
        for (int i : int32s) {
            if (type(i) && type(i) != TensorProto::INT32)
                return "input " + std::to_string(i) + " of type " + elem_type_name(type(i)) + " (only int32)";
        }
        return "";
    };
}

namespace {

// The axis of per-axis scales (checked when a scale holds more than one value).
int axis_attr(const NodeContext &ctx) {
    return static_cast<int>(ctx.attr_int("axis", 1));
}

// QuantizeLinear: y = saturate(rhe(x / y_scale) + y_zero_point), per tensor or per axis.
void convert_quantize(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    int axis = axis_attr(ctx);
    int out_type = ctx.has_input(2) ? ctx.input(2).elem_type : static_cast<int>(TensorProto::UINT8);
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> index = as_exprs(v);
    Expr scale = per_axis(ctx, 1, x, axis, index);
    Func y = ctx.func();
    define(y, v, quantize_value(x.at(index), scale, zero_point_at(ctx, 2, x, axis, index), out_type));
    ctx.set_output(0, y, x.shape, out_type);
}

// DequantizeLinear: y = (x - x_zero_point) * x_scale, per tensor or per axis.
void convert_dequantize(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    int axis = axis_attr(ctx);
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> index = as_exprs(v);
    Expr scale = per_axis(ctx, 1, x, axis, index);
    Expr diff;
    if (x.elem_type == TensorProto::INT32) {
        // int32 data (biases): the difference may pass int32.
        Expr zp = ctx.has_input(2) ? Halide::cast<int64_t>(per_axis(ctx, 2, x, axis, index)) : Expr(int64_t(0));
        diff = Halide::cast<int64_t>(x.at(index)) - zp;
    } else {
        diff = Halide::cast<int32_t>(x.at(index)) - zero_point_at(ctx, 2, x, axis, index);
    }
    Func y = ctx.func();
    define(y, v, Halide::cast<float>(diff) * scale);
    ctx.set_output(0, y, x.shape, TensorProto::FLOAT);
}

// DynamicQuantizeLinear: uint8 with scale (max(0, max x) - min(0, min x)) / 255 and zero
// point saturate(rhe(-min / scale)); outputs y, y_scale, y_zero_point.
void convert_dynamic_quantize(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    Halide::Region extents;
    for (int i = x.rank() - 1; i >= 0; i--) extents.push_back({0, static_cast<int>(x.shape[i])});
    if (extents.empty()) extents.push_back({0, 1});
    RDom r(extents, ctx.func("r").name());
    std::vector<Expr> at;
    for (int i = 0; i < x.rank(); i++) at.push_back(r[x.rank() - 1 - i]);
    std::vector<Var> s = make_vars(0);
    std::vector<Var> hs = halide_args(s);
    Func lo = ctx.func("min"), hi = ctx.func("max");
    define(lo, s, 0.0f);
    define(hi, s, 0.0f);
    // Strict comparisons: a NaN element leaves the bound as it is.
    lo(hs) = Halide::select(x.at(at) < lo(hs), x.at(at), lo(hs));
    hi(hs) = Halide::select(x.at(at) > hi(hs), x.at(at), hi(hs));
    lo.compute_root();
    hi.compute_root();
    Expr scale = (hi(hs) - lo(hs)) / 255.0f;
    Expr zp = quantize_value(0.0f - lo(hs), scale, 0, TensorProto::UINT8);
    Func scale_f = ctx.func("scale"), zp_f = ctx.func("zero_point");
    define(scale_f, s, scale);
    define(zp_f, s, zp);
    scale_f.compute_root();
    zp_f.compute_root();
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> index = as_exprs(v);
    Func y = ctx.func();
    Expr scalar = Expr(0);
    define(y, v, quantize_value(x.at(index), scale_f(scalar), zp_f(scalar), TensorProto::UINT8));
    ctx.set_output(0, y, x.shape, TensorProto::UINT8);
    ctx.set_output(1, scale_f, {}, TensorProto::FLOAT);
    ctx.set_output(2, zp_f, {}, TensorProto::UINT8);
}

// A zero point of a MatMul operand: one value, one per row of `a` (a 1-D vector of M
// values), or a tensor broadcasting against the operand (per row [..., M, 1], per column [N]).
Tensor centered_operand(const NodeContext &ctx, const Tensor &q, int zp_input, bool rows, const std::string &suffix) {
    if (!ctx.has_input(zp_input) || ctx.input(zp_input).size() == 1) return centered(ctx, q, zp_input, 0, suffix);
    const Tensor &zp = ctx.input(zp_input);
    if (rows && zp.rank() == 1 && q.rank() >= 2) return centered(ctx, q, zp_input, q.rank() - 2, suffix);
    if (broadcast_shape(q.shape, zp.shape) != q.shape) {
        ctx.invalid("zero point '" + zp.name + "' (" + shape_text(zp.shape) + ") does not broadcast to '" + q.name +
                    "' (" + shape_text(q.shape) + ")");
    }
    Tensor t = q;
    t.elem_type = TensorProto::INT32;
    t.type = Halide::Int(32);
    t.constant = Halide::Buffer<>();
    std::vector<Var> v = make_vars(q.rank());
    t.func = ctx.func(suffix);
    define(t.func, v, Halide::cast<int32_t>(q.at(as_exprs(v))) - Halide::cast<int32_t>(broadcast_at(zp, as_exprs(v))));
    return t;
}

// Refuses a sum of `terms` products of two zero-point-relative 8-bit values (each within
// [-255, 255]) that could pass int32.
void check_accumulator(const NodeContext &ctx, int64_t terms) {
    if (terms > (int64_t(1) << 31) / (255 * 255)) {
        ctx.unsupported("a sum of " + std::to_string(terms) + " products could overflow the int32 accumulator");
    }
}

// ConvInteger: int32 sum of (x - x_zero_point) * (w - w_zero_point[m]); padding reads the
// zero point.
void convert_conv_integer(NodeContext &ctx) {
    Tensor x = centered(ctx, ctx.input(0), 2, 1, "x");
    Tensor w = centered(ctx, ctx.input(1), 3, 0, "w");
    check_accumulator(ctx, w.size() / std::max<int64_t>(w.shape.empty() ? 1 : w.shape[0], 1));
    Accumulation acc = conv_accumulation(ctx, x, w, nullptr);
    ctx.set_output(0, acc.func, acc.shape, TensorProto::INT32);
}

// MatMulInteger: int32 product of (a - a_zero_point) and (b - b_zero_point).
void convert_matmul_integer(NodeContext &ctx) {
    Tensor a = centered_operand(ctx, ctx.input(0), 2, true, "a");
    Tensor b = centered_operand(ctx, ctx.input(1), 3, false, "b");
    check_accumulator(ctx, a.shape.empty() ? 1 : a.shape.back());
    Accumulation acc = matmul_accumulation(ctx, a, b);
    ctx.set_output(0, acc.func, acc.shape, TensorProto::INT32);
}

// The scale of QLinearConv's bias per output channel when fuse_qdq carried the QDQ graph's own
// (attribute flowhls_bias_scale, one value or one per channel); empty: the product sx * sw[m]
// QLinearConv specifies.
const char *const kBiasScale = "flowhls_bias_scale";

std::vector<float> bias_scales(const NodeContext &ctx, int64_t maps) {
    std::vector<float> s = ctx.attr_floats(kBiasScale);
    if (!s.empty() && s.size() != 1 && s.size() != static_cast<size_t>(maps)) {
        ctx.invalid(std::string("attribute ") + kBiasScale + " needs one value or one per output channel");
    }
    return s;
}

// Integer requantization of QLinearConv's accumulator per output channel, when every scale,
// zero point, the weights and the bias are constants and integer_requantization proves the
// integer multiply and shift (plus, for a bias with its own scale, a per-channel offset) equal
// to the real-number result for each channel's reachable accumulators. Returns false (keeping
// the float path) otherwise.
struct ChannelRequant {
    std::vector<int64_t> multipliers, offsets;
    int shift = 0;
    QuantRange out;
};

bool conv_integer_requant(const NodeContext &ctx, int64_t maps, ChannelRequant *cr) {
    double sx = 0, zx = 0, sy = 0, zy = 0;
    if (!single_constant(ctx, 1, &sx) || !single_constant(ctx, 2, &zx) || !single_constant(ctx, 6, &sy) ||
        !single_constant(ctx, 7, &zy)) {
        return false;
    }
    const Tensor &w = ctx.input(3), &ws = ctx.input(4);
    if (!w.is_constant() || !ws.is_constant() || (ctx.has_input(5) && !ctx.input(5).is_constant()) ||
        (ctx.has_input(8) && !ctx.input(8).is_constant())) {
        return false;
    }
    std::vector<double> wv = ctx.constant_doubles(3), wsv = ctx.constant_doubles(4);
    std::vector<double> wzp = ctx.has_input(5) ? ctx.constant_doubles(5) : std::vector<double>{0.0};
    std::vector<double> bias = ctx.has_input(8) ? ctx.constant_doubles(8) : std::vector<double>(maps, 0.0);
    std::vector<float> sb = bias_scales(ctx, maps);
    for (size_t n : {wsv.size(), wzp.size()}) {
        if (n != 1 && n != static_cast<size_t>(maps)) {
            ctx.invalid("w_scale and w_zero_point need one value or one per output channel");
        }
    }
    QuantRange xr = quant_range(ctx.input(0).elem_type, static_cast<int64_t>(zx));
    int64_t xlo = xr.qmin - xr.zero_point, xhi = xr.qmax - xr.zero_point;
    int out_type = ctx.input(7).elem_type;
    cr->out = quant_range(out_type, static_cast<int64_t>(zy));
    int64_t per_map = w.size() / maps;
    std::vector<int64_t> lo(maps), hi(maps);
    for (int64_t m = 0; m < maps; m++) {
        double zw = wzp[wzp.size() == 1 ? 0 : m];
        int64_t l = static_cast<int64_t>(bias[m]), h = l;
        for (int64_t k = 0; k < per_map; k++) {
            int64_t wk = static_cast<int64_t>(wv[m * per_map + k] - zw);
            l += std::min(wk * xlo, wk * xhi);
            h += std::max(wk * xlo, wk * xhi);
        }
        lo[m] = l;
        hi[m] = h;
    }
    // One shift for every channel (the smallest any channel needs), then each channel proven.
    auto scale_of = [&](int64_t m) { return static_cast<float>(wsv[wsv.size() == 1 ? 0 : m]); };
    std::vector<BiasScale> bias_terms;
    for (int64_t m = 0; m < maps && !sb.empty(); m++) {
        bias_terms.push_back({static_cast<int64_t>(bias[m]), sb[sb.size() == 1 ? 0 : m]});
    }
    auto bias_of = [&](int64_t m) { return bias_terms.empty() ? nullptr : &bias_terms[m]; };
    int shift = 64;
    std::string why;
    for (int64_t m = 0; m < maps; m++) {
        IntegerRequant r;
        // A channel not proven at its own shift is tried at the larger shared ones below.
        if (integer_requantization(static_cast<float>(sx), scale_of(m), static_cast<float>(sy), lo[m], hi[m], cr->out,
                                   &r, &why, 0, 1, bias_of(m))) {
            shift = std::min(shift, r.shift);
        }
    }
    if (shift > 62) return false;
    // Each further bit of shift halves the error of M and D: a channel whose reachable
    // accumulator lies too near a rounding tie at the smallest shift may be proven at a larger
    // one (its multiplier then from 2^31 up; integer_requantization keeps the int64 in range).
    for (int s = shift; s <= std::min(shift + 16, 62); s++) {
        cr->multipliers.clear();
        cr->offsets.clear();
        for (int64_t m = 0; m < maps; m++) {
            IntegerRequant r;
            if (!integer_requantization(static_cast<float>(sx), scale_of(m), static_cast<float>(sy), lo[m], hi[m],
                                        cr->out, &r, &why, s, 1, bias_of(m))) {
                break;
            }
            cr->multipliers.push_back(r.multiplier);
            cr->offsets.push_back(r.offset);
        }
        if (static_cast<int64_t>(cr->multipliers.size()) == maps) {
            cr->shift = s;
            return true;
        }
    }
    return false;
}

// A per-channel constant: an int64 literal when every channel's is equal, else a ROM of T
// indexed by `channel`.
template <typename T>
Expr per_channel_constant(NodeContext &ctx, const std::string &name, const std::vector<int64_t> &values,
                          int elem_type, const Var &channel) {
    if (std::all_of(values.begin(), values.end(), [&](int64_t v) { return v == values[0]; })) return Expr(values[0]);
    Halide::Buffer<T> table(static_cast<int>(values.size()));
    for (size_t m = 0; m < values.size(); m++) table(static_cast<int>(m)) = static_cast<T>(values[m]);
    return ctx.constant(name, table, {static_cast<int64_t>(values.size())}, elem_type).at({channel});
}

// QLinearConv: the int32 sum of (x - zx) * (w - zw[m]) + B[m], requantized to y_scale /
// y_zero_point by the integer multiply and shift when proven exact, else in float as
// rhe(float(acc) * (x_scale * w_scale[m] / y_scale)). A bias with its own scale sb[m]
// (flowhls_bias_scale) is requantized at that scale: exactly, rhe((acc - B) * sx * sw / sy +
// B * sb / sy); in float, rhe((float(acc - B) * (sx * sw) + float(B) * sb) / sy).
void convert_qlinear_conv(NodeContext &ctx) {
    Tensor x = centered(ctx, ctx.input(0), 2, 1, "x");
    Tensor w = centered(ctx, ctx.input(3), 5, 0, "w");
    if (ctx.has_input(8) && ctx.input(8).elem_type != TensorProto::INT32) ctx.invalid("the bias must be int32");
    check_accumulator(ctx, w.size() / std::max<int64_t>(w.shape.empty() ? 1 : w.shape[0], 1));
    Accumulation acc = conv_accumulation(ctx, x, w, ctx.has_input(8) ? &ctx.input(8) : nullptr);
    int out_type = ctx.input(7).elem_type;
    int64_t maps = acc.shape[1];
    std::vector<Var> v = make_vars(static_cast<int>(acc.shape.size()));
    std::vector<Expr> index = as_exprs(v);
    Expr sum = acc.func(halide_args(v));
    Func y = ctx.func("requant");
    ChannelRequant cr;
    if (conv_integer_requant(ctx, maps, &cr)) {
        bool narrow = *std::max_element(cr.multipliers.begin(), cr.multipliers.end()) < (int64_t(1) << 31);
        Expr mult = narrow ? per_channel_constant<int32_t>(ctx, "multiplier", cr.multipliers, TensorProto::INT32, v[1])
                           : per_channel_constant<int64_t>(ctx, "multiplier", cr.multipliers, TensorProto::INT64, v[1]);
        Expr offset = per_channel_constant<int64_t>(ctx, "bias_offset", cr.offsets, TensorProto::INT64, v[1]);
        define(y, v, requantize_integer(sum, mult, cr.shift, cr.out, out_type, offset));
    } else {
        Tensor out = x;  // w_scale holds one value or one per output channel (axis 1)
        out.shape = acc.shape;
        Expr sx = per_axis(ctx, 1, out, 1, index), sw = per_axis(ctx, 4, out, 1, index);
        Expr sy = per_axis(ctx, 6, out, 1, index), zy = zero_point_at(ctx, 7, out, 1, index);
        std::vector<float> sb = bias_scales(ctx, maps);
        Expr real = Halide::cast<float>(sum) * ((sx * sw) / sy);
        if (!sb.empty() && ctx.has_input(8)) {
            Halide::Buffer<float> table(static_cast<int>(maps));
            for (int64_t m = 0; m < maps; m++) table(static_cast<int>(m)) = sb[sb.size() == 1 ? 0 : m];
            Expr scale = ctx.constant("bias_scale", table, {maps}, TensorProto::FLOAT).at({v[1]});
            Expr b = ctx.input(8).at({v[1]});
            real = (Halide::cast<float>(sum - b) * (sx * sw) + Halide::cast<float>(b) * scale) / sy;
        }
        define(y, v, quantize_value(real, Expr(), zy, out_type));
    }
    ctx.set_output(0, y, acc.shape, out_type);
}

// The accumulators QLinearMatMul can produce with per-tensor constant zero points za, zb:
// with constant `b`, per column the sum over k of the extreme products of (b - zb) with the
// range of (a - za); else K times the extreme products of the two operand ranges.
void matmul_accumulator_range(const NodeContext &ctx, const QuantRange &ra, const QuantRange &rb, int64_t *lo,
                              int64_t *hi) {
    int64_t alo = ra.qmin - ra.zero_point, ahi = ra.qmax - ra.zero_point;
    const Tensor &b = ctx.input(3);
    int64_t k = b.rank() >= 2 ? b.shape[b.rank() - 2] : b.shape.at(0);
    if (!b.is_constant()) {
        int64_t blo = rb.qmin - rb.zero_point, bhi = rb.qmax - rb.zero_point;
        std::vector<int64_t> corners = {alo * blo, alo * bhi, ahi * blo, ahi * bhi};
        *lo = k * *std::min_element(corners.begin(), corners.end());
        *hi = k * *std::max_element(corners.begin(), corners.end());
        return;
    }
    std::vector<double> bv = ctx.constant_doubles(3);
    int64_t n = b.rank() >= 2 ? b.shape.back() : 1, batches = b.size() / std::max<int64_t>(k * n, 1);
    *lo = 0;
    *hi = 0;
    for (int64_t batch = 0; batch < batches; batch++) {
        for (int64_t col = 0; col < n; col++) {
            int64_t l = 0, h = 0;
            for (int64_t r = 0; r < k; r++) {
                int64_t w = static_cast<int64_t>(bv[static_cast<size_t>((batch * k + r) * n + col)]) - rb.zero_point;
                l += std::min(w * alo, w * ahi);
                h += std::max(w * alo, w * ahi);
            }
            *lo = std::min(*lo, l);
            *hi = std::max(*hi, h);
        }
    }
}

// QLinearMatMul: the int32 product of (a - za) and (b - zb), requantized to y_scale /
// y_zero_point by the integer multiply and shift when every scale and zero point is a
// per-tensor constant and integer_requantization proves it exact for every accumulator the
// operands allow; else in float as rhe(float(acc) * (a_scale * b_scale / y_scale)) + y_zero_point
// (ONNX Runtime's order of operations).
void convert_qlinear_matmul(NodeContext &ctx) {
    Tensor a = centered_operand(ctx, ctx.input(0), 2, true, "a");
    Tensor b = centered_operand(ctx, ctx.input(3), 5, false, "b");
    check_accumulator(ctx, a.shape.empty() ? 1 : a.shape.back());
    for (int s : {1, 4, 6, 7}) {
        if (ctx.input(s).size() != 1) ctx.unsupported("per-row or per-column scales of QLinearMatMul");
    }
    Accumulation acc = matmul_accumulation(ctx, a, b);
    int out_type = ctx.input(7).elem_type;
    std::vector<Var> v = make_vars(static_cast<int>(acc.shape.size()));
    std::vector<Expr> index = as_exprs(v);
    Expr sum = acc.func(halide_args(v));
    Func y = ctx.func("requant");
    double sa = 0, za = 0, sb = 0, zb = 0, sy = 0, zy = 0;
    bool constant = single_constant(ctx, 1, &sa) && single_constant(ctx, 2, &za) && single_constant(ctx, 4, &sb) &&
                    single_constant(ctx, 5, &zb) && single_constant(ctx, 6, &sy) && single_constant(ctx, 7, &zy);
    QuantRange out = quant_range(out_type, static_cast<int64_t>(zy));
    IntegerRequant r;
    std::string why;
    if (constant) {
        int64_t lo = 0, hi = 0;
        matmul_accumulator_range(ctx, quant_range(ctx.input(0).elem_type, static_cast<int64_t>(za)),
                                 quant_range(ctx.input(3).elem_type, static_cast<int64_t>(zb)), &lo, &hi);
        constant = integer_requantization(static_cast<float>(sa), static_cast<float>(sb), static_cast<float>(sy), lo,
                                          hi, out, &r, &why);
    }
    if (constant) {
        define(y, v, requantize_integer(sum, Expr(r.multiplier), r.shift, out, out_type));
    } else {
        auto single = [&](int input) { return per_axis(ctx, input, ctx.input(0), 0, index); };
        Expr real = Halide::cast<float>(sum) * ((single(1) * single(4)) / single(6));
        define(y, v, quantize_value(real, Expr(), Halide::cast<int32_t>(single(7)), out_type));
    }
    ctx.set_output(0, y, acc.shape, out_type);
}

// QLinearAdd (ONNX Runtime's com.microsoft op, and fuse_qdq's form of a QDQ Add):
// clamp(rhe((a - za) * sa / sc + (b - zb) * sb / sc) + zc) with NumPy broadcasting; with
// constant per-tensor scales and zero points the integer sum of two multiplied operands and one
// rounding shift, when integer_add_requantization proves it exact for every operand pair; else
// in float as ONNX Runtime computes it.
void convert_qlinear_add(NodeContext &ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(3);
    std::vector<int64_t> shape = broadcast_shape(a.shape, b.shape);
    int out_type = ctx.has_input(7) ? ctx.input(7).elem_type : static_cast<int>(TensorProto::UINT8);
    for (int s : {1, 2, 4, 5, 6, 7}) {
        if (ctx.has_input(s) && ctx.input(s).size() != 1) ctx.unsupported("per-axis scales or zero points of QLinearAdd");
    }
    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
    std::vector<Expr> index = as_exprs(v);
    Expr da = Halide::cast<int32_t>(broadcast_at(a, index)) - zero_point_at(ctx, 2, a, 0, {Expr(0)});
    Expr db = Halide::cast<int32_t>(broadcast_at(b, index)) - zero_point_at(ctx, 5, b, 0, {Expr(0)});
    double sa = 0, za = 0, sb = 0, zb = 0, sc = 0, zc = 0;
    IntegerAdd r;
    std::string why;
    bool integer = single_constant(ctx, 1, &sa) && single_constant(ctx, 2, &za) && single_constant(ctx, 4, &sb) &&
                   single_constant(ctx, 5, &zb) && single_constant(ctx, 6, &sc) && single_constant(ctx, 7, &zc) &&
                   integer_add_requantization(static_cast<float>(sa), static_cast<int64_t>(za),
                                              quant_range(a.elem_type, 0), static_cast<float>(sb),
                                              static_cast<int64_t>(zb), quant_range(b.elem_type, 0),
                                              static_cast<float>(sc), quant_range(out_type, static_cast<int64_t>(zc)),
                                              &r, &why);
    Func y = ctx.func("requant");
    if (integer) {
        Expr acc = Halide::cast<int64_t>(da) * Expr(r.multiplier_a) + Halide::cast<int64_t>(db) * Expr(r.multiplier_b);
        define(y, v, requantize_integer(acc, Expr(int64_t(1)), r.shift, quant_range(out_type, static_cast<int64_t>(zc)),
                                        out_type));
    } else {
        auto single = [&](int input) { return per_axis(ctx, input, a, 0, {Expr(0)}); };
        Expr real = Halide::cast<float>(da) * single(1) + Halide::cast<float>(db) * single(4);
        define(y, v, quantize_value(real, single(6), zero_point_at(ctx, 7, a, 0, {Expr(0)}), out_type));
    }
    ctx.set_output(0, y, shape, out_type);
}

std::string check_dequantize(const onnx::NodeProto &node, const std::vector<int> &types) {
    if (!types.empty() && types[0] && !is_quantized_type(types[0]) && types[0] != TensorProto::INT32) {
        return "input of type " + elem_type_name(types[0]) + " (only int8, uint8 and int32)";
    }
    bool wide = !types.empty() && types[0] == TensorProto::INT32;
    return wide ? check_types({}, {1}, {2})(node, types) : check_types({2}, {1})(node, types);
}

}  // namespace

void add_quantize_converters(ConverterTable &t) {
    t["QuantizeLinear"] = {convert_quantize, check_types({2}, {0, 1})};
    t["DequantizeLinear"] = {convert_dequantize, check_dequantize};
    t["DynamicQuantizeLinear"] = {convert_dynamic_quantize, check_types({}, {0})};
    t["ConvInteger"] = {convert_conv_integer, check_types({0, 1, 2, 3}, {})};
    t["MatMulInteger"] = {convert_matmul_integer, check_types({0, 1, 2, 3}, {})};
    t["QLinearConv"] = {convert_qlinear_conv, check_types({0, 2, 3, 5, 7}, {1, 4, 6}, {8})};
    t["QLinearMatMul"] = {convert_qlinear_matmul, check_types({0, 2, 3, 5, 7}, {1, 4, 6})};
    t["QLinearAdd"] = {convert_qlinear_add, check_types({0, 2, 3, 5, 7}, {1, 4, 6})};
}

}  // namespace flowhls::onnx_import
