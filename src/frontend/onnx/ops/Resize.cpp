// Converters of the resampling ops: Resize (nearest and n-linear) and Upsample.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/OpSupport.h"

#include <cmath>
#include <cstdlib>

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;

// What a Resize or Upsample node asks for, independent of its shapes.
struct ResizeMode {
    bool linear = false;
    std::string transform = "half_pixel";
    std::string nearest = "round_prefer_floor";
};

// Reads mode, coordinate_transformation_mode and nearest_mode; returns "" or why they are
// not handled.
std::string resize_mode(const onnx::NodeProto &node, ResizeMode *m) {
    std::string mode = attribute_string(node, "mode", "nearest");
    if (node.op_type() == "Upsample") {
        // Upsample maps x_resized to x_resized / scale, nearest rounding down.
        m->transform = "asymmetric";
        m->nearest = "floor";
        if (mode == "bilinear") mode = "linear";
    } else {
        m->transform = attribute_string(node, "coordinate_transformation_mode", "half_pixel");
        m->nearest = attribute_string(node, "nearest_mode", "round_prefer_floor");
        // Early opset 11 models spell tf_half_pixel_for_nearest so.
        if (m->transform == "tf_half_pixel_for_nn") m->transform = "tf_half_pixel_for_nearest";
    }
    if (mode == "cubic") return "mode cubic (only nearest and linear)";
    if (mode != "nearest" && mode != "linear") return "mode " + mode;
    m->linear = mode == "linear";
    const std::string &t = m->transform;
    if (t == "tf_crop_and_resize") return "coordinate_transformation_mode tf_crop_and_resize";
    if (t != "half_pixel" && t != "pytorch_half_pixel" && t != "align_corners" && t != "asymmetric" &&
        t != "tf_half_pixel_for_nearest") {
        return "coordinate_transformation_mode " + t;
    }
    const std::string &n = m->nearest;
    if (!m->linear && n != "round_prefer_floor" && n != "round_prefer_ceil" && n != "floor" && n != "ceil") {
        return "nearest_mode " + n;
    }
    return "";
}

std::string check_resize(const onnx::NodeProto &node, const std::vector<int> &types) {
    if (!types.empty() && types[0]) {
        std::string why = numeric_only()(node, {types[0]});
        if (!why.empty()) return why;
    }
    ResizeMode m;
    std::string why = resize_mode(node, &m);
    if (!why.empty()) return why;
    if (m.linear && !types.empty() && types[0] && !is_float_type(types[0])) {
        return "linear mode on input type other than float and double";
    }
    return "";
}

// One resized axis: its extents and the scale the coordinate transformation divides by.
struct Axis {
    int64_t in = 0, out = 0;
    double scale = 1;
};

// x_original of output position `o` as the ONNX reference computes it (in double).
double original_coordinate(const ResizeMode &m, const Axis &a, double o) {
    double resized_length = a.scale * static_cast<double>(a.in);
    if (m.transform == "align_corners") {
        return resized_length == 1 ? 0.0 : o * static_cast<double>(a.in - 1) / (resized_length - 1);
    }
    if (m.transform == "asymmetric") return o / a.scale;
    if (m.transform == "pytorch_half_pixel") return resized_length > 1 ? (o + 0.5) / a.scale - 0.5 : 0.0;
    if (m.transform == "tf_half_pixel_for_nearest") return (o + 0.5) / a.scale;
    return (o + 0.5) / a.scale - 0.5;  // half_pixel
}

// The same as a Halide expression of `o` in floating-point type `t`.
Expr original_coordinate(const ResizeMode &m, const Axis &a, Expr o, Halide::Type t) {
    auto c = [&](double v) { return Halide::Internal::make_const(t, v); };
    Expr x = Halide::cast(t, o);
    double resized_length = a.scale * static_cast<double>(a.in);
    if (m.transform == "align_corners") {
        if (resized_length == 1) return c(0);
        return x * c(static_cast<double>(a.in - 1)) / c(resized_length - 1);
    }
    if (m.transform == "asymmetric") return x / c(a.scale);
    if (m.transform == "pytorch_half_pixel" && !(resized_length > 1)) return c(0);
    if (m.transform == "tf_half_pixel_for_nearest") return (x + c(0.5)) / c(a.scale);
    return (x + c(0.5)) / c(a.scale) - c(0.5);
}

// Nearest source index of x_original (before clamping to the input).
double nearest_index(const ResizeMode &m, double x) {
    if (m.nearest == "floor") return std::floor(x);
    if (m.nearest == "ceil") return std::ceil(x);
    if (m.nearest == "round_prefer_ceil") return std::floor(x + 0.5);
    return std::ceil(x - 0.5);  // round_prefer_floor
}

Expr nearest_index(const ResizeMode &m, Expr x) {
    Halide::Type t = x.type();
    Expr half = Halide::Internal::make_const(t, 0.5);
    if (m.nearest == "floor") return Halide::floor(x);
    if (m.nearest == "ceil") return Halide::ceil(x);
    if (m.nearest == "round_prefer_ceil") return Halide::floor(x + half);
    return Halide::ceil(x - half);
}

// Source index of every output position of a nearest-mode axis, as an integer expression
// when (a * o + b) / q (floor division, then clamped) reproduces the table exactly, else
// evaluated in double like the ONNX reference.
Expr nearest_source(const ResizeMode &m, const Axis &a, Expr o) {
    std::vector<int64_t> table;
    for (int64_t i = 0; i < a.out; i++) {
        double src = nearest_index(m, original_coordinate(m, a, static_cast<double>(i)));
        table.push_back(std::min<int64_t>(std::max<int64_t>(static_cast<int64_t>(src), 0), a.in - 1));
    }
    int last = static_cast<int>(a.in - 1);
    bool identity = a.in == a.out;
    for (int64_t i = 0; i < a.out && identity; i++) identity = table[i] == i;
    if (identity) return o;
    auto matches = [&](int64_t p, int64_t b, int64_t q) {
        for (int64_t i = 0; i < a.out; i++) {
            int64_t num = p * i + b;
            int64_t floor_div = num >= 0 ? num / q : -((-num + q - 1) / q);
            if (std::min<int64_t>(std::max<int64_t>(floor_div, 0), a.in - 1) != table[i]) return false;
        }
        return true;
    };
    double slope = static_cast<double>(a.in) / static_cast<double>(a.out);
    for (int64_t q = 1; q <= 32; q++) {
        int64_t centre = std::llround(slope * static_cast<double>(q));
        for (int64_t p = std::max<int64_t>(0, centre - 1); p <= centre + 1; p++) {
            for (int64_t b = -2 * q; b <= 2 * q; b++) {
                if (!matches(p, b, q)) continue;
                Expr num = o * static_cast<int>(p) + static_cast<int>(b);
                Expr div = q == 1 ? num : num / static_cast<int>(q);
                return Halide::clamp(div, 0, last);
            }
        }
    }
    Expr x = original_coordinate(m, a, o, Halide::Float(64));
    return Halide::clamp(Halide::cast(Halide::Int(32), nearest_index(m, x)), 0, last);
}

// out(o...) = x(source(o)...) for nearest; for linear the sum over the 2^k corners of the
// k resized axes, each weighted by the product of its per-axis weights.
void define_resize(NodeContext &ctx, const ResizeMode &m, const std::vector<Axis> &axes) {
    const Tensor &x = ctx.input(0);
    int rank = x.rank();
    std::vector<int64_t> out_shape;
    for (const Axis &a : axes) {
        if (a.out <= 0) ctx.unsupported("empty output");
        out_shape.push_back(a.out);
    }
    std::vector<Var> v = make_vars(rank);
    Func y = ctx.func();
    if (!m.linear) {
        std::vector<Expr> idx;
        for (int d = 0; d < rank; d++) idx.push_back(nearest_source(m, axes[d], v[d]));
        define(y, v, x.at(idx));
        ctx.set_output(0, y, out_shape, x.elem_type);
        return;
    }
    Halide::Type t = x.type;
    std::vector<Expr> low(rank), high(rank), frac(rank);
    std::vector<int> resized;
    for (int d = 0; d < rank; d++) {
        const Axis &a = axes[d];
        bool identity = a.in == a.out;
        for (int64_t i = 0; i < a.out && identity; i++) {
            identity = original_coordinate(m, a, static_cast<double>(i)) == static_cast<double>(i);
        }
        if (identity) {
            low[d] = v[d];
            continue;
        }
        int last = static_cast<int>(a.in - 1);
        Expr pos = original_coordinate(m, a, v[d], t);
        Expr base = Halide::floor(pos);
        Expr i0 = Halide::cast(Halide::Int(32), base);
        low[d] = Halide::clamp(i0, 0, last);
        high[d] = Halide::clamp(i0 + 1, 0, last);
        frac[d] = pos - base;
        resized.push_back(d);
    }
    Expr sum;
    Expr one = Halide::Internal::make_one(t);
    for (int corner = 0; corner < (1 << resized.size()); corner++) {
        std::vector<Expr> idx = low;
        Expr weight;
        for (size_t j = 0; j < resized.size(); j++) {
            int d = resized[j];
            bool upper = (corner >> j) & 1;
            if (upper) idx[d] = high[d];
            Expr w = upper ? frac[d] : one - frac[d];
            weight = weight.defined() ? weight * w : w;
        }
        Expr term = weight.defined() ? weight * x.at(idx) : x.at(idx);
        sum = sum.defined() ? sum + term : term;
    }
    define(y, v, sum);
    ctx.set_output(0, y, out_shape, x.elem_type);
}

// Per-axis scales from constant `scales`: output extent floor(in * scale).
std::vector<Axis> axes_from_scales(const NodeContext &ctx, const Tensor &x, const std::vector<double> &scales) {
    if (static_cast<int>(scales.size()) != x.rank()) {
        ctx.unsupported(std::to_string(scales.size()) + " scales for rank " + std::to_string(x.rank()));
    }
    std::vector<Axis> axes;
    for (int d = 0; d < x.rank(); d++) {
        if (!(scales[d] > 0)) ctx.unsupported("non-positive scale");
        Axis a;
        a.in = x.shape[d];
        a.scale = scales[d];
        a.out = static_cast<int64_t>(std::floor(static_cast<double>(a.in) * a.scale));
        axes.push_back(a);
    }
    return axes;
}

// Resize-13: X, roi, scales, sizes (exactly one of scales and sizes non-empty).
void convert_resize(NodeContext &ctx) {
    ResizeMode m;
    std::string why = resize_mode(ctx.node(), &m);
    if (!why.empty()) ctx.unsupported(why);
    const Tensor &x = ctx.input(0);
    if (x.rank() == 0) ctx.unsupported("scalar input");
    bool has_scales = ctx.has_input(2) && ctx.input(2).size() > 0;
    bool has_sizes = ctx.has_input(3) && ctx.input(3).size() > 0;
    if (has_scales == has_sizes) ctx.unsupported("exactly one of scales and sizes must be given");
    std::vector<Axis> axes;
    if (has_scales) {
        axes = axes_from_scales(ctx, x, ctx.constant_doubles(2));
    } else {
        std::vector<int64_t> sizes = ctx.constant_ints(3);
        if (static_cast<int>(sizes.size()) != x.rank()) {
            ctx.unsupported(std::to_string(sizes.size()) + " sizes for rank " + std::to_string(x.rank()));
        }
        for (int d = 0; d < x.rank(); d++) {
            Axis a;
            a.in = x.shape[d];
            a.out = sizes[d];
            if (a.in <= 0 || a.out <= 0) ctx.unsupported("empty input or output axis");
            a.scale = static_cast<double>(a.out) / static_cast<double>(a.in);
            axes.push_back(a);
        }
    }
    define_resize(ctx, m, axes);
}

// Upsample-9 (scales input) or Upsample-7 (scales attribute).
void convert_upsample(NodeContext &ctx) {
    ResizeMode m;
    std::string why = resize_mode(ctx.node(), &m);
    if (!why.empty()) ctx.unsupported(why);
    const Tensor &x = ctx.input(0);
    std::vector<double> scales;
    if (ctx.has_input(1)) {
        scales = ctx.constant_doubles(1);
    } else {
        for (float s : ctx.attr_floats("scales")) scales.push_back(s);
    }
    define_resize(ctx, m, axes_from_scales(ctx, x, scales));
}

}  // namespace

void add_resize_converters(ConverterTable &t) {
    t["Resize"] = {convert_resize, check_resize};
    t["Upsample"] = {convert_upsample, check_resize};
}

}  // namespace flowhls::onnx_import
