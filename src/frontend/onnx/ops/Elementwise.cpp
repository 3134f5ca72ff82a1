// Converters of elementwise ops: activations, math, arithmetic with NumPy broadcasting,
// comparisons, logic, Where, Clip, Cast, Identity, Dropout.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

namespace flowhls::onnx_import {

namespace {

using Halide::Expr;
using Halide::Func;
using Halide::Var;
using onnx::TensorProto;

// The constant `v` in the type of `x`.
Expr like(const Expr &x, double v) { return Halide::Internal::make_const(x.type(), v); }

// erf by Abramowitz & Stegun 7.1.26 refined with one Newton-free correction: |error| < 1.5e-7.
Expr erf_expr(Expr x) {
    Halide::Type t = x.type();
    Expr ax = Halide::abs(x);
    Expr k = like(x, 1.0) / (like(x, 1.0) + like(x, 0.3275911) * ax);
    Expr poly = ((((like(x, 1.061405429) * k + like(x, -1.453152027)) * k +
                  like(x, 1.421413741)) * k + like(x, -0.284496736)) * k +
                 like(x, 0.254829592)) * k;
    Expr y = like(x, 1.0) - poly * Halide::exp(-ax * ax);
    (void)t;
    return Halide::select(x < like(x, 0.0), -y, y);
}

// Integer division and remainder never trap, in constant folding, in the JIT reference and
// in the generated C alike: they are built from Halide's own `/` and `%` (Euclidean, with
// x / 0 == 0, x % 0 == 0 and INT_MIN / -1 == INT_MIN, which flowhls_math.h implements the
// same way). ONNX leaves division by zero of integers undefined; flowhls gives 0 like NumPy.

// ONNX Div of integers: the quotient truncated toward zero.
Expr trunc_div(Expr a, Expr b) {
    if (a.type().is_float()) return a / b;
    Expr q = a / b;  // Halide: Euclidean
    if (a.type().is_uint()) return q;
    Expr zero = Halide::Internal::make_zero(a.type()), one = Halide::Internal::make_one(a.type());
    Expr r = a % b;  // in [0, |b|)
    // A negative dividend with a remainder: Euclidean rounds away from zero, truncation toward it.
    return Halide::select(a < zero && r != zero, Halide::select(b > zero, q + one, q - one), q);
}

// ONNX Mod with fmod=1: the remainder of truncated division (the sign of the dividend).
Expr trunc_mod(Expr a, Expr b) {
    Expr r = a % b;  // Halide: Euclidean, in [0, |b|)
    if (a.type().is_uint()) return r;
    Expr zero = Halide::Internal::make_zero(a.type());
    return Halide::select(a < zero && r != zero, Halide::select(b < zero, r + b, r - b), r);
}

// ONNX Mod with fmod=0: the remainder of floored division (the sign of the divisor).
Expr python_mod(Expr a, Expr b) {
    Expr r = a % b;  // Halide: Euclidean, in [0, |b|)
    if (a.type().is_uint()) return r;
    return Halide::select(r != 0 && b < 0, r + b, r);
}

Expr pow_expr(Expr a, Expr b) {
    Halide::Type t = a.type();
    if (t.is_float()) return Halide::pow(a, Halide::cast(t, b));
    return Halide::cast(t, Halide::pow(Halide::cast<double>(a), Halide::cast<double>(b)));
}

Expr as_bool(const Expr &e) { return e != Halide::cast<uint8_t>(0); }

std::string bool_only(const onnx::NodeProto &, const std::vector<int> &types) {
    for (int ty : types) {
        if (ty && ty != TensorProto::BOOL) return "input type " + elem_type_name(ty) + " (only bool)";
    }
    return "";
}

std::string integer_only(const onnx::NodeProto &, const std::vector<int> &types) {
    for (int ty : types) {
        if (ty && (is_float_type(ty) || ty == TensorProto::BOOL)) return "input type " + elem_type_name(ty) + " (only integers)";
    }
    return "";
}

std::string integer_mod_only(const onnx::NodeProto &n, const std::vector<int> &types) {
    for (int ty : types) {
        if (is_float_type(ty)) return "floating-point Mod (fmod) is not supported";
    }
    return numeric_only()(n, types);
}

// The inputs an op accepts.
enum class Inputs { Floats, Numbers, Integers, IntegersForMod, Bools };

CheckFn check_of(Inputs inputs) {
    switch (inputs) {
    case Inputs::Floats: return float_only();
    case Inputs::Numbers: return numeric_only();
    case Inputs::Integers: return integer_only;
    case Inputs::IntegersForMod: return integer_mod_only;
    case Inputs::Bools: return bool_only;
    }
    return numeric_only();
}

// An op of one input: the value of the output at an index from the input's value there.
struct UnaryOp {
    const char *op;
    Expr (*value)(Expr x, const NodeContext &node);
    Inputs inputs;
};

const UnaryOp kUnaryOps[] = {
    {"Relu", [](Expr x, const NodeContext &) { return Halide::max(x, like(x, 0)); }, Inputs::Numbers},
    {"LeakyRelu",
     [](Expr x, const NodeContext &n) { return Halide::select(x < like(x, 0), like(x, n.attr_float("alpha", 0.01f)) * x, x); },
     Inputs::Floats},
    {"Elu",
     [](Expr x, const NodeContext &n) {
         return Halide::select(x < like(x, 0), like(x, n.attr_float("alpha", 1.0f)) * (Halide::exp(x) - like(x, 1)), x);
     },
     Inputs::Floats},
    {"Celu",
     [](Expr x, const NodeContext &n) {
         Expr a = like(x, n.attr_float("alpha", 1.0f));
         return Halide::max(like(x, 0), x) + Halide::min(like(x, 0), a * (Halide::exp(x / a) - like(x, 1)));
     },
     Inputs::Floats},
    {"Selu",
     [](Expr x, const NodeContext &n) {
         Expr alpha = like(x, n.attr_float("alpha", 1.67326319217681884765625f));
         Expr gamma = like(x, n.attr_float("gamma", 1.05070102214813232421875f));
         return gamma * Halide::select(x <= like(x, 0), alpha * Halide::exp(x) - alpha, x);
     },
     Inputs::Floats},
    {"ThresholdedRelu",
     [](Expr x, const NodeContext &n) { return Halide::select(x > like(x, n.attr_float("alpha", 1.0f)), x, like(x, 0)); },
     Inputs::Floats},
    {"Shrink",
     [](Expr x, const NodeContext &n) {
         Expr l = like(x, n.attr_float("lambd", 0.5f)), b = like(x, n.attr_float("bias", 0.0f));
         return Halide::select(x < -l, x + b, Halide::select(x > l, x - b, like(x, 0)));
     },
     Inputs::Numbers},
    {"Sigmoid", [](Expr x, const NodeContext &) { return like(x, 1) / (like(x, 1) + Halide::exp(-x)); }, Inputs::Floats},
    {"HardSigmoid",
     [](Expr x, const NodeContext &n) {
         return Halide::clamp(like(x, n.attr_float("alpha", 0.2f)) * x + like(x, n.attr_float("beta", 0.5f)), like(x, 0),
                              like(x, 1));
     },
     Inputs::Floats},
    {"HardSwish",
     [](Expr x, const NodeContext &) { return x * Halide::clamp(x * like(x, 1.0 / 6.0) + like(x, 0.5), like(x, 0), like(x, 1)); },
     Inputs::Floats},
    {"Softplus", [](Expr x, const NodeContext &) { return Halide::log(Halide::exp(x) + like(x, 1)); }, Inputs::Floats},
    {"Softsign", [](Expr x, const NodeContext &) { return x / (like(x, 1) + Halide::abs(x)); }, Inputs::Floats},
    {"Erf", [](Expr x, const NodeContext &) { return erf_expr(x); }, Inputs::Floats},
    {"Exp", [](Expr x, const NodeContext &) { return Halide::exp(x); }, Inputs::Floats},
    {"Log", [](Expr x, const NodeContext &) { return Halide::log(x); }, Inputs::Floats},
    {"Sqrt", [](Expr x, const NodeContext &) { return Halide::sqrt(x); }, Inputs::Floats},
    {"Reciprocal", [](Expr x, const NodeContext &) { return like(x, 1) / x; }, Inputs::Floats},
    {"Tanh", [](Expr x, const NodeContext &) { return Halide::tanh(x); }, Inputs::Floats},
    {"Sin", [](Expr x, const NodeContext &) { return Halide::sin(x); }, Inputs::Floats},
    {"Cos", [](Expr x, const NodeContext &) { return Halide::cos(x); }, Inputs::Floats},
    {"Tan", [](Expr x, const NodeContext &) { return Halide::tan(x); }, Inputs::Floats},
    {"Asin", [](Expr x, const NodeContext &) { return Halide::asin(x); }, Inputs::Floats},
    {"Acos", [](Expr x, const NodeContext &) { return Halide::acos(x); }, Inputs::Floats},
    {"Atan", [](Expr x, const NodeContext &) { return Halide::atan(x); }, Inputs::Floats},
    {"Sinh", [](Expr x, const NodeContext &) { return Halide::sinh(x); }, Inputs::Floats},
    {"Cosh", [](Expr x, const NodeContext &) { return Halide::cosh(x); }, Inputs::Floats},
    {"Asinh", [](Expr x, const NodeContext &) { return Halide::asinh(x); }, Inputs::Floats},
    {"Acosh", [](Expr x, const NodeContext &) { return Halide::acosh(x); }, Inputs::Floats},
    {"Atanh", [](Expr x, const NodeContext &) { return Halide::atanh(x); }, Inputs::Floats},
    {"Floor", [](Expr x, const NodeContext &) { return Halide::floor(x); }, Inputs::Floats},
    {"Ceil", [](Expr x, const NodeContext &) { return Halide::ceil(x); }, Inputs::Floats},
    {"Round", [](Expr x, const NodeContext &) { return Halide::round(x); }, Inputs::Floats},
    {"Neg", [](Expr x, const NodeContext &) { return -x; }, Inputs::Numbers},
    {"Abs", [](Expr x, const NodeContext &) { return x.type().is_uint() ? x : Halide::cast(x.type(), Halide::abs(x)); },
     Inputs::Numbers},
    {"Sign",
     [](Expr x, const NodeContext &) {
         return Halide::select(x > like(x, 0), like(x, 1), Halide::select(x < like(x, 0), like(x, -1), like(x, 0)));
     },
     Inputs::Numbers},
    {"Not",
     [](Expr x, const NodeContext &) {
         return Halide::select(x != Halide::cast<uint8_t>(0), Halide::cast<uint8_t>(0), Halide::cast<uint8_t>(1));
     },
     Inputs::Bools},
};

// An op over N broadcast inputs (NumPy broadcasting); `result_type` is the ONNX output type
// (0: the first input's).
struct NaryOp {
    const char *op;
    Expr (*value)(const std::vector<Expr> &a, const NodeContext &node);
    int result_type;
    Inputs inputs;
};

// Max and Min return NaN when an operand is NaN, as ONNX (NumPy) does.
Expr nan_max(const Expr &x, const Expr &y) {
    return x.type().is_float() ? Halide::select(Halide::is_nan(x) || x > y, x, y) : Halide::max(x, y);
}
Expr nan_min(const Expr &x, const Expr &y) {
    return x.type().is_float() ? Halide::select(Halide::is_nan(x) || x < y, x, y) : Halide::min(x, y);
}

Expr sum_of(const std::vector<Expr> &a) {
    Expr r = a[0];
    for (size_t i = 1; i < a.size(); i++) r = r + a[i];
    return r;
}

const int kBool = TensorProto::BOOL;

const NaryOp kNaryOps[] = {
    {"Add", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] + a[1]; }, 0, Inputs::Numbers},
    {"Sub", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] - a[1]; }, 0, Inputs::Numbers},
    {"Mul", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] * a[1]; }, 0, Inputs::Numbers},
    {"Div", [](const std::vector<Expr> &a, const NodeContext &) { return trunc_div(a[0], a[1]); }, 0, Inputs::Numbers},
    {"Pow", [](const std::vector<Expr> &a, const NodeContext &) { return pow_expr(a[0], a[1]); }, 0, Inputs::Numbers},
    {"Mod",
     [](const std::vector<Expr> &a, const NodeContext &n) -> Expr {
         return n.attr_int("fmod", 0) ? trunc_mod(a[0], a[1]) : python_mod(a[0], a[1]);
     },
     0, Inputs::IntegersForMod},
    {"PRelu",
     [](const std::vector<Expr> &a, const NodeContext &) {
         return Halide::select(a[0] < Halide::Internal::make_zero(a[0].type()), a[0] * a[1], a[0]);
     },
     0, Inputs::Numbers},
    {"Max",
     [](const std::vector<Expr> &a, const NodeContext &) {
         Expr r = a[0];
         for (size_t i = 1; i < a.size(); i++) r = nan_max(r, a[i]);
         return r;
     },
     0, Inputs::Numbers},
    {"Min",
     [](const std::vector<Expr> &a, const NodeContext &) {
         Expr r = a[0];
         for (size_t i = 1; i < a.size(); i++) r = nan_min(r, a[i]);
         return r;
     },
     0, Inputs::Numbers},
    {"Sum", [](const std::vector<Expr> &a, const NodeContext &) { return sum_of(a); }, 0, Inputs::Numbers},
    {"Mean",
     [](const std::vector<Expr> &a, const NodeContext &) {
         Expr r = sum_of(a);
         return r / Halide::Internal::make_const(r.type(), static_cast<double>(a.size()));
     },
     0, Inputs::Floats},
    {"BitShift",
     [](const std::vector<Expr> &a, const NodeContext &n) {
         // Shifting by the width or more gives 0 (as in NumPy), never an undefined shift.
         Halide::Type t = a[0].type();
         Expr shifted = n.attr_string("direction", "") == "LEFT" ? a[0] << a[1] : a[0] >> a[1];
         return Halide::select(a[1] >= Halide::Internal::make_const(t, t.bits()), Halide::Internal::make_zero(t), shifted);
     },
     0, Inputs::Integers},
    {"Equal", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] == a[1]; }, kBool, Inputs::Numbers},
    {"Less", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] < a[1]; }, kBool, Inputs::Numbers},
    {"LessOrEqual", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] <= a[1]; }, kBool, Inputs::Numbers},
    {"Greater", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] > a[1]; }, kBool, Inputs::Numbers},
    {"GreaterOrEqual", [](const std::vector<Expr> &a, const NodeContext &) { return a[0] >= a[1]; }, kBool,
     Inputs::Numbers},
    {"And", [](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) && as_bool(a[1]); }, kBool,
     Inputs::Bools},
    {"Or", [](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) || as_bool(a[1]); }, kBool,
     Inputs::Bools},
    {"Xor", [](const std::vector<Expr> &a, const NodeContext &) { return as_bool(a[0]) != as_bool(a[1]); }, kBool,
     Inputs::Bools},
    {"IsNaN", [](const std::vector<Expr> &a, const NodeContext &) { return Halide::is_nan(a[0]); }, kBool, Inputs::Floats},
    {"IsInf",
     [](const std::vector<Expr> &a, const NodeContext &n) {
         Expr inf = Halide::is_inf(a[0]);
         Expr zero = Halide::Internal::make_zero(a[0].type());
         Expr pos = n.attr_int("detect_positive", 1) ? inf && a[0] > zero : Halide::Internal::const_false();
         Expr neg = n.attr_int("detect_negative", 1) ? inf && a[0] < zero : Halide::Internal::const_false();
         return pos || neg;
     },
     kBool, Inputs::Floats},
};

void add_unary(ConverterTable &t, const UnaryOp &op) {
    auto value = op.value;
    t[op.op] = {[value](NodeContext &ctx) {
                    const Tensor &x = ctx.input(0);
                    std::vector<Var> v = make_vars(x.rank());
                    Func f = ctx.func();
                    define(f, v, Halide::cast(x.type, value(x.at(as_exprs(v)), ctx)));
                    ctx.set_output(0, f, x.shape, x.elem_type);
                },
                check_of(op.inputs)};
}

void add_nary(ConverterTable &t, const NaryOp &op) {
    auto value = op.value;
    int result_type = op.result_type;
    t[op.op] = {[value, result_type](NodeContext &ctx) {
                    std::vector<int64_t> shape;
                    if (ctx.num_inputs() == 0) ctx.invalid("the node has no inputs");
                    for (int i = 0; i < ctx.num_inputs(); i++) {
                        if (!ctx.has_input(i)) ctx.invalid("input " + std::to_string(i) + " is missing");
                        shape = i == 0 ? ctx.input(0).shape : broadcast_shape(shape, ctx.input(i).shape);
                    }
                    std::vector<Var> v = make_vars(static_cast<int>(shape.size()));
                    std::vector<Expr> args;
                    for (int i = 0; i < ctx.num_inputs(); i++) args.push_back(broadcast_at(ctx.input(i), as_exprs(v)));
                    int type = result_type ? result_type : ctx.input(0).elem_type;
                    Func f = ctx.func();
                    define(f, v, cast_to(type, value(args, ctx)));
                    ctx.set_output(0, f, shape, type);
                },
                check_of(op.inputs)};
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
    for (const UnaryOp &op : kUnaryOps) add_unary(t, op);
    for (const NaryOp &op : kNaryOps) add_nary(t, op);

    // Where(condition, X, Y): the result has X's type.
    t["Where"] = {[](NodeContext &ctx) {
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
                     std::string why;
                     halide_type_of(static_cast<int>(attribute_int(n, "to", 0)), &why);
                     return why.empty() ? "" : "cast to " + why;
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
