// hoist_invariants: loop-invariant code motion on filter bodies.
#include "transforms/HoistInvariants.h"
#include "ir/IRQueries.h"

#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

bool constant_positive_trip(const For *op) {
    const IntImm *e = op->extent.as<IntImm>();
    return e && e->value > 0;
}

// Loop name -> the variables of the loops around it in the perfect nest that the HLS tool
// flattens into one pipeline (LoopScheduler's rule: outer bodies hold only LetStmts without
// loads and one loop of constant trip count; the innermost loop holds no loop and is pipelined).
// A load or store moved out of such a loop but not out of the whole nest would stand between
// two of its loops and stop the flattening. Names used by several loops get the union.
using NestOuterLoops = std::map<std::string, std::set<std::string>>;

class FlattenedNests : public IRVisitor {
public:
    explicit FlattenedNests(const std::map<std::string, LoopDirective> &directives) : directives(directives) {}
    NestOuterLoops outer;

private:
    using IRVisitor::visit;
    const std::map<std::string, LoopDirective> &directives;
    std::vector<std::string> enclosing;

    const LoopDirective *directive(const std::string &loop) const {
        auto it = directives.find(loop);
        return it == directives.end() ? nullptr : &it->second;
    }

    // The loop nested directly in `op` as the rest of a perfect nest, or null.
    static const For *perfect_child(const For *op) {
        Stmt s = op->body;
        while (const LetStmt *l = s.as<LetStmt>()) {
            if (!buffer_accesses(l->value).loads.empty()) return nullptr;
            s = l->body;
        }
        const For *inner = s.as<For>();
        return inner && inner->extent.as<IntImm>() ? inner : nullptr;
    }

    void visit(const For *op) override {
        std::vector<const For *> nest = {op};
        while (const For *inner = perfect_child(nest.back())) nest.push_back(inner);
        if (nest.size() > 1 && !contains_loop(nest.back()->body) && pipelined(nest)) {
            for (size_t i = 1; i < nest.size(); i++) {
                for (size_t j = 0; j < i; j++) outer[nest[i]->name].insert(nest[j]->name);
            }
        }
        enclosing.push_back(op->name);
        op->body.accept(this);
        enclosing.pop_back();
    }

    // Whether infer-directives will pipeline the innermost loop of `nest` with the loops around
    // it neither pipelined nor unrolled (what infer-directives leaves alone is the user's choice).
    bool pipelined(const std::vector<const For *> &nest) const {
        for (const std::string &name : enclosing) {
            const LoopDirective *d = directive(name);
            if (d && d->pipeline_ii > 0) return false;
        }
        for (size_t i = 0; i + 1 < nest.size(); i++) {
            const LoopDirective *d = directive(nest[i]->name);
            if (d && (d->pipeline_ii > 0 || d->unroll != 0)) return false;
        }
        const LoopDirective *d = directive(nest.back()->name);
        return !d || d->pipeline_ii > 0 || d->unroll > 0;
    }
};

// LetStmt name -> the variables its value refers to (the union if the name is bound twice).
class LetUses : public IRVisitor {
public:
    std::map<std::string, std::set<std::string>> uses;

private:
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        std::set<std::string> vars = referenced_variables(op->value);
        uses[op->name].insert(vars.begin(), vars.end());
        IRVisitor::visit(op);
    }
};

class Hoist : public IRMutator {
public:
    Hoist(const NestOuterLoops &nests, const std::map<std::string, std::set<std::string>> &let_uses)
        : nests(nests), let_uses(let_uses) {}
    bool changed = false;

private:
    using IRMutator::visit;
    const NestOuterLoops &nests;
    const std::map<std::string, std::set<std::string>> &let_uses;

    struct Loop {
        const For *op;
        bool loads_allowed;
        BufferAccesses accesses;  // of the loop's body
        std::set<std::string> bound;  // loop variable and lets that stay inside
        const std::set<std::string> *nest_outer;  // NestOuterLoops entry of the loop, or null
        std::vector<std::pair<std::string, Expr>> lets;  // hoisted, in order
        std::vector<Stmt> stores;                        // hoisted, in order
    };

    // Whether `e` depends, directly or through lets, on the outer loops of the flattened nest
    // `l` belongs to: memory accesses that do stay inside the nest (see NestOuterLoops).
    bool bound_in_nest(const Loop &l, const Expr &e) const {
        if (!l.nest_outer) return false;
        std::set<std::string> seen;
        std::vector<std::string> work;
        for (const std::string &v : referenced_variables(e)) work.push_back(v);
        while (!work.empty()) {
            std::string v = work.back();
            work.pop_back();
            if (!seen.insert(v).second) continue;
            if (l.nest_outer->count(v)) return true;
            auto it = let_uses.find(v);
            if (it != let_uses.end()) work.insert(work.end(), it->second.begin(), it->second.end());
        }
        return false;
    }

    bool invariant(const Loop &l, const Expr &value) const {
        for (const std::string &v : referenced_variables(value)) {
            if (l.bound.count(v)) return false;
        }
        std::set<std::string> loads = buffer_accesses(value).loads;
        if (!loads.empty()) {
            if (!l.loads_allowed || bound_in_nest(l, value)) return false;
            for (const std::string &b : loads) {
                if (l.accesses.stores.count(b) || l.accesses.allocates.count(b)) return false;
            }
        }
        return true;
    }

    // Walks the statements executed unconditionally in every iteration, taking out what
    // can leave the loop.
    Stmt extract(Loop &l, const Stmt &s) {
        if (const LetStmt *let = s.as<LetStmt>()) {
            if (invariant(l, let->value)) {
                l.lets.emplace_back(let->name, let->value);
                return extract(l, let->body);
            }
            l.bound.insert(let->name);
            return LetStmt::make(let->name, let->value, extract(l, let->body));
        }
        if (const Block *b = s.as<Block>()) {
            Stmt first = extract(l, b->first);
            return Block::make(first, extract(l, b->rest));
        }
        if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            return ProducerConsumer::make(pc->name, pc->is_producer, extract(l, pc->body));
        }
        if (const Store *st = s.as<Store>()) {
            bool only_access = buffer_accesses(s).stores.size() == 1 && !l.accesses.loads.count(st->name);
            if (l.loads_allowed && only_access && invariant(l, st->value) && invariant(l, st->index) &&
                !bound_in_nest(l, st->value) && !bound_in_nest(l, st->index) && store_count(l.op->body, st->name) == 1) {
                l.stores.push_back(s);
                return Evaluate::make(0);
            }
            return s;
        }
        // Inner loops, ifs and other statements keep what they have.
        return s;
    }

    static int store_count(const Stmt &s, const std::string &name) {
        class Count : public IRVisitor {
        public:
            explicit Count(const std::string &n) : name(n) {}
            int n = 0;

        private:
            const std::string &name;
            using IRVisitor::visit;
            void visit(const Store *op) override {
                if (op->name == name) n++;
                IRVisitor::visit(op);
            }
        } c(name);
        s.accept(&c);
        return c.n;
    }

    Stmt visit(const For *op) override {
        // Innermost loops first.
        Stmt inner = IRMutator::visit(op);
        const For *f = inner.as<For>();
        auto nest = nests.find(f->name);
        Loop l{f, constant_positive_trip(f), {}, {f->name}, nest == nests.end() ? nullptr : &nest->second, {}, {}};
        l.accesses = buffer_accesses(f->body);
        Stmt body = extract(l, f->body);
        if (l.lets.empty() && l.stores.empty()) return inner;
        changed = true;
        Stmt result = For::make(f->name, f->min, f->extent, f->for_type, f->device_api, body);
        if (!l.stores.empty()) {
            Stmt stores = l.stores[0];
            for (size_t i = 1; i < l.stores.size(); i++) stores = Block::make(stores, l.stores[i]);
            result = Block::make(stores, result);
        }
        for (auto it = l.lets.rbegin(); it != l.lets.rend(); ++it) result = LetStmt::make(it->first, it->second, result);
        return result;
    }
};

}  // namespace

std::map<std::string, std::set<std::string>> flattened_nest_outer_loops(const Filter &filter) {
    FlattenedNests nests(filter.directives);
    filter.body.accept(&nests);
    return nests.outer;
}

PassResult hoist_invariants(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        // Loads and stores leave a flattened nest all at once or not at all: its loops are known
        // before anything moves.
        FlattenedNests nests(f.directives);
        f.body.accept(&nests);
        // Each round moves computations out by one loop level.
        for (int round = 0; round < 64; round++) {
            LetUses lets;
            f.body.accept(&lets);
            Hoist h(nests.outer, lets.uses);
            f.body = h.mutate(f.body);
            if (!h.changed) break;
            result.changed = true;
        }
    }
    return result;
}

}  // namespace flowhls
