// operator_of: IR nodes to the operators of the device library.
#include "analysis/OperatorModel.h"

#include <algorithm>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

std::string operator_of(const Expr &e) {
    Halide::Type t = e.type().element_of();
    auto int_op = [&](const char *base) {
        int bits = std::max(8, t.bits() <= 8 ? 8 : t.bits() <= 16 ? 16 : t.bits() <= 32 ? 32 : 64);
        return std::string(base) + std::to_string(bits);
    };
    bool dbl = t.is_float() && t.bits() == 64;
    if (e.as<Add>() || e.as<Sub>()) return t.is_float() ? (dbl ? "dadd" : "fadd") : int_op("iadd");
    if (const Mul *m = e.as<Mul>()) {
        if (t.is_float()) return dbl ? "dmul" : "fmul";
        // A product with a constant is shifts and adds in logic.
        return is_const(m->a) || is_const(m->b) ? int_op("iadd") : int_op("imul");
    }
    if (e.as<Div>() || e.as<Mod>()) return t.is_float() ? (dbl ? "ddiv" : "fdiv") : int_op("idiv");
    if (e.as<Min>() || e.as<Max>()) return t.is_float() ? "fcmp" : int_op("icmp");
    if (const EQ *c = e.as<EQ>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const NE *c = e.as<NE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const LT *c = e.as<LT>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const LE *c = e.as<LE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const GT *c = e.as<GT>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const GE *c = e.as<GE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (e.as<Select>()) return "select";
    if (const Cast *c = e.as<Cast>()) {
        if (c->type.is_float() != c->value.type().is_float()) return "fcvt";
        if (c->type.is_float() && c->value.type().is_float() && c->type.bits() != c->value.type().bits()) return "fcvt";
        return "";
    }
    if (const Call *c = e.as<Call>()) {
        if (c->call_type == Call::PureExtern) {
            if (c->name == "sqrt_f32" || c->name == "sqrt_f64") return "fsqrt";
            if (c->name.rfind("exp_f", 0) == 0) return "fexp";
            if (c->name.rfind("log_f", 0) == 0) return "flog";
            if (c->name.rfind("floor", 0) == 0 || c->name.rfind("ceil", 0) == 0 || c->name.rfind("round", 0) == 0 ||
                c->name.rfind("trunc", 0) == 0) {
                return "fcvt";
            }
            return "fcall";
        }
        if (c->is_intrinsic(Call::if_then_else)) return "select";
    }
    return "";
}

bool is_constant_index_product(const Expr &e) {
    const Mul *m = e.as<Mul>();
    if (!m || !e.type().is_int()) return false;
    const IntImm *c = m->b.as<IntImm>() ? m->b.as<IntImm>() : m->a.as<IntImm>();
    if (!c || c->value <= 0) return false;
    return (c->value & (c->value - 1)) != 0;
}

}  // namespace flowhls
