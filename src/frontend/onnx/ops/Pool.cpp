// Converters of the pooling ops: MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool.
#include "frontend/onnx/ops/Pool.h"
#include "frontend/onnx/ops/Window.h"
#include "frontend/onnx/OpSupport.h"

#include <set>

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
    std::vector<std::string> names = spatial_names("k", spatial);
    w.r = named_rdom(extents, std::vector<std::string>(names.rbegin(), names.rend()));
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
    AverageWindow w = average_window(ctx, x, false);
    Func f = ctx.func();
    define(f, w.v, w.sum(halide_args(w.v)) / Halide::cast(x.type, w.count));
    ctx.set_output(0, f, w.out_shape, x.elem_type);
}

void convert_global_pool(NodeContext &ctx, bool is_max) {
    const Tensor &x = ctx.input(0);
    if (x.rank() < 3) ctx.unsupported("input rank " + std::to_string(x.rank()));
    if (!is_max) {
        AverageWindow w = average_window(ctx, x, true);
        Func f = ctx.func();
        define(f, w.v, w.sum(halide_args(w.v)) / Halide::cast(x.type, w.count));
        ctx.set_output(0, f, w.out_shape, x.elem_type);
        return;
    }
    std::vector<int64_t> out_shape = {x.shape[0], x.shape[1]};
    Halide::Region extents;
    for (int i = x.rank() - 1; i >= 2; i--) extents.push_back({0, static_cast<int>(x.shape[i])});
    for (int i = 2; i < x.rank(); i++) out_shape.push_back(1);
    std::vector<Var> v = make_vars(x.rank());
    std::vector<std::string> names = spatial_names("i", x.rank() - 2);
    RDom r = named_rdom(extents, std::vector<std::string>(names.rbegin(), names.rend()));
    std::vector<Expr> idx = {v[0], v[1]};
    for (int i = 2; i < x.rank(); i++) idx.push_back(r[x.rank() - 1 - i]);
    Func acc = ctx.func();
    define(acc, v, lowest_of(x.type));
    std::vector<Var> hv = halide_args(v);
    acc(hv) = Halide::max(acc(hv), x.at(idx));
    ctx.set_output(0, acc, out_shape, x.elem_type);
}

// The values a per-axis count Expr of `var` takes at positions [0, extent).
std::set<int64_t> values_over(const Expr &count, const Var &var, int64_t extent) {
    std::set<int64_t> values;
    for (int64_t o = 0; o < extent; o++) {
        Expr c = Halide::Internal::simplify(Halide::Internal::substitute(var.name(), Expr(static_cast<int>(o)), count));
        const int64_t *k = Halide::Internal::as_const_int(c);
        if (!k) throw std::logic_error("average_window: a window count did not fold to a constant");
        values.insert(*k);
    }
    return values;
}

}  // namespace

AverageWindow average_window(NodeContext &ctx, const Tensor &x, bool global) {
    AverageWindow w;
    if (global) {
        w.out_shape = {x.shape[0], x.shape[1]};
        Halide::Region extents;
        int64_t count = 1;
        for (int i = x.rank() - 1; i >= 2; i--) {
            extents.push_back({0, static_cast<int>(x.shape[i])});
            count *= x.shape[i];
        }
        for (int i = 2; i < x.rank(); i++) w.out_shape.push_back(1);
        w.v = make_vars(x.rank());
        std::vector<std::string> names = spatial_names("i", x.rank() - 2);
    RDom r = named_rdom(extents, std::vector<std::string>(names.rbegin(), names.rend()));
        std::vector<Expr> idx = {w.v[0], w.v[1]};
        for (int i = 2; i < x.rank(); i++) idx.push_back(r[x.rank() - 1 - i]);
        w.sum = ctx.func("sum");
        define(w.sum, w.v, Halide::Internal::make_zero(x.type));
        std::vector<Var> hv = halide_args(w.v);
        w.sum(hv) = w.sum(hv) + x.at(idx);
        w.sum.compute_root();
        w.count = Expr(static_cast<int>(count));
        w.counts = {count};
        return w;
    }
    WindowLoop loop = window_loop(ctx, x, false);
    w.v = loop.v;
    w.out_shape = loop.out_shape;
    bool include_pad = ctx.attr_int("count_include_pad", 0) != 0;
    w.sum = ctx.func("sum");
    define(w.sum, w.v, Halide::Internal::make_zero(x.type));
    std::vector<Var> hv = halide_args(w.v);
    w.sum(hv) = w.sum(hv) + padded_at(x, {w.v[0], w.v[1]}, loop.positions, Halide::Internal::make_zero(x.type),
                                      loop.geo.reads_outside);
    w.sum.compute_root();
    // The count depends on the spatial position only: a closed form per axis.
    w.count = Halide::Internal::make_one(Halide::Int(32));
    w.counts = {1};
    std::vector<int64_t> kernel = ctx.attr_ints("kernel_shape");
    for (size_t i = 0; i < kernel.size(); i++) {
        int64_t d = x.shape[2 + i];
        const Var &o = w.v[2 + i];
        Expr start = o * static_cast<int>(loop.geo.strides[i]) - static_cast<int>(loop.geo.pad_begin[i]);
        Expr end = start + static_cast<int>(kernel[i]);
        Expr lo = include_pad ? Halide::max(start, -static_cast<int>(loop.geo.pad_begin[i])) : Halide::max(start, 0);
        Expr hi = include_pad ? Halide::min(end, static_cast<int>(d + loop.geo.pad_end[i]))
                              : Halide::min(end, static_cast<int>(d));
        w.count = w.count * (hi - lo);
        std::set<int64_t> products;
        for (int64_t c : values_over(hi - lo, o, loop.geo.output[i])) {
            for (int64_t p : w.counts) products.insert(p * c);
        }
        w.counts.assign(products.begin(), products.end());
    }
    return w;
}

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
