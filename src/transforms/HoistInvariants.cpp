// hoist_invariants: loop-invariant code motion on filter bodies.
#include "transforms/HoistInvariants.h"
#include "ir/IRQueries.h"

#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

bool constant_positive_trip(const For *op) {
    const IntImm *e = op->extent.as<IntImm>();
    return e && e->value > 0;
}

class Hoist : public IRMutator {
public:
    bool changed = false;

private:
    using IRMutator::visit;

    struct Loop {
        const For *op;
        bool loads_allowed;
        BufferAccesses accesses;  // of the loop's body
        std::set<std::string> bound;  // loop variable and lets that stay inside
        std::vector<std::pair<std::string, Expr>> lets;  // hoisted, in order
        std::vector<Stmt> stores;                        // hoisted, in order
    };

    bool invariant(const Loop &l, const Expr &value) const {
        for (const std::string &v : referenced_variables(value)) {
            if (l.bound.count(v)) return false;
        }
        std::set<std::string> loads = buffer_accesses(value).loads;
        if (!loads.empty()) {
            if (!l.loads_allowed) return false;
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
                store_count(l.op->body, st->name) == 1) {
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
        Loop l{f, constant_positive_trip(f), {}, {f->name}, {}, {}};
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

PassResult hoist_invariants(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        // Each round moves computations out by one loop level.
        for (int round = 0; round < 64; round++) {
            Hoist h;
            f.body = h.mutate(f.body);
            if (!h.changed) break;
            result.changed = true;
        }
    }
    return result;
}

}  // namespace flowhls
