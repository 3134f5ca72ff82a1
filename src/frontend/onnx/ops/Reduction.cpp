// Converters of reductions: Reduce*, ArgMax, ArgMin, CumSum.
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

#include <set>

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;

enum class Reduce { Sum, Mean, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp };

// A reduction of `x` over some axes: the output Vars (ONNX order), the output shape, the
// domain over the reduced axes (innermost axis innermost) and the index of `x` it reads.
struct AxisReduction {
    std::vector<Var> v;
    std::vector<Var> hv;  // Halide argument list of v
    std::vector<int64_t> out_shape;
    RDom r;
    std::vector<Expr> index;
    int64_t count = 1;  // elements reduced per output
};

AxisReduction axis_reduction(const NodeContext &ctx, const Tensor &x, const std::vector<bool> &reduced,
                             bool keepdims) {
    AxisReduction a;
    Halide::Region extents;
    for (int i = x.rank() - 1; i >= 0; i--) {
        if (reduced[i]) extents.push_back({0, static_cast<int>(x.shape[i])});
    }
    // Nothing reduced (a scalar input): a one-point domain keeps the update definition.
    if (extents.empty()) extents.push_back({0, 1});
    a.r = RDom(extents, ctx.func("r").name());
    for (int i = 0; i < x.rank(); i++) {
        if (!reduced[i] || keepdims) a.out_shape.push_back(reduced[i] ? 1 : x.shape[i]);
    }
    a.v = make_vars(static_cast<int>(a.out_shape.size()));
    a.hv = halide_args(a.v);
    int next_r = 0;
    for (int i = x.rank() - 1; i >= 0; i--) {
        if (reduced[i]) next_r++;
    }
    int out_axis = 0;
    for (int i = 0; i < x.rank(); i++) {
        if (reduced[i]) {
            a.index.push_back(a.r[--next_r]);
            a.count *= x.shape[i];
            if (keepdims) out_axis++;
        } else {
            a.index.push_back(a.v[out_axis++]);
        }
    }
    return a;
}

// The axes flags of a reduction over `axes` (empty: every axis).
std::vector<bool> reduced_axes(const std::vector<int64_t> &axes, int rank) {
    std::vector<bool> reduced(rank, axes.empty());
    for (int64_t axis : axes) reduced[normalize_axis(axis, rank)] = true;
    return reduced;
}

Expr zero_of(Halide::Type t) { return Halide::Internal::make_zero(t); }

// A Func over the reduction's output accumulating `step(acc, value)` from `init`.
Func accumulate(const NodeContext &ctx, const AxisReduction &a, Expr init,
                const std::function<Expr(Expr, Expr)> &step, Expr value, const std::string &suffix) {
    Func f = ctx.func(suffix);
    define(f, a.v, init);
    f(a.hv) = step(f(a.hv), value);
    return f;
}

void convert_reduce(NodeContext &ctx, Reduce kind) {
    const Tensor &x = ctx.input(0);
    Halide::Type t = x.type;
    std::vector<int64_t> axes;
    if (kind == Reduce::Sum) {
        if (ctx.has_input(1)) axes = ctx.constant_ints(1);
    } else {
        axes = ctx.attr_ints("axes");
    }
    bool keepdims = ctx.attr_int("keepdims", 1) != 0;
    if (axes.empty() && ctx.attr_int("noop_with_empty_axes", 0) != 0) {
        std::vector<Var> v = make_vars(x.rank());
        Func f = ctx.func();
        define(f, v, x.at(as_exprs(v)));
        ctx.set_output(0, f, x.shape, x.elem_type);
        return;
    }
    AxisReduction a = axis_reduction(ctx, x, reduced_axes(axes, x.rank()), keepdims);
    Expr value = x.at(a.index);
    auto add = [](Expr acc, Expr e) { return acc + e; };
    Func f;
    switch (kind) {
    case Reduce::Max:
        f = accumulate(ctx, a, lowest_of(t), [](Expr acc, Expr e) { return Halide::max(acc, e); }, value, "");
        break;
    case Reduce::Min:
        f = accumulate(ctx, a, highest_of(t), [](Expr acc, Expr e) { return Halide::min(acc, e); }, value, "");
        break;
    case Reduce::Prod:
        f = accumulate(ctx, a, Halide::Internal::make_one(t), [](Expr acc, Expr e) { return acc * e; }, value, "");
        break;
    case Reduce::Sum: f = accumulate(ctx, a, zero_of(t), add, value, ""); break;
    case Reduce::L1:
        f = accumulate(ctx, a, zero_of(t), add, t.is_uint() ? value : Halide::cast(t, Halide::abs(value)), "");
        break;
    case Reduce::SumSquare: f = accumulate(ctx, a, zero_of(t), add, value * value, ""); break;
    case Reduce::Mean:
    case Reduce::L2:
    case Reduce::LogSum: {
        Func sum = accumulate(ctx, a, zero_of(t), add, kind == Reduce::L2 ? value * value : value, "sum");
        sum.compute_root();
        Expr s = sum(a.hv);
        f = ctx.func();
        if (kind == Reduce::Mean) define(f, a.v, s / Halide::Internal::make_const(t, static_cast<double>(a.count)));
        else if (kind == Reduce::L2) define(f, a.v, Halide::sqrt(s));
        else define(f, a.v, Halide::log(s));
        break;
    }
    case Reduce::LogSumExp: {
        // log(sum(exp(x - m))) + m with m the maximum (0 when it is not finite).
        Func mx = accumulate(ctx, a, lowest_of(t), [](Expr acc, Expr e) { return Halide::max(acc, e); }, value,
                             "max");
        mx.compute_root();
        Expr m = mx(a.hv);
        Expr shift = Halide::select(m > lowest_of(t) && m < highest_of(t), m, zero_of(t));
        Func sum = accumulate(ctx, a, zero_of(t), add, Halide::exp(value - shift), "sum");
        sum.compute_root();
        f = ctx.func();
        define(f, a.v, Halide::log(sum(a.hv)) + shift);
        break;
    }
    }
    ctx.set_output(0, f, a.out_shape, x.elem_type);
}

// ArgMax/ArgMin: the extreme value first, then the first (or last) index holding it.
void convert_arg(NodeContext &ctx, bool is_max) {
    const Tensor &x = ctx.input(0);
    int axis = normalize_axis(ctx.attr_int("axis", 0), x.rank());
    if (x.rank() == 0) ctx.unsupported("a scalar input");
    bool keepdims = ctx.attr_int("keepdims", 1) != 0;
    bool last = ctx.attr_int("select_last_index", 0) != 0;
    std::vector<bool> reduced(x.rank(), false);
    reduced[axis] = true;
    AxisReduction a = axis_reduction(ctx, x, reduced, keepdims);
    Expr value = x.at(a.index);
    Func best = accumulate(ctx, a, is_max ? lowest_of(x.type) : highest_of(x.type),
                           [is_max](Expr acc, Expr e) { return is_max ? Halide::max(acc, e) : Halide::min(acc, e); },
                           value, is_max ? "max" : "min");
    best.compute_root();
    Expr r = Halide::cast<int64_t>(Expr(a.r.x));
    Func f = ctx.func();
    std::vector<Var> &hv = a.hv;
    if (last) {
        define(f, a.v, Halide::Internal::make_const(Halide::Int(64), -1));
        f(hv) = Halide::select(value == best(hv), r, f(hv));
    } else {
        define(f, a.v, Halide::Internal::make_const(Halide::Int(64), x.shape[axis]));
        f(hv) = Halide::select(value == best(hv) && r < f(hv), r, f(hv));
    }
    ctx.set_output(0, f, a.out_shape, onnx::TensorProto::INT64);
}

// CumSum along a constant axis: out[i] = sum of x[j] for j <= i (< i when exclusive; j >= i
// or j > i when reversed).
void convert_cumsum(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> axis_values = ctx.constant_ints(1);
    if (axis_values.size() != 1) ctx.unsupported("axis input with " + std::to_string(axis_values.size()) + " values");
    if (x.rank() == 0) ctx.unsupported("a scalar input");
    int axis = normalize_axis(axis_values[0], x.rank());
    bool exclusive = ctx.attr_int("exclusive", 0) != 0;
    bool reverse = ctx.attr_int("reverse", 0) != 0;
    std::vector<Var> v = make_vars(x.rank());
    RDom r(0, static_cast<int>(x.shape[axis]), ctx.func("r").name());
    std::vector<Expr> index = as_exprs(v);
    index[axis] = r;
    Expr i = v[axis];
    Expr take = reverse ? (exclusive ? Expr(r) > i : Expr(r) >= i) : (exclusive ? Expr(r) < i : Expr(r) <= i);
    Func f = ctx.func();
    define(f, v, zero_of(x.type));
    std::vector<Var> hv = halide_args(v);
    f(hv) = f(hv) + Halide::select(take, x.at(index), zero_of(x.type));
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// Type check of input 0 only (ReduceSum's axes and CumSum's axis are integer inputs).
CheckFn data_type_check(bool floats_only, const std::set<int> &excluded = {onnx::TensorProto::BOOL}) {
    return [floats_only, excluded](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        int t = types.empty() ? 0 : types[0];
        if (!t) return "";
        std::string why;
        halide_type_of(t, &why);
        if (!why.empty()) return why;
        if (floats_only && !is_float_type(t)) return "input type " + elem_type_name(t) + " (only float and double)";
        if (excluded.count(t)) return "input type " + elem_type_name(t) + " is not supported";
        return "";
    };
}

}  // namespace

void add_reduction_converters(ConverterTable &t) {
    struct Entry {
        const char *op;
        Reduce kind;
        bool floats_only;
    };
    const Entry entries[] = {
        {"ReduceSum", Reduce::Sum, false},       {"ReduceMean", Reduce::Mean, true},
        {"ReduceMax", Reduce::Max, false},       {"ReduceMin", Reduce::Min, false},
        {"ReduceProd", Reduce::Prod, false},     {"ReduceL1", Reduce::L1, false},
        {"ReduceL2", Reduce::L2, true},          {"ReduceSumSquare", Reduce::SumSquare, false},
        {"ReduceLogSum", Reduce::LogSum, true},  {"ReduceLogSumExp", Reduce::LogSumExp, true},
    };
    for (const Entry &e : entries) {
        Reduce kind = e.kind;
        t[e.op] = {[kind](NodeContext &ctx) { convert_reduce(ctx, kind); }, data_type_check(e.floats_only)};
    }
    t["ArgMax"] = {[](NodeContext &ctx) { convert_arg(ctx, true); }, data_type_check(false)};
    t["ArgMin"] = {[](NodeContext &ctx) { convert_arg(ctx, false); }, data_type_check(false)};
    // ONNX CumSum: int32, int64, uint32, uint64, float, double.
    t["CumSum"] = {convert_cumsum,
                   data_type_check(false, {onnx::TensorProto::BOOL, onnx::TensorProto::INT8, onnx::TensorProto::UINT8,
                                           onnx::TensorProto::INT16, onnx::TensorProto::UINT16})};
}

}  // namespace flowhls::onnx_import
