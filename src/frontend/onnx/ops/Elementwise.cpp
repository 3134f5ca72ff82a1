// Converters of elementwise ops: activations, math, arithmetic with NumPy broadcasting,
// comparisons, logic, Where, Clip, Cast, Identity, Dropout.
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

Expr constant_like(const Expr &x, double v) { return Halide::Internal::make_const(x.type(), v); }

// erf by Abramowitz & Stegun 7.1.26 refined with one Newton-free correction: |error| < 1.5e-7.
Expr erf_expr(Expr x) {
    Halide::Type t = x.type();
    Expr ax = Halide::abs(x);
    Expr k = constant_like(x, 1.0) / (constant_like(x, 1.0) + constant_like(x, 0.3275911) * ax);
    Expr poly = ((((constant_like(x, 1.061405429) * k + constant_like(x, -1.453152027)) * k +
                  constant_like(x, 1.421413741)) * k + constant_like(x, -0.284496736)) * k +
                 constant_like(x, 0.254829592)) * k;
    Expr y = constant_like(x, 1.0) - poly * Halide::exp(-ax * ax);
    (void)t;
    return Halide::select(x < constant_like(x, 0.0), -y, y);
}

using Unary = std::function<Expr(Expr, const NodeContext &)>;

void add_unary(ConverterTable &t, const std::string &op, Unary fn, bool floats_only = true) {
    t[op] = {[fn](NodeContext &ctx) {
                 const Tensor &x = ctx.input(0);
                 std::vector<Var> v = make_vars(x.rank());
                 Func f = ctx.func();
                 Expr value = fn(x.at(as_exprs(v)), ctx);
                 define(f, v, Halide::cast(x.type, value));
                 ctx.set_output(0, f, x.shape, x.elem_type);
             },
             floats_only ? float_only() : numeric_only()};
}

// An op over N broadcast inputs; `result_type` is the ONNX output type (0: the first input's).
using Nary = std::function<Expr(const std::vector<Expr> &, const NodeContext &)>;

void add_nary(ConverterTable &t, const std::string &op, Nary fn, int result_type = 0, CheckFn check = numeric_only()) {
    t[op] = {[fn, result_type](NodeContext &ctx) {
                 std::vector<int64_t> shape;
                 for (int i = 0; i < ctx.num_inputs(); i++) {
                     if (ctx.has_input(i)) shape = i == 0 ? ctx.input(0).shape : broadcast_shape(shape, ctx.input(i).shape);
                 }
                 std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
                 std::vector<Expr> args;
                 for (int i = 0; i < ctx.num_inputs(); i++) {
                     args.push_back(ctx.has_input(i) ? broadcast_at(ctx.input(i), as_exprs(v)) : Expr());
                 }
                 int type = result_type ? result_type : ctx.input(0).elem_type;
                 Func f = ctx.func();
                 define(f, v, cast_to(type, fn(args, ctx)));
                 ctx.set_output(0, f, shape, type);
             },
             check};
}

bool is_float(const Expr &e) { return e.type().is_float(); }

Expr python_mod(Expr a, Expr b) {
    Expr r = a % b;  // Halide: Euclidean, in [0, |b|)
    return Halide::select(r != 0 && b < 0, r + b, r);
}

Expr trunc_div(Expr a, Expr b) {
    if (a.type().is_float()) return a / b;
    return Halide::div_round_to_zero(a, b);
}

Expr pow_expr(Expr a, Expr b) {
    Halide::Type t = a.type();
    if (t.is_float()) return Halide::pow(a, Halide::cast(t, b));
    return Halide::cast(t, Halide::pow(Halide::cast<double>(a), Halide::cast<double>(b)));
}

CheckFn bool_only() {
    return [](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        for (int ty : types) {
            if (ty && ty != TensorProto::BOOL) return "input type " + elem_type_name(ty) + " (only bool)";
        }
        return "";
    };
}

CheckFn integer_only() {
    return [](const onnx::NodeProto &, const std::vector<int> &types) -> std::string {
        for (int ty : types) {
            if (ty && (is_float_type(ty) || ty == TensorProto::BOOL)) return "input type " + elem_type_name(ty) + " (only integers)";
        }
        return "";
    };
}

void convert_cast(NodeContext &ctx, int to) {
    const Tensor &x = ctx.input(0);
    storage_type(to);
    std::vector<Var> v = make_vars(x.rank());
    Expr value = x.at(as_exprs(v));
    if (x.elem_type == TensorProto::BOOL) value = value != Halide::cast<uint8_t>(0);
    if (to == TensorProto::BOOL) value = from_bool(value.type().is_bool() ? value : value != Halide::Internal::make_zero(value.type()));
    else if (value.type().is_bool()) value = Halide::select(value, Halide::Internal::make_one(storage_type(to)), Halide::Internal::make_zero(storage_type(to)));
    else value = Halide::cast(storage_type(to), value);
    Func f = ctx.func();
    define(f, v, value);
    ctx.set_output(0, f, x.shape, to);
}

void copy_input(NodeContext &ctx, int out) {
    const Tensor &x = ctx.input(0);
    std::vector<Var> v = make_vars(x.rank());
    Func f = ctx.func();
    define(f, v, x.at(as_exprs(v)));
    ctx.set_output(out, f, x.shape, x.elem_type);
}

}  // namespace

void add_elementwise_converters(ConverterTable &t) {
    auto c = [](const Expr &x, double v) { return constant_like(x, v); };
    add_unary(t, "Relu", [c](Expr x, const NodeContext &) { return Halide::max(x, c(x, 0)); }, false);
    add_unary(t, "LeakyRelu", [c](Expr x, const NodeContext &n) {
        return Halide::select(x < c(x, 0), c(x, n.attr_float("alpha", 0.01f)) * x, x);
    });
    add_unary(t, "Elu", [c](Expr x, const NodeContext &n) {
        return Halide::select(x < c(x, 0), c(x, n.attr_float("alpha", 1.0f)) * (Halide::exp(x) - c(x, 1)), x);
    });
    add_unary(t, "Celu", [c](Expr x, const NodeContext &n) {
        Expr a = c(x, n.attr_float("alpha", 1.0f));
        return Halide::max(c(x, 0), x) + Halide::min(c(x, 0), a * (Halide::exp(x / a) - c(x, 1)));
    });
    add_unary(t, "Selu", [c](Expr x, const NodeContext &n) {
        Expr alpha = c(x, n.attr_float("alpha", 1.67326319217681884765625f));
        Expr gamma = c(x, n.attr_float("gamma", 1.05070102214813232421875f));
        return gamma * Halide::select(x <= c(x, 0), alpha * Halide::exp(x) - alpha, x);
    });
    add_unary(t, "ThresholdedRelu", [c](Expr x, const NodeContext &n) {
        return Halide::select(x > c(x, n.attr_float("alpha", 1.0f)), x, c(x, 0));
    });
    add_unary(t, "Shrink", [c](Expr x, const NodeContext &n) {
        Expr l = c(x, n.attr_float("lambd", 0.5f)), b = c(x, n.attr_float("bias", 0.0f));
        return Halide::select(x < -l, x + b, Halide::select(x > l, x - b, c(x, 0)));
    }, false);
    add_unary(t, "Sigmoid", [c](Expr x, const NodeContext &) { return c(x, 1) / (c(x, 1) + Halide::exp(-x)); });
    add_unary(t, "HardSigmoid", [c](Expr x, const NodeContext &n) {
        return Halide::clamp(c(x, n.attr_float("alpha", 0.2f)) * x + c(x, n.attr_float("beta", 0.5f)), c(x, 0), c(x, 1));
    });
    add_unary(t, "HardSwish", [c](Expr x, const NodeContext &) {
        return x * Halide::clamp(x * c(x, 1.0 / 6.0) + c(x, 0.5), c(x, 0), c(x, 1));
    });
    add_unary(t, "Softplus", [c](Expr x, const NodeContext &) { return Halide::log(Halide::exp(x) + c(x, 1)); });
    add_unary(t, "Softsign", [c](Expr x, const NodeContext &) { return x / (c(x, 1) + Halide::abs(x)); });
    add_unary(t, "Erf", [](Expr x, const NodeContext &) { return erf_expr(x); });
    add_unary(t, "Exp", [](Expr x, const NodeContext &) { return Halide::exp(x); });
    add_unary(t, "Log", [](Expr x, const NodeContext &) { return Halide::log(x); });
    add_unary(t, "Sqrt", [](Expr x, const NodeContext &) { return Halide::sqrt(x); });
    add_unary(t, "Reciprocal", [c](Expr x, const NodeContext &) { return c(x, 1) / x; });
    add_unary(t, "Tanh", [](Expr x, const NodeContext &) { return Halide::tanh(x); });
    add_unary(t, "Sin", [](Expr x, const NodeContext &) { return Halide::sin(x); });
    add_unary(t, "Cos", [](Expr x, const NodeContext &) { return Halide::cos(x); });
    add_unary(t, "Tan", [](Expr x, const NodeContext &) { return Halide::tan(x); });
    add_unary(t, "Asin", [](Expr x, const NodeContext &) { return Halide::asin(x); });
    add_unary(t, "Acos", [](Expr x, const NodeContext &) { return Halide::acos(x); });
    add_unary(t, "Atan", [](Expr x, const NodeContext &) { return Halide::atan(x); });
    add_unary(t, "Sinh", [](Expr x, const NodeContext &) { return Halide::sinh(x); });
    add_unary(t, "Cosh", [](Expr x, const NodeContext &) { return Halide::cosh(x); });
    add_unary(t, "Asinh", [](Expr x, const NodeContext &) { return Halide::asinh(x); });
    add_unary(t, "Acosh", [](Expr x, const NodeContext &) { return Halide::acosh(x); });
    add_unary(t, "Atanh", [](Expr x, const NodeContext &) { return Halide::atanh(x); });
    add_unary(t, "Floor", [](Expr x, const NodeContext &) { return Halide::floor(x); });
    add_unary(t, "Ceil", [](Expr x, const NodeContext &) { return Halide::ceil(x); });
    add_unary(t, "Round", [](Expr x, const NodeContext &) { return Halide::round(x); });
    add_unary(t, "Neg", [](Expr x, const NodeContext &) { return -x; }, false);
    add_unary(t, "Abs", [](Expr x, const NodeContext &) {
        return x.type().is_uint() ? x : Halide::cast(x.type(), Halide::abs(x));
    }, false);
    add_unary(t, "Sign", [c](Expr x, const NodeContext &) {
        return Halide::select(x > c(x, 0), c(x, 1), Halide::select(x < c(x, 0), c(x, -1), c(x, 0)));
    }, false);

    add_nary(t, "Add", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] + a[1]; });
    add_nary(t, "Sub", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] - a[1]; });
    add_nary(t, "Mul", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] * a[1]; });
    add_nary(t, "Div", [](const std::vector<Expr> &a, const NodeContext &) { return trunc_div(a[0], a[1]); });
    add_nary(t, "Pow", [](const std::vector<Expr> &a, const NodeContext &) { return pow_expr(a[0], a[1]); });
    add_nary(t, "Mod", [](const std::vector<Expr> &a, const NodeContext &n) -> Expr {
        if (n.attr_int("fmod", 0) || is_float(a[0])) return a[0] - a[1] * trunc_div(a[0], a[1]);
        return python_mod(a[0], a[1]);
    }, 0, [](const onnx::NodeProto &n, const std::vector<int> &types) -> std::string {
        for (int ty : types) {
            if (is_float_type(ty)) return "floating-point Mod (fmod) is not supported";
        }
        return numeric_only()(n, types);
    });
    add_nary(t, "PRelu", [](const std::vector<Expr> &a, const NodeContext &) {
        return Halide::select(a[0] < Halide::Internal::make_zero(a[0].type()), a[0] * a[1], a[0]);
    });
    auto fold = [](std::function<Expr(Expr, Expr)> op) {
        return [op](const std::vector<Expr> &a, const NodeContext &) {
            Expr r = a[0];
            for (size_t i = 1; i < a.size(); i++) r = op(r, a[i]);
            return r;
        };
    };
    add_nary(t, "Max", fold([](Expr x, Expr y) {
        return x.type().is_float() ? Halide::select(Halide::is_nan(x) || x > y, x, y) : Halide::max(x, y);
    }));
    add_nary(t, "Min", fold([](Expr x, Expr y) {
        return x.type().is_float() ? Halide::select(Halide::is_nan(x) || x < y, x, y) : Halide::min(x, y);
    }));
    add_nary(t, "Sum", fold([](Expr x, Expr y) { return x + y; }));
    add_nary(t, "Mean", [](const std::vector<Expr> &a, const NodeContext &) {
        Expr r = a[0];
        for (size_t i = 1; i < a.size(); i++) r = r + a[i];
        return r / Halide::Internal::make_const(r.type(), static_cast<double>(a.size()));
    }, 0, float_only());
    add_nary(t, "BitShift", [](const std::vector<Expr> &a, const NodeContext &n) {
        return n.attr_string("direction", "") == "LEFT" ? a[0] << a[1] : a[0] >> a[1];
    }, 0, integer_only());

    const int b = TensorProto::BOOL;
    auto as_bool = [](Expr e) { return e != Halide::cast<uint8_t>(0); };
    add_nary(t, "Equal", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] == a[1]; }, b);
    add_nary(t, "Less", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] < a[1]; }, b);
    add_nary(t, "LessOrEqual", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] <= a[1]; }, b);
    add_nary(t, "Greater", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] > a[1]; }, b);
    add_nary(t, "GreaterOrEqual", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] >= a[1]; }, b);
    add_nary(t, "And", [as_bool](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) && as_bool(a[1]); }, b, bool_only());
    add_nary(t, "Or", [as_bool](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) || as_bool(a[1]); }, b, bool_only());
    add_nary(t, "Xor", [as_bool](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) != as_bool(a[1]); }, b, bool_only());
    add_unary(t, "Not", [](Expr x, const NodeContext &) { return Halide::select(x != Halide::cast<uint8_t>(0), Halide::cast<uint8_t>(0), Halide::cast<uint8_t>(1)); }, false);
    t["Not"].check = bool_only();
    add_nary(t, "IsNaN", [](const std::vector<Expr> &a, const NodeContext &) { return Halide::is_nan(a[0]); }, b, float_only());
    add_nary(t, "IsInf", [](const std::vector<Expr> &a, const NodeContext &n) {
        Expr inf = Halide::is_inf(a[0]);
        Expr zero = Halide::Internal::make_zero(a[0].type());
        Expr pos = n.attr_int("detect_positive", 1) ? inf && a[0] > zero : Halide::Internal::const_false();
        Expr neg = n.attr_int("detect_negative", 1) ? inf && a[0] < zero : Halide::Internal::const_false();
        return pos || neg;
    }, b, float_only());

    // Where(condition, X, Y): the result has X's type.
    t["Where"] = {[as_bool](NodeContext &ctx) {
                      std::vector<int64_t> shape = broadcast_shape(
                          broadcast_shape(ctx.input(0).shape, ctx.input(1).shape), ctx.input(2).shape);
                      std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
                      std::vector<Expr> i = as_exprs(v);
                      Func f = ctx.func();
                      define(f, v, Halide::select(as_bool(broadcast_at(ctx.input(0), i)), broadcast_at(ctx.input(1), i),
                                                  broadcast_at(ctx.input(2), i)));
                      ctx.set_output(0, f, shape, ctx.input(1).elem_type);
                  },
                  numeric_only()};

    t["Clip"] = {[](NodeContext &ctx) {
                     const Tensor &x = ctx.input(0);
                     std::vector<Var> v = make_vars(x.rank());
                     Expr value = x.at(as_exprs(v));
                     if (ctx.has_input(1)) value = Halide::max(value, ctx.input(1).at({}));
                     if (ctx.has_input(2)) value = Halide::min(value, ctx.input(2).at({}));
                     Func f = ctx.func();
                     define(f, v, value);
                     ctx.set_output(0, f, x.shape, x.elem_type);
                 },
                 numeric_only()};

    t["Cast"] = {[](NodeContext &ctx) { convert_cast(ctx, static_cast<int>(ctx.attr_int("to", 0))); },
                 [](const onnx::NodeProto &n, const std::vector<int> &) -> std::string {
                     for (const onnx::AttributeProto &a : n.attribute()) {
                         std::string why;
                         if (a.name() == "to") halide_type_of(static_cast<int>(a.i()), &why);
                         if (!why.empty()) return "cast to " + why;
                     }
                     return "";
                 }};
    t["CastLike"] = {[](NodeContext &ctx) { convert_cast(ctx, ctx.input(1).elem_type); }, numeric_only()};

    t["Identity"] = {[](NodeContext &ctx) {
                         copy_input(ctx, 0);
                         ctx.mark_view(0);
                     },
                     numeric_only()};
    t["Dropout"] = {[](NodeContext &ctx) {
                        if (ctx.has_input(2)) {
                            std::vector<int64_t> training = ctx.constant_ints(2);
                            if (!training.empty() && training[0]) ctx.unsupported("training mode (dropout at run time)");
                        }
                        copy_input(ctx, 0);
                        ctx.mark_view(0);
                        if (ctx.wants_output(1)) {
                            const Tensor &x = ctx.input(0);
                            std::vector<Var> v = make_vars(x.rank());
                            Func mask = ctx.func("mask");
                            define(mask, v, Halide::cast<uint8_t>(1));
                            ctx.set_output(1, mask, x.shape, TensorProto::BOOL);
                        }
                    },
                    numeric_only()};
}

}  // namespace flowhls::onnx_import
