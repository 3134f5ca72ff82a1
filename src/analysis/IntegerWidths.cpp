// integer_widths: interval analysis of a filter's integer values, with per-output weight sums.
#include "analysis/IntegerWidths.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

using i128 = __int128;

struct Interval {
    i128 lo = 0, hi = 0;
};

struct Loop {
    std::string name;
    std::optional<int64_t> min, extent;
};

// A store to a scalar local, its value with the enclosing LetStmts substituted.
struct ScalarStore {
    std::string name;
    Expr value;
    std::vector<Loop> loops;
};

struct LetValue {
    std::string name;
    Expr value;  // lets substituted
};

bool is_tracked(Halide::Type t) { return t.lanes() == 1 && (t.is_int() || t.is_uint()) && t.bits() <= 64; }

Interval type_range(Halide::Type t) {
    if (t.is_bool()) return {0, 1};
    if (t.is_uint()) return {0, t.bits() >= 64 ? (i128)UINT64_MAX : ((i128)1 << t.bits()) - 1};
    return {-((i128)1 << (t.bits() - 1)), ((i128)1 << (t.bits() - 1)) - 1};
}

bool within(const Interval &r, Halide::Type t) {
    Interval limit = type_range(t);
    return r.lo >= limit.lo && r.hi <= limit.hi;
}

int64_t rom_value(const Buffer &b, int64_t i) {
    const uint8_t *p = static_cast<const uint8_t *>(b.contents.data()) + i * b.type.bytes();
    auto load = [&](auto v) {
        std::memcpy(&v, p, sizeof v);
        return static_cast<int64_t>(v);
    };
    bool s = b.type.is_int();
    switch (b.type.bits()) {
    case 8: return s ? load(int8_t()) : load(uint8_t());
    case 16: return s ? load(int16_t()) : load(uint16_t());
    case 32: return s ? load(int32_t()) : load(uint32_t());
    default: return load(int64_t());
    }
}

i128 floor_div(i128 a, i128 b) {
    i128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

class Analysis {
public:
    explicit Analysis(const FilterGraph &g) : g(g) {}
    Analysis(const FilterGraph &g, const Filter &f) : g(g) {
        for (const LocalBuffer &l : f.locals) {
            if (l.scalar) scalar_locals.insert(l.name);
        }
        walk(f.body);
    }

    std::map<std::string, IntegerWidth> run();
    std::optional<Interval> range(const Expr &e);

private:
    const FilterGraph &g;
    std::set<std::string> scalar_locals;
    std::map<std::string, Expr> scope;  // let name -> substituted value
    std::vector<Loop> loops;
    std::map<std::string, Interval> loop_ranges;
    std::vector<ScalarStore> stores;
    std::vector<LetValue> lets;
    std::map<std::string, Interval> acc_ranges;
    std::map<std::string, Interval> rom_ranges;

    void walk(const Stmt &s);
    std::map<const IRNode *, std::optional<Interval>> ranges;  // keeps no references: exprs live in lets/stores
    std::optional<Interval> compute_range(const Expr &e);
    Interval rom_range(const Buffer &b);
    std::optional<Interval> accumulator(const std::string &acc, std::string *how);
    std::optional<Interval> weight_sum(const ScalarStore &update, size_t outer_loops, const Expr &rom_factor,
                                       const Interval &other);
};

void Analysis::walk(const Stmt &s) {
    if (!s.defined()) return;
    if (const Block *b = s.as<Block>()) {
        walk(b->first);
        walk(b->rest);
    } else if (const For *f = s.as<For>()) {
        Loop l{f->name, std::nullopt, std::nullopt};
        Expr mn = simplify(substitute(scope, f->min)), ext = simplify(substitute(scope, f->extent));
        if (const IntImm *m = mn.as<IntImm>()) l.min = m->value;
        if (const IntImm *x = ext.as<IntImm>()) l.extent = x->value;
        if (l.min && l.extent && *l.extent > 0) {
            Interval r{*l.min, *l.min + *l.extent - 1};
            auto it = loop_ranges.find(f->name);
            if (it == loop_ranges.end()) loop_ranges[f->name] = r;
            else it->second = {std::min(it->second.lo, r.lo), std::max(it->second.hi, r.hi)};
        }
        loops.push_back(l);
        walk(f->body);
        loops.pop_back();
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        Expr v = substitute(scope, l->value);
        lets.push_back({l->name, v});
        scope[l->name] = v;
        walk(l->body);
        scope.erase(l->name);
    } else if (const Store *st = s.as<Store>()) {
        if (scalar_locals.count(st->name)) stores.push_back({st->name, substitute(scope, st->value), loops});
    } else if (const IfThenElse *i = s.as<IfThenElse>()) {
        walk(i->then_case);
        walk(i->else_case);
    } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
        walk(pc->body);
    } else if (const Allocate *a = s.as<Allocate>()) {
        walk(a->body);
    }
}

Interval Analysis::rom_range(const Buffer &b) {
    auto it = rom_ranges.find(b.name);
    if (it != rom_ranges.end()) return it->second;
    Interval r = type_range(b.type);
    if (b.contents.defined() && b.size() > 0) {
        r = {rom_value(b, 0), rom_value(b, 0)};
        for (int64_t i = 1; i < b.size(); i++) {
            int64_t v = rom_value(b, i);
            r.lo = std::min<i128>(r.lo, v);
            r.hi = std::max<i128>(r.hi, v);
        }
    }
    return rom_ranges[b.name] = r;
}

// The interval of `e` (its type's range when unknown or when it could wrap); nullopt for
// values that are not integers. Memoized by node: substituted lets share subexpressions.
std::optional<Interval> Analysis::range(const Expr &e) {
    auto known = ranges.find(e.get());
    if (known != ranges.end()) return known->second;
    std::optional<Interval> r = compute_range(e);
    ranges[e.get()] = r;
    return r;
}

std::optional<Interval> Analysis::compute_range(const Expr &e) {
    Halide::Type t = e.type();
    if (!is_tracked(t) && !t.is_bool()) return std::nullopt;
    const Interval full = type_range(t);
    auto fit = [&](Interval r) { return within(r, t) ? r : full; };
    auto two = [&](const Expr &a, const Expr &b, Interval *ra, Interval *rb) {
        std::optional<Interval> x = range(a), y = range(b);
        if (!x || !y) return false;
        *ra = *x;
        *rb = *y;
        return true;
    };
    Interval a, b;
    if (const IntImm *i = e.as<IntImm>()) return Interval{i->value, i->value};
    if (const UIntImm *u = e.as<UIntImm>()) return Interval{(i128)u->value, (i128)u->value};
    if (const Variable *v = e.as<Variable>()) {
        auto it = loop_ranges.find(v->name);
        return it != loop_ranges.end() ? fit(it->second) : full;
    }
    if (const Load *l = e.as<Load>()) {
        auto acc = acc_ranges.find(l->name);
        if (acc != acc_ranges.end()) return acc->second;
        if (g.has_buffer(l->name) && g.buffer(l->name).kind == BufferKind::Constant && is_tracked(t)) {
            return fit(rom_range(g.buffer(l->name)));
        }
        return full;
    }
    if (const Cast *c = e.as<Cast>()) {
        if (!is_tracked(c->value.type()) && !c->value.type().is_bool()) return full;
        std::optional<Interval> r = range(c->value);
        return r ? fit(*r) : full;
    }
    if (const Add *op = e.as<Add>()) return two(op->a, op->b, &a, &b) ? fit({a.lo + b.lo, a.hi + b.hi}) : full;
    if (const Sub *op = e.as<Sub>()) return two(op->a, op->b, &a, &b) ? fit({a.lo - b.hi, a.hi - b.lo}) : full;
    if (const Mul *op = e.as<Mul>()) {
        if (!two(op->a, op->b, &a, &b)) return full;
        // Operands beyond 2^63 (uint64) could overflow 128 bits: no bound.
        const i128 big = (i128)1 << 63;
        if (a.hi > big || b.hi > big || a.lo < -big || b.lo < -big) return full;
        i128 p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return fit({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});
    }
    if (const Min *op = e.as<Min>()) {
        return two(op->a, op->b, &a, &b) ? fit({std::min(a.lo, b.lo), std::min(a.hi, b.hi)}) : full;
    }
    if (const Max *op = e.as<Max>()) {
        return two(op->a, op->b, &a, &b) ? fit({std::max(a.lo, b.lo), std::max(a.hi, b.hi)}) : full;
    }
    if (const Div *op = e.as<Div>()) {
        if (!two(op->a, op->b, &a, &b) || (b.lo <= 0 && b.hi >= 0)) return full;
        i128 p[] = {floor_div(a.lo, b.lo), floor_div(a.lo, b.hi), floor_div(a.hi, b.lo), floor_div(a.hi, b.hi)};
        return fit({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});
    }
    if (const Mod *op = e.as<Mod>()) {
        const IntImm *c = op->b.as<IntImm>();
        if (!c || c->value == 0) return full;
        i128 m = c->value < 0 ? -(i128)c->value : (i128)c->value;
        return fit({0, m - 1});
    }
    if (const Select *s = e.as<Select>()) {
        if (!two(s->true_value, s->false_value, &a, &b)) return full;
        return fit({std::min(a.lo, b.lo), std::max(a.hi, b.hi)});
    }
    Expr product;
    if (unpacked_product(e, &product)) return compute_range(product);  // a new node: not memoized
    if (const Call *c = e.as<Call>()) {
        if ((c->is_intrinsic(Call::shift_right) || c->is_intrinsic(Call::shift_left)) && c->args.size() == 2) {
            const IntImm *k = c->args[1].as<IntImm>();
            const UIntImm *ku = c->args[1].as<UIntImm>();
            int64_t n = k ? k->value : ku ? (int64_t)ku->value : -1;
            std::optional<Interval> r = range(c->args[0]);
            if (!r || n < 0 || n > 62) return full;
            if (c->is_intrinsic(Call::shift_right)) return fit({r->lo >> n, r->hi >> n});
            return fit({r->lo * ((i128)1 << n), r->hi * ((i128)1 << n)});
        }
        if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::promise_clamped)) return range(c->args[0]);
    }
    return full;
}

}  // namespace

std::optional<int64_t> integer_value(const FilterGraph &g, const Expr &e,
                                     const std::vector<std::pair<std::string, int64_t>> &env) {
    if (const IntImm *i = e.as<IntImm>()) return i->value;
    if (const UIntImm *u = e.as<UIntImm>()) return static_cast<int64_t>(u->value);
    if (const Variable *v = e.as<Variable>()) {
        for (const auto &kv : env) {
            if (kv.first == v->name) return kv.second;
        }
        return std::nullopt;
    }
    if (const Cast *c = e.as<Cast>()) {
        if (!is_tracked(c->type) || !is_tracked(c->value.type())) return std::nullopt;
        std::optional<int64_t> x = integer_value(g, c->value, env);
        if (!x || !within({*x, *x}, c->type)) return std::nullopt;
        return x;
    }
    if (const Load *l = e.as<Load>()) {
        if (!g.has_buffer(l->name)) return std::nullopt;
        const Buffer &b = g.buffer(l->name);
        if (b.kind != BufferKind::Constant || !b.contents.defined() || !is_tracked(b.type)) return std::nullopt;
        std::optional<int64_t> i = integer_value(g, l->index, env);
        if (!i || *i < 0 || *i >= b.size()) return std::nullopt;
        return rom_value(b, *i);
    }
    auto pair = [&](const Expr &a, const Expr &b, int64_t *x, int64_t *y) {
        std::optional<int64_t> p = integer_value(g, a, env), q = integer_value(g, b, env);
        if (!p || !q) return false;
        *x = *p;
        *y = *q;
        return true;
    };
    int64_t x, y;
    if (const Add *op = e.as<Add>()) return pair(op->a, op->b, &x, &y) ? std::optional<int64_t>(x + y) : std::nullopt;
    if (const Sub *op = e.as<Sub>()) return pair(op->a, op->b, &x, &y) ? std::optional<int64_t>(x - y) : std::nullopt;
    if (const Mul *op = e.as<Mul>()) return pair(op->a, op->b, &x, &y) ? std::optional<int64_t>(x * y) : std::nullopt;
    if (const Min *op = e.as<Min>()) return pair(op->a, op->b, &x, &y) ? std::optional<int64_t>(std::min(x, y)) : std::nullopt;
    if (const Max *op = e.as<Max>()) return pair(op->a, op->b, &x, &y) ? std::optional<int64_t>(std::max(x, y)) : std::nullopt;
    if (const Div *op = e.as<Div>()) {
        if (!pair(op->a, op->b, &x, &y) || y == 0) return std::nullopt;
        return static_cast<int64_t>(floor_div(x, y));
    }
    if (const Mod *op = e.as<Mod>()) {
        if (!pair(op->a, op->b, &x, &y) || y == 0) return std::nullopt;
        int64_t m = x % y;
        return m < 0 ? m + (y < 0 ? -y : y) : m;
    }
    return std::nullopt;
}

namespace {

bool reads(const Expr &e, const std::string &name) { return buffer_accesses(e).loads.count(name) > 0; }

// Whether every load of `e` reads a ROM (constant buffer), and there is one.
bool reads_only_roms(const FilterGraph &g, const Expr &e) {
    std::set<std::string> loads = buffer_accesses(e).loads;
    for (const std::string &b : loads) {
        if (!g.has_buffer(b) || g.buffer(b).kind != BufferKind::Constant) return false;
    }
    return !loads.empty();
}

// Bound of sum(rom_factor * other) over the reduction loops (those of `update` past the first
// `outer_loops`), per value of the outer loops rom_factor depends on: [min of the negative
// parts, max of the positive parts]. nullopt when rom_factor is not an expression of constant
// loops and ROMs, or the enumeration would exceed 2^24 points.
std::optional<Interval> Analysis::weight_sum(const ScalarStore &update, size_t outer_loops, const Expr &rom_factor,
                                             const Interval &other) {
    std::set<std::string> vars = referenced_variables(rom_factor);
    std::vector<const Loop *> outer, inner;
    i128 mult = 1, points = 1;
    for (size_t i = 0; i < update.loops.size(); i++) {
        const Loop &l = update.loops[i];
        bool used = vars.erase(l.name) > 0;
        if (i >= outer_loops && !used) {
            if (!l.extent) return std::nullopt;
            mult *= std::max<int64_t>(0, *l.extent);
            continue;
        }
        if (!used) continue;
        if (!l.min || !l.extent) return std::nullopt;
        points *= std::max<int64_t>(0, *l.extent);
        (i < outer_loops ? outer : inner).push_back(&l);
    }
    if (!vars.empty() || points > (i128)1 << 24) return std::nullopt;
    std::vector<std::pair<std::string, int64_t>> env;
    for (const Loop *l : outer) env.push_back({l->name, *l->min});
    for (const Loop *l : inner) env.push_back({l->name, *l->min});
    // Advances env[from..to) like an odometer; false after the last point.
    auto next = [&](size_t from, const std::vector<const Loop *> &ls) {
        for (size_t k = ls.size(); k-- > 0;) {
            int64_t &v = env[from + k].second;
            if (++v < *ls[k]->min + *ls[k]->extent) return true;
            v = *ls[k]->min;
        }
        return false;
    };
    Interval best{0, 0};
    do {
        for (size_t k = 0; k < inner.size(); k++) env[outer.size() + k].second = *inner[k]->min;
        i128 lo = 0, hi = 0;
        do {
            std::optional<int64_t> f = integer_value(g, rom_factor, env);
            if (!f) return std::nullopt;
            i128 a = (i128)*f * other.lo, b = (i128)*f * other.hi;
            lo += std::min<i128>(0, std::min(a, b)) * mult;
            hi += std::max<i128>(0, std::max(a, b)) * mult;
        } while (next(outer.size(), inner));
        best.lo = std::min(best.lo, lo);
        best.hi = std::max(best.hi, hi);
    } while (next(0, outer));
    return best;
}

// The range of accumulator `acc` (one init store, one update `acc = acc + term` nested in
// the init's loops), or nullopt.
std::optional<Interval> Analysis::accumulator(const std::string &acc, std::string *how) {
    const ScalarStore *init = nullptr, *update = nullptr;
    for (const ScalarStore &s : stores) {
        if (s.name != acc) continue;
        const ScalarStore *&slot = reads(s.value, acc) ? update : init;
        if (slot) return std::nullopt;
        slot = &s;
    }
    if (!init || !update || !is_tracked(init->value.type())) return std::nullopt;
    const Add *add = update->value.as<Add>();
    if (!add) return std::nullopt;
    auto is_acc = [&](const Expr &e) {
        const Load *l = e.as<Load>();
        return l && l->name == acc;
    };
    Expr term = is_acc(add->a) ? add->b : is_acc(add->b) ? add->a : Expr();
    if (!term.defined() || reads(term, acc)) return std::nullopt;
    Expr product;
    if (unpacked_product(term, &product)) term = product;
    if (init->loops.size() > update->loops.size()) return std::nullopt;
    for (size_t i = 0; i < init->loops.size(); i++) {
        if (init->loops[i].name != update->loops[i].name) return std::nullopt;
    }
    std::optional<Interval> start = range(init->value), step = range(term);
    if (!start || !step) return std::nullopt;
    // A product of a ROM element and data: the per-output sum of |w| times max |x|.
    if (const Mul *m = term.as<Mul>()) {
        for (int side = 0; side < 2; side++) {
            const Expr &w = side ? m->b : m->a, &x = side ? m->a : m->b;
            std::optional<Interval> xr = range(x);
            if (!reads_only_roms(g, w) || !xr) continue;
            std::optional<Interval> sum = weight_sum(*update, init->loops.size(), w, *xr);
            if (!sum) continue;
            *how = "sum |w| * max|x| + bias";
            return Interval{start->lo + sum->lo, start->hi + sum->hi};
        }
    }
    i128 n = 1;
    for (size_t i = init->loops.size(); i < update->loops.size(); i++) {
        if (!update->loops[i].extent) return std::nullopt;
        n *= std::max<int64_t>(0, *update->loops[i].extent);
    }
    *how = "n * max|term| + init";
    return Interval{start->lo + n * std::min<i128>(0, step->lo), start->hi + n * std::max<i128>(0, step->hi)};
}

std::map<std::string, IntegerWidth> Analysis::run() {
    std::map<std::string, IntegerWidth> out;
    auto narrow = [&](const std::string &name, Halide::Type t, const Interval &r) -> IntegerWidth * {
        // 64-bit values (the requantization product) too; the stand-in ap_int holds 1..63 bits.
        if (!is_tracked(t) || !within(r, t) || r.hi > INT64_MAX) return nullptr;
        IntegerWidth w = width_of_range(static_cast<int64_t>(r.lo), static_cast<int64_t>(r.hi));
        if (w.bits >= t.bits()) return nullptr;
        w.program_bits = t.bits();
        auto it = out.find(name);
        if (it != out.end()) {  // bound twice: the union
            w = width_of_range(std::min(it->second.lo, w.lo), std::max(it->second.hi, w.hi));
            w.program_bits = t.bits();
            if (w.bits >= t.bits()) {
                out.erase(it);
                return nullptr;
            }
        }
        return &(out[name] = w);
    };
    for (const std::string &acc : scalar_locals) {
        std::string how;
        std::optional<Interval> r = accumulator(acc, &how);
        ranges.clear();  // it may have memoized nodes it made
        if (!r) continue;
        Halide::Type t = std::find_if(stores.begin(), stores.end(), [&](const ScalarStore &s) {
                             return s.name == acc;
                         })->value.type();
        if (!within(*r, t)) continue;
        acc_ranges[acc] = *r;
        if (IntegerWidth *w = narrow(acc, t, *r)) {
            w->accumulator = true;
            w->bound = how;
        }
    }
    std::set<std::string> wide;  // lets whose range is their type's: never narrowed
    for (const LetValue &l : lets) {
        if (!is_tracked(l.value.type()) || buffer_accesses(l.value).loads.empty()) continue;
        std::optional<Interval> r = range(l.value);
        if (!r || wide.count(l.name) || !narrow(l.name, l.value.type(), *r)) {
            wide.insert(l.name);
            out.erase(l.name);
        }
    }
    return out;
}

}  // namespace

bool unpacked_product(const Expr &e, Expr *product) {
    const Call *c = e.as<Call>();
    if (!c || c->call_type != Call::PureExtern || c->args.size() != 1) return false;
    bool hi = c->name == "flowhls_pack_hi";
    if (!hi && c->name != "flowhls_pack_lo") return false;
    const Call *m = c->args[0].as<Call>();
    if (!m || m->name != "flowhls_pack_mul" || m->args.size() != 3) return false;
    *product = Mul::make(hi ? m->args[0] : m->args[1], m->args[2]);
    return true;
}

std::optional<std::pair<int64_t, int64_t>> value_range(const FilterGraph &g, const Expr &e) {
    std::optional<Interval> r = Analysis(g).range(e);
    if (!r || r->lo < INT64_MIN || r->hi > INT64_MAX) return std::nullopt;
    return std::make_pair(static_cast<int64_t>(r->lo), static_cast<int64_t>(r->hi));
}

IntegerWidth width_of_range(int64_t lo, int64_t hi) {
    IntegerWidth w;
    w.lo = lo;
    w.hi = hi;
    w.is_signed = lo < 0;
    int bits = 1;
    if (w.is_signed) {
        while (bits < 64 && (lo < -((i128)1 << (bits - 1)) || hi > ((i128)1 << (bits - 1)) - 1)) bits++;
    } else {
        while (bits < 64 && hi > ((i128)1 << bits) - 1) bits++;
    }
    w.bits = bits;
    return w;
}

std::map<std::string, IntegerWidth> integer_widths(const FilterGraph &g, const Filter &f) {
    return Analysis(g, f).run();
}

}  // namespace flowhls
