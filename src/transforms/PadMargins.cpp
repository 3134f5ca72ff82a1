// pad_margins: padded reads without clamps, from an array with a margin of the padding.
#include "transforms/PadMargins.h"

#include "analysis/Device.h"
#include "analysis/HlsUnroll.h"
#include "ir/IRQueries.h"

#include <map>
#include <optional>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// One term of an index: coefficient x atom (an expression that is no sum, difference or
// product by a constant).
struct Term {
    int64_t coefficient;
    Expr atom;
};

void linearize(const Expr &e, int64_t k, std::vector<Term> &terms, int64_t &constant) {
    if (const IntImm *i = e.as<IntImm>()) {
        constant += k * i->value;
    } else if (const Add *a = e.as<Add>()) {
        linearize(a->a, k, terms, constant);
        linearize(a->b, k, terms, constant);
    } else if (const Sub *s = e.as<Sub>()) {
        linearize(s->a, k, terms, constant);
        linearize(s->b, -k, terms, constant);
    } else if (const Mul *m = e.as<Mul>(); m && (m->a.as<IntImm>() || m->b.as<IntImm>())) {
        const IntImm *c = m->a.as<IntImm>() ? m->a.as<IntImm>() : m->b.as<IntImm>();
        linearize(m->a.as<IntImm>() ? m->b : m->a, k * c->value, terms, constant);
    } else if (k != 0) {
        terms.push_back({k, e});
    }
}

// A clamp by constants: max(min(a, hi), lo) or min(max(a, lo), hi).
struct Clamp {
    Expr value;
    int64_t lo = 0, hi = 0;
};

std::optional<Clamp> as_clamp(const Expr &e) {
    auto constant = [](const Expr &x, int64_t &v) {
        const IntImm *i = x.as<IntImm>();
        if (i) v = i->value;
        return i != nullptr;
    };
    Clamp c;
    if (const Max *mx = e.as<Max>()) {
        const Min *mn = mx->a.as<Min>();
        if (mn && constant(mx->b, c.lo) && constant(mn->b, c.hi)) {
            c.value = mn->a;
            return c;
        }
    } else if (const Min *mn = e.as<Min>()) {
        const Max *mx = mn->a.as<Max>();
        if (mx && constant(mn->b, c.hi) && constant(mx->b, c.lo)) {
            c.value = mx->a;
            return c;
        }
    }
    return std::nullopt;
}

// One access's index as one coordinate per dimension (innermost first), each within [0, extent).
struct Coordinates {
    std::vector<Expr> at;
    // Per dimension: the clamp the coordinate is (plus a constant), if any.
    std::vector<std::optional<Clamp>> clamp;
    std::vector<int64_t> shift;  // the constant added to the clamp
};

std::optional<Coordinates> decompose(const Expr &index, const std::vector<int64_t> &dims, const Scope<Interval> &scope) {
    size_t n = dims.size();
    std::vector<int64_t> stride(n, 1);
    for (size_t d = 1; d < n; d++) stride[d] = stride[d - 1] * dims[d - 1];
    std::vector<Term> terms;
    int64_t constant = 0;
    linearize(index, 1, terms, constant);
    std::vector<std::vector<Term>> per(n);
    for (const Term &t : terms) {
        size_t d = n - 1;
        while (d > 0 && t.coefficient % stride[d] != 0) d--;
        per[d].push_back({t.coefficient / stride[d], t.atom});
    }
    Coordinates c;
    int64_t rest = constant;
    for (size_t d = 0; d < n; d++) {
        Expr e = make_zero(Halide::Int(32));
        for (const Term &t : per[d]) e = e + Halide::Internal::make_const(Halide::Int(32), t.coefficient) * t.atom;
        e = simplify(e);
        Interval iv = bounds_of_expr_in_scope(e, scope);
        if (!iv.is_bounded()) return std::nullopt;
        Expr lo_e = simplify(iv.min), hi_e = simplify(iv.max);
        const IntImm *lo = lo_e.as<IntImm>(), *hi = hi_e.as<IntImm>();
        if (!lo || !hi) return std::nullopt;
        int64_t q = rest / stride[d], cd;
        if (d + 1 == n) {
            cd = q;
        } else {
            int64_t m = ((q + lo->value) % dims[d] + dims[d]) % dims[d];
            cd = -lo->value + m;
        }
        if (lo->value + cd < 0 || hi->value + cd > dims[d] - 1) return std::nullopt;
        rest -= cd * stride[d];
        c.at.push_back(simplify(e + static_cast<int>(cd)));
        std::optional<Clamp> cl;
        if (per[d].size() == 1 && per[d][0].coefficient == 1) cl = as_clamp(per[d][0].atom);
        c.clamp.push_back(cl);
        c.shift.push_back(cd);
    }
    if (rest != 0) return std::nullopt;
    return c;
}

// Facts `g >= 0` a condition's conjuncts state.
void conjuncts(const Expr &cond, std::vector<Expr> &facts) {
    if (const And *a = cond.as<And>()) {
        conjuncts(a->a, facts);
        conjuncts(a->b, facts);
    } else if (const LE *le = cond.as<LE>()) {
        facts.push_back(le->b - le->a);
    } else if (const LT *lt = cond.as<LT>()) {
        facts.push_back(lt->b - lt->a - 1);
    } else if (const GE *ge = cond.as<GE>()) {
        facts.push_back(ge->a - ge->b);
    } else if (const GT *gt = cond.as<GT>()) {
        facts.push_back(gt->a - gt->b - 1);
    }
}

bool implied(const std::vector<Expr> &facts, const Expr &f) {
    for (const Expr &g : facts) {
        const IntImm *d = simplify(f - g).as<IntImm>();
        if (d && d->value >= 0) return true;
    }
    return false;
}

// What the accesses of one array allow.
struct ArrayPlan {
    std::vector<int64_t> dims;
    bool decomposes = true;
    bool unclamps = false;
    std::vector<int64_t> before, after;  // margins
};

// Walks a filter body with the loop bounds and the select conditions around each access;
// records (or, with `rewrite`, applies) the plans of the arrays in `plans`.
class Accesses : public IRMutator {
public:
    Accesses(std::map<std::string, ArrayPlan> &plans, bool rewrite) : plans_(plans), rewrite_(rewrite) {}

private:
    using IRMutator::visit;
    std::map<std::string, ArrayPlan> &plans_;
    bool rewrite_;
    Scope<Interval> scope_;
    std::map<std::string, Expr> lets_;  // values, substituted
    std::vector<Expr> facts_;

    Stmt visit(const For *op) override {
        Interval iv(simplify(op->min), simplify(op->min + op->extent - 1));
        ScopedBinding<Interval> bind(scope_, op->name, iv);
        return IRMutator::visit(op);
    }
    // A let's bounds and value while its body is visited.
    void push_let(const std::string &name, const Expr &value) {
        scope_.push(name, bounds_of_expr_in_scope(value, scope_));
        lets_[name] = substitute(lets_, value);
    }
    void pop_let(const std::string &name) {
        scope_.pop(name);
        lets_.erase(name);
    }
    Stmt visit(const LetStmt *op) override {
        push_let(op->name, op->value);
        Stmt s = IRMutator::visit(op);
        pop_let(op->name);
        return s;
    }
    Expr visit(const Let *op) override {
        push_let(op->name, op->value);
        Expr e = IRMutator::visit(op);
        pop_let(op->name);
        return e;
    }
    Expr visit(const Select *op) override {
        Expr cond = mutate(op->condition);
        size_t mark = facts_.size();
        conjuncts(substitute(lets_, op->condition), facts_);
        Expr t = mutate(op->true_value);
        facts_.resize(mark);
        Expr f = mutate(op->false_value);
        return Select::make(cond, t, f);
    }
    Stmt visit(const IfThenElse *op) override {
        Expr cond = mutate(op->condition);
        size_t mark = facts_.size();
        conjuncts(substitute(lets_, op->condition), facts_);
        Stmt t = mutate(op->then_case);
        facts_.resize(mark);
        Stmt e = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        return IfThenElse::make(cond, t, e);
    }

    // The index of an access of a planned array (analysis: records; rewrite: the new index).
    Expr access(const std::string &name, const Expr &index, bool load) {
        auto it = plans_.find(name);
        if (it == plans_.end() || !it->second.decomposes) return index;
        ArrayPlan &p = it->second;
        std::optional<Coordinates> c = decompose(substitute(lets_, index), p.dims, scope_);
        if (!c) {
            p.decomposes = false;
            return index;
        }
        size_t n = p.dims.size();
        std::vector<Expr> at = c->at;
        for (size_t d = 0; d < n && load; d++) {
            if (!c->clamp[d]) continue;
            const Clamp &cl = *c->clamp[d];
            if (cl.lo + c->shift[d] != 0 || cl.hi + c->shift[d] != p.dims[d] - 1) continue;
            if (!implied(facts_, cl.value - static_cast<int>(cl.lo)) ||
                !implied(facts_, static_cast<int>(cl.hi) - cl.value)) {
                continue;
            }
            Interval iv = bounds_of_expr_in_scope(cl.value, scope_);
            const IntImm *lo = iv.is_bounded() ? simplify(iv.min).as<IntImm>() : nullptr;
            const IntImm *hi = iv.is_bounded() ? simplify(iv.max).as<IntImm>() : nullptr;
            if (!lo || !hi) continue;
            int64_t below = cl.lo - lo->value, above = hi->value - cl.hi;
            if (below <= 0 && above <= 0) continue;
            if (!rewrite_) {
                p.unclamps = true;
                p.before[d] = std::max(p.before[d], below);
                p.after[d] = std::max(p.after[d], above);
            }
            at[d] = simplify(cl.value + static_cast<int>(c->shift[d]));
        }
        if (!rewrite_) return index;
        Expr flat = at[n - 1] + static_cast<int>(p.before[n - 1]);
        for (size_t d = n - 1; d-- > 0;) {
            int64_t extent = p.dims[d] + p.before[d] + p.after[d];
            flat = flat * static_cast<int>(extent) + (at[d] + static_cast<int>(p.before[d]));
        }
        return simplify(flat);
    }

    Expr visit(const Load *op) override {
        Expr index = access(op->name, op->index, true);
        return Load::make(op->type, op->name, mutate(index), op->image, op->param, mutate(op->predicate),
                          op->alignment);
    }
    Stmt visit(const Store *op) override {
        Expr index = access(op->name, op->index, false);
        return Store::make(op->name, mutate(op->value), mutate(index), op->param, mutate(op->predicate),
                           op->alignment);
    }
};

// The arrays of `names` that some loop body of `body` (HLS unrolls as copies) reads at indices
// a constant apart only without their clamps, and more often than the memory's read ports
// serve in the initiation interval of the enclosing pipeline (`directives`; 1 where none is
// given, as infer-directives pipelines at II 1): what banking needs the margin for. Where the
// clamped reads fit the ports anyway, the array keeps its clamps (and may stay a ring).
std::set<std::string> apart_but_for_clamps(const Stmt &body, const std::set<std::string> &names,
                                           const std::map<std::string, LoopDirective> &directives) {
    class Collect : public IRVisitor {
    public:
        const std::set<std::string> *names = nullptr;
        const std::map<std::string, LoopDirective> *directives = nullptr;
        // Per loop body (innermost enclosing loop), per array: the indices, lets substituted.
        std::map<const For *, std::map<std::string, std::vector<Expr>>> groups;
        // Per loop body: the II of the innermost enclosing pipelined loop (1 where none).
        std::map<const For *, int64_t> ii;

    private:
        using IRVisitor::visit;
        std::vector<const For *> loops_;
        std::vector<int64_t> ii_ = {1};
        std::map<std::string, Expr> lets_;
        void visit(const For *op) override {
            auto it = directives->find(op->name);
            bool pipelined = it != directives->end() && it->second.pipeline_ii > 0;
            loops_.push_back(op);
            ii_.push_back(pipelined ? it->second.pipeline_ii : ii_.back());
            IRVisitor::visit(op);
            ii_.pop_back();
            loops_.pop_back();
        }
        void visit(const LetStmt *op) override {
            lets_[op->name] = substitute(lets_, op->value);
            IRVisitor::visit(op);
            lets_.erase(op->name);
        }
        void visit(const Load *op) override {
            if (names->count(op->name) && !loops_.empty()) {
                groups[loops_.back()][op->name].push_back(simplify(substitute(lets_, op->index)));
                ii[loops_.back()] = ii_.back();
            }
            IRVisitor::visit(op);
        }
    } collect;
    collect.names = &names;
    collect.directives = &directives;
    body.accept(&collect);
    const Device memory;  // as infer-partitions: one read port per bank
    std::set<std::string> out;
    for (const auto &g : collect.groups) {
        for (const auto &kv : g.second) {
            if (kv.second.size() < 2) continue;
            std::vector<Expr> distinct;
            for (const Expr &e : kv.second) {
                bool seen = false;
                for (const Expr &d : distinct) seen = seen || equal(d, e);
                if (!seen) distinct.push_back(e);
            }
            if (static_cast<int64_t>(distinct.size()) <= memory.read_ports * collect.ii[g.first]) continue;
            std::vector<Expr> unclamped;
            for (const Expr &e : kv.second) unclamped.push_back(simplify(without_constant_clamps(e)));
            if (constant_offset_groups(unclamped).size() < constant_offset_groups(kv.second).size()) out.insert(kv.first);
        }
    }
    return out;
}

}  // namespace

PassResult pad_margins(FilterGraph &graph) {
    PassResult result;
    std::set<std::string> locals;
    for (const Filter &f : graph.filters) {
        for (const LocalBuffer &l : f.locals) locals.insert(l.name);
    }
    std::set<std::string> candidates;
    for (const Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.channel != ChannelKind::Array || b.dims.empty()) continue;
        if (b.producers.size() != 1 || b.consumers.size() != 1 || b.producers[0] == b.consumers[0]) continue;
        if (b.channel_request != ChannelRequest::Auto || b.partition.enabled || !b.margin.empty()) continue;
        if (locals.count(b.name)) continue;
        int64_t product = 1;
        for (int64_t d : b.dims) product *= d;
        if (product != b.size()) continue;
        candidates.insert(b.name);
    }
    // Only arrays whose padded reads stand in the way of banking.
    std::set<std::string> wanted;
    for (const Filter &f : graph.filters) {
        if (!f.body.defined()) continue;
        for (const std::string &name : apart_but_for_clamps(apply_hls_unroll(f.body, f.directives), candidates, f.directives)) {
            wanted.insert(name);
        }
    }
    if (wanted.empty()) return result;
    std::map<std::string, ArrayPlan> plans;
    for (const std::string &name : wanted) {
        const Buffer &b = graph.buffer(name);
        ArrayPlan p;
        p.dims = b.dims;
        p.before.assign(b.dims.size(), 0);
        p.after.assign(b.dims.size(), 0);
        plans[name] = p;
    }
    for (const Filter &f : graph.filters) {
        if (f.body.defined()) Accesses(plans, false).mutate(f.body);
    }
    for (auto it = plans.begin(); it != plans.end();) {
        it = it->second.decomposes && it->second.unclamps ? std::next(it) : plans.erase(it);
    }
    if (plans.empty()) return result;
    for (Filter &f : graph.filters) {
        if (f.body.defined()) f.body = Accesses(plans, true).mutate(f.body);
    }
    for (Buffer &b : graph.buffers) {
        auto it = plans.find(b.name);
        if (it == plans.end()) continue;
        int64_t size = 1;
        for (size_t d = 0; d < b.dims.size(); d++) {
            b.dims[d] += it->second.before[d] + it->second.after[d];
            size *= b.dims[d];
        }
        b.shape = {size};
        b.margin = it->second.before;
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
