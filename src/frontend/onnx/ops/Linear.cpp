// Converters of the multiply-accumulate ops: Conv, ConvTranspose, Gemm, MatMul, Einsum.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/ops/Linear.h"
#include "frontend/onnx/ops/Window.h"
#include "frontend/onnx/OpSupport.h"

#include <algorithm>
#include <map>
#include <set>

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::RDom;
using Halide::Var;

// An optional bias (input 2) holds one value per output channel.
void check_bias(const NodeContext &ctx, int64_t maps) {
    if (!ctx.has_input(2)) return;
    const Tensor &b = ctx.input(2);
    if (b.shape != std::vector<int64_t>{maps}) {
        ctx.invalid("the bias has shape " + shape_text(b.shape) + "; it must hold one value per output channel (" +
                    std::to_string(maps) + ")");
    }
}

}  // namespace

Accumulation conv_accumulation(const NodeContext &ctx, const Tensor &x, const Tensor &w, const Tensor *bias) {
    int spatial = x.rank() - 2;
    if (spatial < 1) ctx.unsupported("input rank " + std::to_string(x.rank()) + " (Conv needs N, C and spatial axes)");
    if (w.rank() != x.rank()) ctx.unsupported("weight rank differs from input rank");
    int64_t group = ctx.attr_int("group", 1);
    int64_t channels = x.shape[1], maps = w.shape[0], per_group = w.shape[1];
    if (group < 1 || per_group * group != channels || maps % group != 0) {
        ctx.invalid("the weights' shape " + shape_text(w.shape) + " and group " + std::to_string(group) +
                    " do not fit the input's " + std::to_string(channels) + " channels");
    }
    if (bias && bias->shape != std::vector<int64_t>{maps}) {
        ctx.invalid("the bias has shape " + shape_text(bias->shape) + "; it must hold one value per output channel (" +
                    std::to_string(maps) + ")");
    }
    std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
    WindowGeometry geo = window_geometry(ctx, x, kernel, false);

    std::vector<int64_t> out_shape = {x.shape[0], maps};
    for (int i = 0; i < spatial; i++) out_shape.push_back(geo.output[i]);
    // The loops are named like the node's filter (n, co, oy, ox) so a schedule of the
    // accumulation (`NODE#acc`) uses the same names.
    std::vector<Var> v = make_vars(dim_names("Conv", out_shape, {}));
    Func conv = ctx.func();
    Expr init = bias ? bias->at({v[1]}) : Halide::Internal::make_zero(x.type);
    define(conv, v, init);

    // Reduction over kernel axes (innermost first) then the input channels.
    Halide::Region extents;
    for (int i = spatial - 1; i >= 0; i--) extents.push_back({0, static_cast<int>(kernel[i])});
    extents.push_back({0, static_cast<int>(per_group)});
    std::vector<std::string> names = spatial_names("k", spatial);
    std::reverse(names.begin(), names.end());
    names.push_back("ci");
    RDom r = named_rdom(extents, names);
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
    return {conv, out_shape};
}

namespace {

// Conv: X [N, C, D...], W [M, C/group, K...], optional B [M] -> [N, M, O...]. The output
// is initialized with the bias and accumulated over (channel, kernel...) in that loop order,
// the innermost kernel axis innermost: `for n, m, o...: acc = b; for c, k...: acc += w * x`.
void convert_conv(NodeContext &ctx) {
    Accumulation acc = conv_accumulation(ctx, ctx.input(0), ctx.input(1), ctx.has_input(2) ? &ctx.input(2) : nullptr);
    ctx.set_output(0, acc.func, acc.shape, ctx.input(0).elem_type);
}

// Pads and output extents of ConvTranspose's spatial axes (ONNX ConvTranspose-11 rules).
struct TransposeGeometry {
    std::vector<int64_t> strides, dilations, pad_begin, output;
};

TransposeGeometry transpose_geometry(const NodeContext &ctx, const Tensor &x, const std::vector<int64_t> &kernel) {
    size_t n = kernel.size();
    TransposeGeometry g;
    g.strides = ctx.attr_ints("strides", std::vector<int64_t>(n, 1));
    g.dilations = ctx.attr_ints("dilations", std::vector<int64_t>(n, 1));
    std::vector<int64_t> pads = ctx.attr_ints("pads", std::vector<int64_t>(2 * n, 0));
    std::vector<int64_t> out_pad = ctx.attr_ints("output_padding", std::vector<int64_t>(n, 0));
    std::vector<int64_t> out_shape = ctx.attr_ints("output_shape");
    if (out_shape.size() == n + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
    if (g.strides.size() != n || g.dilations.size() != n || pads.size() != 2 * n || out_pad.size() != n ||
        (!out_shape.empty() && out_shape.size() != n)) {
        ctx.unsupported("strides, dilations, pads, output_padding or output_shape do not match the kernel rank");
    }
    std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
    bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
    if (!same && auto_pad != "NOTSET" && auto_pad != "VALID") ctx.unsupported("auto_pad " + auto_pad);
    for (size_t i = 0; i < n; i++) {
        int64_t d = x.shape[2 + i], s = g.strides[i], dil = g.dilations[i];
        if (s <= 0 || dil <= 0 || kernel[i] <= 0) ctx.unsupported("non-positive stride, dilation or kernel");
        if (out_pad[i] < 0) ctx.unsupported("negative output_padding");
        int64_t full = s * (d - 1) + out_pad[i] + (kernel[i] - 1) * dil + 1;
        int64_t begin = auto_pad == "VALID" ? 0 : pads[i], end = auto_pad == "VALID" ? 0 : pads[n + i];
        if (begin < 0 || end < 0) ctx.unsupported("negative pads");
        if (!out_shape.empty() || same) {
            // A negative total (output_shape beyond the full result) extends the output with
            // positions no input reaches; halves round toward -infinity like the reference.
            int64_t target = out_shape.empty() ? d * s : out_shape[i];
            int64_t total = full - target;
            int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
            begin = auto_pad == "SAME_UPPER" ? half : total - half;
            end = total - begin;
        }
        int64_t extent = full - begin - end;
        if (extent <= 0) ctx.unsupported("empty output");
        g.pad_begin.push_back(begin);
        g.output.push_back(extent);
    }
    return g;
}

// ConvTranspose: X [N, C, D...], W [C, M/group, K...], optional B [M] -> [N, M, O...], as a
// gather: out(n, m, o...) = b[m] + sum over (c in m's group, k...) of
// x(n, c, i...) * w(c, m % (M/group), k...) where o = i * stride + k * dilation - pad_begin.
void convert_conv_transpose(NodeContext &ctx) {
    const Tensor &x = ctx.input(0), &w = ctx.input(1);
    int spatial = x.rank() - 2;
    if (spatial < 1) {
        ctx.unsupported("input rank " + std::to_string(x.rank()) + " (ConvTranspose needs N, C and spatial axes)");
    }
    if (w.rank() != x.rank()) ctx.unsupported("weight rank differs from input rank");
    int64_t group = ctx.attr_int("group", 1);
    int64_t channels = x.shape[1], per_group_out = w.shape[1];
    if (group <= 0 || w.shape[0] != channels || channels % group != 0) {
        ctx.unsupported("group " + std::to_string(group) + " does not divide the channels");
    }
    int64_t per_group_in = channels / group, maps = per_group_out * group;
    check_bias(ctx, maps);
    std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
    std::vector<int64_t> kernel_attr = ctx.attr_ints("kernel_shape");
    if (!kernel_attr.empty() && kernel_attr != kernel) ctx.unsupported("kernel_shape differs from the weight shape");
    TransposeGeometry geo = transpose_geometry(ctx, x, kernel);

    std::vector<int64_t> out_shape = {x.shape[0], maps};
    for (int i = 0; i < spatial; i++) out_shape.push_back(geo.output[i]);
    // Named like the node's filter (n, co, oy, ox), as Conv's, so that the exploration can
    // compute the accumulation at the filter's loops and a schedule of `NODE#acc` reads the same.
    std::vector<Var> v = make_vars(dim_names("ConvTranspose", out_shape, {}));
    Func y = ctx.func();
    Expr init = Halide::Internal::make_zero(x.type);
    if (ctx.has_input(2)) {
        const Tensor &b = ctx.input(2);
        if (b.rank() != 1 || b.shape[0] != maps) ctx.unsupported("bias shape " + shape_text(b.shape));
        init = b.at({v[1]});
    }
    define(y, v, init);

    // Reduction over kernel axes (innermost first) then the input channels of the group.
    Halide::Region extents;
    for (int i = spatial - 1; i >= 0; i--) extents.push_back({0, static_cast<int>(kernel[i])});
    extents.push_back({0, static_cast<int>(per_group_in)});
    std::vector<std::string> names = spatial_names("k", spatial);
    std::reverse(names.begin(), names.end());
    names.push_back("ci");
    RDom r = named_rdom(extents, names);
    Expr c = v[1] / static_cast<int>(per_group_out) * static_cast<int>(per_group_in) + r[spatial];
    std::vector<Expr> xi = {v[0], c};
    std::vector<Expr> wi = {c, v[1] % static_cast<int>(per_group_out)};
    Expr ok = Halide::Internal::const_true();
    for (int i = 0; i < spatial; i++) {
        Expr k = r[spatial - 1 - i];
        int s = static_cast<int>(geo.strides[i]);
        Expr pos = v[2 + i] + static_cast<int>(geo.pad_begin[i]) - k * static_cast<int>(geo.dilations[i]);
        Expr src = s == 1 ? pos : pos / s;
        int last = static_cast<int>(x.shape[2 + i]) - 1;
        ok = ok && src >= 0 && src <= last;
        if (s != 1) ok = ok && pos % s == 0;
        xi.push_back(Halide::clamp(src, 0, last));
        wi.push_back(k);
    }
    Expr value = Halide::select(ok, x.at(xi), Halide::Internal::make_zero(x.type));
    std::vector<Var> hv = halide_args(v);
    y(hv) = y(hv) + w.at(wi) * value;
    ctx.set_output(0, y, out_shape, x.elem_type);
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
    std::vector<Var> v = make_vars(dim_names("Gemm", {m, n}, {}));  // i, j like the node's filter
    Func y = ctx.func();
    Expr init = Halide::Internal::make_zero(a.type);
    if (ctx.has_input(2)) {
        broadcast_shape({m, n}, ctx.input(2).shape);
        init = beta * broadcast_at(ctx.input(2), as_exprs(v));
    }
    define(y, v, init);
    RDom r = named_rdom({{0, static_cast<int>(k)}}, {"k"});
    Expr av = ta ? a.at({r, v[0]}) : a.at({v[0], r});
    Expr bv = tb ? b.at({v[1], r}) : b.at({r, v[1]});
    std::vector<Var> hv = halide_args(v);
    bool unit_alpha = ctx.attr_float("alpha", 1.0f) == 1.0f;
    y(hv) = y(hv) + (unit_alpha ? av * bv : alpha * (av * bv));
    ctx.set_output(0, y, {m, n}, a.elem_type);
}

}  // namespace

Accumulation matmul_accumulation(const NodeContext &ctx, const Tensor &a, const Tensor &b) {
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
    // Named like the node's filter (b, i, j) so that the exploration's "reduction outside"
    // matches the helper's loops to the filter's (as conv_accumulation's).
    std::vector<Var> v = make_vars(dim_names("MatMul", full, {}));
    size_t nb = batch.size();
    Func y = ctx.func();
    define(y, v, Halide::Internal::make_zero(a.type));
    RDom r = named_rdom({{0, static_cast<int>(k)}}, {"k"});
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
    if (out_shape.size() == full.size()) return {y, out_shape};
    y.compute_root();
    std::vector<Var> ov = make_vars(static_cast<int>(out_shape.size()));
    std::vector<Expr> src(ov.begin(), ov.begin() + nb);
    size_t next = nb;
    src.push_back(a_vec ? Expr(0) : Expr(ov[next++]));
    src.push_back(b_vec ? Expr(0) : Expr(ov[next++]));
    Func squeezed = ctx.func("out");
    define(squeezed, ov, y(std::vector<Expr>(src.rbegin(), src.rend())));
    return {squeezed, out_shape};
}

namespace {

// MatMul with NumPy semantics: 1-D operands are promoted, batch axes broadcast.
void convert_matmul(NodeContext &ctx) {
    Accumulation acc = matmul_accumulation(ctx, ctx.input(0), ctx.input(1));
    ctx.set_output(0, acc.func, acc.shape, ctx.input(0).elem_type);
}

// A parsed Einsum equation: one term per operand and the output term; each term is a list
// of labels where kEllipsis stands for the "..." axes.
constexpr int kEllipsis = -1;

struct EinsumEquation {
    std::vector<std::vector<int>> inputs;
    std::vector<int> output;
    bool explicit_output = false;
};

// Parses "ij,jk->ik"; returns "" or why the equation is malformed.
std::string parse_einsum(const std::string &text, EinsumEquation *eq) {
    std::string s;
    for (char ch : text) {
        if (ch != ' ') s += ch;
    }
    size_t arrow = s.find("->");
    std::string lhs = s.substr(0, arrow);
    eq->explicit_output = arrow != std::string::npos;
    auto parse_term = [](const std::string &term, std::vector<int> *labels) -> std::string {
        bool ellipsis = false;
        for (size_t i = 0; i < term.size(); i++) {
            char ch = term[i];
            if (term.compare(i, 3, "...") == 0) {
                if (ellipsis) return "two ellipses in one term";
                ellipsis = true;
                labels->push_back(kEllipsis);
                i += 2;
            } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
                labels->push_back(ch);
            } else {
                return std::string("unexpected character '") + ch + "'";
            }
        }
        return "";
    };
    size_t start = 0;
    while (true) {
        size_t comma = lhs.find(',', start);
        std::string term = lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        eq->inputs.emplace_back();
        std::string why = parse_term(term, &eq->inputs.back());
        if (!why.empty()) return why;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (eq->explicit_output) {
        std::string why = parse_term(s.substr(arrow + 2), &eq->output);
        if (!why.empty()) return why;
        std::set<int> seen;
        for (int l : eq->output) {
            if (!seen.insert(l).second) return "a label repeats in the output";
            bool found = false;
            for (const std::vector<int> &in : eq->inputs) found |= std::count(in.begin(), in.end(), l) > 0;
            if (!found) return "an output label appears in no input";
        }
    }
    return "";
}

std::string check_einsum(const onnx::NodeProto &node, const std::vector<int> &types) {
    std::string why = numeric_only()(node, types);
    if (!why.empty()) return why;
    std::string equation = attribute_string(node, "equation", "");
    EinsumEquation eq;
    why = parse_einsum(equation, &eq);
    if (!why.empty()) return "equation '" + equation + "': " + why;
    if (eq.inputs.size() != static_cast<size_t>(node.input_size())) {
        return "equation '" + equation + "' has " + std::to_string(eq.inputs.size()) + " operand(s), the node " +
               std::to_string(node.input_size());
    }
    for (size_t i = 1; i < types.size(); i++) {
        if (types[i] && types[0] && types[i] != types[0]) return "operands of different element types";
    }
    return "";
}

// The axes of an Einsum: each operand's labels with the ellipsis expanded (its axes become
// labels 256 + j, j counted over the widest ellipsis, right-aligned), every label's extent,
// the output's labels and the reduced ones.
struct EinsumAxes {
    std::vector<std::vector<int>> labels;
    std::map<int, int64_t> extent;
    std::vector<int> out_labels, reduced;
};

// The widest ellipsis of the operands; Unsupported when an operand's rank does not fit its term.
int einsum_ellipsis_rank(const NodeContext &ctx, const EinsumEquation &eq, const std::vector<const Tensor *> &ops,
                         const std::string &equation) {
    int ellipsis_rank = 0;
    for (size_t t = 0; t < eq.inputs.size(); t++) {
        int letters = static_cast<int>(std::count_if(eq.inputs[t].begin(), eq.inputs[t].end(),
                                                     [](int l) { return l != kEllipsis; }));
        bool has_ellipsis = letters != static_cast<int>(eq.inputs[t].size());
        int e = ops[t]->rank() - letters;
        if (e < 0 || (!has_ellipsis && e != 0)) {
            ctx.unsupported("operand " + std::to_string(t) + " of rank " + std::to_string(ops[t]->rank()) +
                            " does not match its term in '" + equation + "'");
        }
        ellipsis_rank = std::max(ellipsis_rank, e);
    }
    return ellipsis_rank;
}

EinsumAxes einsum_axes(const NodeContext &ctx, const EinsumEquation &eq, const std::vector<const Tensor *> &ops,
                       const std::string &equation) {
    int ellipsis_rank = einsum_ellipsis_rank(ctx, eq, ops, equation);
    EinsumAxes axes;
    axes.labels.resize(eq.inputs.size());
    std::vector<int> first_seen;
    std::map<int, int> occurrences;
    for (size_t t = 0; t < eq.inputs.size(); t++) {
        int e = ops[t]->rank() - static_cast<int>(eq.inputs[t].size()) + 1;
        for (int l : eq.inputs[t]) {
            if (l != kEllipsis) {
                axes.labels[t].push_back(l);
                continue;
            }
            for (int j = ellipsis_rank - e; j < ellipsis_rank; j++) axes.labels[t].push_back(256 + j);
        }
        for (size_t a = 0; a < axes.labels[t].size(); a++) {
            int l = axes.labels[t][a];
            int64_t d = ops[t]->shape[a];
            occurrences[l]++;
            auto known = axes.extent.find(l);
            if (known == axes.extent.end()) {
                first_seen.push_back(l);
                axes.extent[l] = d;
            } else if (known->second != d) {
                if (l < 256 || (d != 1 && known->second != 1)) {
                    ctx.unsupported("label extents differ (" + std::to_string(known->second) + " and " +
                                    std::to_string(d) + ")");
                }
                known->second = std::max(known->second, d);
            }
        }
    }
    if (eq.explicit_output) {
        for (int l : eq.output) {
            if (l != kEllipsis) {
                axes.out_labels.push_back(l);
                continue;
            }
            for (int j = 0; j < ellipsis_rank; j++) axes.out_labels.push_back(256 + j);
        }
    } else {
        for (int j = 0; j < ellipsis_rank; j++) axes.out_labels.push_back(256 + j);
        std::vector<int> singles;
        for (const auto &e : occurrences) {
            if (e.first < 256 && e.second == 1) singles.push_back(e.first);
        }
        std::sort(singles.begin(), singles.end());
        axes.out_labels.insert(axes.out_labels.end(), singles.begin(), singles.end());
    }
    for (int l : first_seen) {
        if (std::find(axes.out_labels.begin(), axes.out_labels.end(), l) == axes.out_labels.end()) axes.reduced.push_back(l);
    }
    for (const auto &e : axes.extent) {
        if (e.second <= 0) ctx.unsupported("an empty axis");
    }
    return axes;
}

// Einsum: every label of the output is an output axis, every other label a reduction axis;
// the output is the sum over the reduction axes of the product of the operands. A label
// repeated within an operand reads its diagonal; the "..." axes broadcast like NumPy's.
void convert_einsum(NodeContext &ctx) {
    std::string equation = ctx.attr_string("equation", "");
    EinsumEquation eq;
    std::string why = parse_einsum(equation, &eq);
    if (!why.empty()) ctx.unsupported("equation '" + equation + "': " + why);
    if (static_cast<int>(eq.inputs.size()) != ctx.num_inputs()) ctx.unsupported("operand count differs from equation");
    std::vector<const Tensor *> ops;
    for (size_t t = 0; t < eq.inputs.size(); t++) ops.push_back(&ctx.input(static_cast<int>(t)));
    EinsumAxes axes = einsum_axes(ctx, eq, ops, equation);
    std::vector<int64_t> out_shape;
    for (int l : axes.out_labels) out_shape.push_back(axes.extent.at(l));

    std::vector<Var> v = make_vars(static_cast<int>(out_shape.size()));
    std::map<int, Expr> index;
    for (size_t i = 0; i < axes.out_labels.size(); i++) index[axes.out_labels[i]] = v[i];
    const std::vector<int> &reduced = axes.reduced;
    RDom r;
    if (!reduced.empty()) {
        Halide::Region extents;
        for (auto it = reduced.rbegin(); it != reduced.rend(); ++it) {
            extents.push_back({0, static_cast<int>(axes.extent[*it])});
        }
        r = RDom(extents, ctx.func("r").name());
        for (size_t i = 0; i < reduced.size(); i++) index[reduced[i]] = r[static_cast<int>(reduced.size() - 1 - i)];
    }
    Expr product;
    for (size_t t = 0; t < ops.size(); t++) {
        std::vector<Expr> idx;
        for (size_t a = 0; a < axes.labels[t].size(); a++) {
            idx.push_back(ops[t]->shape[a] == 1 ? Expr(0) : index.at(axes.labels[t][a]));
        }
        Expr value = ops[t]->at(idx);
        product = product.defined() ? product * value : value;
    }
    Func y = ctx.func();
    const Tensor &first = *ops[0];
    if (reduced.empty()) {
        define(y, v, product);
    } else {
        define(y, v, Halide::Internal::make_zero(first.type));
        std::vector<Var> hv = halide_args(v);
        y(hv) = y(hv) + product;
    }
    ctx.set_output(0, y, out_shape, first.elem_type);
}

}  // namespace

void add_linear_converters(ConverterTable &t) {
    t["Conv"] = {convert_conv, float_only()};
    t["ConvTranspose"] = {convert_conv_transpose, float_only()};
    t["Einsum"] = {convert_einsum, check_einsum};
    t["Gemm"] = {convert_gemm, numeric_only()};
    t["MatMul"] = {convert_matmul, numeric_only()};
}

}  // namespace flowhls::onnx_import
