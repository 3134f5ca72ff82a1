// scalar_replacement: accumulators in loops kept in one-element locals.
#include "transforms/ScalarReplacement.h"
#include "transforms/HoistInvariants.h"
#include "support/Names.h"
#include "ir/ConditionalVisitor.h"
#include "ir/IRQueries.h"

#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

struct Access {
    std::vector<Expr> indices;
    bool loaded = false, stored = false, unconditional = false;
    Halide::Type type;
};

// Accesses of each buffer inside a loop body; `unconditional` when some access runs in
// every iteration (not under an if or a loop without a constant positive trip count).
class CollectAccesses : public ConditionalVisitor {
public:
    CollectAccesses() : ConditionalVisitor(false) {}
    std::map<std::string, Access> buffers;
    std::set<std::string> bound;  // variables bound inside the loop

private:
    using ConditionalVisitor::visit;
    void note(const std::string &name, const Expr &index, Halide::Type t, bool store) {
        Access &a = buffers[name];
        a.indices.push_back(index);
        a.type = t;
        (store ? a.stored : a.loaded) = true;
        if (conditional == 0) a.unconditional = true;
    }
    void visit(const Load *op) override {
        note(op->name, op->index, op->type, false);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        note(op->name, op->index, op->value.type(), true);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        bound.insert(op->name);
        const IntImm *e = op->extent.as<IntImm>();
        bool certain = e && e->value > 0;
        conditional += !certain;
        IRVisitor::visit(op);
        conditional -= !certain;
    }
    void visit(const Allocate *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
};

// Whether `e` refers to one of `names` as a variable or loads from one of them.
bool uses_any(const Expr &e, const std::set<std::string> &names) {
    for (const std::string &v : referenced_variables(e)) {
        if (names.count(v)) return true;
    }
    for (const std::string &b : buffer_accesses(e).loads) {
        if (names.count(b)) return true;
    }
    return false;
}

// Replaces accesses to `from` by accesses to element 0 of `to`.
class Redirect : public IRMutator {
public:
    Redirect(const std::string &from, const std::string &to) : from(from), to(to) {}

private:
    const std::string &from, &to;
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        if (op->name != from) return IRMutator::visit(op);
        return Load::make(op->type, to, 0, Halide::Buffer<>(), Parameter(), const_true(), ModulusRemainder());
    }
    Stmt visit(const Store *op) override {
        if (op->name != from) return IRMutator::visit(op);
        return Store::make(to, mutate(op->value), 0, Parameter(), const_true(), ModulusRemainder());
    }
};

class Replace : public IRMutator {
public:
    Replace(Filter &filter, std::set<std::string> &names)
        : filter(filter), names(names), nests(flattened_nest_outer_loops(filter)) {}
    bool changed = false;

private:
    Filter &filter;
    std::set<std::string> &names;
    // Loops of perfect nests the HLS tool flattens, with the loops around them in the nest.
    std::map<std::string, std::set<std::string>> nests;
    using IRMutator::visit;

    // Whether a buffer the loop `loop` only reads at `index` stays read in it: in a flattened
    // nest, unless the index depends on none of the nest's loops, the load taken out of `loop`
    // would stand between two loops of the nest and stop the flattening (hoist-invariants' rule;
    // the pipeline reads it every iteration at no cost in II).
    bool keeps_load(const std::string &loop, const Expr &index) const {
        auto it = nests.find(loop);
        return it != nests.end() && uses_any(index, it->second);
    }

    // One-element locals are scalars already.
    bool is_scalar(const std::string &name) const {
        for (const LocalBuffer &l : filter.locals) {
            if (l.name == name && l.size == 1) return true;
        }
        return false;
    }

    std::string fresh(const std::string &base) { return fresh_name(base + "_acc", names, 2, ""); }

    // Outermost loops first: an accumulator is replaced at the outermost loop in which its
    // index is invariant, and inner loops then see a scalar.
    Stmt visit(const For *op) override {
        const For *f = op;
        const IntImm *trip = f->extent.as<IntImm>();
        // Iterations of a parallel loop must not share a local.
        if (!trip || trip->value <= 0 || f->for_type == ForType::Parallel) return IRMutator::visit(op);
        CollectAccesses acc;
        acc.bound.insert(f->name);
        f->body.accept(&acc);
        Stmt body = f->body;
        std::vector<Stmt> before, after;
        // A loop that accumulates (stores at an index invariant in it) runs at the adder's
        // recurrence whether flattened or not: its loads are taken out as before.
        bool accumulates = false;
        for (const auto &kv : acc.buffers) {
            for (const Expr &i : kv.second.indices) accumulates |= kv.second.stored && !uses_any(i, acc.bound);
        }
        for (const auto &kv : acc.buffers) {
            const Access &a = kv.second;
            if (a.type.lanes() > 1 || a.indices.size() < 2 || !a.unconditional || acc.bound.count(kv.first) || is_scalar(kv.first)) continue;
            const Expr &index = a.indices[0];
            bool same = true;
            for (const Expr &i : a.indices) same &= equal(i, index);
            if (!same || uses_any(index, acc.bound) || (!a.stored && !accumulates && keeps_load(f->name, index))) continue;
            std::string local = fresh(kv.first);
            filter.locals.push_back(LocalBuffer{local, a.type, 1});
            body = Redirect(kv.first, local).mutate(body);
            Expr zero = 0;
            if (a.loaded) {
                Expr value = Load::make(a.type, kv.first, index, Halide::Buffer<>(), Parameter(), const_true(),
                                        ModulusRemainder());
                before.push_back(Store::make(local, value, zero, Parameter(), const_true(), ModulusRemainder()));
            }
            if (a.stored) {
                Expr value = Load::make(a.type, local, zero, Halide::Buffer<>(), Parameter(), const_true(),
                                        ModulusRemainder());
                after.push_back(Store::make(kv.first, value, index, Parameter(), const_true(), ModulusRemainder()));
            }
        }
        if (!before.empty() || !after.empty()) changed = true;
        Stmt result = For::make(f->name, f->min, f->extent, f->for_type, f->device_api, mutate(body));
        for (auto it = before.rbegin(); it != before.rend(); ++it) result = Block::make(*it, result);
        for (const Stmt &st : after) result = Block::make(result, st);
        return result;
    }
};

std::set<std::string> all_buffer_names(const FilterGraph &g, const Filter &f) {
    class Vars : public IRVisitor {
    public:
        std::set<std::string> names;

    private:
        using IRVisitor::visit;
        void visit(const Variable *op) override { names.insert(op->name); }
        void visit(const Allocate *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
    } vars;
    f.body.accept(&vars);
    std::set<std::string> names = vars.names;
    for (const Filter &other : g.filters) names.insert(other.function_name);
    for (const Buffer &b : g.buffers) names.insert(b.name);
    for (const LocalBuffer &l : f.locals) names.insert(l.name);
    return names;
}

}  // namespace

PassResult scalar_replacement(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        std::set<std::string> names = all_buffer_names(graph, f);
        Replace r(f, names);
        f.body = r.mutate(f.body);
        result.changed |= r.changed;
    }
    return result;
}

}  // namespace flowhls
