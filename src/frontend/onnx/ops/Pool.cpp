// Converters of the pooling ops: MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool.
#include "frontend/onnx/ops/Window.h"
#include "frontend/onnx/OpSupport.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;

// Window reductions: out(n, c, o...) over kernel positions (innermost axis innermost).
struct WindowLoop {
    std::vector<Var> v;
    RDom r;
    std::vector<Expr> positions;  // input position per spatial axis
    std::vector<int64_t> out_shape;
    WindowGeometry geo;
};

WindowLoop window_loop(NodeContext &ctx, const Tensor &x, bool allow_dilation) {
    std::vector<int64_t> kernel = ctx.attr_ints("kernel_shape");
    if (kernel.empty()) ctx.unsupported("kernel_shape is missing");
    if (!allow_dilation && ctx.has_attr("dilations")) ctx.unsupported("dilations");
    WindowLoop w;
    w.geo = window_geometry(ctx, x, kernel, true);
    int spatial = static_cast<int>(kernel.size());
    w.out_shape = {x.shape[0], x.shape[1]};
    for (int64_t o : w.geo.output) w.out_shape.push_back(o);
    w.v = make_vars(x.rank());
    Halide::Region extents;
    for (int i = spatial - 1; i >= 0; i--) extents.push_back({0, static_cast<int>(kernel[i])});
    w.r = RDom(extents, ctx.func("r").name());
    for (int i = 0; i < spatial; i++) {
        w.positions.push_back(w.v[2 + i] * static_cast<int>(w.geo.strides[i]) +
                              w.r[spatial - 1 - i] * static_cast<int>(w.geo.dilations[i]) -
                              static_cast<int>(w.geo.pad_begin[i]));
    }
    return w;
}

void convert_max_pool(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (ctx.wants_output(1)) ctx.unsupported("the Indices output");
    WindowLoop w = window_loop(ctx, x, true);
    Func f = ctx.func();
    define(f, w.v, lowest_of(x.type));
    std::vector<Var> hv = halide_args(w.v);
    Expr value = padded_at(x, {w.v[0], w.v[1]}, w.positions, lowest_of(x.type), w.geo.reads_outside);
    f(hv) = Halide::max(f(hv), value);
    ctx.set_output(0, f, w.out_shape, x.elem_type);
}

// AveragePool: the sum over the window divided by the number of positions counted
// (inside the input, or inside the padded input with count_include_pad).
void convert_average_pool(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    WindowLoop w = window_loop(ctx, x, false);
    bool include_pad = ctx.attr_int("count_include_pad", 0) != 0;
    Func sum = ctx.func("sum");
    define(sum, w.v, Halide::Internal::make_zero(x.type));
    std::vector<Var> hv = halide_args(w.v);
    sum(hv) = sum(hv) + padded_at(x, {w.v[0], w.v[1]}, w.positions, Halide::Internal::make_zero(x.type),
                                  w.geo.reads_outside);
    sum.compute_root();
    // The count depends on the spatial position only: a closed form per axis.
    Expr count = Halide::Internal::make_one(Halide::Int(32));
    std::vector<int64_t> kernel = ctx.attr_ints("kernel_shape");
    for (size_t i = 0; i < kernel.size(); i++) {
        int64_t d = x.shape[2 + i];
        Expr start = w.v[2 + i] * static_cast<int>(w.geo.strides[i]) - static_cast<int>(w.geo.pad_begin[i]);
        Expr end = start + static_cast<int>(kernel[i]);
        Expr lo = include_pad ? Halide::max(start, -static_cast<int>(w.geo.pad_begin[i])) : Halide::max(start, 0);
        Expr hi = include_pad ? Halide::min(end, static_cast<int>(d + w.geo.pad_end[i])) : Halide::min(end, static_cast<int>(d));
        count = count * (hi - lo);
    }
    Func f = ctx.func();
    define(f, w.v, sum(hv) / Halide::cast(x.type, count));
    ctx.set_output(0, f, w.out_shape, x.elem_type);
}

void convert_global_pool(NodeContext &ctx, bool is_max) {
    const Tensor &x = ctx.input(0);
    if (x.rank() < 3) ctx.unsupported("input rank " + std::to_string(x.rank()));
    std::vector<int64_t> out_shape = {x.shape[0], x.shape[1]};
    Halide::Region extents;
    int64_t count = 1;
    for (int i = x.rank() - 1; i >= 2; i--) {
        extents.push_back({0, static_cast<int>(x.shape[i])});
        count *= x.shape[i];
    }
    for (int i = 2; i < x.rank(); i++) out_shape.push_back(1);
    std::vector<Var> v = make_vars(x.rank());
    RDom r(extents, ctx.func("r").name());
    std::vector<Expr> idx = {v[0], v[1]};
    for (int i = 2; i < x.rank(); i++) idx.push_back(r[x.rank() - 1 - i]);
    Func acc = ctx.func(is_max ? "" : "sum");
    define(acc, v, is_max ? lowest_of(x.type) : Halide::Internal::make_zero(x.type));
    std::vector<Var> hv = halide_args(v);
    acc(hv) = is_max ? Halide::max(acc(hv), x.at(idx)) : acc(hv) + x.at(idx);
    if (is_max) {
        ctx.set_output(0, acc, out_shape, x.elem_type);
        return;
    }
    acc.compute_root();
    Func f = ctx.func();
    define(f, v, acc(hv) / Halide::Internal::make_const(x.type, static_cast<double>(count)));
    ctx.set_output(0, f, out_shape, x.elem_type);
}

}  // namespace

void add_pool_converters(ConverterTable &t) {
    t["MaxPool"] = {convert_max_pool, [](const onnx::NodeProto &n, const std::vector<int> &types) -> std::string {
                        if (n.output_size() > 1 && !n.output(1).empty()) return "the Indices output is not supported";
                        return numeric_only()(n, types);
                    }};
    t["AveragePool"] = {convert_average_pool, float_only()};
    t["GlobalMaxPool"] = {[](NodeContext &ctx) { convert_global_pool(ctx, true); }, numeric_only()};
    t["GlobalAveragePool"] = {[](NodeContext &ctx) { convert_global_pool(ctx, false); }, float_only()};
}

}  // namespace flowhls::onnx_import
