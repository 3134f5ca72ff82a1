// CPrinter's fixed point for PandA-Bambu (--precision; docs/quantization.md, "Fixed point on
// PandA-Bambu"): the float expressions of a fixed-point filter printed as C99 integers of
// fixed-point formats, with every conversion written out (runtime/include/flowhls_fixed_c.h).
//
// It computes what the Vitis code computes with ap_fixed (FixedPrinting): every value has a
// format (integer * 2^-frac) and a width; sums, differences and products are exact (the
// widths add up; at most 64 bits, int64_t, except a product stored at once, which
// flowhls_fx_mul_rnd_sat computes in 128); a value is rounded half to even and saturated where
// it is stored (a let, a local, a buffer: their declared format); literals, casts to float and
// the operands of max/min and of `?:` are in the accumulator format, as on Vitis (kept as they
// are when that format holds them exactly); what has no fixed-point form computes in float.
#include "emit/CPrinter.h"
#include "flowhls/Error.h"
#include "graph/Precision.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <cmath>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// The fewest bits of a signed integer holding v.
int signed_bits(int64_t v) {
    int b = 1;
    while (b < 64 && (v >> (b - 1)) != 0 && (v >> (b - 1)) != -1) b++;
    return b;
}

std::string int_literal(int64_t v) {
    if (v >= INT32_MIN + 1 && v <= INT32_MAX) return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
    return "INT64_C(" + std::to_string(v) + ")";
}

// raw * 2^-frac quantized to `to` as the stand-in ap_fixed does (exact, then round half to even
// and saturate), computed here for constants.
int64_t quantize_constant(int64_t raw, int frac, const FixedFormat &to) {
    const __int128 top = (static_cast<__int128>(1) << (to.width - 1)) - 1, bottom = -top - 1;
    const int f = to.fraction();
    __int128 q = raw;
    if (frac <= f) {
        q = f - frac >= 64 ? (raw > 0 ? top : raw < 0 ? bottom : 0) : q * (static_cast<__int128>(1) << (f - frac));
    } else if (frac - f >= 64) {
        q = 0;  // |raw| <= 2^63: at most half a step
    } else {
        const int s = frac - f;
        const __int128 step = static_cast<__int128>(1) << s;
        __int128 floor = q >= 0 ? q / step : -((-q + step - 1) / step), rem = q - floor * step;
        q = floor + ((rem > step / 2 || (rem == step / 2 && (floor & 1) != 0)) ? 1 : 0);
    }
    return static_cast<int64_t>(std::min(top, std::max(bottom, q)));
}

}  // namespace

namespace {

// The constant raw * 2^-frac with exactly `frac` fraction bits.
CFixedValue constant_at(int64_t raw, int frac) {
    CFixedValue v;
    v.constant = true;
    v.raw = raw;
    v.frac = frac;
    v.bits = signed_bits(raw);
    v.text = int_literal(raw);
    v.int64 = v.text.rfind("INT64_C", 0) == 0;
    return v;
}

// The constant raw * 2^-frac with as few fraction bits as hold it exactly.
CFixedValue constant_value(int64_t raw, int frac) {
    while (frac > 0 && raw != 0 && raw % 2 == 0) {
        raw /= 2;
        frac--;
    }
    return constant_at(raw, raw == 0 ? 0 : frac);
}

// A value of `bits` bits, refused by fx_checked.
CFixedValue too_wide(int bits) {
    CFixedValue v;
    v.bits = bits;
    return v;
}

}  // namespace

CFixedValue CPrinter::fx_checked(CFixedValue v, const Expr &e) const {
    if (v.wide() || v.bits <= 64) return v;
    const std::string what = e.defined() ? "'" + short_text(e) + "'" : "a value";
    throw Error("--precision " + fixed.data.text() + " on PandA-Bambu: " + fixed.what + " computes " + what +
                " exactly in " + std::to_string(v.bits) +
                " bits, more than int64_t holds; a narrower format (or KEY=float for this node) avoids it");
}

CFixedValue CPrinter::fx_value(const Expr &e) const {
    if (e.type().lanes() != 1) {
        throw Error("--precision on PandA-Bambu: " + fixed.what + " has vector code ('" + short_text(e) +
                    "'), which its fixed point does not handle; keep it float (KEY=float)");
    }
    const FixedFormat acc = fixed.data.accumulator();
    if (const FloatImm *f = e.as<FloatImm>()) {  // the accumulator's integer; the literal in a comment
        CFixedValue c = constant_value(fixed_raw(acc, f->value), acc.fraction());
        if (c.frac > 0) c.text += " /* " + c_literal(e, FloatLiteralForm::Decimal) + " */";
        return c;
    }
    if (const Variable *v = e.as<Variable>()) {
        auto format = fixed.formats.find(v->name);
        if (format == fixed.formats.end()) throw std::logic_error("CPrinter: no fixed-point format for " + v->name);
        CFixedValue x;
        x.text = v->name;
        x.frac = format->second.fraction();
        x.bits = format->second.width;
        x.int64 = x.bits > 32;
        return x;
    }
    if (const Load *l = e.as<Load>()) return fx_load(l);
    if (const Cast *c = e.as<Cast>()) {
        if (c->value.type().is_float()) return fx_to_acc(fx_value(c->value));
        CFixedValue x;  // an integer: its own value, in the sums' format as on Vitis
        x.text = expr(c->value);
        x.bits = c->value.type().is_bool() ? 2 : c->value.type().bits() + (c->value.type().is_uint() ? 1 : 0);
        x.int64 = c->value.type().bits() == 64;
        return fx_to_acc(fx_checked(x, e));
    }
    if (const Select *s = e.as<Select>()) return fx_select(expr(s->condition), s->true_value, s->false_value);
    if (const Call *c = e.as<Call>()) return fx_call(c);
    if (e.as<Let>()) throw std::logic_error("CPrinter: Let expression left (inline-expr-lets pass not run?)");
    return fx_binary(e);
}

CFixedValue CPrinter::fx_load(const Load *l) const {
    if (!is_const_one(l->predicate)) throw std::logic_error("CPrinter: predicated load: " + short_text(Expr(l)));
    std::string text = scalars.count(l->name) ? l->name : l->name + subscript(l->name, l->index);
    CFixedValue x;
    if (fixed.float_buffers.count(l->name)) {  // a float argument, converted where it is read
        x.text = "flowhls_fx_from_f32(" + text + ", " + std::to_string(fixed.data.fraction()) + ", " +
                 std::to_string(fixed.data.width) + ")";
        x.frac = fixed.data.fraction();
        x.bits = fixed.data.width;
        x.int64 = true;
        return x;
    }
    auto format = fixed.formats.find(l->name);
    if (format == fixed.formats.end()) throw std::logic_error("CPrinter: no fixed-point format for buffer " + l->name);
    x.text = text;
    x.frac = format->second.fraction();
    x.bits = format->second.width;
    x.int64 = x.bits > 32;
    return x;
}

CFixedValue CPrinter::fx_to_acc(const CFixedValue &v) const {
    const FixedFormat acc = fixed.data.accumulator();
    if (v.constant) return constant_value(quantize_constant(v.raw, v.frac, acc), acc.fraction());
    if (!v.wide() && v.frac <= acc.fraction() && v.bits + acc.fraction() - v.frac <= acc.width) return v;  // exact there
    CFixedValue x;
    x.text = fx_quantize(v, acc, Expr());
    x.frac = acc.fraction();
    x.bits = acc.width;
    x.int64 = true;
    return x;
}

std::pair<CFixedValue, CFixedValue> CPrinter::fx_align(const CFixedValue &a, const CFixedValue &b, const Expr &e) const {
    if (a.wide() || b.wide()) fx_checked(too_wide(std::max(a.bits, b.bits) + 1), e);  // more than 64 bits
    const int f = std::max(a.frac, b.frac);
    auto shifted = [&](CFixedValue v) {
        const int k = f - v.frac;
        if (k == 0) return v;
        v.bits += k;
        v.frac = f;
        fx_checked(v, e);
        if (v.constant) return constant_at(v.raw * (int64_t(1) << k), f);
        v.text = "flowhls_fx_shl(" + v.text + ", " + std::to_string(k) + ")";
        v.int64 = true;
        return v;
    };
    return {shifted(a), shifted(b)};
}

namespace {

// "(a op b)", with a cast to int64_t when the result needs more than 32 bits and neither
// operand is int64_t (C would compute in int, 32 bits: a product of two int16_t fits).
CFixedValue arithmetic(const CFixedValue &a, const char *op, const CFixedValue &b, int bits, int frac) {
    CFixedValue x;
    const bool cast = bits > 32 && !a.int64 && !b.int64;
    x.text = "(" + std::string(cast ? "(int64_t)" : "") + a.text + " " + op + " " + b.text + ")";
    x.bits = bits;
    x.frac = frac;
    x.int64 = a.int64 || b.int64 || cast;
    return x;
}

}  // namespace

CFixedValue CPrinter::fx_binary(const Expr &e) const {
    const FixedFormat acc = fixed.data.accumulator();
    const std::string to_acc = ", " + std::to_string(acc.fraction()) + ", " + std::to_string(acc.width) + ")";
    auto in_float = [&](const std::string &text) {  // computed in float, converted to the sums' format
        CFixedValue x;
        x.text = "flowhls_fx_from_f32(" + text + to_acc;
        x.frac = acc.fraction();
        x.bits = acc.width;
        x.int64 = true;
        return x;
    };
    if (const Add *op = e.as<Add>()) {
        auto ab = fx_align(fx_value(op->a), fx_value(op->b), e);
        return fx_checked(arithmetic(ab.first, "+", ab.second, std::max(ab.first.bits, ab.second.bits) + 1, ab.first.frac), e);
    }
    if (const Sub *op = e.as<Sub>()) {
        auto ab = fx_align(fx_value(op->a), fx_value(op->b), e);
        return fx_checked(arithmetic(ab.first, "-", ab.second, std::max(ab.first.bits, ab.second.bits) + 1, ab.first.frac), e);
    }
    if (const Mul *op = e.as<Mul>()) {
        CFixedValue a = fx_value(op->a), b = fx_value(op->b);
        if (a.wide() || b.wide()) fx_checked(too_wide(a.bits + b.bits), e);
        if (a.constant && a.raw == 1 && a.frac == 0) return b;  // 1.0f * x (a Gemm's alpha)
        if (b.constant && b.raw == 1 && b.frac == 0) return a;
        const int bits = a.bits + b.bits, frac = a.frac + b.frac;
        if (bits <= 64) return arithmetic(a, "*", b, bits, frac);
        CFixedValue x;  // exact only in 128 bits: stored at once by flowhls_fx_mul_rnd_sat
        x.wide_a = a.text;
        x.wide_b = b.text;
        x.bits = bits;
        x.frac = frac;
        return x;
    }
    if (const Div *op = e.as<Div>()) return in_float("(" + expr(op->a) + " / " + expr(op->b) + ")");
    if (const Mod *op = e.as<Mod>()) return in_float("flowhls_mod_f32(" + expr(op->a) + ", " + expr(op->b) + ")");
    const Min *mn = e.as<Min>();
    const Max *mx = e.as<Max>();
    if (mn || mx) {  // exact: both in the sums' format, as on Vitis
        auto ab = fx_align(fx_to_acc(fx_value(mn ? mn->a : mx->a)), fx_to_acc(fx_value(mn ? mn->b : mx->b)), e);
        CFixedValue x = ab.first;
        x.text = std::string(mn ? "flowhls_min_i64(" : "flowhls_max_i64(") + ab.first.text + ", " + ab.second.text + ")";
        x.bits = std::max(ab.first.bits, ab.second.bits);
        x.int64 = true;
        x.constant = false;
        return x;
    }
    throw std::logic_error("CPrinter: float expression without a fixed-point form: " + short_text(e));
}

CFixedValue CPrinter::fx_select(const std::string &condition, const Expr &a, const Expr &b) const {
    auto ab = fx_align(fx_to_acc(fx_value(a)), fx_to_acc(fx_value(b)), Expr());
    CFixedValue x = ab.first;
    x.text = "(" + condition + " ? " + ab.first.text + " : " + ab.second.text + ")";
    x.bits = std::max(ab.first.bits, ab.second.bits);
    x.int64 = ab.first.int64 || ab.second.int64;
    x.constant = false;
    return x;
}

CFixedValue CPrinter::fx_call(const Call *op) const {
    if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
        op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped) ||
        op->is_intrinsic(Call::strict_float)) {
        return fx_value(op->args.at(0));
    }
    if (op->is_intrinsic(Call::return_second)) return fx_value(op->args.at(1));
    if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3) {
        return fx_select(expr(op->args[0]), op->args[1], op->args[2]);
    }
    const FixedFormat acc = fixed.data.accumulator();
    CFixedValue x;  // math functions: in float (call() prints the float arguments as floats)
    x.text = "flowhls_fx_from_f32(" + call(op) + ", " + std::to_string(acc.fraction()) + ", " + std::to_string(acc.width) + ")";
    x.frac = acc.fraction();
    x.bits = acc.width;
    x.int64 = true;
    return x;
}

std::string CPrinter::fx_quantize(const CFixedValue &v, const FixedFormat &to, const Expr &e) const {
    const std::string w = std::to_string(to.width);
    const int s = v.frac - to.fraction();
    if (v.wide()) {
        if (s < 0) fx_checked(too_wide(v.bits - s), e);
        return "flowhls_fx_mul_rnd_sat(" + v.wide_a + ", " + v.wide_b + ", " + std::to_string(s) + ", " + w + ")";
    }
    if (v.constant) return int_literal(quantize_constant(v.raw, v.frac, to));
    if (s == 0) return v.bits <= to.width ? v.text : "flowhls_fx_sat(" + v.text + ", " + w + ")";
    if (s < 0) {
        const std::string k = std::to_string(-s);
        return v.bits - s <= to.width ? "flowhls_fx_shl(" + v.text + ", " + k + ")"
                                      : "flowhls_fx_shl_sat(" + v.text + ", " + k + ", " + w + ")";
    }
    const std::string k = std::to_string(s);  // rounding can carry into one more bit
    return v.bits - s + 1 <= to.width ? "flowhls_fx_rnd(" + v.text + ", " + k + ")"
                                      : "flowhls_fx_rnd_sat(" + v.text + ", " + k + ", " + w + ")";
}

std::string CPrinter::fx_float(const CFixedValue &v, const Expr &e) const {
    if (v.wide()) fx_checked(too_wide(v.bits), e);
    if (v.constant) {  // as flowhls_fx_to_f32: the integer rounded to a float, scaled exactly
        float f = std::ldexp(static_cast<float>(v.raw), -v.frac);
        return c_literal(Halide::Expr(f), dialect.floats);
    }
    return "flowhls_fx_to_f32(" + v.text + ", " + std::to_string(v.frac) + ")";
}

std::string CPrinter::fx_compare(const char *op, const Expr &a, const Expr &b) const {
    auto ab = fx_align(fx_value(a), fx_value(b), a);
    return "(" + ab.first.text + " " + op + " " + ab.second.text + ")";
}

}  // namespace flowhls
