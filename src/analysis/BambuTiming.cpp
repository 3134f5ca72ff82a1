// estimate_bambu_cycles: a list schedule of each loop body with Bambu's operator costs.
#include "analysis/BambuTiming.h"
#include "analysis/HlsUnroll.h"

#include <algorithm>
#include <map>
#include <set>

namespace flowhls {

namespace {

using namespace Halide::Internal;
using Halide::Expr;

// Ready times of a value, one per vector lane.
using Times = std::vector<int64_t>;

int64_t latest(const Times &t) { return *std::max_element(t.begin(), t.end()); }

// The time-ordered schedule of straight-line code (a loop body or a filter's top level).
class Schedule {
public:
    Schedule(const BambuTimingModel &model, const std::set<std::string> &registers, std::map<std::string, Times> lets)
        : m(model), registers(registers), ready(std::move(lets)) {}

    // Cycles of `s` run once from cycle 0.
    int64_t run(const Stmt &s) {
        stmt(s);
        return std::max(finish, base);
    }

private:
    const BambuTimingModel &m;
    const std::set<std::string> &registers;
    std::map<std::string, Times> ready;             // values of lets
    std::map<std::string, int64_t> unit_free;       // soft-float units
    std::map<std::string, std::vector<int64_t>> port_free;
    std::map<std::string, int64_t> stored;          // last store of each array
    int64_t base = 0;    // nothing starts before (after a loop or a branch)
    int64_t finish = 0;  // latest completion so far

    Times at(int64_t t, int lanes) const { return Times(static_cast<size_t>(lanes), std::max(t, base)); }

    // Lane l of `t` (a scalar is the same in every lane).
    static int64_t lane(const Times &t, size_t l) { return t.size() == 1 ? t[0] : t[std::min(l, t.size() - 1)]; }

    // One operation per lane on the single shared unit `kind`, lane l ready at `t[l]`.
    Times on_unit(const std::string &kind, const Times &t, int latency, int busy) {
        int64_t &free = unit_free[kind];
        Times done(t.size());
        for (size_t l = 0; l < t.size(); l++) {
            int64_t start = std::max(t[l], free);
            free = start + busy;
            done[l] = start + latency;
            finish = std::max(finish, done[l]);
        }
        return done;
    }

    // One access of array `name` per lane, lane l ready at `t[l]`; returns when each starts.
    Times on_port(const std::string &name, const Times &t) {
        std::vector<int64_t> &ports = port_free[name];
        if (ports.empty()) ports.assign(static_cast<size_t>(std::max(1, m.ports)), 0);
        Times starts(t.size());
        for (size_t l = 0; l < t.size(); l++) {
            auto it = std::min_element(ports.begin(), ports.end());
            starts[l] = std::max(t[l], *it);
            *it = starts[l] + 1;
        }
        return starts;
    }

    Times float_op(const std::string &kind, const Times &t) {
        if (kind == "fadd" || kind == "fsub") return on_unit(kind, t, m.fadd, m.fadd_busy);
        if (kind == "fmul") return on_unit(kind, t, m.fmul, m.fmul_busy);
        if (kind == "fdiv") return on_unit(kind, t, m.fdiv, m.fdiv_busy);
        if (kind == "fcmp") return on_unit(kind, t, m.fcmp, m.fcmp_busy);
        if (kind == "fcvt") return on_unit(kind, t, m.fcvt, m.fcvt_busy);
        return on_unit(kind, t, m.fcall, m.fcall);
    }

    static Times plus(Times t, int64_t cycles) {
        for (int64_t &x : t) x += cycles;
        return t;
    }

    // Lane by lane, when all of `kids` are ready.
    Times children(const std::vector<Expr> &kids, int lanes) {
        Times t = at(base, lanes);
        for (const Expr &k : kids) {
            Times c = expr(k);
            for (size_t l = 0; l < t.size(); l++) t[l] = std::max(t[l], lane(c, l));
        }
        return t;
    }

    Times expr(const Expr &e) {
        int lanes = e.defined() ? e.type().lanes() : 1;
        if (!e.defined()) return at(base, 1);
        bool is_float = e.type().is_float();
        if (const Variable *v = e.as<Variable>()) {
            auto it = ready.find(v->name);
            if (it == ready.end()) return at(base, lanes);
            Times t = it->second;
            for (int64_t &x : t) x = std::max(x, base);
            return t;
        }
        if (const Load *l = e.as<Load>()) {
            Times t = children({l->index}, lanes);
            auto st = stored.find(l->name);  // after the last store of the array or register
            if (st != stored.end()) {
                for (int64_t &x : t) x = std::max(x, st->second);
            }
            if (registers.count(l->name)) return t;
            Times done = plus(on_port(l->name, t), m.load);
            finish = std::max(finish, latest(done));
            return done;
        }
        if (const Cast *c = e.as<Cast>()) {
            Times t = children({c->value}, lanes);
            return c->type.is_float() != c->value.type().is_float() ? float_op("fcvt", t) : t;
        }
        if (const Add *a = e.as<Add>()) {
            Times t = children({a->a, a->b}, lanes);
            return is_float ? float_op("fadd", t) : t;
        }
        if (const Sub *s = e.as<Sub>()) {
            Times t = children({s->a, s->b}, lanes);
            return is_float ? float_op("fsub", t) : t;
        }
        if (const Mul *mu = e.as<Mul>()) {
            Times t = children({mu->a, mu->b}, lanes);
            if (is_float) return float_op("fmul", t);
            return is_const(mu->a) || is_const(mu->b) ? t : plus(t, m.imul);
        }
        if (e.as<Div>() || e.as<Mod>()) {
            const Div *d = e.as<Div>();
            const Mod *md = e.as<Mod>();
            Expr a = d ? d->a : md->a, b = d ? d->b : md->b;
            Times t = children({a, b}, lanes);
            if (is_float) return float_op("fdiv", t);
            const int64_t *k = as_const_int(b);
            const uint64_t *u = as_const_uint(b);
            int64_t divisor = k ? *k : u ? static_cast<int64_t>(*u) : 0;
            // By a power of two: shifts; by another constant: a multiplication (the front end's
            // magic numbers); by a variable: the iterative divider.
            if (divisor > 0) return (divisor & (divisor - 1)) == 0 ? t : plus(t, m.imul);
            return plus(t, m.idiv);
        }
        if (const Min *mi = e.as<Min>()) return compare(mi->a, mi->b, lanes);
        if (const Max *ma = e.as<Max>()) return compare(ma->a, ma->b, lanes);
        if (const LT *c = e.as<LT>()) return compare(c->a, c->b, lanes);
        if (const LE *c = e.as<LE>()) return compare(c->a, c->b, lanes);
        if (const GT *c = e.as<GT>()) return compare(c->a, c->b, lanes);
        if (const GE *c = e.as<GE>()) return compare(c->a, c->b, lanes);
        if (const EQ *c = e.as<EQ>()) return compare(c->a, c->b, lanes);
        if (const NE *c = e.as<NE>()) return compare(c->a, c->b, lanes);
        if (const Select *s = e.as<Select>()) return children({s->condition, s->true_value, s->false_value}, lanes);
        if (const And *a = e.as<And>()) return children({a->a, a->b}, lanes);
        if (const Or *o = e.as<Or>()) return children({o->a, o->b}, lanes);
        if (const Not *n = e.as<Not>()) return children({n->a}, lanes);
        if (const Ramp *r = e.as<Ramp>()) return children({r->base, r->stride}, lanes);
        if (const Broadcast *b = e.as<Broadcast>()) return children({b->value}, lanes);
        if (const Shuffle *s = e.as<Shuffle>()) return at(latest(children(s->vectors, 1)), lanes);
        if (const Let *l = e.as<Let>()) {
            ready[l->name] = expr(l->value);
            return expr(l->body);
        }
        if (const Call *c = e.as<Call>()) {
            Times t = children(c->args, lanes);
            if (c->call_type == Call::PureExtern && is_float) return float_op("fcall:" + c->name, t);
            return t;  // bit operations, shifts, flowhls_math helpers, strict_float: logic
        }
        return at(base, lanes);  // constants
    }

    Times compare(const Expr &a, const Expr &b, int lanes) {
        Times t = children({a, b}, lanes);
        return a.type().is_float() ? float_op("fcmp", t) : t;
    }

    // A construct that runs after everything before it and before everything after it.
    void barrier(int64_t cycles) {
        base = std::max(base, finish) + cycles;
        finish = base;
    }

    void stmt(const Stmt &s) {
        if (!s.defined()) return;
        if (const Block *b = s.as<Block>()) {
            stmt(b->first);
            stmt(b->rest);
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            ready[l->name] = expr(l->value);
            stmt(l->body);
        } else if (const Store *st = s.as<Store>()) {
            int lanes = st->value.type().lanes();
            Times t = children({st->value, st->index}, lanes);
            int64_t done = latest(t);
            if (!registers.count(st->name)) done = latest(on_port(st->name, t)) + m.store;
            stored[st->name] = std::max(stored[st->name], done);
            finish = std::max(finish, done);
        } else if (const For *f = s.as<For>()) {
            loop(f);
        } else if (const IfThenElse *i = s.as<IfThenElse>()) {
            base = std::max(base, latest(expr(i->condition)));
            int64_t branch = 0;
            for (const Stmt &c : {i->then_case, i->else_case}) {
                if (c.defined()) branch = std::max(branch, Schedule(m, registers, ready).run(c));
            }
            barrier(branch + 1);
        } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            stmt(pc->body);
        } else if (const Allocate *a = s.as<Allocate>()) {
            stmt(a->body);
        } else if (const Evaluate *ev = s.as<Evaluate>()) {
            finish = std::max(finish, latest(expr(ev->value)));
        }
    }

    static bool has_loop(const Stmt &s) {
        class Finder : public IRVisitor {
        public:
            bool found = false;
            using IRVisitor::visit;
            void visit(const For *) override { found = true; }
        } finder;
        s.accept(&finder);
        return finder.found;
    }

    void loop(const For *f) {
        const int64_t *k = as_const_int(simplify(f->extent));
        int64_t trip = k ? std::max<int64_t>(*k, 0) : 1;
        // The front end unrolls short innermost loops: their copies overlap like straight code.
        if (trip <= m.unroll_trip && !has_loop(f->body)) {
            for (int64_t i = 0; i < trip; i++) {
                ready[f->name] = at(base, 1);
                stmt(f->body);
            }
            ready.erase(f->name);
            return;
        }
        std::map<std::string, Times> outer;
        for (const auto &kv : ready) outer[kv.first] = Times(kv.second.size(), 0);
        int64_t body = std::max<int64_t>(1, Schedule(m, registers, outer).run(f->body));
        barrier(trip * (body + m.iteration) + m.entry);
    }
};

}  // namespace

BambuEstimate estimate_bambu_cycles(const FilterGraph &graph, const BambuTimingModel &model) {
    BambuEstimate out;
    std::set<std::string> registers;
    for (const Buffer &b : graph.buffers) {
        if (b.is_scalar()) registers.insert(b.name);
    }
    for (const Filter &f : graph.filters) {
        std::set<std::string> regs = registers;
        for (const LocalBuffer &l : f.locals) {
            if (l.scalar || l.size <= model.register_elements) regs.insert(l.name);
        }
        // Bambu unrolls what `#pragma GCC unroll` asks; it takes no pipeline directive.
        std::map<std::string, LoopDirective> unrolls;
        for (const auto &d : f.directives) {
            if (d.second.unroll != 0 && !d.second.inferred) unrolls[d.first].unroll = d.second.unroll;
        }
        Stmt body = unrolls.empty() ? f.body : apply_hls_unroll(f.body, unrolls);
        int64_t cycles = Schedule(model, regs, {}).run(body) + 1;
        out.filters.push_back({f.name, cycles});
        out.cycles += cycles;
    }
    out.cycles += 2;  // start and done of the top function
    return out;
}

}  // namespace flowhls
