// fixed_sum_bound: interval analysis of a fixed-point filter's float values, with per-output
// weight sums (the float counterpart of integer_widths, analysis/IntegerWidths.cpp).
#include "analysis/FixedWidths.h"
#include "analysis/IntegerWidths.h"
#include "graph/Precision.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Long double: a product of two W <= 32 bit values is exact (64-bit significand).
using Real = long double;
constexpr Real kInf = std::numeric_limits<Real>::infinity();

struct Range {
    Real lo = 0, hi = 0;
};

struct Loop {
    std::string name;
    int64_t min = 0, extent = -1;  // extent < 0: not constant
};

// A store to a local of the filter, its value with the enclosing lets substituted.
struct LocalStore {
    std::string name;
    Expr value;
    std::vector<Loop> loops;
};

// `e` without strict_float and float-to-float casts around it.
Expr strip(Expr e) {
    for (;;) {
        const Call *c = e.as<Call>();
        const Cast *k = e.as<Cast>();
        if (c && c->is_intrinsic(Call::strict_float) && c->args.size() == 1) e = c->args[0];
        else if (k && k->type.is_float() && k->value.type().is_float()) e = k->value;
        else return e;
    }
}

// One step outward after a rounded operation (round to nearest errs by at most half a step):
// the bounds stay bounds.
Real up(Real x) { return std::isfinite(x) ? std::nextafter(x, kInf) : x; }
Real down(Real x) { return std::isfinite(x) ? std::nextafter(x, -kInf) : x; }

// Element `i` of float ROM `b` as its integers in format `fmt` (fixed_raw) stand for it.
Real rom_element(const FixedFormat &fmt, const Buffer &b, int64_t i) {
    double v = read_element(b.contents, i, [](auto x) { return static_cast<double>(x); });
    return std::ldexp((Real)fixed_raw(fmt, v), -fmt.fraction());
}

Range hull(const Range &a, const Range &b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

bool finite(const Range &r) { return std::isfinite(r.lo) && std::isfinite(r.hi); }

// The values of `v` stored in format `fmt`: rounded onto its grid (to nearest: outward by at
// most a step) and saturated into its range. Rounding and saturation are monotonic, so the
// bounds' images bound the stored values.
Range saturated(const Range &v, const FixedFormat &fmt) {
    const Real step = std::ldexp((Real)1, -fmt.fraction());
    const Real top = std::ldexp((Real)1, fmt.integer - 1) - step, bottom = -std::ldexp((Real)1, fmt.integer - 1);
    auto onto = [&](Real x, bool ceil) {
        if (!std::isfinite(x)) return x > 0 ? top : bottom;
        Real q = std::ldexp(ceil ? std::ceil(std::ldexp(x, fmt.fraction())) : std::floor(std::ldexp(x, fmt.fraction())), -fmt.fraction());
        return std::clamp(q, bottom, top);
    };
    return {onto(v.lo, false), onto(v.hi, true)};
}

class Analysis {
public:
    Analysis(const FilterGraph &g, const Filter &f, const StoredRanges &produced)
        : g(g), owners(fixed_buffers(g)), own(f.fixed), produced(produced) {
        for (const LocalBuffer &l : f.locals) locals[l.name] = l.scalar;
        walk(f.body);
    }
    std::optional<FixedSumBound> run(const Filter &f, std::string *why_not);

private:
    const FilterGraph &g;
    const std::map<std::string, const Filter *> owners;
    const FixedFormat own;
    const StoredRanges &produced;
    // Loads of float buffers that are not fixed point bound to a let: the let is declared in the
    // filter's data type (emit/FixedTypes' add_fixed_values), so the value is converted to it.
    std::set<const IRNode *> converted;
    std::map<std::string, bool> locals;  // name -> scalar
    std::map<std::string, Expr> scope;
    std::vector<Loop> loops;
    std::vector<LocalStore> stores;
    std::vector<std::pair<std::string, Expr>> outputs;  // stores to buffers that are not locals
    std::vector<Expr> values;  // every float let and stored value, lets substituted
    std::map<std::string, std::optional<Range>> local_ranges;
    std::map<const IRNode *, std::optional<Range>> memo;
    std::string failure;
    std::string how;
    Range peak{kInf, -kInf};

    void walk(const Stmt &s);
    std::optional<Range> range(const Expr &e);
    std::optional<Range> compute(const Expr &e);
    std::optional<Range> load_range(const Load *l);
    std::optional<Range> local_range(const std::string &name);
    std::optional<Range> accumulator(const std::string &acc);
    std::optional<Range> weight_sum(const LocalStore &init, const LocalStore &update, const Expr &w, const Range &x);
    std::optional<Real> rom_real(const Expr &e, const std::vector<std::pair<std::string, int64_t>> &env);
    // The finite bounds of `r` widen `peak` (every value must fit the sums' type).
    void widen(const Range &r) {
        if (std::isfinite(r.lo)) peak.lo = std::min(peak.lo, r.lo);
        if (std::isfinite(r.hi)) peak.hi = std::max(peak.hi, r.hi);
    }
    std::optional<Range> fail(const std::string &why) {
        if (failure.empty()) failure = why;
        return std::nullopt;
    }
};

void Analysis::walk(const Stmt &s) {
    if (!s.defined()) return;
    if (const Block *b = s.as<Block>()) {
        walk(b->first);
        walk(b->rest);
    } else if (const For *f = s.as<For>()) {
        Loop l{f->name, 0, -1};
        const IntImm *mn = simplify(substitute(scope, f->min)).as<IntImm>();
        const IntImm *ext = simplify(substitute(scope, f->extent)).as<IntImm>();
        if (mn && ext) l = {f->name, mn->value, std::max<int64_t>(0, ext->value)};
        loops.push_back(l);
        walk(f->body);
        loops.pop_back();
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        Expr v = substitute(scope, l->value);
        if (v.type().is_float()) values.push_back(v);
        if (const Load *ld = strip(v).as<Load>()) {
            if (!locals.count(ld->name) && !owners.count(ld->name)) converted.insert(ld);
        }
        scope[l->name] = v;
        walk(l->body);
        scope.erase(l->name);
    } else if (const Store *st = s.as<Store>()) {
        Expr v = substitute(scope, st->value);
        auto local = locals.find(st->name);
        // A scalar's stored values are its range (accumulator: `acc + term` is not acc's range + term's).
        if (v.type().is_float() && (local == locals.end() || !local->second)) values.push_back(v);
        if (local != locals.end()) stores.push_back({st->name, v, loops});
        else if (v.type().is_float()) outputs.push_back({st->name, v});
    } else if (const IfThenElse *i = s.as<IfThenElse>()) {
        walk(i->then_case);
        walk(i->else_case);
    } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
        walk(pc->body);
    } else if (const Allocate *a = s.as<Allocate>()) {
        walk(a->body);
    } else if (const Evaluate *e = s.as<Evaluate>()) {
        Expr v = substitute(scope, e->value);
        if (v.type().is_float()) values.push_back(v);
    }
}

// Every node's range widens `peak`: each float value of the filter must fit the accumulator.
std::optional<Range> Analysis::range(const Expr &e) {
    auto known = memo.find(e.get());
    if (known != memo.end()) return known->second;
    std::optional<Range> r = compute(e);
    if (r && e.type().is_float()) widen(*r);
    memo[e.get()] = r;
    return r;
}

std::optional<Range> Analysis::compute(const Expr &e) {
    if (!e.type().is_float()) {
        std::optional<std::pair<int64_t, int64_t>> r = value_range(g, e);
        if (!r) return fail("a value that is neither float nor integer");
        return Range{(Real)r->first, (Real)r->second};
    }
    if (const FloatImm *f = e.as<FloatImm>()) return Range{(Real)f->value, (Real)f->value};  // ±inf: the extremes
    if (const Load *l = e.as<Load>()) return load_range(l);
    if (const Cast *c = e.as<Cast>()) return range(c->value);
    const Call *call = e.as<Call>();
    if (call && call->is_intrinsic(Call::strict_float) && call->args.size() == 1) return range(call->args[0]);
    auto two = [&](const Expr &a, const Expr &b, Range *x, Range *y) {
        std::optional<Range> p = range(a), q = range(b);
        if (!p || !q) return false;
        *x = *p;
        *y = *q;
        return true;
    };
    Range a, b;
    if (const Min *op = e.as<Min>()) {
        if (!two(op->a, op->b, &a, &b)) return std::nullopt;
        return Range{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    }
    if (const Max *op = e.as<Max>()) {
        if (!two(op->a, op->b, &a, &b)) return std::nullopt;
        return Range{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    if (const Select *s = e.as<Select>()) {
        if (!two(s->true_value, s->false_value, &a, &b)) return std::nullopt;
        return hull(a, b);
    }
    const Add *add = e.as<Add>();
    const Sub *sub = e.as<Sub>();
    const Mul *mul = e.as<Mul>();
    if (add || sub || mul) {
        if (!two(add ? add->a : sub ? sub->a : mul->a, add ? add->b : sub ? sub->b : mul->b, &a, &b)) return std::nullopt;
        if (!finite(a) || !finite(b)) return fail("arithmetic on an infinite literal");
        if (add) return Range{down(a.lo + b.lo), up(a.hi + b.hi)};
        if (sub) return Range{down(a.lo - b.hi), up(a.hi - b.lo)};
        Real p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return Range{down(*std::min_element(p, p + 4)), up(*std::max_element(p, p + 4))};
    }
    return fail(e.as<Div>() ? "a division" : call ? "a call of " + call->name : "a float operation not bounded");
}

// The range of a ROM's values quantized to its format, of a fixed-point buffer's format, of a
// local's stored values.
std::optional<Range> Analysis::load_range(const Load *l) {
    if (locals.count(l->name)) return local_range(l->name);
    if (!g.has_buffer(l->name)) return fail("a load of " + l->name);
    const Buffer &b = g.buffer(l->name);
    FixedFormat fmt;
    if (b.kind == BufferKind::Constant) {
        auto owner = owners.find(b.name);  // the ROM's format (fixed_rom_format)
        if (owner != owners.end()) fmt = owner->second->fixed;
        if (!fmt.enabled() || !b.contents.defined() || b.size() == 0) return fail("ROM " + b.name + " without known contents");
        Range r{kInf, -kInf};
        for (int64_t i = 0; i < b.size(); i++) {
            Real q = rom_element(fmt, b, i);
            r = hull(r, {q, q});
        }
        return r;
    }
    auto owner = owners.find(l->name);
    if (owner == owners.end() && !converted.count(l)) return fail("a load of float buffer " + b.name + " (not fixed point)");
    fmt = owner != owners.end() ? owner->second->fixed : own;
    auto proven = owner != owners.end() ? produced.find(l->name) : produced.end();
    if (proven != produced.end()) return Range{(Real)proven->second.first, (Real)proven->second.second};
    return Range{-std::ldexp((Real)1, fmt.integer - 1), std::ldexp((Real)1, fmt.integer - 1) - std::ldexp((Real)1, -fmt.fraction())};
}

std::optional<Range> Analysis::local_range(const std::string &name) {
    auto known = local_ranges.find(name);
    if (known != local_ranges.end()) {
        return known->second ? known->second : fail("local " + name + " depends on itself");
    }
    local_ranges[name] = std::nullopt;  // in progress
    std::optional<Range> r;
    if (locals.at(name)) {
        r = accumulator(name);
    } else {
        for (const LocalStore &s : stores) {
            if (s.name != name) continue;
            std::optional<Range> v = range(s.value);
            if (!v) return std::nullopt;
            r = r ? hull(*r, *v) : *v;
        }
        if (!r) return fail("local " + name + " never stored");
    }
    if (!r) return std::nullopt;
    widen(*r);
    return local_ranges[name] = r;
}

bool reads(const Expr &e, const std::string &name) { return buffer_accesses(e).loads.count(name) > 0; }

// Scalar `acc`: one init, one update `acc + term` or max/min(acc, x) nested in the init's loops.
std::optional<Range> Analysis::accumulator(const std::string &acc) {
    const LocalStore *init = nullptr, *update = nullptr;
    for (const LocalStore &s : stores) {
        if (s.name != acc) continue;
        const LocalStore *&slot = reads(s.value, acc) ? update : init;
        if (slot) return fail("accumulator " + acc + " stored more than once");
        slot = &s;
    }
    if (!init) return fail("accumulator " + acc + " without an init");
    std::optional<Range> start = range(init->value);
    if (!start || !update) return start;
    if (init->loops.size() > update->loops.size()) return fail("accumulator " + acc + " updated outside its init's loops");
    for (size_t i = 0; i < init->loops.size(); i++) {
        if (init->loops[i].name != update->loops[i].name) return fail("accumulator " + acc + " updated outside its init's loops");
    }
    auto is_acc = [&](const Expr &e) {
        const Load *l = strip(e).as<Load>();
        return l && l->name == acc;
    };
    Expr v = strip(update->value), a, b;
    if (const Add *op = v.as<Add>()) a = op->a, b = op->b;
    const Max *mx = v.as<Max>();
    const Min *mn = v.as<Min>();
    if (mx || mn) a = mx ? mx->a : mn->a, b = mx ? mx->b : mn->b;
    Expr term = a.defined() && is_acc(a) ? b : b.defined() && is_acc(b) ? a : Expr();
    if (!term.defined() || reads(term, acc)) return fail("accumulator " + acc + ": an update other than acc + x, max, min");
    std::optional<Range> step = range(term);
    if (!step) return std::nullopt;
    if (mx || mn) {
        // At least one update (every reduction loop runs): max(init, x...) >= max(init.lo, x.lo).
        bool runs = true;
        for (size_t i = init->loops.size(); i < update->loops.size(); i++) runs = runs && update->loops[i].extent > 0;
        if (!runs) return hull(*start, *step);
        if (mx) return Range{std::max(start->lo, step->lo), std::max(start->hi, step->hi)};
        return Range{std::min(start->lo, step->lo), std::min(start->hi, step->hi)};
    }
    if (const Mul *m = strip(term).as<Mul>()) {  // the per-output sum of |w| times max |x|
        for (int side = 0; side < 2; side++) {
            const Expr &w = side ? m->b : m->a, &x = side ? m->a : m->b;
            std::optional<Range> xr = range(x);
            if (!xr || buffer_accesses(w).loads.empty() || !finite(*xr)) continue;
            if (std::optional<Range> sum = weight_sum(*init, *update, w, *xr)) {
                how = "sum |w| * max|x| + bias";
                return sum;
            }
        }
    }
    Real n = 1;
    for (size_t i = init->loops.size(); i < update->loops.size(); i++) {
        if (update->loops[i].extent < 0) return fail("accumulator " + acc + ": a reduction of unknown trip count");
        n *= (Real)update->loops[i].extent;
    }
    if (!finite(*start) || !finite(*step)) return fail("accumulator " + acc + ": an infinite init or term");
    if (how.empty()) how = "n * max|term| + init";
    return Range{down(start->lo + down(n * std::min<Real>(0, step->lo))), up(start->hi + up(n * std::max<Real>(0, step->hi)))};
}

// The value of `e` (FloatImm, float ROM loads quantized, + - *) for the loop variables `env`.
std::optional<Real> Analysis::rom_real(const Expr &e0, const std::vector<std::pair<std::string, int64_t>> &env) {
    Expr e = strip(e0);
    if (const FloatImm *f = e.as<FloatImm>()) return std::isfinite(f->value) ? std::optional<Real>(f->value) : std::nullopt;
    if (const Load *l = e.as<Load>()) {
        if (!g.has_buffer(l->name) || g.buffer(l->name).kind != BufferKind::Constant) return std::nullopt;
        const Buffer &b = g.buffer(l->name);
        auto owner = owners.find(b.name);
        const FixedFormat fmt = owner != owners.end() ? owner->second->fixed : FixedFormat();
        std::optional<int64_t> i = integer_value(g, l->index, env);
        if (!fmt.enabled() || !b.contents.defined() || !i || *i < 0 || *i >= b.size()) return std::nullopt;
        return rom_element(fmt, b, *i);
    }
    const Add *add = e.as<Add>();
    const Sub *sub = e.as<Sub>();
    const Mul *mul = e.as<Mul>();
    if (!add && !sub && !mul) return std::nullopt;
    std::optional<Real> x = rom_real(add ? add->a : sub ? sub->a : mul->a, env);
    std::optional<Real> y = rom_real(add ? add->b : sub ? sub->b : mul->b, env);
    if (!x || !y) return std::nullopt;
    return add ? *x + *y : sub ? *x - *y : *x * *y;
}

// Per value of the loops the weight `w` and the init use outside the reduction: init + the sum
// over the reduction of the negative (positive) parts of w * x; the hull over those values.
std::optional<Range> Analysis::weight_sum(const LocalStore &init, const LocalStore &update, const Expr &w, const Range &x) {
    std::set<std::string> vars = referenced_variables(w), init_vars = referenced_variables(init.value);
    std::vector<const Loop *> outer, inner;
    Real mult = 1, points = 1;
    const size_t n_outer = init.loops.size();
    for (size_t i = 0; i < update.loops.size(); i++) {
        const Loop &l = update.loops[i];
        bool used = vars.erase(l.name) > 0;
        bool init_used = i < n_outer && init_vars.erase(l.name) > 0;
        if (l.extent < 0 && (used || init_used || i >= n_outer)) return std::nullopt;
        if (i >= n_outer && !used) {
            mult *= (Real)l.extent;
            continue;
        }
        if (!used && !init_used) continue;
        points *= (Real)l.extent;
        (i < n_outer ? outer : inner).push_back(&l);
    }
    if (!vars.empty() || !init_vars.empty() || points > (Real)(1 << 24)) return std::nullopt;
    std::vector<std::pair<std::string, int64_t>> env;
    for (const Loop *l : outer) env.push_back({l->name, l->min});
    for (const Loop *l : inner) env.push_back({l->name, l->min});
    auto next = [&](size_t from, const std::vector<const Loop *> &ls) {  // an odometer over env[from..)
        for (size_t k = ls.size(); k-- > 0;) {
            int64_t &v = env[from + k].second;
            if (++v < ls[k]->min + ls[k]->extent) return true;
            v = ls[k]->min;
        }
        return false;
    };
    if (points == 0) return std::nullopt;
    std::optional<Range> best;
    do {
        std::optional<Real> b = rom_real(init.value, env);
        if (!b) return std::nullopt;
        for (size_t k = 0; k < inner.size(); k++) env[outer.size() + k].second = inner[k]->min;
        Real lo = *b, hi = *b;
        do {
            std::optional<Real> f = rom_real(w, env);
            if (!f) return std::nullopt;
            Real p = *f * x.lo, q = *f * x.hi;
            lo = down(lo + down(std::min<Real>(0, std::min(p, q)) * mult));
            hi = up(hi + up(std::max<Real>(0, std::max(p, q)) * mult));
        } while (next(outer.size(), inner));
        best = best ? hull(*best, {lo, hi}) : Range{lo, hi};
    } while (next(0, outer));
    return best;
}

std::optional<FixedSumBound> Analysis::run(const Filter &f, std::string *why_not) {
    for (const Expr &v : values) {
        if (!range(v)) {
            if (why_not) *why_not = failure.empty() ? "a value not bounded" : failure;
            return std::nullopt;
        }
    }
    for (const auto &kv : locals) {  // accumulators never read still hold their values
        if (kv.second && !local_range(kv.first)) {
            if (why_not) *why_not = failure;
            return std::nullopt;
        }
    }
    FixedSumBound out;
    out.lo = peak.lo > peak.hi ? 0.0 : (double)peak.lo;
    out.hi = peak.lo > peak.hi ? 0.0 : (double)peak.hi;
    out.how = how;
    // A value in [lo, hi] rounded onto the sums' grid of 2^-2F (a product of other formats)
    // lies in [floor(lo), ceil(hi)] on that grid.
    const int frac = 2 * f.fixed.fraction();
    const Real hi = std::ldexp(std::ceil(std::ldexp(std::max<Real>(0, peak.hi), frac)), -frac);
    const Real lo = std::ldexp(std::floor(std::ldexp(std::min<Real>(0, peak.lo), frac)), -frac);
    const Real step = std::ldexp((Real)1, -frac);
    while (out.integer < 64 && (hi > std::ldexp((Real)1, out.integer - 1) - step || lo < -std::ldexp((Real)1, out.integer - 1))) {
        out.integer++;
    }
    for (const auto &[name, value] : outputs) {
        Range v = *range(value);  // in `values`: bounded above
        Range r = saturated(v, own);
        auto at = out.stored.find(name);
        if (at != out.stored.end()) r = hull(r, {(Real)at->second.first, (Real)at->second.second});
        out.stored[name] = {(double)r.lo, (double)r.hi};
    }
    return out;
}

}  // namespace

std::optional<FixedSumBound> fixed_sum_bound(const FilterGraph &g, const Filter &f, std::string *why_not,
                                             const StoredRanges &produced) {
    if (!f.fixed.enabled()) return std::nullopt;
    return Analysis(g, f, produced).run(f, why_not);
}

void prove_fixed_accumulators(FilterGraph &g) {
    std::vector<std::pair<int, double>> proven(g.filters.size(), {0, -1.0});
    // A buffer's range is used once every filter writing it has been proven; one writer
    // without a proof (or a store not seen) leaves it to its format.
    StoredRanges produced, pending;
    std::map<std::string, int> writers_left;
    std::set<std::string> unknown;
    for (const Filter &f : g.filters) {
        for (const std::string &out : f.writes) writers_left[out]++;
    }
    for (size_t i = 0; i < g.filters.size(); i++) {
        std::string why;
        std::optional<FixedSumBound> b = fixed_sum_bound(g, g.filters[i], &why, produced);
        for (const std::string &out : g.filters[i].writes) {
            if (!b || !b->stored.count(out)) {
                unknown.insert(out);
            } else {
                std::pair<double, double> r = b->stored.at(out);
                auto at = pending.find(out);
                if (at != pending.end()) r = {std::min(r.first, at->second.first), std::max(r.second, at->second.second)};
                pending[out] = r;
            }
            if (--writers_left[out] == 0 && !unknown.count(out)) produced[out] = pending[out];
        }
        // Wider than the rule: kept at the rule (its sums could saturate; not widened here).
        if (b && b->integer <= g.filters[i].fixed.integer + 10) proven[i] = {b->integer, std::max(-b->lo, b->hi)};
    }
    for (size_t i = 0; i < g.filters.size(); i++) {
        g.filters[i].fixed.sum_integer = proven[i].first;
        g.filters[i].fixed.sum_max = proven[i].second;
    }
}

}  // namespace flowhls
