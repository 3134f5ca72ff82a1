// Helpers shared by the ONNX op converters.
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"
#include "support/Sizes.h"

#include <set>
#include <stdexcept>

namespace flowhls::onnx_import {

using Halide::Expr;
using Halide::Var;

std::vector<Var> make_vars(int rank) {
    std::vector<Var> v;
    for (int i = 0; i < rank; i++) v.emplace_back("d" + std::to_string(i));
    return v;
}

std::vector<Var> make_vars(const std::vector<std::string> &names) {
    return std::vector<Var>(names.begin(), names.end());
}

std::vector<std::string> spatial_names(const std::string &prefix, int count) {
    static const char *const axes[] = {"z", "y", "x"};
    std::vector<std::string> names;
    for (int i = 0; i < count; i++) {
        names.push_back(prefix + (count <= 3 ? std::string(axes[3 - count + i]) : std::to_string(i)));
    }
    return names;
}

namespace {

bool is_window_op(const std::string &op) {
    static const std::set<std::string> ops = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool",
                                              "AveragePool", "GlobalMaxPool", "GlobalAveragePool",
                                              "QLinearAveragePool", "QLinearGlobalAveragePool", "LpPool"};
    return ops.count(op) > 0;
}

bool is_matmul_op(const std::string &op) {
    static const std::set<std::string> ops = {"Gemm", "MatMul", "MatMulInteger", "QLinearMatMul"};
    return ops.count(op) > 0;
}

}  // namespace

std::vector<std::string> dim_names(const std::string &op, const std::vector<int64_t> &shape,
                                   const std::vector<std::pair<std::vector<int64_t>, std::vector<std::string>>> &inputs) {
    int rank = static_cast<int>(shape.size());
    std::vector<std::string> names;
    if (is_window_op(op) && rank >= 3) {
        names = {"n", "co"};
        for (const std::string &s : spatial_names("o", rank - 2)) names.push_back(s);
        return names;
    }
    if (is_matmul_op(op) && rank >= 2) {
        for (int i = 0; i < rank - 2; i++) names.push_back(rank == 3 ? "b" : "b" + std::to_string(i));
        names.push_back("i");
        names.push_back("j");
        return names;
    }
    for (const auto &in : inputs) {
        if (in.first == shape && static_cast<int>(in.second.size()) == rank) return in.second;
    }
    switch (rank) {
    case 1: return {"i"};
    case 2: return {"i", "j"};
    case 3: return {"b", "i", "j"};
    case 4: return {"n", "c", "y", "x"};
    case 5: return {"n", "c", "z", "y", "x"};
    default:
        for (int i = 0; i < rank; i++) names.push_back("d" + std::to_string(i));
        return names;
    }
}

Halide::RDom named_rdom(const Halide::Region &extents, const std::vector<std::string> &names) {
    if (names.size() != extents.size()) throw std::logic_error("named_rdom: one name per dimension");
    std::vector<Halide::Internal::ReductionVariable> vars;
    for (size_t i = 0; i < extents.size(); i++) vars.push_back({names[i], extents[i].min, extents[i].extent});
    return Halide::RDom(Halide::Internal::ReductionDomain(vars));
}

std::vector<Expr> as_exprs(const std::vector<Var> &vars) { return {vars.begin(), vars.end()}; }

std::vector<Var> halide_args(const std::vector<Var> &vars) {
    std::vector<Var> args(vars.rbegin(), vars.rend());
    if (args.empty()) args.emplace_back("scalar");
    return args;
}

void define(Halide::Func f, const std::vector<Var> &vars, Expr value) { f(halide_args(vars)) = value; }

std::vector<int64_t> broadcast_shape(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
    size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    for (size_t i = 0; i < rank; i++) {
        int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1) {
            throw Unsupported("shapes " + shape_text(a) + " and " + shape_text(b) + " do not broadcast");
        }
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Expr broadcast_at(const Tensor &t, const std::vector<Expr> &index) {
    size_t offset = index.size() - t.shape.size();
    std::vector<Expr> idx;
    for (size_t i = 0; i < t.shape.size(); i++) idx.push_back(t.shape[i] == 1 ? Expr(0) : index[offset + i]);
    return t.at(idx);
}

int normalize_axis(int64_t axis, int rank) {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= std::max(rank, 1)) {
        throw Unsupported("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    }
    return static_cast<int>(a);
}

bool is_float_type(int t) { return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE; }

Halide::Type storage_type(int elem_type) {
    std::string why;
    Halide::Type t = halide_type_of(elem_type, &why);
    if (!why.empty()) throw Unsupported(why);
    return t;
}

Expr from_bool(Expr c) { return Halide::select(c, Halide::cast<uint8_t>(1), Halide::cast<uint8_t>(0)); }

Expr cast_to(int elem_type, Expr value) {
    if (elem_type == onnx::TensorProto::BOOL) return from_bool(value != Halide::Internal::make_zero(value.type()));
    return Halide::cast(storage_type(elem_type), value);
}

Expr lowest_of(Halide::Type t) {
    if (t.is_float()) return Halide::Internal::make_const(t, -std::numeric_limits<double>::infinity());
    return t.min();
}

Expr highest_of(Halide::Type t) {
    if (t.is_float()) return Halide::Internal::make_const(t, std::numeric_limits<double>::infinity());
    return t.max();
}

int64_t element_count(const std::vector<int64_t> &shape) {
    int64_t n = checked_bytes(shape, 1, kMaxTensorBytes);
    if (n < 0) {
        throw Error("a tensor of shape " + shape_text(shape) + " has more than " + std::to_string(kMaxTensorBytes) +
                    " elements, the most one tensor may hold");
    }
    return n;
}

std::string shape_text(const std::vector<int64_t> &shape) {
    if (shape.empty()) return "scalar";
    std::string s;
    for (size_t i = 0; i < shape.size(); i++) s += (i ? "x" : "") + std::to_string(shape[i]);
    return s;
}

CheckFn float_only() {
    return [](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        for (int t : types) {
            if (t && !is_float_type(t)) return "input type " + elem_type_name(t) + " (only float and double)";
        }
        return "";
    };
}

CheckFn numeric_only() {
    return [](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        for (int t : types) {
            std::string why;
            halide_type_of(t, &why);
            if (t && !why.empty()) return why;
        }
        return "";
    };
}

}  // namespace flowhls::onnx_import
