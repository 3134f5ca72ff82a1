// CPrinter: lowered Halide statements and expressions printed as C/C++.
#include "emit/CPrinter.h"
#include "flowhls/Error.h"
#include "ir/IRQueries.h"
#include "ir/FloatText.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Name of the lane variable of vector statements (the flowhls_ prefix is never a user name).
constexpr const char *kLane = "flowhls_l";

std::string pad(int indent) { return std::string(4 * indent, ' '); }

bool is_narrow_int(Halide::Type t) { return (t.is_int() || t.is_uint()) && t.bits() < 32; }

// What check_printable refuses reached the printer: an internal error.
[[noreturn]] void unchecked(const std::string &what) {
    throw std::logic_error("CPrinter: " + what + " (check_printable not run?)");
}

// Halide's pure-extern math functions and their C names for float32 (f) and float64.
bool math_function(const std::string &name, std::string *c_name) {
    static const char *names[] = {"sqrt", "sin",  "cos",  "tan",  "asin",  "acos",  "atan",  "atan2",
                                  "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp",   "log",
                                  "pow",  "floor", "ceil", "trunc"};
    for (const char *n : names) {
        std::string base = n;
        if (name == base + "_f32") {
            *c_name = base + "f";
            return true;
        }
        if (name == base + "_f64") {
            *c_name = base;
            return true;
        }
    }
    if (name == "round_f32") {
        *c_name = "nearbyintf";
        return true;
    }
    if (name == "round_f64") {
        *c_name = "nearbyint";
        return true;
    }
    return false;
}

}  // namespace

std::string short_text(const Expr &e) {
    std::ostringstream os;
    os << e;
    std::string s = os.str();
    return s.size() > 160 ? s.substr(0, 160) + "..." : s;
}

bool c_type_supported(Halide::Type t) {
    t = t.element_of();
    if (t.is_bool()) return true;
    if (t.is_float()) return t.bits() == 32 || t.bits() == 64;
    if (t.is_int() || t.is_uint()) return t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64;
    return false;
}

std::string c_type(Halide::Type t) {
    t = t.element_of();
    if (!c_type_supported(t)) {
        std::ostringstream os;
        os << t;
        unchecked("type " + os.str() + " is not supported by the C emitter");
    }
    if (t.is_bool()) return "bool";
    if (t.is_float()) return t.bits() == 32 ? "float" : "double";
    return std::string(t.is_uint() ? "uint" : "int") + std::to_string(t.bits()) + "_t";
}

std::string helper_suffix(Halide::Type t) {
    t = t.element_of();
    if (t.is_float()) return "f" + std::to_string(t.bits());
    if (t.is_bool()) return "u8";
    return std::string(t.is_uint() ? "u" : "i") + std::to_string(t.bits());
}

std::string c_literal(const Expr &e, FloatLiteralForm floats) {
    Halide::Type t = e.type();
    char buf[64];
    if (const IntImm *i = e.as<IntImm>()) {
        if (t.bits() == 64) {
            if (i->value == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
            std::snprintf(buf, sizeof buf, "INT64_C(%" PRId64 ")", i->value);
            return buf;
        }
        if (t.bits() == 32) {
            if (i->value == INT32_MIN) return "(-2147483647 - 1)";
            return i->value < 0 ? "(" + std::to_string(i->value) + ")" : std::to_string(i->value);
        }
        return "((" + c_type(t) + ")" + std::to_string(i->value) + ")";
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        if (t.is_bool()) return u->value ? "true" : "false";
        if (t.bits() == 64) {
            std::snprintf(buf, sizeof buf, "UINT64_C(%" PRIu64 ")", u->value);
            return buf;
        }
        if (t.bits() == 32) return std::to_string(u->value) + "u";
        return "((" + c_type(t) + ")" + std::to_string(u->value) + "u)";
    }
    if (const FloatImm *f = e.as<FloatImm>()) {
        bool single = t.bits() == 32;
        double v = f->value;
        if (std::isnan(v)) return single ? "((float)NAN)" : "((double)NAN)";
        if (std::isinf(v)) {
            std::string inf = single ? "((float)INFINITY)" : "((double)INFINITY)";
            return v < 0 ? "(-" + inf + ")" : inf;
        }
        std::string s;
        if (floats == FloatLiteralForm::Hex) {
            std::snprintf(buf, sizeof buf, "%a", v);
            s = buf;
        } else {
            s = with_point(single ? shortest_decimal(static_cast<float>(v)) : shortest_decimal(v));
        }
        if (single) s += "f";
        return v < 0 || std::signbit(v) ? "(" + s + ")" : s;
    }
    throw std::logic_error("c_literal: not a constant: " + short_text(e));
}

std::string CPrinter::expr(const Expr &e) const {
    if (!e.defined()) throw std::logic_error("CPrinter: undefined expression");
    Halide::Type t = e.type();
    bool vector = t.lanes() != 1;
    if (vector && lane.empty()) unchecked("vector expression outside a vector statement: " + short_text(e));
    if (c_fixed() && t.is_float()) return fx_float(fx_value(e), e);  // PandA-Bambu: CFixedPrinter.cpp
    if (e.as<FloatImm>() && fixed.computes_fixed() && !vector) {
        return "((" + fixed.value_type + ")" + c_literal(e, dialect.floats) + ")";
    }
    if (e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>()) return c_literal(e, dialect.floats);
    if (const Variable *v = e.as<Variable>()) return vector ? v->name + "[" + lane + "]" : fixed_read(v->name, v->name, t);
    // One lane of a vector: a broadcast is its scalar, a ramp its base plus lane times stride.
    if (const Broadcast *b = e.as<Broadcast>()) return expr(b->value);
    if (const Ramp *r = e.as<Ramp>()) {
        std::string value = "(" + expr(r->base) + " + " + expr(r->stride) + " * " + lane + ")";
        return is_narrow_int(t.element_of()) ? "((" + c_type(t) + ")" + value + ")" : value;
    }
    if (e.as<Shuffle>() || e.as<VectorReduce>()) unchecked("vector shuffle or reduction: " + short_text(e));
    if (const Cast *c = e.as<Cast>()) {
        if (fixed.computes_fixed() && !vector && t.is_float()) return "((" + fixed.value_type + ")" + expr(c->value) + ")";
        if (fixed.computes_fixed() && !vector && c->value.type().is_float()) {
            if (fixed.c99) return "((" + c_type(t) + ")" + expr(c->value) + ")";  // expr: a float
            return "((" + c_type(t) + ")flowhls_f32(" + expr(c->value) + "))";
        }
        return "((" + c_type(t) + ")" + expr(c->value) + ")";
    }
    if (const Load *l = e.as<Load>()) {
        if (scalars.count(l->name)) return fixed_read(l->name, l->name, t);
        if (streams.count(l->name)) return fixed_read(l->name, l->name + fifo_lane(l->name, l->index) + ".read()", t);
        std::string load = l->name + subscript(l->name, l->index);
        if (is_const_one(l->predicate)) return fixed_read(l->name, load, t);
        if (!vector) unchecked("predicated load: " + short_text(e));
        // Inactive lanes of a predicated load are unspecified; they read as zero.
        return "(" + expr(l->predicate) + " ? " + load + " : (" + c_type(t) + ")0)";
    }
    if (const Select *s = e.as<Select>()) {
        return "(" + expr(s->condition) + " ? " + arm(s->true_value) + " : " + arm(s->false_value) + ")";
    }
    if (const Not *n = e.as<Not>()) return "(!" + expr(n->a) + ")";
    if (const Call *c = e.as<Call>()) return call(c);
    if (e.as<Let>()) throw std::logic_error("CPrinter: Let expression left (inline-expr-lets pass not run?)");
    return binary(e);
}

std::string CPrinter::fixed_read(const std::string &name, const std::string &raw_text, Halide::Type t) const {
    if (!t.is_float() || t.lanes() != 1) return raw_text;
    if (fixed.c99 && !fixed.computes_fixed() && fixed.fixed_buffers.count(name)) {
        return "flowhls_fx_to_f32(" + raw_text + ", " + std::to_string(fixed.formats.at(name).fraction()) + ")";
    }
    auto rom = fixed.raw_roms.find(name);
    const std::string text = rom != fixed.raw_roms.end() ? "flowhls_fx_raw<" + rom->second + ">(" + raw_text + ")" : raw_text;
    if (fixed.computes_fixed() && fixed.float_buffers.count(name)) return "((" + fixed.data_type + ")" + text + ")";
    if (!fixed.computes_fixed() && fixed.fixed_buffers.count(name)) return "flowhls_f32(" + text + ")";
    return text;
}

std::string CPrinter::stored(const std::string &name, const Expr &e) const {
    if (c_fixed() && e.type().is_float() && e.type().lanes() == 1) {  // PandA-Bambu: in its format
        if (fixed.float_buffers.count(name)) return fx_float(fx_value(e), e);
        auto format = fixed.formats.find(name);
        if (format == fixed.formats.end()) throw std::logic_error("CPrinter: no fixed-point format for " + name);
        return fx_quantize(fx_value(e), format->second, e);
    }
    std::string text = expr(e);
    if (fixed.computes_fixed() && e.type().is_float() && fixed.float_buffers.count(name)) return "flowhls_f32(" + text + ")";
    return text;
}

std::string CPrinter::arm(const Expr &e) const {
    std::string s = expr(e);
    if (fixed.computes_fixed() && e.type().is_float() && e.type().lanes() == 1) return "((" + fixed.value_type + ")" + s + ")";
    if (value_types.empty() || e.type().is_float() || e.type().lanes() != 1) return s;
    return "((" + c_type(e.type()) + ")" + s + ")";
}

std::string CPrinter::binary(const Expr &e) const {
    Halide::Type t = e.type().element_of();
    const std::string sfx = helper_suffix(t);
    auto helper = [&](const char *name, const Expr &a, const Expr &b) {
        return std::string("flowhls_") + name + "_" + sfx + "(" + expr(a) + ", " + expr(b) + ")";
    };
    // Arithmetic on integers narrower than int is done in int (or unsigned) and wrapped back.
    auto arith = [&](const char *op, const Expr &a, const Expr &b) {
        if (is_narrow_int(t)) {
            std::string wide = t.is_uint() ? "(uint32_t)" : "";
            return "((" + c_type(t) + ")(" + wide + expr(a) + " " + op + " " + wide + expr(b) + "))";
        }
        return "(" + expr(a) + " " + op + " " + expr(b) + ")";
    };
    auto compare = [&](const char *op, const Expr &a, const Expr &b) {
        if (c_fixed() && a.type().is_float() && a.type().lanes() == 1) return fx_compare(op, a, b);
        return "(" + expr(a) + " " + op + " " + expr(b) + ")";
    };
    if (const Add *op = e.as<Add>()) return arith("+", op->a, op->b);
    if (const Sub *op = e.as<Sub>()) return arith("-", op->a, op->b);
    if (const Mul *op = e.as<Mul>()) return arith("*", op->a, op->b);
    // Fixed point: max/min exact, division and modulo in float (no fixed-point form).
    const bool fx = fixed.computes_fixed() && t.is_float() && e.type().lanes() == 1;
    auto in_float = [&](const std::string &text) { return "((" + fixed.value_type + ")" + text + ")"; };
    auto f32 = [&](const Expr &x) { return "flowhls_f32(" + expr(x) + ")"; };
    if (const Div *op = e.as<Div>()) {
        if (fx) return in_float("(" + f32(op->a) + " / " + f32(op->b) + ")");
        if (t.is_float()) return "(" + expr(op->a) + " / " + expr(op->b) + ")";
        return helper("div", op->a, op->b);
    }
    if (const Mod *op = e.as<Mod>()) {
        if (fx) return in_float("flowhls_mod_f32(" + f32(op->a) + ", " + f32(op->b) + ")");
        return helper("mod", op->a, op->b);
    }
    if (const Min *op = e.as<Min>()) {
        if (fx) return "flowhls_fx_min<" + fixed.value_type + ">(" + expr(op->a) + ", " + expr(op->b) + ")";
        return helper("min", op->a, op->b);
    }
    if (const Max *op = e.as<Max>()) {
        if (fx) return "flowhls_fx_max<" + fixed.value_type + ">(" + expr(op->a) + ", " + expr(op->b) + ")";
        return helper("max", op->a, op->b);
    }
    if (const EQ *op = e.as<EQ>()) return compare("==", op->a, op->b);
    if (const NE *op = e.as<NE>()) return compare("!=", op->a, op->b);
    if (const LT *op = e.as<LT>()) return compare("<", op->a, op->b);
    if (const LE *op = e.as<LE>()) return compare("<=", op->a, op->b);
    if (const GT *op = e.as<GT>()) return compare(">", op->a, op->b);
    if (const GE *op = e.as<GE>()) return compare(">=", op->a, op->b);
    if (const And *op = e.as<And>()) return compare("&&", op->a, op->b);
    if (const Or *op = e.as<Or>()) return compare("||", op->a, op->b);
    unchecked("expression without a C form: " + short_text(e));
}

namespace {

// The C spelling of call `op` with its arguments spelled by `arg` (by `arm` where they are an
// arm of `?:`); "" when C has none.
std::string call_text(const Call *op, const std::function<std::string(size_t)> &arg,
                      const std::function<std::string(size_t)> &arm) {
    Halide::Type t = op->type.element_of();
    std::string fn;
    if (op->call_type == Call::PureExtern && math_function(op->name, &fn)) {
        std::string out = fn + "(";
        for (size_t i = 0; i < op->args.size(); i++) out += (i ? ", " : "") + arg(i);
        return out + ")";
    }
    if (op->call_type == Call::PureExtern) {
        const std::string &n = op->name;
        if (n == "nan_f32") return "((float)NAN)";
        if (n == "inf_f32") return "((float)INFINITY)";
        if (n == "neg_inf_f32") return "(-(float)INFINITY)";
        if (n == "is_nan_f32" || n == "is_nan_f64") return "((bool)isnan(" + arg(0) + "))";
        if (n == "is_inf_f32" || n == "is_inf_f64") return "((bool)isinf(" + arg(0) + "))";
        if (n == "is_finite_f32" || n == "is_finite_f64") return "((bool)isfinite(" + arg(0) + "))";
        if (n.rfind("flowhls_pack_", 0) == 0) {  // runtime/include/flowhls_pack.h (DSP packing, Vitis)
            std::string out = n + "(";
            for (size_t i = 0; i < op->args.size(); i++) out += (i ? ", " : "") + arg(i);
            return out + ")";
        }
    }
    if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
        op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
        op->is_intrinsic(Call::strict_float)) {
        return arg(0);
    }
    if (op->is_intrinsic(Call::return_second)) return arg(1);
    if (op->is_intrinsic(Call::if_then_else)) {
        if (op->args.size() == 3) return "(" + arg(0) + " ? " + arm(1) + " : " + arm(2) + ")";
    }
    const std::string ty = c_type(t);
    const std::string sfx = op->args.empty() ? "" : helper_suffix(op->args[0].type());
    if (op->is_intrinsic(Call::bitwise_and)) return "((" + ty + ")(" + arg(0) + " & " + arg(1) + "))";
    if (op->is_intrinsic(Call::bitwise_or)) return "((" + ty + ")(" + arg(0) + " | " + arg(1) + "))";
    if (op->is_intrinsic(Call::bitwise_xor)) return "((" + ty + ")(" + arg(0) + " ^ " + arg(1) + "))";
    if (op->is_intrinsic(Call::bitwise_not)) return "((" + ty + ")(~" + arg(0) + "))";
    if (op->is_intrinsic(Call::shift_left) || op->is_intrinsic(Call::shift_right)) {
        const char *name = op->is_intrinsic(Call::shift_left) ? "shl" : "shr";
        std::string amount = arg(1);
        if (op->args[1].type() != op->args[0].type()) amount = "((" + ty + ")" + amount + ")";
        return std::string("flowhls_") + name + "_" + sfx + "(" + arg(0) + ", " + amount + ")";
    }
    if (op->is_intrinsic(Call::abs)) {
        Halide::Type at = op->args[0].type().element_of();
        if (at.is_float()) return std::string(at.bits() == 32 ? "fabsf(" : "fabs(") + arg(0) + ")";
        if (at.is_uint()) return arg(0);
        return "flowhls_abs_" + sfx + "(" + arg(0) + ")";
    }
    if (op->is_intrinsic(Call::absd)) {
        Halide::Type at = op->args[0].type().element_of();
        if (at.is_float()) {
            return std::string(at.bits() == 32 ? "fabsf(" : "fabs(") + arg(0) + " - " + arg(1) + ")";
        }
        return "flowhls_absd_" + sfx + "(" + arg(0) + ", " + arg(1) + ")";
    }
    if (op->is_intrinsic(Call::div_round_to_zero)) return "((" + ty + ")(" + arg(0) + " / " + arg(1) + "))";
    if (op->is_intrinsic(Call::mod_round_to_zero)) return "((" + ty + ")(" + arg(0) + " % " + arg(1) + "))";
    if (op->is_intrinsic(Call::reinterpret)) {
        Halide::Type from = op->args[0].type().element_of();
        if (from.is_float() && (t.is_uint() || t.is_int()) && from.bits() == t.bits()) {
            return "((" + ty + ")flowhls_bits_f" + std::to_string(from.bits()) + "(" + arg(0) + "))";
        }
        if (t.is_float() && (from.is_uint() || from.is_int()) && from.bits() == t.bits()) {
            return "flowhls_f" + std::to_string(t.bits()) + "_from_bits((uint" + std::to_string(t.bits()) + "_t)" +
                   arg(0) + ")";
        }
        if ((t.is_int() || t.is_uint()) && (from.is_int() || from.is_uint()) && from.bits() == t.bits()) {
            return "((" + ty + ")" + arg(0) + ")";
        }
    }
    return "";
}

}  // namespace

bool c_call_supported(const Call *op) {
    auto any = [](size_t) { return std::string("a"); };
    return !call_text(op, any, any).empty();
}

std::string CPrinter::call(const Call *op) const {
    // Fixed point: calls other than the pass-through intrinsics and `?:` compute in float.
    bool through = op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
                   op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
                   op->is_intrinsic(Call::strict_float) || op->is_intrinsic(Call::return_second) ||
                   op->is_intrinsic(Call::if_then_else);
    bool fx = fixed.computes_fixed() && op->type.lanes() == 1 && !through;
    std::string text = call_text(op,
                                 [&](size_t i) {
                                     const Expr &a = op->args.at(i);
                                     // PandA-Bambu: expr prints a float value as a float
                                     return fx && a.type().is_float() && !fixed.c99 ? "flowhls_f32(" + expr(a) + ")" : expr(a);
                                 },
                                 [&](size_t i) { return arm(op->args.at(i)); });
    if (fx && op->type.is_float() && !text.empty() && !fixed.c99) text = "((" + fixed.value_type + ")" + text + ")";
    if (text.empty()) unchecked("call to '" + op->name + "' without a C form: " + short_text(Expr(op)));
    return text;
}

void CPrinter::vector_stmt(int lanes, const std::function<std::string()> &target_of,
                           const std::function<std::string()> &element, const Expr &predicate, std::ostream &os,
                           int indent) const {
    if (!dialect.vectors_as_arrays) unchecked("vector code in a dialect without vectors");
    lane = kLane;
    std::string target = target_of();
    std::string value = element();
    std::string guard = predicate.defined() && !is_const_one(predicate) ? expr(predicate) : "";
    lane.clear();
    os << pad(indent) << "for (int32_t " << kLane << " = 0; " << kLane << " < " << lanes << "; " << kLane << "++) {\n";
    if (!guard.empty()) {
        os << pad(indent + 1) << "if (" << guard << ") " << target << " = " << value << ";\n";
    } else {
        os << pad(indent + 1) << target << " = " << value << ";\n";
    }
    os << pad(indent) << "}\n";
}

namespace {

// Which lets (by node: names repeat in one body) each let's value uses, and the lets used
// outside let values, leaving out the indices of the arrays in `shaped` (printed in terms of the
// loop variables).
class LetUses : public IRVisitor {
public:
    explicit LetUses(const std::map<std::string, std::vector<int64_t>> &shaped) : shaped(shaped) {}
    std::map<const LetStmt *, std::set<const LetStmt *>> uses;
    std::set<const LetStmt *> roots, lets;

private:
    using IRVisitor::visit;
    const std::map<std::string, std::vector<int64_t>> &shaped;
    std::map<std::string, std::vector<const LetStmt *>> binding;
    std::vector<const LetStmt *> context;
    void visit(const Variable *op) override {
        auto b = binding.find(op->name);
        if (b == binding.end() || b->second.empty()) return;
        if (context.empty()) roots.insert(b->second.back());
        else uses[context.back()].insert(b->second.back());
    }
    void visit(const LetStmt *op) override {
        lets.insert(op);
        context.push_back(op);
        op->value.accept(this);
        context.pop_back();
        binding[op->name].push_back(op);
        op->body.accept(this);
        binding[op->name].pop_back();
    }
    void visit(const Load *op) override {
        if (!shaped.count(op->name)) op->index.accept(this);
        op->predicate.accept(this);
    }
    void visit(const Store *op) override {
        if (!shaped.count(op->name)) op->index.accept(this);
        op->value.accept(this);
        op->predicate.accept(this);
    }
};

}  // namespace

void CPrinter::set_shapes(std::map<std::string, std::vector<int64_t>> shaped, const Stmt &body) {
    shapes = std::move(shaped);
    unprinted_lets.clear();
    if (shapes.empty() || !body.defined()) return;
    LetUses u(shapes);
    body.accept(&u);
    std::set<const LetStmt *> live;
    std::vector<const LetStmt *> work(u.roots.begin(), u.roots.end());
    while (!work.empty()) {
        const LetStmt *v = work.back();
        work.pop_back();
        if (!live.insert(v).second) continue;
        for (const LetStmt *w : u.uses[v]) work.push_back(w);
    }
    for (const LetStmt *l : u.lets) {
        if (!live.count(l)) unprinted_lets.insert(l);
    }
}

std::string CPrinter::subscript(const std::string &name, const Expr &index) const {
    auto shape = shapes.find(name);
    if (shape == shapes.end()) return "[" + expr(index) + "]";
    std::vector<Expr> idx = dimension_indices(substitute(let_values, index), shape->second, bounds);
    std::string out;
    for (auto it = idx.rbegin(); it != idx.rend(); ++it) out += "[" + expr(*it) + "]";
    return out;
}

// A loop: its bound (named when not constant), its pragmas and label, its body.
void CPrinter::for_stmt(const For *f, std::ostream &os, int indent) const {
    Expr end = simplify(f->min + f->extent);
    std::string bound = expr(end);
    if (!is_const(end)) {
        os << pad(indent) << "const int32_t " << f->name << "_end = " << bound << ";\n";
        bound = f->name + "_end";
    }
    if (f->for_type == ForType::Parallel) {
        if (!dialect.openmp_parallel) unchecked("parallel loop '" + f->name + "' in a dialect without them");
        os << "#pragma omp for\n";
    }
    auto prefix = loop_prefix_pragmas.find(f->name);
    if (prefix != loop_prefix_pragmas.end()) {
        for (const std::string &line : prefix->second) os << line << "\n";
    }
    os << pad(indent);
    if (dialect.loop_labels && f->for_type != ForType::Parallel) os << "L_" << f->name << ": ";
    os << "for (int32_t " << f->name << " = " << expr(f->min) << "; " << f->name << " < " << bound << "; "
       << f->name << "++) {\n";
    auto pragmas = loop_pragmas.find(f->name);
    if (pragmas != loop_pragmas.end()) {
        for (const std::string &line : pragmas->second) os << line << "\n";
    }
    if (!shapes.empty()) bounds.push(f->name, Interval(f->min, simplify(f->min + f->extent - 1)));
    stmt(f->body, os, indent + 1);
    if (!shapes.empty()) bounds.pop(f->name);
    os << pad(indent) << "}\n";
}

// A let: a constant, a lane array for a vector value, or nothing when only indices printed per
// dimension use it (substituted there); its bounds are in scope for the body.
void CPrinter::let_stmt(const LetStmt *l, std::ostream &os, int indent) const {
    int lanes = l->value.type().lanes();
    bool bounded = lanes == 1 && l->value.type().is_int() && !shapes.empty();
    if (bounded && unprinted_lets.count(l)) {
        // Used only in indices printed per dimension (substituted there).
    } else if (lanes > 1) {
        os << pad(indent) << c_type(l->value.type()) << " " << l->name << "[" << lanes << "];\n";
        vector_stmt(
            lanes, [&] { return l->name + "[" + std::string(kLane) + "]"; }, [&] { return expr(l->value); }, Expr(),
            os, indent);
    } else {
        auto declared = value_types.find(l->name);
        os << pad(indent) << "const " << (declared != value_types.end() ? declared->second : c_type(l->value.type()))
           << " " << l->name << " = " << stored(l->name, l->value) << ";\n";
        auto pragma = value_pragmas.find(l->name);
        if (pragma != value_pragmas.end()) os << pragma->second << "\n";
    }
    if (bounded) {
        bounds.push(l->name, bounds_of_expr_in_scope(l->value, bounds));
        let_values[l->name] = substitute(let_values, l->value);
    }
    stmt(l->body, os, indent);
    if (bounded) {
        bounds.pop(l->name);
        let_values.erase(l->name);
    }
}

void CPrinter::stmt(const Stmt &s, std::ostream &os, int indent) const {
    if (!s.defined()) return;
    if (const Block *b = s.as<Block>()) {
        stmt(b->first, os, indent);
        stmt(b->rest, os, indent);
    } else if (const For *f = s.as<For>()) {
        for_stmt(f, os, indent);
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        let_stmt(l, os, indent);
    } else if (const Store *st = s.as<Store>()) {
        int lanes = st->value.type().lanes();
        if (lanes > 1) {
            vector_stmt(
                lanes, [&] { return st->name + subscript(st->name, st->index); }, [&] { return expr(st->value); },
                st->predicate, os, indent);
            return;
        }
        if (!is_const_one(st->predicate)) unchecked("predicated scalar store");
        if (scalars.count(st->name)) {
            os << pad(indent) << st->name << " = " << stored(st->name, st->value) << ";\n";
        } else if (streams.count(st->name)) {
            os << pad(indent) << st->name << fifo_lane(st->name, st->index) << ".write(" << stored(st->name, st->value) << ");\n";
        } else {
            os << pad(indent) << st->name << subscript(st->name, st->index) << " = " << stored(st->name, st->value) << ";\n";
        }
    } else if (const IfThenElse *i = s.as<IfThenElse>()) {
        os << pad(indent) << "if (" << expr(i->condition) << ") {\n";
        stmt(i->then_case, os, indent + 1);
        Stmt rest = i->else_case;
        while (rest.defined()) {
            const IfThenElse *elif = rest.as<IfThenElse>();
            if (!elif) break;
            os << pad(indent) << "} else if (" << expr(elif->condition) << ") {\n";
            stmt(elif->then_case, os, indent + 1);
            rest = elif->else_case;
        }
        if (rest.defined()) {
            os << pad(indent) << "} else {\n";
            stmt(rest, os, indent + 1);
        }
        os << pad(indent) << "}\n";
    } else if (const Allocate *a = s.as<Allocate>()) {
        // Only allocations that must stay in place (inside parallel loops) reach the printer.
        const IntImm *size = a->extents.size() == 1 ? a->extents[0].as<IntImm>() : nullptr;
        if (!size) throw std::logic_error("CPrinter: allocation of " + a->name + " without a constant size");
        os << pad(indent) << c_type(a->type) << " " << a->name << "[" << size->value << "];\n";
        stmt(a->body, os, indent);
    } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
        os << pad(indent) << "// " << (pc->is_producer ? "produce " : "consume ") << pc->name << "\n";
        stmt(pc->body, os, indent);
    } else if (const Evaluate *ev = s.as<Evaluate>()) {
        if (!is_const(ev->value)) os << pad(indent) << "(void)" << expr(ev->value) << ";\n";
    } else {
        std::ostringstream text;
        text << s;
        unchecked("statement without a C form: " + text.str().substr(0, 160));
    }
}

}  // namespace flowhls
