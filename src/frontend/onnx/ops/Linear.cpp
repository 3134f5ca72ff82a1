// Converters of the multiply-accumulate ops: Conv, Gemm, MatMul.
#include "frontend/onnx/ops/Window.h"
#include "frontend/onnx/OpSupport.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;

// Conv: X [N, C, D...], W [M, C/group, K...], optional B [M] -> [N, M, O...]. The output
// is initialized with the bias and accumulated over (channel, kernel...) in that loop order,
// the innermost kernel axis innermost: `for n, m, o...: acc = b; for c, k...: acc += w * x`.
void convert_conv(NodeContext &ctx) {
    const Tensor &x = ctx.input(0), &w = ctx.input(1);
    int spatial = x.rank() - 2;
    if (spatial < 1) ctx.unsupported("input rank " + std::to_string(x.rank()) + " (Conv needs N, C and spatial axes)");
    if (w.rank() != x.rank()) ctx.unsupported("weight rank differs from input rank");
    int64_t group = ctx.attr_int("group", 1);
    int64_t channels = x.shape[1], maps = w.shape[0], per_group = w.shape[1];
    if (per_group * group != channels || maps % group != 0) {
        ctx.unsupported("group " + std::to_string(group) + " does not divide the channels");
    }
    std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
    WindowGeometry geo = window_geometry(ctx, x, kernel, false);

    std::vector<int64_t> out_shape = {x.shape[0], maps};
    for (int i = 0; i < spatial; i++) out_shape.push_back(geo.output[i]);
    std::vector<Var> v = make_vars(static_cast<int>(out_shape.size()));
    Func conv = ctx.func();
    Expr init = ctx.has_input(2) ? ctx.input(2).at({v[1]}) : Halide::Internal::make_zero(x.type);
    define(conv, v, init);

    // Reduction over kernel axes (innermost first) then the input channels.
    Halide::Region extents;
    for (int i = spatial - 1; i >= 0; i--) extents.push_back({0, static_cast<int>(kernel[i])});
    extents.push_back({0, static_cast<int>(per_group)});
    RDom r(extents, ctx.func("r").name());
    Expr c = r[spatial];
    Expr map_group = v[1] / static_cast<int>(maps / group);
    std::vector<Expr> xi = {v[0], map_group * static_cast<int>(per_group) + c};
    std::vector<Expr> wi = {v[1], c};
    std::vector<Expr> spatial_pos;
    for (int i = 0; i < spatial; i++) {
        Expr k = r[spatial - 1 - i];
        spatial_pos.push_back(v[2 + i] * static_cast<int>(geo.strides[i]) + k * static_cast<int>(geo.dilations[i]) -
                              static_cast<int>(geo.pad_begin[i]));
        wi.push_back(k);
    }
    Expr value = padded_at(x, xi, spatial_pos, Halide::Internal::make_zero(x.type), geo.reads_outside);
    std::vector<Var> hv = halide_args(v);
    conv(hv) = conv(hv) + w.at(wi) * value;
    ctx.set_output(0, conv, out_shape, x.elem_type);
}

// Gemm: Y = alpha * A' B' + beta * C, accumulated over k innermost.
void convert_gemm(NodeContext &ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    if (a.rank() != 2 || b.rank() != 2) ctx.unsupported("Gemm needs 2-D A and B");
    bool ta = ctx.attr_int("transA", 0) != 0, tb = ctx.attr_int("transB", 0) != 0;
    int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
    int64_t kb = tb ? b.shape[1] : b.shape[0], n = tb ? b.shape[0] : b.shape[1];
    if (k != kb) ctx.unsupported("inner dimensions differ (" + std::to_string(k) + " and " + std::to_string(kb) + ")");
    Expr alpha = Halide::Internal::make_const(a.type, ctx.attr_float("alpha", 1.0f));
    Expr beta = Halide::Internal::make_const(a.type, ctx.attr_float("beta", 1.0f));
    std::vector<Var> v = make_vars(2);
    Func y = ctx.func();
    Expr init = Halide::Internal::make_zero(a.type);
    if (ctx.has_input(2)) {
        broadcast_shape({m, n}, ctx.input(2).shape);
        init = beta * broadcast_at(ctx.input(2), as_exprs(v));
    }
    define(y, v, init);
    RDom r(0, static_cast<int>(k), ctx.func("r").name());
    Expr av = ta ? a.at({r, v[0]}) : a.at({v[0], r});
    Expr bv = tb ? b.at({v[1], r}) : b.at({r, v[1]});
    std::vector<Var> hv = halide_args(v);
    bool unit_alpha = ctx.attr_float("alpha", 1.0f) == 1.0f;
    y(hv) = y(hv) + (unit_alpha ? av * bv : alpha * (av * bv));
    ctx.set_output(0, y, {m, n}, a.elem_type);
}

// MatMul with NumPy semantics: 1-D operands are promoted, batch axes broadcast.
void convert_matmul(NodeContext &ctx) {
    Tensor a = ctx.input(0), b = ctx.input(1);
    if (a.rank() == 0 || b.rank() == 0) ctx.unsupported("MatMul of a scalar");
    bool a_vec = a.rank() == 1, b_vec = b.rank() == 1;
    std::vector<int64_t> as = a.shape, bs = b.shape;
    if (a_vec) as.insert(as.begin(), 1);
    if (b_vec) bs.push_back(1);
    int64_t m = as[as.size() - 2], k = as.back(), kb = bs[bs.size() - 2], n = bs.back();
    if (k != kb) ctx.unsupported("inner dimensions differ (" + std::to_string(k) + " and " + std::to_string(kb) + ")");
    std::vector<int64_t> abatch(as.begin(), as.end() - 2), bbatch(bs.begin(), bs.end() - 2);
    std::vector<int64_t> batch = broadcast_shape(abatch, bbatch);
    std::vector<int64_t> full = batch;
    full.push_back(m);
    full.push_back(n);
    std::vector<Var> v = make_vars(static_cast<int>(full.size()));
    size_t nb = batch.size();
    Func y = ctx.func();
    define(y, v, Halide::Internal::make_zero(a.type));
    RDom r(0, static_cast<int>(k), ctx.func("r").name());
    auto index = [&](const std::vector<int64_t> &bshape, Expr row, Expr col, bool drop_row, bool drop_col) {
        std::vector<Expr> idx;
        size_t off = nb - bshape.size();
        for (size_t i = 0; i < bshape.size(); i++) idx.push_back(bshape[i] == 1 ? Expr(0) : Expr(v[off + i]));
        if (!drop_row) idx.push_back(row);
        if (!drop_col) idx.push_back(col);
        return idx;
    };
    Expr av = a.at(index(abatch, v[nb], r, a_vec, false));
    Expr bv = b.at(index(bbatch, r, v[nb + 1], false, b_vec));
    std::vector<Var> hv = halide_args(v);
    y(hv) = y(hv) + av * bv;
    // Drop the promoted axes again.
    std::vector<int64_t> out_shape = batch;
    if (!a_vec) out_shape.push_back(m);
    if (!b_vec) out_shape.push_back(n);
    if (out_shape.size() == full.size()) {
        ctx.set_output(0, y, out_shape, a.elem_type);
        return;
    }
    y.compute_root();
    std::vector<Var> ov = make_vars(static_cast<int>(out_shape.size()));
    std::vector<Expr> src(ov.begin(), ov.begin() + nb);
    size_t next = nb;
    src.push_back(a_vec ? Expr(0) : Expr(ov[next++]));
    src.push_back(b_vec ? Expr(0) : Expr(ov[next++]));
    Func squeezed = ctx.func("out");
    define(squeezed, ov, y(std::vector<Expr>(src.rbegin(), src.rend())));
    ctx.set_output(0, squeezed, out_shape, a.elem_type);
}

}  // namespace

void add_linear_converters(ConverterTable &t) {
    t["Conv"] = {convert_conv, float_only()};
    t["Gemm"] = {convert_gemm, numeric_only()};
    t["MatMul"] = {convert_matmul, numeric_only()};
}

}  // namespace flowhls::onnx_import
