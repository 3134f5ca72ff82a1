// dead_code: removes unused lets, dead stores, empty statements, unread buffers and filters.
#include "transforms/DeadCode.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

bool uses(const Stmt &s, const std::string &name) { return referenced_variables(s).count(name) > 0; }

class Clean : public IRMutator {
public:
    explicit Clean(std::set<std::string> dead_buffers) : dead(std::move(dead_buffers)) {}
    bool changed = false;

private:
    std::set<std::string> dead;
    using IRMutator::visit;

    Stmt visit(const Store *op) override {
        if (dead.count(op->name)) {
            changed = true;
            return Evaluate::make(0);
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        if (!uses(body, op->name)) {
            changed = true;
            return body;
        }
        return LetStmt::make(op->name, op->value, body);
    }
    Stmt visit(const Block *op) override {
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        if (is_no_op(first)) {
            changed |= !is_no_op(op->first);
            return rest;
        }
        if (is_no_op(rest)) {
            changed |= !is_no_op(op->rest);
            return first;
        }
        return Block::make(first, rest);
    }
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (is_no_op(body)) {
            changed = true;
            return Evaluate::make(0);
        }
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
    }
    Stmt visit(const IfThenElse *op) override {
        Stmt then_case = mutate(op->then_case);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        if (is_no_op(then_case) && is_no_op(else_case)) {
            changed = true;
            return Evaluate::make(0);
        }
        if (is_no_op(else_case)) else_case = Stmt();
        if (is_no_op(then_case)) {
            changed = true;
            return IfThenElse::make(Not::make(op->condition), else_case);
        }
        return IfThenElse::make(op->condition, then_case, else_case);
    }
    Stmt visit(const ProducerConsumer *op) override {
        Stmt body = mutate(op->body);
        if (is_no_op(body)) {
            changed = true;
            return body;
        }
        return ProducerConsumer::make(op->name, op->is_producer, body);
    }
    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        if (dead.count(op->name) || is_no_op(body)) {
            changed = true;
            return body;
        }
        return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition, body, op->new_expr,
                              op->free_function);
    }
};

// Intermediate buffers no filter reads (a producer that reads back what it wrote keeps the
// buffer alive: its stores may feed what it computes next).
std::set<std::string> unread_intermediates(const FilterGraph &g) {
    std::set<std::string> dead;
    for (const Buffer &b : g.buffers) {
        if (b.kind == BufferKind::Intermediate && b.consumers.empty()) dead.insert(b.name);
    }
    return dead;
}

}  // namespace

PassResult dead_code(FilterGraph &graph) {
    PassResult result;
    for (int round = 0; round < 64; round++) {
        bool changed = false;
        std::set<std::string> dead_globals = unread_intermediates(graph);
        for (Filter &f : graph.filters) {
            // Locals never loaded, and allocations inside the body never loaded.
            std::set<std::string> loaded = buffer_accesses(f.body).loads;
            std::set<std::string> dead = dead_globals;
            for (const LocalBuffer &l : f.locals) {
                if (!loaded.count(l.name)) dead.insert(l.name);
            }
            Clean clean(dead);
            f.body = clean.mutate(f.body);
            changed |= clean.changed;
            size_t before = f.locals.size();
            f.locals.erase(std::remove_if(f.locals.begin(), f.locals.end(),
                                          [&](const LocalBuffer &l) { return dead.count(l.name) > 0; }),
                           f.locals.end());
            changed |= f.locals.size() != before;
            if (!f.returns.empty() && dead.count(f.returns)) f.returns.clear();
        }
        if (!dead_globals.empty()) {
            graph.buffers.erase(std::remove_if(graph.buffers.begin(), graph.buffers.end(),
                                               [&](const Buffer &b) { return dead_globals.count(b.name) > 0; }),
                                graph.buffers.end());
            changed = true;
        }
        recompute_edges(graph);
        size_t before = graph.filters.size();
        graph.filters.erase(std::remove_if(graph.filters.begin(), graph.filters.end(),
                                           [](const Filter &f) { return f.writes.empty() && f.returns.empty(); }),
                            graph.filters.end());
        if (graph.filters.size() != before) {
            changed = true;
            recompute_edges(graph);
        }
        if (!changed) break;
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
