// lower_halide_math: exp/log/pow of float32 as Halide's own polynomial expansions.
#include "frontend/halide/LowerMath.h"

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Halide's exp builds 2^k from the integer k = floor(x / ln 2) with int32 arithmetic that
// overflows (undefined behaviour in C) for huge |x|, whose results a select then discards.
// Here the float-to-int conversion is clamped and the int32 products and sums wrap as
// uint32: identical values wherever the result is used, and no undefined behaviour.
class DefineOverflow : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Cast *op) override {
        Expr value = mutate(op->value);
        if (op->type == Halide::Int(32) && value.type().is_float()) {
            value = Halide::clamp(value, make_const(value.type(), -1024.0), make_const(value.type(), 1024.0));
        }
        return Cast::make(op->type, value);
    }
    template <typename Op>
    Expr wrapping(const Op *op) {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (op->type != Halide::Int(32)) return Op::make(a, b);
        Halide::Type u = Halide::UInt(32);
        return Halide::reinterpret(op->type, Op::make(Halide::reinterpret(u, a), Halide::reinterpret(u, b)));
    }
    Expr visit(const Mul *op) override { return wrapping(op); }
    Expr visit(const Add *op) override { return wrapping(op); }
    Expr visit(const Call *op) override {
        if (!op->is_intrinsic(Call::shift_left) || op->type != Halide::Int(32)) return IRMutator::visit(op);
        Halide::Type u = Halide::UInt(32);
        Expr shifted = Halide::reinterpret(u, mutate(op->args[0])) << Halide::cast(u, mutate(op->args[1]));
        return Halide::reinterpret(op->type, shifted);
    }
};

// The expansion is built on a placeholder so that only its own arithmetic is rewritten.
Expr exp_without_overflow(const Expr &x) {
    Expr placeholder = Variable::make(x.type(), "flowhls_exp_argument");
    Expr e = DefineOverflow().mutate(halide_exp(placeholder));
    return substitute("flowhls_exp_argument", x, e);
}

// x^y as Halide computes it for float32: exp(log|x| * y) with the sign rules of pow.
Expr halide_pow(const Expr &x, const Expr &y) {
    Expr abs_pow = exp_without_overflow(halide_log(Halide::abs(x)) * y);
    Expr nan = Call::make(x.type(), "nan_f32", {}, Call::PureExtern);
    Expr iy = Halide::floor(y);
    Expr one = make_one(x.type()), zero = make_zero(x.type());
    return Halide::select(x > zero, abs_pow,      // positive base
                          y == zero, one,         // x^0 == 1
                          x == zero, zero,        // 0^y == 0
                          y != iy, nan,           // negative base, non-integer power
                          iy % 2 == zero, abs_pow,  // negative base, even power
                          -abs_pow);              // negative base, odd power
}

class LowerMath : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->call_type != Call::PureExtern || op->type != Halide::Float(32)) return IRMutator::visit(op);
        if (op->name == "exp_f32") return Halide::strict_float(exp_without_overflow(mutate(op->args[0])));
        if (op->name == "log_f32") return Halide::strict_float(halide_log(mutate(op->args[0])));
        if (op->name == "pow_f32") return Halide::strict_float(halide_pow(mutate(op->args[0]), mutate(op->args[1])));
        return IRMutator::visit(op);
    }
};

}  // namespace

Stmt lower_halide_math(const Stmt &s) { return LowerMath().mutate(s); }

}  // namespace flowhls
