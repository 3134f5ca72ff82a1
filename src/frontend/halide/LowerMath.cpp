// lower_halide_math: exp/log/pow of float32 as Halide's own polynomial expansions.
#include "frontend/halide/LowerMath.h"

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// x^y as Halide computes it for float32: exp(log|x| * y) with the sign rules of pow.
Expr halide_pow(const Expr &x, const Expr &y) {
    Expr abs_pow = halide_exp(halide_log(Halide::abs(x)) * y);
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
        if (op->name == "exp_f32") return Halide::strict_float(halide_exp(mutate(op->args[0])));
        if (op->name == "log_f32") return Halide::strict_float(halide_log(mutate(op->args[0])));
        if (op->name == "pow_f32") return Halide::strict_float(halide_pow(mutate(op->args[0]), mutate(op->args[1])));
        return IRMutator::visit(op);
    }
};

}  // namespace

Stmt lower_halide_math(const Stmt &s) { return LowerMath().mutate(s); }

}  // namespace flowhls
