// Converters of layout and shape ops: Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Concat, Constant, ConstantOfShape, Shape, Size.
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"
#include "frontend/onnx/ops/ShapeSupport.h"
#include "ir/IRQueries.h"
#include "support/Sizes.h"

#include <cstring>

namespace flowhls::onnx_import {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

Expr reshaped_at(const Tensor &x, const std::vector<Expr> &index, const std::vector<int64_t> &shape) {
    if (shape == x.shape) return x.at(index);
    Expr linear = 0;
    for (size_t i = 0; i < shape.size(); i++) linear = linear * static_cast<int>(shape[i]) + index[i];
    std::vector<Expr> src(x.shape.size());
    for (size_t i = x.shape.size(); i-- > 0;) {
        int d = static_cast<int>(x.shape[i]);
        src[i] = i == 0 ? linear : linear % d;
        linear = linear / d;
    }
    return x.at(src);
}

void define_view(NodeContext &ctx, const Tensor &x, const std::vector<int64_t> &shape) {
    if (element_count(shape) != x.size()) {
        ctx.unsupported("cannot reshape " + shape_text(x.shape) + " to " + shape_text(shape));
    }
    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
    Func f = ctx.func();
    define(f, v, reshaped_at(x, as_exprs(v), shape));
    ctx.set_output(0, f, shape, x.elem_type);
    ctx.mark_view(0);
}

Halide::Buffer<> int64_buffer(const std::vector<int64_t> &values) {
    Halide::Buffer<> b = make_buffer(Halide::Int(64), {static_cast<int64_t>(values.size())});
    if (!values.empty()) std::memcpy(b.data(), values.data(), values.size() * sizeof(int64_t));
    return b;
}

std::vector<int> sorted_axes(const NodeContext &ctx, std::vector<int64_t> axes, int rank) {
    std::vector<int> out;
    for (int64_t a : axes) out.push_back(normalize_axis(a, rank));
    std::sort(out.begin(), out.end());
    if (std::adjacent_find(out.begin(), out.end()) != out.end()) ctx.unsupported("repeated axes");
    return out;
}

void define_concat(NodeContext &ctx, const std::vector<Tensor> &parts, int axis, int elem_type) {
    const Tensor &first = parts.at(0);
    std::vector<int64_t> shape = first.shape;
    shape[axis] = 0;
    std::vector<int64_t> offsets;
    for (const Tensor &t : parts) {
        if (t.rank() != first.rank()) ctx.unsupported("inputs of different ranks");
        offsets.push_back(shape[axis]);
        shape[axis] += t.shape[axis];
    }
    std::vector<Var> v = make_vars(first.rank());
    Expr value;
    for (int i = static_cast<int>(parts.size()) - 1; i >= 0; i--) {
        std::vector<Expr> idx = as_exprs(v);
        const Tensor &t = parts[i];
        idx[axis] = Halide::clamp(v[axis] - static_cast<int>(offsets[i]), 0, static_cast<int>(t.shape[axis]) - 1);
        Expr here = t.at(idx);
        value = value.defined() ? Halide::select(v[axis] < static_cast<int>(offsets[i + 1]), here, value) : here;
    }
    Func f = ctx.func();
    define(f, v, value);
    ctx.set_output(0, f, shape, elem_type);
}

namespace {

void convert_reshape(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> spec = ctx.constant_ints(1);
    bool allow_zero = ctx.attr_int("allowzero", 0) != 0;
    std::vector<int64_t> shape;
    int infer = -1;
    int64_t known = 1;
    for (size_t i = 0; i < spec.size(); i++) {
        int64_t d = spec[i];
        if (d == 0 && !allow_zero) {
            if (i >= x.shape.size()) ctx.unsupported("shape copies a dimension the input does not have");
            d = x.shape[i];
        }
        if (d == -1) {
            if (infer >= 0) ctx.unsupported("more than one -1 in the shape");
            infer = static_cast<int>(i);
            d = 1;
        } else if (d <= 0) {
            ctx.unsupported("shape " + shape_text(spec) + " has an empty or negative dimension");
        } else if (!checked_multiply(known, d, &known) || known > kMaxTensorBytes) {
            ctx.invalid("shape " + shape_text(spec) + " has more elements than the input " + shape_text(x.shape));
        }
        shape.push_back(d);
    }
    if (infer >= 0) {
        if (known == 0 || x.size() % known != 0) ctx.unsupported("cannot infer the -1 dimension");
        shape[infer] = x.size() / known;
    }
    define_view(ctx, x, shape);
}

void convert_flatten(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    int64_t axis = ctx.attr_int("axis", 1);
    if (axis < 0) axis += x.rank();
    if (axis < 0 || axis > x.rank()) ctx.unsupported("axis out of range");
    int64_t outer = element_count(std::vector<int64_t>(x.shape.begin(), x.shape.begin() + axis));
    define_view(ctx, x, {outer, outer == 0 ? 0 : x.size() / outer});
}

void convert_squeeze(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int> axes;
    if (ctx.has_input(1)) {
        axes = sorted_axes(ctx, ctx.constant_ints(1), x.rank());
    } else {
        for (int i = 0; i < x.rank(); i++) {
            if (x.shape[i] == 1) axes.push_back(i);
        }
    }
    std::vector<int64_t> shape;
    for (int i = 0; i < x.rank(); i++) {
        bool drop = std::find(axes.begin(), axes.end(), i) != axes.end();
        if (drop && x.shape[i] != 1) ctx.unsupported("squeezing axis " + std::to_string(i) + " of extent " + std::to_string(x.shape[i]));
        if (!drop) shape.push_back(x.shape[i]);
    }
    define_view(ctx, x, shape);
}

void convert_unsqueeze(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> given = ctx.constant_ints(1);
    int rank = x.rank() + static_cast<int>(given.size());
    std::vector<int> axes = sorted_axes(ctx, given, rank);
    std::vector<int64_t> shape;
    size_t next = 0;
    for (int i = 0; i < rank; i++) {
        if (std::find(axes.begin(), axes.end(), i) != axes.end()) shape.push_back(1);
        else shape.push_back(x.shape.at(next++));
    }
    define_view(ctx, x, shape);
}

void convert_transpose(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> perm = ctx.attr_ints("perm");
    if (perm.empty()) {
        for (int i = x.rank() - 1; i >= 0; i--) perm.push_back(i);
    }
    if (static_cast<int>(perm.size()) != x.rank()) ctx.unsupported("perm does not match the rank");
    std::vector<int64_t> shape;
    for (int64_t p : perm) shape.push_back(x.shape.at(normalize_axis(p, x.rank())));
    std::vector<Var> v = make_vars(x.rank());
    std::vector<Expr> src(x.rank());
    for (int i = 0; i < x.rank(); i++) src[normalize_axis(perm[i], x.rank())] = v[i];
    Func f = ctx.func();
    define(f, v, x.at(src));
    ctx.set_output(0, f, shape, x.elem_type);
}

void convert_concat(NodeContext &ctx) {
    std::vector<Tensor> parts;
    for (int i = 0; i < ctx.num_inputs(); i++) parts.push_back(ctx.input(i));
    define_concat(ctx, parts, normalize_axis(ctx.attr_int("axis", 0), parts.at(0).rank()), parts[0].elem_type);
}

void convert_constant(NodeContext &ctx) {
    if (const TensorProto *t = ctx.attr_tensor("value")) {
        ctx.set_constant_output(0, tensor_to_buffer(*t, "Constant value"), tensor_dims(*t), t->data_type());
        return;
    }
    if (ctx.has_attr("value_float")) {
        Halide::Buffer<> b = make_buffer(Halide::Float(32), {});
        *static_cast<float *>(b.data()) = ctx.attr_float("value_float", 0);
        ctx.set_constant_output(0, b, {}, TensorProto::FLOAT);
    } else if (ctx.has_attr("value_int")) {
        Halide::Buffer<> b = make_buffer(Halide::Int(64), {});
        *static_cast<int64_t *>(b.data()) = ctx.attr_int("value_int", 0);
        ctx.set_constant_output(0, b, {}, TensorProto::INT64);
    } else if (ctx.has_attr("value_floats")) {
        std::vector<float> v = ctx.attr_floats("value_floats");
        Halide::Buffer<> b = make_buffer(Halide::Float(32), {static_cast<int64_t>(v.size())});
        if (!v.empty()) std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
        ctx.set_constant_output(0, b, {static_cast<int64_t>(v.size())}, TensorProto::FLOAT);
    } else if (ctx.has_attr("value_ints")) {
        std::vector<int64_t> v = ctx.attr_ints("value_ints");
        ctx.set_constant_output(0, int64_buffer(v), {static_cast<int64_t>(v.size())}, TensorProto::INT64);
    } else {
        ctx.unsupported("Constant without a tensor, float or int value (sparse and string values are not supported)");
    }
}

// The value is a Func (not a buffer), so a large shape allocates nothing here: the importer
// folds it into a constant when it is small and charges its size to the memory budget.
void convert_constant_of_shape(NodeContext &ctx) {
    std::vector<int64_t> shape = ctx.constant_ints(0);
    for (int64_t d : shape) {
        if (d < 0) ctx.invalid("shape " + shape_text(shape) + " has a negative dimension");
    }
    element_count(shape);
    int elem = TensorProto::FLOAT;
    Expr value = Halide::Internal::make_zero(Halide::Float(32));
    if (const TensorProto *t = ctx.attr_tensor("value")) {
        elem = t->data_type();
        Halide::Buffer<> one = tensor_to_buffer(*t, "ConstantOfShape value");
        if (one.number_of_elements() != 1) ctx.invalid("the value attribute must hold one value");
        value = element_constant(one, 0);
    }
    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
    Func f = ctx.func();
    define(f, v, value);
    ctx.set_output(0, f, shape, elem);
}

void convert_shape(NodeContext &ctx) {
    const Tensor &x = ctx.input(0);
    int64_t rank = x.rank();
    int64_t start = ctx.attr_int("start", 0), end = ctx.attr_int("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, 0, rank);
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; i++) dims.push_back(x.shape[i]);
    ctx.set_constant_output(0, int64_buffer(dims), {static_cast<int64_t>(dims.size())}, TensorProto::INT64);
}

void convert_size(NodeContext &ctx) {
    Halide::Buffer<> b = make_buffer(Halide::Int(64), {});
    *static_cast<int64_t *>(b.data()) = ctx.input(0).size();
    ctx.set_constant_output(0, b, {}, TensorProto::INT64);
}

}  // namespace

void add_shape_converters(ConverterTable &t) {
    t["Reshape"] = {convert_reshape, numeric_only()};
    t["Flatten"] = {convert_flatten, numeric_only()};
    t["Squeeze"] = {convert_squeeze, numeric_only()};
    t["Unsqueeze"] = {convert_unsqueeze, numeric_only()};
    t["Transpose"] = {convert_transpose, numeric_only()};
    t["Concat"] = {convert_concat, numeric_only()};
    t["Constant"] = {convert_constant, nullptr};
    t["ConstantOfShape"] = {convert_constant_of_shape, nullptr};
    t["Shape"] = {convert_shape, nullptr};
    t["Size"] = {convert_size, nullptr};
    add_more_shape_converters(t);
}

}  // namespace flowhls::onnx_import
