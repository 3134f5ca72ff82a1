// operator_of: IR nodes to the operators of the device library.
#include "analysis/OperatorModel.h"

#include <algorithm>
#include <vector>

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

namespace {

int operand_bits_at(const Expr &e, const std::map<std::string, Expr> &lets, const std::map<std::string, int> *value_bits,
                    bool *is_signed, int depth) {
    Halide::Type t = e.type().element_of();
    *is_signed = t.is_int();
    if (depth > 16 || !(t.is_int() || t.is_uint())) return t.bits();
    if (const IntImm *i = e.as<IntImm>()) {
        int bits = 1;
        while (bits < 64 && (i->value < -(int64_t(1) << (bits - 1)) || i->value > (int64_t(1) << (bits - 1)) - 1)) bits++;
        return bits;
    }
    if (const Cast *c = e.as<Cast>()) {
        Halide::Type from = c->value.type().element_of();
        if ((from.is_int() || from.is_uint()) && from.bits() < t.bits()) {
            return std::min(t.bits(), operand_bits_at(c->value, lets, value_bits, is_signed, depth + 1));
        }
        return t.bits();
    }
    if (const Load *l = e.as<Load>()) {  // a scalar accumulator of proven width
        if (!value_bits) return t.bits();
        auto proven = value_bits->find(l->name);
        return proven != value_bits->end() ? std::min(t.bits(), proven->second) : t.bits();
    }
    if (const Variable *v = e.as<Variable>()) {
        if (value_bits) {
            auto proven = value_bits->find(v->name);
            if (proven != value_bits->end()) return std::min(t.bits(), proven->second);
        }
        auto it = lets.find(v->name);
        if (it == lets.end()) return t.bits();
        return std::min(t.bits(), operand_bits_at(it->second, lets, value_bits, is_signed, depth + 1));
    }
    auto sum = [&](const Expr &a, const Expr &b, bool difference) {
        bool sa = false, sb = false;
        int ba = operand_bits_at(a, lets, value_bits, &sa, depth + 1);
        int bb = operand_bits_at(b, lets, value_bits, &sb, depth + 1);
        *is_signed = sa || sb || difference;
        // A signed result of an unsigned term needs its sign bit too.
        if (*is_signed && !sa) ba++;
        if (*is_signed && !sb) bb++;
        return std::min(t.bits(), std::max(ba, bb) + 1);
    };
    if (const Add *a = e.as<Add>()) return sum(a->a, a->b, false);
    if (const Mul *m = e.as<Mul>()) {  // a product holds the bits of both factors
        bool sa = false, sb = false;
        int ba = operand_bits_at(m->a, lets, value_bits, &sa, depth + 1);
        int bb = operand_bits_at(m->b, lets, value_bits, &sb, depth + 1);
        *is_signed = sa || sb;
        if (*is_signed && !sa) ba++;
        if (*is_signed && !sb) bb++;
        return std::min(t.bits(), ba + bb);
    }
    if (const Sub *s = e.as<Sub>()) return sum(s->a, s->b, true);
    return t.bits();
}

// Bits of `e` as an operand of a signed multiplier: an unsigned value needs a sign bit.
int signed_operand_bits(const Expr &e, const std::map<std::string, Expr> &lets,
                        const std::map<std::string, int> *value_bits) {
    bool is_signed = false;
    int bits = operand_bits_at(e, lets, value_bits, &is_signed, 0);
    return is_signed ? bits : bits + 1;
}

// The DSP48E2's multiplier: 27 x 18 bits, signed.
constexpr int kDspA = 27, kDspB = 18;

// Offsets of the pieces a `bits`-wide signed operand is cut into for a `width`-bit signed
// multiplier input: unsigned pieces of width - 1 bits, then the signed top piece.
std::vector<int> piece_offsets(int bits, int width) {
    std::vector<int> out{0};
    while (bits - out.back() > width) out.push_back(out.back() + width - 1);
    return out;
}

// DSP48E2s of an a x b-bit signed product of which `result_bits` low bits are kept: the partial
// products of the pieces whose offset lies below the result (the better of both orientations).
int dsp_tiles(int a, int b, int result_bits) {
    auto count = [&](int x, int y) {
        int n = 0;
        for (int i : piece_offsets(x, kDspA)) {
            for (int j : piece_offsets(y, kDspB)) n += i + j < result_bits ? 1 : 0;
        }
        return n;
    };
    return std::min(count(a, b), count(b, a));
}

}  // namespace

int operand_bits(const Expr &e, const std::map<std::string, Expr> &lets, const std::map<std::string, int> *value_bits) {
    bool is_signed = false;
    return operand_bits_at(e, lets, value_bits, &is_signed, 0);
}

std::string operator_of(const Expr &e, const std::map<std::string, Expr> &lets,
                        const std::map<std::string, int> *value_bits) {
    if (const Call *c = e.as<Call>()) {
        if (c->call_type == Call::PureExtern && c->name == "flowhls_pack_mul") return "imul8x2";
        if (c->call_type == Call::PureExtern && c->name.rfind("flowhls_pack_", 0) == 0) return "iadd32";
    }
    Halide::Type t = e.type().element_of();
    bool integer = t.is_int() || t.is_uint();
    if (integer && (e.as<Add>() || e.as<Sub>())) {
        // An adder (an accumulator's) as wide as the sum it computes.
        int bits = operand_bits(e, lets, value_bits);
        return "iadd" + std::to_string(bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 24 ? 24 : bits <= 32 ? 32 : bits <= 48 ? 48 : 64);
    }
    if (integer && (e.as<Div>() || e.as<Mod>())) {
        // Euclidean division and modulo of a data value (narrower than its type: not index
        // arithmetic) by a constant power of two are an arithmetic shift and a mask: wires.
        const Expr &a = e.as<Div>() ? e.as<Div>()->a : e.as<Mod>()->a;
        const IntImm *d = (e.as<Div>() ? e.as<Div>()->b : e.as<Mod>()->b).as<IntImm>();
        bool power_of_two = d && d->value > 0 && (d->value & (d->value - 1)) == 0;
        if (power_of_two && operand_bits(a, lets, value_bits) < t.bits()) return "";
        return operator_of(e);
    }
    const Mul *m = e.as<Mul>();
    if (!m || !integer) return operator_of(e);
    if (is_const(m->a) || is_const(m->b)) {
        // A product of a data value of proven width (narrower than its type: not index
        // arithmetic) by a constant of more than two set bits (a requantization multiplier)
        // is a multiplier too; otherwise shifts and adds.
        const Expr &x = is_const(m->a) ? m->b : m->a;
        const IntImm *c = (is_const(m->a) ? m->a : m->b).as<IntImm>();
        if (!c || c->value == INT64_MIN || operand_bits(x, lets, value_bits) >= t.bits()) return operator_of(e);
        if (__builtin_popcountll(static_cast<uint64_t>(c->value < 0 ? -c->value : c->value)) <= 2) return operator_of(e);
    }
    int ba = operand_bits(m->a, lets, value_bits), bb = operand_bits(m->b, lets, value_bits);
    if (ba <= 4 && bb <= 4) return "imul4";
    int bits = std::max(ba, bb);
    int sa = signed_operand_bits(m->a, lets, value_bits), sb = signed_operand_bits(m->b, lets, value_bits);
    int tiles = dsp_tiles(sa, sb, std::min(t.bits(), sa + sb));
    if (tiles == 1) return bits <= 8 ? "imul8" : "imul16";
    if (tiles == 2) return "imul24";
    return "imul" + std::to_string(bits <= 32 ? 32 : 64);
}

std::string fixed_operator_of(const Expr &e, const std::string &otherwise, const std::map<std::string, Expr> &lets,
                              int data_bits, int acc_bits) {
    Halide::Type t = e.type().element_of();
    auto rounded = [](int bits) { return bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 24 ? 24 : bits <= 32 ? 32 : bits <= 48 ? 48 : 64; };
    auto compare = [&](const Expr &a) -> std::string {
        if (!a.type().is_float()) return otherwise;
        return acc_bits <= 32 ? "icmp32" : "icmp64";
    };
    if (const Cast *c = e.as<Cast>()) {
        if (t.is_float() && !c->value.type().is_float()) return "";
        return otherwise;
    }
    if (const EQ *c = e.as<EQ>()) return compare(c->a);
    if (const NE *c = e.as<NE>()) return compare(c->a);
    if (const LT *c = e.as<LT>()) return compare(c->a);
    if (const LE *c = e.as<LE>()) return compare(c->a);
    if (const GT *c = e.as<GT>()) return compare(c->a);
    if (const GE *c = e.as<GE>()) return compare(c->a);
    if (!t.is_float()) return otherwise;
    if (e.as<Min>() || e.as<Max>()) return acc_bits <= 32 ? "icmp32" : "icmp64";
    if (e.as<Add>() || e.as<Sub>()) return "iadd" + std::to_string(rounded(acc_bits + 1));
    const Mul *m = e.as<Mul>();
    if (!m) return otherwise;
    if (is_const(m->a) || is_const(m->b)) return "iadd" + std::to_string(rounded(acc_bits + 1));
    // A loaded value (directly or through a let) or a conversion holds the data format.
    auto bits = [&](const Expr &x) {
        const Variable *v = x.as<Variable>();
        auto let = v ? lets.find(v->name) : lets.end();
        Expr value = let != lets.end() ? let->second : x;
        const Call *c = value.as<Call>();
        if (c && c->is_intrinsic(Call::strict_float) && c->args.size() == 1) value = c->args[0];
        return value.as<Load>() || value.as<Cast>() ? data_bits : acc_bits;
    };
    int a = bits(m->a), b = bits(m->b);
    int tiles = dsp_tiles(a, b, a + b);
    if (tiles == 1) return std::max(a, b) <= 8 ? "imul8" : "imul16";
    if (tiles == 2) return "imul24";
    return std::max(a, b) <= 32 ? "imul32" : "imul64";
}

bool is_constant_index_product(const Expr &e) {
    const Mul *m = e.as<Mul>();
    if (!m || !e.type().is_int()) return false;
    const IntImm *c = m->b.as<IntImm>() ? m->b.as<IntImm>() : m->a.as<IntImm>();
    if (!c || c->value <= 0) return false;
    return (c->value & (c->value - 1)) != 0;
}

}  // namespace flowhls
