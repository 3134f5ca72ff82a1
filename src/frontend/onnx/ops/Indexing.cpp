// Converters of indexing and data-movement ops: Slice, Split, Gather, GatherElements, Pad,
// Tile, Expand, Range, DepthToSpace, SpaceToDepth, Trilu, OneHot.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"
#include "support/Sizes.h"
#include "frontend/onnx/ops/ShapeSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

int extent(int64_t d) { return static_cast<int>(d); }

// Throws Unsupported when `shape` has an empty dimension or is too large to index with int32.
void require_nonempty(const NodeContext &ctx, const std::vector<int64_t> &shape, const std::string &what) {
    for (int64_t d : shape) {
        if (d <= 0) ctx.unsupported(what + " would be empty (shape " + shape_text(shape) + ")");
        if (d > std::numeric_limits<int32_t>::max()) ctx.unsupported(what + " is too large (shape " + shape_text(shape) + ")");
    }
}

// A run-time index value (any numeric type) into a dimension of extent `dim`: negative
// values count from the end; the result is clamped into [0, dim) so reads stay in bounds.
Expr index_into(Expr value, int64_t dim) {
    Expr v = Halide::cast<int64_t>(value);
    Expr d = Halide::cast<int64_t>(static_cast<int32_t>(dim));
    v = Halide::select(v < 0, v + d, v);
    return Halide::cast<int32_t>(Halide::clamp(v, Halide::cast<int64_t>(0), d - 1));
}

// How many of first, first + step, ... lie before `end` (exclusive, in the direction of a
// nonzero `step`), computed without overflow.
int64_t steps_in(int64_t first, int64_t end, int64_t step) {
    __int128 span = static_cast<__int128>(end) - first, st = step;
    __int128 count = st > 0 ? (span + st - 1) / st : (-span - st - 1) / -st;
    if (count < 0) return 0;
    return count > kMaxTensorBytes ? kMaxTensorBytes + 1 : static_cast<int64_t>(count);
}

// Constant indices (input `i`) into an axis of extent `dim` must lie in [-dim, dim), as ONNX
// requires; run-time indices are clamped by index_into.
void check_constant_indices(const NodeContext &ctx, int i, int64_t dim, int axis) {
    if (!ctx.input(i).is_constant()) return;
    for (int64_t index : ctx.constant_ints(i)) {
        if (index < -dim || index >= dim) {
            ctx.invalid("index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) +
                        " of extent " + std::to_string(dim));
        }
    }
}

// The one value of a tensor holding a single value (a scalar, [1], [1, 1]...).
Expr single_value(const NodeContext &ctx, const Tensor &t) {
    if (t.size() != 1) ctx.unsupported("input '" + t.name + "' must hold one value (shape " + shape_text(t.shape) + ")");
    return t.at(std::vector<Expr>(t.rank(), Expr(0)));
}

bool is_index_type(int t) { return t == TensorProto::INT32 || t == TensorProto::INT64; }

// A check: input 0 (and `data_inputs`) of a supported element type, the inputs listed in
// `index_inputs` int32 or int64, and `extra` for the attributes.
CheckFn indexing_check(std::vector<int> index_inputs, std::vector<int> data_inputs = {0},
                       std::function<std::string(const onnx::NodeProto &)> extra = nullptr) {
    return [index_inputs, data_inputs, extra](const onnx::NodeProto &n, const std::vector<int> &types) -> std::string {
        for (int i : data_inputs) {
            if (i >= static_cast<int>(types.size()) || !types[i]) continue;
            std::string why;
            halide_type_of(types[i], &why);
            if (!why.empty()) return "input " + std::to_string(i) + ": " + why;
        }
        for (int i : index_inputs) {
            if (i >= static_cast<int>(types.size()) || !types[i]) continue;
            if (!is_index_type(types[i])) {
                return "input " + std::to_string(i) + " has type " + elem_type_name(types[i]) + " (int32 or int64 expected)";
            }
        }
        return extra ? extra(n) : "";
    };
}

// ---- Slice ----

void convert_slice(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() == 0) ctx.unsupported("Slice of a scalar");
    std::vector<int64_t> starts = ctx.constant_ints(1), ends = ctx.constant_ints(2);
    std::vector<int64_t> axes, steps;
    if (ctx.has_input(3)) {
        axes = ctx.constant_ints(3);
    } else {
        for (size_t i = 0; i < starts.size(); i++) axes.push_back(static_cast<int64_t>(i));
    }
    if (ctx.has_input(4)) steps = ctx.constant_ints(4);
    else steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
        ctx.unsupported("starts, ends, axes and steps have different lengths");
    }
    sorted_axes(ctx, axes, x.rank());  // rejects repeated and out-of-range axes
    std::vector<int64_t> first(x.rank(), 0), step(x.rank(), 1), shape = x.shape;
    for (size_t k = 0; k < axes.size(); k++) {
        int a = normalize_axis(axes[k], x.rank());
        int64_t dim = x.shape[a], s = starts[k], e = ends[k], st = steps[k];
        if (st == 0) ctx.unsupported("slice step 0");
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        if (st > 0) {
            s = std::clamp<int64_t>(s, 0, dim);
            e = std::clamp<int64_t>(e, 0, dim);
        } else {
            s = std::clamp<int64_t>(s, 0, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
        }
        int64_t count = steps_in(s, e, st);
        shape[a] = count;
        first[a] = s;
        step[a] = count > 1 ? st : 1;  // a single element: the step is irrelevant (and may be huge)
    }
    require_nonempty(ctx, shape, "the slice");
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> src(x.rank());
    for (int i = 0; i < x.rank(); i++) {
        src[i] = v[i] * extent(step[i]) + extent(first[i]);
        src[i] = Halide::clamp(src[i], 0, extent(x.shape[i]) - 1);
    }
    Func f = ctx.func();
    define(f, v, x.at(src));
    ctx.set_output(0, f, shape, x.elem_type);
}

// ---- Split ----

void convert_split(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() == 0) ctx.unsupported("Split of a scalar");
    int axis = normalize_axis(ctx.attr_int("axis", 0), x.rank());
    int64_t dim = x.shape[axis];
    int n = ctx.num_outputs();
    std::vector<int64_t> sizes;
    if (ctx.has_input(1)) {
        sizes = ctx.constant_ints(1);
        if (static_cast<int>(sizes.size()) != n) ctx.unsupported("split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(n) + " outputs");
        int64_t total = 0;
        for (int64_t s : sizes) {
            if (s < 0) ctx.unsupported("negative split size");
            total += s;
        }
        if (total != dim) ctx.unsupported("split sizes add up to " + std::to_string(total) + ", not the extent " + std::to_string(dim));
    } else {
        if (n <= 0 || dim % n != 0) ctx.unsupported("extent " + std::to_string(dim) + " does not split into " + std::to_string(n) + " equal parts");
        sizes.assign(n, dim / n);
    }
    int64_t offset = 0;
    for (int i = 0; i < n; i++) {
        int64_t begin = offset;
        offset += sizes[i];
        if (!ctx.wants_output(i)) continue;
        std::vector<int64_t> shape = x.shape;
        shape[axis] = sizes[i];
        require_nonempty(ctx, shape, "output " + std::to_string(i));
        std::vector<Var> v = make_vars(x.rank());
        std::vector<Expr> src = as_exprs(v);
        src[axis] = Halide::clamp(v[axis] + extent(begin), 0, extent(dim) - 1);
        Func f = ctx.func("part" + std::to_string(i));
        define(f, v, x.at(src));
        ctx.set_output(i, f, shape, x.elem_type);
    }
}

// ---- Gather, GatherElements ----

void convert_gather(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    const Tensor &indices = ctx.input(1);
    if (x.rank() == 0) ctx.unsupported("Gather of a scalar");
    int axis = normalize_axis(ctx.attr_int("axis", 0), x.rank());
    check_constant_indices(ctx, 1, x.shape[axis], axis);
    std::vector<int64_t> shape(x.shape.begin(), x.shape.begin() + axis);
    shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
    shape.insert(shape.end(), x.shape.begin() + axis + 1, x.shape.end());
    require_nonempty(ctx, shape, "the result");
    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
    std::vector<Expr> at_indices(v.begin() + axis, v.begin() + axis + indices.rank());
    std::vector<Expr> src(v.begin(), v.begin() + axis);
    src.push_back(index_into(indices.at(at_indices), x.shape[axis]));
    src.insert(src.end(), v.begin() + axis + indices.rank(), v.end());
    Func f = ctx.func();
    define(f, v, x.at(src));
    ctx.set_output(0, f, shape, x.elem_type);
}

void convert_gather_elements(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    const Tensor &indices = ctx.input(1);
    if (x.rank() == 0 || indices.rank() != x.rank()) ctx.unsupported("data and indices must have the same rank (at least 1)");
    int axis = normalize_axis(ctx.attr_int("axis", 0), x.rank());
    check_constant_indices(ctx, 1, x.shape[axis], axis);
    for (int i = 0; i < x.rank(); i++) {
        if (i != axis && indices.shape[i] > x.shape[i]) ctx.unsupported("indices are larger than the data along axis " + std::to_string(i));
    }
    require_nonempty(ctx, indices.shape, "the result");
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> src = as_exprs(v);
    src[axis] = index_into(indices.at(as_exprs(v)), x.shape[axis]);
    Func f = ctx.func();
    define(f, v, x.at(src));
    ctx.set_output(0, f, indices.shape, x.elem_type);
}

// ---- Pad ----

void convert_pad(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::string mode = ctx.attr_string("mode", "constant");
    if (ctx.has_input(3)) ctx.unsupported("the axes input of Pad");
    std::vector<int64_t> pads = ctx.constant_ints(1);
    int r = x.rank();
    if (static_cast<int>(pads.size()) != 2 * r) ctx.unsupported("pads has " + std::to_string(pads.size()) + " values for rank " + std::to_string(r));
    std::vector<int64_t> shape(r);
    for (int i = 0; i < r; i++) shape[i] = x.shape[i] + pads[i] + pads[i + r];
    require_nonempty(ctx, shape, "the padded tensor");
    std::vector<Var> v = make_vars(r);
    std::vector<Expr> src(r);
    Expr inside = Halide::Internal::const_true();
    for (int i = 0; i < r; i++) {
        int dim = extent(x.shape[i]);
        Expr s = v[i] - extent(pads[i]);
        if (mode == "reflect") {
            if (dim == 1) {
                s = 0;
            } else {
                int period = 2 * (dim - 1);
                Expr m = s % period;  // Euclidean: in [0, period)
                s = Halide::select(m < dim, m, period - m);
            }
        } else if (mode == "constant") {
            if (pads[i] > 0 || pads[i + r] > 0) inside = inside && s >= 0 && s < dim;
        } else if (mode != "edge") {
            ctx.unsupported("pad mode '" + mode + "'");
        }
        src[i] = Halide::clamp(s, 0, dim - 1);
    }
    Expr value = x.at(src);
    if (mode == "constant" && !Halide::Internal::is_const_one(inside)) {
        Expr fill = Halide::Internal::make_zero(x.type);
        if (ctx.has_input(2)) fill = Halide::cast(x.type, single_value(ctx, ctx.input(2)));
        value = Halide::select(inside, value, fill);
    }
    Func f = ctx.func();
    define(f, v, value);
    ctx.set_output(0, f, shape, x.elem_type);
}

std::string check_pad_attrs(const onnx::NodeProto &n) {
    std::string mode = attribute_string(n, "mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge") return "pad mode '" + mode + "' (constant, reflect and edge are supported)";
    if (n.input_size() > 3 && !n.input(3).empty()) return "the axes input of Pad";
    return "";
}

// ---- Tile, Expand ----

void convert_tile(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> repeats = ctx.constant_ints(1);
    if (static_cast<int>(repeats.size()) != x.rank()) ctx.unsupported("repeats has " + std::to_string(repeats.size()) + " values for rank " + std::to_string(x.rank()));
    std::vector<int64_t> shape(x.rank());
    for (int i = 0; i < x.rank(); i++) {
        if (repeats[i] < 0) ctx.unsupported("negative repeats");
        shape[i] = x.shape[i] * repeats[i];
    }
    require_nonempty(ctx, shape, "the result");
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> src(x.rank());
    for (int i = 0; i < x.rank(); i++) src[i] = x.shape[i] == 1 ? Expr(0) : Expr(v[i] % extent(x.shape[i]));
    Func f = ctx.func();
    define(f, v, x.at(src));
    ctx.set_output(0, f, shape, x.elem_type);
}

void convert_expand(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> target = ctx.constant_ints(1);
    for (int64_t d : target) {
        if (d < 0) ctx.unsupported("negative dimension in the shape");
    }
    std::vector<int64_t> shape = broadcast_shape(x.shape, target);
    require_nonempty(ctx, shape, "the result");
    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
    Func f = ctx.func();
    define(f, v, broadcast_at(x, as_exprs(v)));
    ctx.set_output(0, f, shape, x.elem_type);
}

// ---- Range ----

void convert_range(NodeContext &ctx) {
    const Tensor &start = ctx.input(0);
    int elem = start.elem_type;
    if (ctx.input(1).elem_type != elem || ctx.input(2).elem_type != elem) ctx.unsupported("start, limit and delta of different types");
    double s = ctx.constant_doubles(0).at(0), l = ctx.constant_doubles(1).at(0), d = ctx.constant_doubles(2).at(0);
    if (d == 0) ctx.unsupported("delta 0");
    double steps;
    if (start.type == Halide::Float(32)) {
        float span = static_cast<float>(l) - static_cast<float>(s);  // as the op computes it, in float
        steps = std::max(std::ceil(span / static_cast<float>(d)), 0.0f);
    } else if (start.type.is_float()) {
        steps = std::max(std::ceil((l - s) / d), 0.0);
    } else {
        int64_t si = ctx.constant_ints(0).at(0), li = ctx.constant_ints(1).at(0), di = ctx.constant_ints(2).at(0);
        steps = static_cast<double>(steps_in(si, li, di));
    }
    // NaN and counts beyond what a tensor may hold are refused before the conversion to int.
    if (!(steps <= static_cast<double>(kMaxTensorBytes))) {
        std::ostringstream range;
        range << "the range from " << s << " to " << l << " by " << d << " has too many elements";
        ctx.invalid(range.str());
    }
    int64_t count = static_cast<int64_t>(steps);
    std::vector<int64_t> shape{count};
    require_nonempty(ctx, shape, "the range");
    std::vector<Var> v = make_vars(1);
    Expr first = single_value(ctx, start), delta = single_value(ctx, ctx.input(2));
    Func f = ctx.func();
    define(f, v, Halide::cast(start.type, first + Halide::cast(start.type, v[0]) * delta));
    ctx.set_output(0, f, shape, elem);
}

// ---- DepthToSpace, SpaceToDepth ----

void convert_depth_to_space(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() != 4) ctx.unsupported("input of rank " + std::to_string(x.rank()) + " (NCHW expected)");
    int64_t b = ctx.attr_int("blocksize", 0);
    std::string mode = ctx.attr_string("mode", "DCR");
    if (b <= 0 || x.shape[1] % (b * b) != 0) ctx.unsupported("channels " + std::to_string(x.shape[1]) + " not divisible by blocksize^2");
    int64_t c_out = x.shape[1] / (b * b);
    std::vector<int64_t> shape{x.shape[0], c_out, x.shape[2] * b, x.shape[3] * b};
    std::vector<Var> v = make_vars(4);
    int bi = extent(b);
    Expr i = v[2] % bi, j = v[3] % bi;
    Expr channel;
    if (mode == "DCR") channel = (i * bi + j) * extent(c_out) + v[1];
    else if (mode == "CRD") channel = v[1] * (bi * bi) + i * bi + j;
    else ctx.unsupported("DepthToSpace mode '" + mode + "'");
    Func f = ctx.func();
    define(f, v, x.at({v[0], channel, v[2] / bi, v[3] / bi}));
    ctx.set_output(0, f, shape, x.elem_type);
}

void convert_space_to_depth(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() != 4) ctx.unsupported("input of rank " + std::to_string(x.rank()) + " (NCHW expected)");
    int64_t b = ctx.attr_int("blocksize", 0);
    if (b <= 0 || x.shape[2] % b != 0 || x.shape[3] % b != 0) ctx.unsupported("height or width not divisible by the blocksize");
    int64_t c = x.shape[1];
    std::vector<int64_t> shape{x.shape[0], c * b * b, x.shape[2] / b, x.shape[3] / b};
    std::vector<Var> v = make_vars(4);
    int bi = extent(b), ci = extent(c);
    Expr block = v[1] / ci;  // i * b + j
    Func f = ctx.func();
    define(f, v, x.at({v[0], v[1] % ci, v[2] * bi + block / bi, v[3] * bi + block % bi}));
    ctx.set_output(0, f, shape, x.elem_type);
}

std::string check_depth_to_space_attrs(const onnx::NodeProto &n) {
    std::string mode = attribute_string(n, "mode", "DCR");
    if (mode != "DCR" && mode != "CRD") return "DepthToSpace mode '" + mode + "' (DCR or CRD expected)";
    return "";
}

// ---- Trilu ----

void convert_trilu(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    if (x.rank() < 2) ctx.unsupported("input of rank " + std::to_string(x.rank()) + " (at least 2 expected)");
    bool upper = ctx.attr_int("upper", 1) != 0;
    Expr k = 0;
    if (ctx.has_input(1)) {
        Expr kv = Halide::cast<int64_t>(single_value(ctx, ctx.input(1)));
        int32_t limit = 1 << 30;
        k = Halide::cast<int32_t>(Halide::clamp(kv, Halide::cast<int64_t>(-limit), Halide::cast<int64_t>(limit)));
    }
    std::vector<Var> v = make_vars(x.rank());
    Expr row = v[x.rank() - 2], col = v[x.rank() - 1];
    Expr keep = upper ? col - row >= k : col - row <= k;
    Func f = ctx.func();
    define(f, v, Halide::select(keep, x.at(as_exprs(v)), Halide::Internal::make_zero(x.type)));
    ctx.set_output(0, f, x.shape, x.elem_type);
}

// ---- OneHot ----

void convert_one_hot(NodeContext &ctx) {
    const Tensor &indices = ctx.input(0);
    const Tensor &values = ctx.input(2);
    std::vector<double> depth_value = ctx.constant_doubles(1);
    if (depth_value.size() != 1) ctx.unsupported("depth must hold one value");
    int64_t depth = static_cast<int64_t>(depth_value[0]);
    if (values.size() != 2) ctx.unsupported("values must hold two values (off, on)");
    int rank = indices.rank() + 1;
    int axis = normalize_axis(ctx.attr_int("axis", -1), rank);
    std::vector<int64_t> shape = indices.shape;
    shape.insert(shape.begin() + axis, depth);
    require_nonempty(ctx, shape, "the result");
    std::vector<Var> v = make_vars(rank);
    std::vector<Expr> at_indices = as_exprs(v);
    at_indices.erase(at_indices.begin() + axis);
    Expr idx = Halide::cast<int64_t>(indices.at(at_indices));
    idx = Halide::select(idx < 0, idx + Halide::cast<int64_t>(static_cast<int32_t>(depth)), idx);
    Expr off = reshaped_at(values, {0}, {2}), on = reshaped_at(values, {1}, {2});
    Func f = ctx.func();
    define(f, v, Halide::select(idx == Halide::cast<int64_t>(v[axis]), on, off));
    ctx.set_output(0, f, shape, values.elem_type);
}

}  // namespace

void add_more_shape_converters(ConverterTable &t) {
    t["Slice"] = {convert_slice, indexing_check({1, 2, 3, 4})};
    t["Split"] = {convert_split, indexing_check({1}, {0}, [](const onnx::NodeProto &n) -> std::string {
                      return has_attribute(n, "num_outputs") ? "the num_outputs attribute (opset 18)" : "";
                  })};
    t["Gather"] = {convert_gather, indexing_check({1})};
    t["GatherElements"] = {convert_gather_elements, indexing_check({1})};
    t["Pad"] = {convert_pad, indexing_check({1}, {0, 2}, check_pad_attrs)};
    t["Tile"] = {convert_tile, indexing_check({1})};
    t["Expand"] = {convert_expand, indexing_check({1})};
    t["Range"] = {convert_range, numeric_only()};
    t["DepthToSpace"] = {convert_depth_to_space, indexing_check({}, {0}, check_depth_to_space_attrs)};
    t["SpaceToDepth"] = {convert_space_to_depth, indexing_check({})};
    t["Trilu"] = {convert_trilu, indexing_check({1})};
    t["OneHot"] = {convert_one_hot, numeric_only()};
}

}  // namespace flowhls::onnx_import
