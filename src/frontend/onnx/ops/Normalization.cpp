// Converters of normalizations: Softmax, LogSoftmax, Hardmax, BatchNormalization,
// InstanceNormalization, LayerNormalization, LRN.
#include "frontend/onnx/OpSupport.h"

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

}  // namespace

void add_normalization_converters(ConverterTable &t) {
    t["Softmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 0); }, float_only()};
    t["LogSoftmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 1); }, float_only()};
    t["Hardmax"] = {[](NodeContext &ctx) { convert_softmax(ctx, 2); }, float_only()};
}

}  // namespace flowhls::onnx_import
