// Converters of normalizations: Softmax, LogSoftmax, Hardmax, BatchNormalization,
// InstanceNormalization, LayerNormalization, LRN, MeanVarianceNormalization.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;

// Softmax family over one axis (opset 13+): max, sum of exp(x - max), then the result.
void convert_softmax(NodeContext &ctx, int kind) {
    const Tensor &x = ctx.input(0);
    int axis = normalize_axis(ctx.attr_int("axis", -1), x.rank());
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Var> hv = halide_args(v);
    RDom r(0, static_cast<int>(x.shape[axis]), ctx.func("r").name());
    std::vector<Expr> at_r = as_exprs(v);
    at_r[axis] = r;
    // Reductions are defined over all axes but the reduced one (index 0 there).
    std::vector<Expr> reduced = as_exprs(v);
    reduced[axis] = 0;
    std::vector<Expr> hreduced(reduced.rbegin(), reduced.rend());
    if (hreduced.empty()) hreduced.push_back(0);
    Func mx = ctx.func("max");
    define(mx, v, lowest_of(x.type));
    mx(hv) = Halide::max(mx(hv), x.at(at_r));
    mx.compute_root();
    Func f = ctx.func();
    if (kind == 2) {  // Hardmax: 1 at the first maximum
        Func first = ctx.func("argmax");
        define(first, v, static_cast<int>(x.shape[axis]));
        first(hv) = Halide::select(x.at(at_r) == mx(hreduced) && r < first(hv), Expr(r), first(hv));
        first.compute_root();
        define(f, v, Halide::select(v[axis] == first(hreduced), Halide::Internal::make_one(x.type),
                                    Halide::Internal::make_zero(x.type)));
        ctx.set_output(0, f, x.shape, x.elem_type);
        return;
    }
    Func sum = ctx.func("sum");
    define(sum, v, Halide::Internal::make_zero(x.type));
    sum(hv) = sum(hv) + Halide::exp(x.at(at_r) - mx(hreduced));
    sum.compute_root();
    Expr shifted = x.at(as_exprs(v)) - mx(hreduced);
    if (kind == 1) define(f, v, shifted - Halide::log(sum(hreduced)));
    else define(f, v, Halide::exp(shifted) / sum(hreduced));
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// Statistics over a set of axes (the reduced axes kept with extent 1): Funcs over every axis
// of the input, read at index 0 of the reduced axes.
struct AxisStats {
    std::vector<bool> reduced;
    std::vector<Var> v;
    Func mean, variance;
};

// The value of a kept-dims statistic `f` for the input element at `index` (ONNX order).
Expr stat_at(const Func &f, const std::vector<bool> &reduced, const std::vector<Expr> &index) {
    std::vector<Expr> args;
    for (int i = static_cast<int>(index.size()) - 1; i >= 0; i--) args.push_back(reduced[i] ? Expr(0) : index[i]);
    if (args.empty()) args.push_back(0);
    return f(args);
}

// Mean and (biased, two-pass) variance of `value(index)` over the reduced axes of `shape`,
// computed in `type`; both compute_root.
AxisStats axis_stats(const NodeContext &ctx, const std::vector<int64_t> &shape, const std::vector<bool> &reduced,
                     const std::function<Expr(const std::vector<Expr> &)> &value, Halide::Type type) {
    AxisStats s;
    s.reduced = reduced;
    int rank = static_cast<int>(shape.size());
    s.v = make_vars(rank);
    std::vector<Var> hv = halide_args(s.v);
    Halide::Region extents;
    int64_t count = 1;
    for (int i = rank - 1; i >= 0; i--) {
        if (!reduced[i]) continue;
        extents.push_back({0, static_cast<int>(shape[i])});
        count *= shape[i];
    }
    if (extents.empty()) extents.push_back({0, 1});
    RDom r(extents, ctx.func("r").name());
    std::vector<Expr> index;
    int next_r = 0;
    for (int i = 0; i < rank; i++) next_r += reduced[i] ? 1 : 0;
    for (int i = 0; i < rank; i++) index.push_back(reduced[i] ? Expr(r[--next_r]) : Expr(s.v[i]));
    Expr n = Halide::Internal::make_const(type, static_cast<double>(count));
    Expr x = Halide::cast(type, value(index));
    s.mean = ctx.func("mean");
    define(s.mean, s.v, Halide::Internal::make_zero(type));
    s.mean(hv) = s.mean(hv) + x;
    s.mean(hv) = s.mean(hv) / n;
    s.mean.compute_root();
    Expr d = x - stat_at(s.mean, reduced, index);
    s.variance = ctx.func("var");
    define(s.variance, s.v, Halide::Internal::make_zero(type));
    s.variance(hv) = s.variance(hv) + d * d;
    s.variance(hv) = s.variance(hv) / n;
    s.variance.compute_root();
    return s;
}

Expr const_of(Halide::Type t, double value) { return Halide::Internal::make_const(t, value); }

// BatchNormalization (inference): per channel (axis 1), scale * (x - mean) / sqrt(var + eps) + B.
void convert_batch_norm(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() < 2) ctx.unsupported("input rank " + std::to_string(x.rank()) + " (needs N and C axes)");
    if (ctx.attr_int("training_mode", 0) != 0) ctx.unsupported("training_mode=1");
    for (int i = 1; i < 5; i++) {
        if (ctx.input(i).rank() != 1 || ctx.input(i).shape[0] != x.shape[1]) {
            ctx.unsupported("input " + std::to_string(i) + " has shape " + shape_text(ctx.input(i).shape) +
                            ", not [C]");
        }
    }
    Halide::Type t = x.type;
    std::vector<Var> v = make_vars(x.rank());
    auto param = [&](int i) { return Halide::cast(t, ctx.input(i).at({v[1]})); };
    Expr eps = const_of(t, ctx.attr_float("epsilon", 1e-5f));
    Expr y = (x.at(as_exprs(v)) - param(3)) / Halide::sqrt(param(4) + eps) * param(1) + param(2);
    Func f = ctx.func();
    define(f, v, y);
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// InstanceNormalization: per (n, c) over the spatial axes, scale * (x - mean) / sqrt(var + eps) + B.
void convert_instance_norm(NodeContext &ctx) {
    const Tensor &x = ctx.input(0), &scale = ctx.input(1), &bias = ctx.input(2);
    if (x.rank() < 3) ctx.unsupported("input rank " + std::to_string(x.rank()) + " (needs N, C and spatial axes)");
    for (const Tensor *p : {&scale, &bias}) {
        if (p->rank() != 1 || p->shape[0] != x.shape[1]) ctx.unsupported("scale or B is not of shape [C]");
    }
    std::vector<bool> reduced(x.rank(), true);
    reduced[0] = reduced[1] = false;
    AxisStats s = axis_stats(ctx, x.shape, reduced, [&](const std::vector<Expr> &i) { return x.at(i); }, x.type);
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> idx = as_exprs(v);
    Expr eps = const_of(x.type, ctx.attr_float("epsilon", 1e-5f));
    Expr y = (x.at(idx) - stat_at(s.mean, reduced, idx)) / Halide::sqrt(stat_at(s.variance, reduced, idx) + eps) *
                 scale.at({v[1]}) +
             bias.at({v[1]});
    Func f = ctx.func();
    define(f, v, y);
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// LayerNormalization over the axes from `axis` on, computed in the stash type; the optional
// Mean and InvStdDev outputs have the normalized axes kept with extent 1.
void convert_layer_norm(NodeContext &ctx) {
    const Tensor &x = ctx.input(0), &scale = ctx.input(1);
    if (x.rank() == 0) ctx.unsupported("a scalar input");
    int axis = normalize_axis(ctx.attr_int("axis", -1), x.rank());
    int stash = static_cast<int>(ctx.attr_int("stash_type", onnx::TensorProto::FLOAT));
    Halide::Type u = storage_type(stash);
    auto check_param = [&](const Tensor &p) {
        if (p.rank() > x.rank() - axis) ctx.unsupported("Scale or B has more axes than the normalized ones");
        for (int i = 0; i < p.rank(); i++) {
            int64_t d = x.shape[x.rank() - p.rank() + i];
            if (p.shape[i] != 1 && p.shape[i] != d) ctx.unsupported("Scale or B does not broadcast to the input");
        }
    };
    check_param(scale);
    if (ctx.has_input(2)) check_param(ctx.input(2));
    std::vector<bool> reduced(x.rank(), false);
    for (int i = axis; i < x.rank(); i++) reduced[i] = true;
    AxisStats s = axis_stats(ctx, x.shape, reduced, [&](const std::vector<Expr> &i) { return x.at(i); }, u);
    Expr eps = const_of(u, ctx.attr_float("epsilon", 1e-5f));
    Func inv_std = ctx.func("inv_std");
    define(inv_std, s.v, const_of(u, 1.0) / Halide::sqrt(s.variance(halide_args(s.v)) + eps));
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> idx = as_exprs(v);
    Expr normalized = (Halide::cast(u, x.at(idx)) - stat_at(s.mean, reduced, idx)) * stat_at(inv_std, reduced, idx);
    Expr y = Halide::cast(x.type, normalized) * broadcast_at(scale, idx);
    if (ctx.has_input(2)) y = y + broadcast_at(ctx.input(2), idx);
    Func f = ctx.func();
    define(f, v, y);
    ctx.set_output(0, f, x.shape, x.elem_type);
    std::vector<int64_t> stat_shape = x.shape;
    for (int i = axis; i < x.rank(); i++) stat_shape[i] = 1;
    if (ctx.wants_output(1)) ctx.set_output(1, s.mean, stat_shape, stash);
    if (ctx.wants_output(2)) ctx.set_output(2, inv_std, stat_shape, stash);
}

// LRN across channels: x / (bias + alpha / size * sum of squares over the channel window)^beta.
void convert_lrn(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() < 2) ctx.unsupported("input rank " + std::to_string(x.rank()) + " (needs N and C axes)");
    int64_t size = ctx.attr_int("size", 0);
    if (size < 1) ctx.unsupported("size " + std::to_string(size));
    Halide::Type t = x.type;
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Var> hv = halide_args(v);
    int channels = static_cast<int>(x.shape[1]);
    RDom r(0, static_cast<int>(size), ctx.func("r").name());
    Expr c = v[1] - static_cast<int>((size - 1) / 2) + r;
    std::vector<Expr> idx = as_exprs(v);
    idx[1] = Halide::clamp(c, 0, channels - 1);
    Expr xc = x.at(idx);
    Func squares = ctx.func("sq");
    define(squares, v, Halide::Internal::make_zero(t));
    squares(hv) = squares(hv) + Halide::select(c >= 0 && c < channels, xc * xc, Halide::Internal::make_zero(t));
    squares.compute_root();
    Expr alpha = const_of(t, ctx.attr_float("alpha", 1e-4f) / static_cast<double>(size));
    Expr base = const_of(t, ctx.attr_float("bias", 1.0f)) + alpha * squares(hv);
    Func f = ctx.func();
    define(f, v, x.at(as_exprs(v)) / Halide::pow(base, const_of(t, ctx.attr_float("beta", 0.75f))));
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// MeanVarianceNormalization: (x - mean) / (sqrt(variance) + 1e-9) over `axes`.
void convert_mvn(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> axes = ctx.attr_ints("axes", {0, 2, 3});
    std::vector<bool> reduced(x.rank(), false);
    for (int64_t a : axes) reduced[normalize_axis(a, x.rank())] = true;
    AxisStats s = axis_stats(ctx, x.shape, reduced, [&](const std::vector<Expr> &i) { return x.at(i); }, x.type);
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> idx = as_exprs(v);
    Expr y = (x.at(idx) - stat_at(s.mean, reduced, idx)) /
             (Halide::sqrt(stat_at(s.variance, reduced, idx)) + const_of(x.type, 1e-9));
    Func f = ctx.func();
    define(f, v, y);
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// Whether a node uses its output `i`.
bool uses_output(const onnx::NodeProto &n, int i) { return i < n.output_size() && !n.output(i).empty(); }

std::string check_batch_norm(const onnx::NodeProto &n, const std::vector<int> &types) {
    if (attribute_int(n, "training_mode", 0) != 0) return "training_mode=1 is not supported (inference only)";
    if (uses_output(n, 1) || uses_output(n, 2)) return "the running mean and variance outputs are not supported";
    if (n.input_size() != 5) return "needs 5 inputs";
    return float_only()(n, types);
}

std::string check_layer_norm(const onnx::NodeProto &n, const std::vector<int> &types) {
    int64_t stash = attribute_int(n, "stash_type", onnx::TensorProto::FLOAT);
    if (stash != onnx::TensorProto::FLOAT && stash != onnx::TensorProto::DOUBLE) {
        return "stash_type " + elem_type_name(static_cast<int>(stash)) + " (only float and double)";
    }
    return float_only()(n, types);
}

}  // namespace

void add_normalization_converters(ConverterTable &t) {
    t["Softmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 0); }, float_only()};
    t["LogSoftmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 1); }, float_only()};
    t["Hardmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 2); }, float_only()};
    t["BatchNormalization"] = {convert_batch_norm, check_batch_norm};
    t["InstanceNormalization"] = {convert_instance_norm, float_only()};
    t["LayerNormalization"] = {convert_layer_norm, check_layer_norm};
    t["LRN"] = {convert_lrn, float_only()};
    t["MeanVarianceNormalization"] = {convert_mvn, float_only()};
}

}  // namespace flowhls::onnx_import
