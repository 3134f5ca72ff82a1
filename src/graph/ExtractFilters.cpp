// extract_filters: builds the FilterGraph from the root level of the lowered IR.
#include "graph/ExtractFilters.h"
#include "flowhls/Error.h"
#include "graph/Verify.h"
#include "ir/IRQueries.h"
#include "support/Names.h"

#include <map>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// Constant upper bound of the element count of an allocation, or -1.
int64_t constant_size(const std::vector<Halide::Expr> &extents, const Scope<Interval> &scope) {
    Halide::Expr size = 1;
    for (const Halide::Expr &e : extents) size = size * Halide::cast<int64_t>(e);
    size = simplify(size);
    if (const int64_t *c = as_const_int(size)) return *c;
    Halide::Expr bound = find_constant_bound(size, Direction::Upper, scope);
    if (bound.defined()) {
        if (std::optional<int64_t> c = constant_int(simplify(bound))) return *c;
    }
    return -1;
}

// Extent of each dimension of an allocation (innermost first) when all are constants, else {}.
std::vector<int64_t> constant_dims(const std::vector<Halide::Expr> &extents) {
    std::vector<int64_t> dims;
    for (const Halide::Expr &e : extents) {
        std::optional<int64_t> c = constant_int(simplify(Halide::cast<int64_t>(e)));
        if (!c) return {};
        dims.push_back(*c);
    }
    return dims;
}

// Drops the references of loads and stores to Halide's front-end objects (ImageParams,
// Parameters, Buffers) and their alignment hints: a filter body names buffers only by name,
// so it holds no handle on the caller's program and prints exactly as ir/IRText.h writes it.
class DropFrontEndReferences : public IRMutator {
    using IRMutator::visit;
    Halide::Expr visit(const Load *op) override {
        return Load::make(op->type, op->name, mutate(op->index), Halide::Buffer<>(), Parameter(), mutate(op->predicate),
                          ModulusRemainder());
    }
    Stmt visit(const Store *op) override {
        return Store::make(op->name, mutate(op->value), mutate(op->index), Parameter(), mutate(op->predicate),
                           ModulusRemainder());
    }
    Halide::Expr visit(const Variable *op) override {
        if (!op->param.defined() && !op->image.defined() && !op->reduction_domain.defined()) return op;
        return Variable::make(op->type, op->name);
    }
};

// Removes Allocate/Free nodes from a filter body, recording them as locals.
class HoistAllocations : public IRMutator {
public:
    explicit HoistAllocations(const std::string &filter) : filter(filter) {}
    std::vector<LocalBuffer> locals;

private:
    std::string filter;
    // Ranges of the enclosing loop variables, and the enclosing lets (innermost last),
    // which are substituted before bounding so that bounds only see loop variables.
    Scope<Interval> scope;
    std::vector<std::pair<std::string, Halide::Expr>> lets;
    using IRMutator::visit;

    Halide::Expr in_loop_terms(Halide::Expr e) const {
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) e = substitute(it->first, it->second, e);
        return simplify(substitute_in_all_lets(e));
    }
    // Allocations inside a parallel loop stay there: each iteration needs its own copy.
    int parallel_depth = 0;

    Stmt visit(const For *op) override {
        Halide::Expr lo = find_constant_bound(in_loop_terms(op->min), Direction::Lower, scope);
        Halide::Expr hi = find_constant_bound(in_loop_terms(op->min + op->extent - 1), Direction::Upper, scope);
        ScopedBinding<Interval> bind(scope, op->name, Interval(lo.defined() ? lo : Interval::neg_inf(),
                                                               hi.defined() ? hi : Interval::pos_inf()));
        bool parallel = op->for_type == ForType::Parallel;
        parallel_depth += parallel;
        Stmt s = IRMutator::visit(op);
        parallel_depth -= parallel;
        return s;
    }
    Stmt visit(const LetStmt *op) override {
        lets.emplace_back(op->name, op->value);
        Stmt s = IRMutator::visit(op);
        lets.pop_back();
        return s;
    }
    Stmt visit(const Allocate *op) override {
        std::vector<Halide::Expr> extents;
        for (const Halide::Expr &e : op->extents) extents.push_back(in_loop_terms(e));
        int64_t size = constant_size(extents, scope);
        if (size < 0) {
            std::ostringstream extents;
            for (size_t i = 0; i < op->extents.size(); i++) extents << (i ? " x " : "") << op->extents[i];
            throw Error("filter '" + filter + "': the storage of '" + halide_base_name(op->name) + "' (" +
                        extents.str() +
                        ") has no constant size bound; give the Func a bounded region (bound() or a different store_at level)");
        }
        if (parallel_depth > 0) {
            return Allocate::make(op->name, op->type, op->memory_type, {Halide::Expr(static_cast<int>(size))},
                                  const_true(), mutate(op->body));
        }
        bool found = false;
        std::vector<int64_t> dims = constant_dims(extents);
        for (LocalBuffer &l : locals) {
            if (l.name == op->name) {
                l.size = std::max(l.size, size);
                if (l.dims != dims) l.dims.clear();
                found = true;
            }
        }
        if (!found) {
            locals.push_back(LocalBuffer{op->name, op->type, size});
            locals.back().dims = dims;
        }
        return mutate(op->body);
    }
    Stmt visit(const Free *) override { return Evaluate::make(0); }
};

class RootWalker {
public:
    explicit RootWalker(FilterGraph &graph) : graph(graph) {}

    void walk(const Stmt &s) {
        if (!s.defined()) return;
        if (const Block *b = s.as<Block>()) {
            walk(b->first);
            walk(b->rest);
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            walk(substitute(l->name, l->value, l->body));
        } else if (const Allocate *a = s.as<Allocate>()) {
            int64_t size = constant_size(a->extents, Scope<Interval>());
            if (size < 0) {
                throw Error("buffer '" + halide_base_name(a->name) + "' has a size that is not a compile-time constant");
            }
            Buffer b;
            b.name = a->name;
            b.type = a->type;
            b.shape = {size};
            b.dims = constant_dims(a->extents);
            b.kind = BufferKind::Intermediate;
            b.channel = ChannelKind::Array;
            root_allocations.push_back(b);
            walk(a->body);
        } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            if (pc->is_producer) {
                Filter f;
                f.name = halide_base_name(pc->name);
                f.function_name = "compute_" + f.name;
                HoistAllocations hoist(f.name);
                f.body = DropFrontEndReferences().mutate(simplify(hoist.mutate(pc->body)));
                f.locals = hoist.locals;
                graph.filters.push_back(f);
            } else {
                walk(pc->body);
            }
        } else if (s.as<Free>()) {
            return;
        } else if (const Evaluate *e = s.as<Evaluate>()) {
            if (!is_const(e->value)) unexpected(s);
        } else {
            unexpected(s);
        }
    }

    std::vector<Buffer> root_allocations;

private:
    FilterGraph &graph;

    [[noreturn]] void unexpected(const Stmt &s) {
        std::ostringstream os;
        os << s;
        std::string text = os.str();
        if (text.size() > 200) text = text.substr(0, 200) + "...";
        throw Error("statement outside of any Func's producer at the root of the pipeline: " + text);
    }
};

}  // namespace

FilterGraph extract_filters(const LoweredProgram &program) {
    FilterGraph graph;
    graph.name = program.name;
    for (const KernelArg &a : program.args) {
        Buffer b;
        b.name = a.name;
        b.type = a.type;
        b.shape = a.shape;
        b.kind = a.is_output ? BufferKind::Output : BufferKind::Input;
        if (a.constant.defined()) {
            b.kind = BufferKind::Constant;  // place-weights decides ROM or m_axi argument
            b.contents = a.constant;
        }
        b.channel = Buffer::default_channel(b.kind);
        graph.buffers.push_back(b);
        if (!a.constant.defined()) graph.args.push_back(a.name);
    }
    RootWalker walker(graph);
    walker.walk(program.body);
    for (const Buffer &b : walker.root_allocations) graph.buffers.push_back(b);
    recompute_edges(graph);

    // A root allocation touched by a single filter is that filter's own storage (store_root
    // of a Func computed inside another); an untouched one is dead.
    std::vector<Buffer> kept;
    for (const Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate) {
            kept.push_back(b);
            continue;
        }
        std::set<int> users(b.producers.begin(), b.producers.end());
        users.insert(b.consumers.begin(), b.consumers.end());
        if (users.empty()) continue;
        if (users.size() == 1) {
            graph.filters[*users.begin()].locals.push_back(LocalBuffer{b.name, b.type, b.shape[0]});
            graph.filters[*users.begin()].locals.back().dims = b.dims;
            continue;
        }
        kept.push_back(b);
    }
    graph.buffers = kept;
    recompute_edges(graph);
    // A read outside a kernel input is the program's error (its --shape is too small).
    for (const OutOfBoundsAccess &a : out_of_bounds_accesses(graph)) {
        const Buffer &b = graph.buffer(a.buffer);
        if (b.kind != BufferKind::Input || a.store) continue;
        std::string shape;
        for (auto it = b.shape.rbegin(); it != b.shape.rend(); ++it) shape += (shape.empty() ? "" : "x") + std::to_string(*it);
        throw Error("Func '" + a.filter + "' reads input '" + halide_base_name(b.name) + "' (shape " + shape + ", " +
                    std::to_string(a.size) + " elements) at elements " + std::to_string(a.low) + " to " +
                    std::to_string(a.high) + ": the program reads outside the input; give the input a larger --shape");
    }
    return graph;
}

}  // namespace flowhls
