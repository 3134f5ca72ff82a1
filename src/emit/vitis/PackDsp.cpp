// pack_dsp_pairs: reductions of adjacent iterations sharing an operand, one wide multiply per pair.
#include "emit/vitis/PackDsp.h"
#include "analysis/IntegerWidths.h"
#include "ir/IRQueries.h"
#include "support/Names.h"

#include <functional>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// A store to the accumulator with the loops around it and the lets in scope.
struct AccStore {
    const Store *store = nullptr;
    std::vector<const For *> loops;
    std::map<std::string, Expr> raw, expanded;  // let values as written / with lets substituted
};

class FindStores {
public:
    FindStores(const std::string &acc, const Stmt &body) : acc(acc) { walk(body); }
    std::vector<AccStore> stores;

private:
    std::string acc;
    std::vector<const For *> loops;
    std::map<std::string, Expr> raw, expanded;

    void walk(const Stmt &s) {
        if (!s.defined()) return;
        if (const Block *b = s.as<Block>()) {
            walk(b->first);
            walk(b->rest);
        } else if (const For *f = s.as<For>()) {
            loops.push_back(f);
            walk(f->body);
            loops.pop_back();
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            raw[l->name] = l->value;
            expanded[l->name] = substitute(expanded, l->value);
            walk(l->body);
            raw.erase(l->name);
            expanded.erase(l->name);
        } else if (const Store *st = s.as<Store>()) {
            if (st->name == acc) stores.push_back({st, loops, raw, expanded});
        } else if (const IfThenElse *i = s.as<IfThenElse>()) {
            walk(i->then_case);
            walk(i->else_case);
        } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            walk(pc->body);
        } else if (const Allocate *a = s.as<Allocate>()) {
            walk(a->body);
        }
    }
};

// The consume node of `acc` in a loop body, with the LetStmts around it (outermost first);
// false when it is missing, inside a loop or an if, or when something else than `acc` is
// stored outside it.
bool find_consumer(const Stmt &body, const std::string &acc, const ProducerConsumer **consumer,
                   std::vector<const LetStmt *> *path) {
    bool ok = true;
    std::vector<const LetStmt *> lets;
    std::function<void(const Stmt &, bool)> walk = [&](const Stmt &s, bool nested) {
        if (!s.defined()) return;
        if (const Block *b = s.as<Block>()) {
            walk(b->first, nested);
            walk(b->rest, nested);
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            lets.push_back(l);
            walk(l->body, nested);
            lets.pop_back();
        } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            if (!pc->is_producer && pc->name == acc) {
                if (nested || *consumer) ok = false;
                *consumer = pc;
                *path = lets;
                return;
            }
            walk(pc->body, nested);
        } else if (const For *f = s.as<For>()) {
            walk(f->body, true);
        } else if (const IfThenElse *i = s.as<IfThenElse>()) {
            walk(i->then_case, true);
            walk(i->else_case, true);
        } else if (const Store *st = s.as<Store>()) {
            if (st->name != acc) ok = false;
        } else if (s.as<Evaluate>()) {
            // no effect
        } else {
            ok = false;
        }
    };
    *consumer = nullptr;
    walk(body, false);
    return ok && *consumer;
}

// Renames buffers (loads, stores, producer-consumer marks), lets and loops.
class Rename : public IRMutator {
public:
    std::map<std::string, std::string> buffers, names;
    using IRMutator::visit;

private:
    std::string of(const std::map<std::string, std::string> &m, const std::string &n) const {
        auto it = m.find(n);
        return it == m.end() ? n : it->second;
    }
    Expr visit(const Variable *op) override {
        return names.count(op->name) ? Variable::make(op->type, of(names, op->name)) : Expr(op);
    }
    Expr visit(const Load *op) override {
        return Load::make(op->type, of(buffers, op->name), mutate(op->index), op->image, op->param, mutate(op->predicate),
                          op->alignment);
    }
    Stmt visit(const Store *op) override {
        return Store::make(of(buffers, op->name), mutate(op->value), mutate(op->index), op->param, mutate(op->predicate),
                           op->alignment);
    }
    Stmt visit(const ProducerConsumer *op) override {
        return ProducerConsumer::make(of(buffers, op->name), op->is_producer, mutate(op->body));
    }
    Stmt visit(const LetStmt *op) override {
        return LetStmt::make(of(names, op->name), mutate(op->value), mutate(op->body));
    }
    Stmt visit(const For *op) override {
        return For::make(of(names, op->name), mutate(op->min), mutate(op->extent), op->for_type, op->device_api,
                         mutate(op->body));
    }
};

// LetStmts whose variable nothing uses, removed.
class DropUnusedLets : public IRMutator {
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        if (!referenced_variables(body).count(op->name)) return body;
        return LetStmt::make(op->name, op->value, body);
    }
};

// Replaces one node (by identity) with a statement.
class ReplaceStmt : public IRMutator {
public:
    ReplaceStmt(const IRNode *node, Stmt with) : node(node), with(std::move(with)) {}
    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override { return s.get() == node ? with : IRMutator::mutate(s); }

private:
    const IRNode *node;
    Stmt with;
};

// Expressions that use variable `name`, with `value` for it when defined, simplified (an unrolled
// pair's index `(p * 2) * 28` becomes `p * 56`, whose copies the HLS tool and the estimator fold
// to constants).
class SimplifyUses : public IRMutator {
public:
    SimplifyUses(std::string name, Expr value) : name(std::move(name)), value(std::move(value)) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!referenced_variables(e).count(name)) return e;
        return simplify(value.defined() ? substitute(name, value, e) : e);
    }

private:
    std::string name;
    Expr value;
};

// Names of the lets and loops a statement binds.
std::set<std::string> bound_names(const Stmt &s) {
    struct Binders : IRVisitor {
        std::set<std::string> names;
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const For *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
    } b;
    s.accept(&b);
    return b.names;
}

bool fits(const std::optional<std::pair<int64_t, int64_t>> &r, int64_t lo, int64_t hi) {
    return r && r->first >= lo && r->second <= hi;
}

int64_t magnitude(const std::pair<int64_t, int64_t> &r) { return std::max(-r.first, r.second); }

// A reduction into a scalar int32 accumulator that can be packed: the init and the update
// `acc + a * b` under the same loops, the innermost of them (`loop`, variable `v`, even
// constant extent) varying one factor (`packed_factor`) and not the other (`shared`).
struct PackMatch {
    FindStores found;  // owns the stores `init` and `update` point into
    const AccStore *init = nullptr, *update = nullptr;
    const For *loop = nullptr;
    int64_t min = 0, extent = 0;
    std::string v;
    const Load *acc_load = nullptr;
    Expr packed_raw, shared_raw, packed_factor;
    const ProducerConsumer *consumer = nullptr;  // where the accumulator is read
    std::vector<const LetStmt *> path;           // the lets between `loop` and `consumer`

    PackMatch(const std::string &acc, const Stmt &body) : found(acc, body) {}
};

// The init and the update of `acc` in `m.found`, under the same loops; false otherwise.
bool match_init_update(const LocalBuffer &acc, PackMatch *m) {
    for (const AccStore &s : m->found.stores) {
        Expr value = substitute(s.expanded, s.store->value);
        const AccStore *&slot = buffer_accesses(value).loads.count(acc.name) ? m->update : m->init;
        if (slot) return false;
        slot = &s;
    }
    const AccStore *init = m->init, *update = m->update;
    if (!init || !update || init->loops.empty() || update->loops.size() <= init->loops.size()) return false;
    for (size_t i = 0; i < init->loops.size(); i++) {
        if (init->loops[i] != update->loops[i]) return false;
    }
    m->loop = init->loops.back();
    std::optional<int64_t> min = constant_int(m->loop->min), extent = constant_int(m->loop->extent);
    if (!min || !extent || *extent < 2 || *extent % 2 != 0 || m->loop->for_type != ForType::Serial) return false;
    m->min = *min;
    m->extent = *extent;
    m->v = m->loop->name;
    return true;
}

// The update's product `a * b`, one factor depending on the loop variable, both in the
// ranges a 27x18 multiply packs exactly; false otherwise.
bool match_product(const FilterGraph &g, const LocalBuffer &acc, PackMatch *m) {
    const AccStore *update = m->update;
    const Add *add = update->store->value.as<Add>();
    if (!add) return false;
    auto is_acc = [&](const Expr &e) {
        const Load *l = e.as<Load>();
        return l && l->name == acc.name;
    };
    // The operands as written may be lets of the load and of the product.
    Expr ea = substitute(update->expanded, add->a), eb = substitute(update->expanded, add->b);
    m->acc_load = is_acc(ea) ? ea.as<Load>() : is_acc(eb) ? eb.as<Load>() : nullptr;
    if (!m->acc_load) return false;
    Expr term = is_acc(ea) ? add->b : add->a;
    if (const Variable *t = term.as<Variable>()) {
        auto it = update->raw.find(t->name);
        if (it == update->raw.end()) return false;
        term = it->second;
    }
    const Mul *mul = term.as<Mul>();
    if (!mul || mul->type != Halide::Int(32)) return false;
    Expr a = substitute(update->expanded, mul->a), b = substitute(update->expanded, mul->b);
    if (buffer_accesses(a).loads.count(acc.name) || buffer_accesses(b).loads.count(acc.name)) return false;
    bool da = referenced_variables(a).count(m->v) > 0, db = referenced_variables(b).count(m->v) > 0;
    if (da == db) return false;
    m->packed_raw = da ? mul->a : mul->b;
    m->shared_raw = da ? mul->b : mul->a;
    m->packed_factor = da ? a : b;
    Expr shared = da ? b : a;
    for (const std::string &buf : buffer_accesses(m->packed_factor).loads) {
        if (g.has_buffer(buf) && g.buffer(buf).is_stream()) return false;  // a FIFO is read once per iteration
    }
    std::optional<std::pair<int64_t, int64_t>> fr = value_range(g, m->packed_factor), sr = value_range(g, shared);
    return fits(fr, -255, 255) && fits(sr, -(1 << 17), (1 << 17) - 1) && magnitude(*fr) * magnitude(*sr) < (1 << 17);
}

// Rewrites the matched reduction of `f`: the loop over v becomes a loop over pairs whose body
// is the even half (both accumulators' init and one packed multiply updating both) followed
// by the odd half of the consumer, its lets and loops renamed.
void rewrite_packed(Filter &f, const LocalBuffer &acc, const PackMatch &m, std::vector<PackedLoop> *packed) {
    const AccStore *init = m.init, *update = m.update;
    const std::string &v = m.v;
    std::set<std::string> taken = names_in(f.body);
    for (const LocalBuffer &l : f.locals) taken.insert(l.name);
    const std::string pair = fresh_name(v + "_pair", taken, 2, ""), odd = fresh_name(acc.name + "_odd", taken, 2, ""),
                      pk = fresh_name(acc.name + "_pk", taken, 2, "");
    Expr p = Halide::Internal::Variable::make(Halide::Int(32), pair);
    Expr base = Halide::Internal::make_const(Halide::Int(32), m.min);
    Expr v_even = simplify(base + 2 * p), v_odd = simplify(base + 2 * p + 1);

    // Even half with the odd accumulator's init and update beside the even one's.
    Expr init_odd = substitute(v, v_odd, substitute(init->expanded, init->store->value));
    Stmt init_both = Block::make(Stmt(init->store), Store::make(odd, init_odd, init->store->index, init->store->param,
                                                                init->store->predicate, init->store->alignment));
    Expr pk_var = Halide::Internal::Variable::make(Halide::Int(64), pk);
    std::vector<Expr> operands = {substitute(v, v_odd, m.packed_factor), m.packed_raw, m.shared_raw};
    Expr product = Call::make(Halide::Int(64), "flowhls_pack_mul", operands, Call::PureExtern);
    const Load *acc_load = m.acc_load;
    auto load_of = [&](const std::string &name) {
        return Load::make(acc_load->type, name, acc_load->index, acc_load->image, acc_load->param, acc_load->predicate,
                          acc_load->alignment);
    };
    auto store_of = [&](const std::string &name, const char *part) {
        Expr part_value = Call::make(Halide::Int(32), part, std::vector<Expr>{pk_var}, Call::PureExtern);
        return Store::make(name, load_of(name) + part_value, update->store->index, update->store->param,
                           update->store->predicate, update->store->alignment);
    };
    Stmt update_both =
        LetStmt::make(pk, product, Block::make(store_of(acc.name, "flowhls_pack_lo"), store_of(odd, "flowhls_pack_hi")));
    Stmt even = ReplaceStmt(init->store, init_both).mutate(m.loop->body);
    even = ReplaceStmt(update->store, update_both).mutate(even);
    even = substitute(v, v_even, even);

    // Odd half of the consumer: its lets and loops renamed, after the even one's.
    Stmt post = Stmt(m.consumer);
    for (auto it = m.path.rbegin(); it != m.path.rend(); ++it) post = LetStmt::make((*it)->name, (*it)->value, post);
    Rename rename;
    rename.buffers[acc.name] = odd;
    for (const std::string &n : bound_names(post)) rename.names[n] = fresh_name(n + "_odd", taken, 2, "");
    post = substitute(v, v_odd, rename.mutate(post));

    Stmt body = DropUnusedLets().mutate(Block::make(even, post));
    Stmt new_loop = For::make(pair, 0, static_cast<int>(m.extent / 2), m.loop->for_type, m.loop->device_api, body);
    f.body = ReplaceStmt(m.loop, new_loop).mutate(f.body);
    LocalBuffer second = acc;
    second.name = odd;
    f.locals.push_back(second);
    auto d = f.directives.find(v);
    if (d != f.directives.end()) {
        LoopDirective moved = d->second;
        f.directives.erase(d);
        f.directives[pair] = moved;
    }
    for (const auto &kv : rename.names) {
        auto dir = f.directives.find(kv.first);
        if (dir != f.directives.end()) f.directives[kv.second] = dir->second;
    }
    packed->push_back({f.name, v, acc.name});
}

// The one update of the array accumulator `acc` in `m.found`, directly (lets aside) in an
// unrolled loop of even constant extent and unroll (`m.loop`) that its index depends on, with
// a constant distance between the elements of adjacent iterations; false otherwise.
bool match_unrolled_update(const Filter &f, const LocalBuffer &acc, PackMatch *m) {
    for (const AccStore &s : m->found.stores) {
        if (!buffer_accesses(substitute(s.expanded, s.store->value)).loads.count(acc.name)) continue;
        if (m->update) return false;
        m->update = &s;
    }
    if (!m->update || m->update->loops.empty()) return false;
    const For *loop = m->update->loops.back();
    Stmt inner = loop->body;
    while (const LetStmt *l = inner.as<LetStmt>()) inner = l->body;
    if (inner.get() != m->update->store) return false;
    std::optional<int64_t> min = constant_int(loop->min), extent = constant_int(loop->extent);
    if (!min || !extent || *extent < 2 || *extent % 2 != 0 || loop->for_type != ForType::Serial) return false;
    auto d = f.directives.find(loop->name);
    if (d == f.directives.end() || d->second.unroll == 0) return false;
    if (d->second.unroll != kUnrollComplete && d->second.unroll % 2 != 0) return false;
    m->loop = loop;
    m->min = *min;
    m->extent = *extent;
    m->v = loop->name;
    Expr index = substitute(m->update->expanded, m->update->store->index);
    Expr step = simplify(substitute(m->v, Variable::make(Halide::Int(32), m->v) + 1, index) - index);
    std::optional<int64_t> distance = constant_int(step);
    return distance && *distance != 0;
}

// Rewrites the matched update of the array accumulator `acc` of `f`: the unrolled loop over v
// becomes an unrolled loop over pairs, each one packed multiply updating the elements of
// v = 2p (low part) and v = 2p + 1 (high part); the unroll factor is halved.
void rewrite_unrolled(Filter &f, const LocalBuffer &acc, const PackMatch &m, std::vector<PackedLoop> *packed) {
    const AccStore *update = m.update;
    const std::string &v = m.v;
    std::set<std::string> taken = names_in(f.body);
    for (const LocalBuffer &l : f.locals) taken.insert(l.name);
    const std::string pair = fresh_name(v + "_pair", taken, 2, ""), pk = fresh_name(acc.name + "_pk", taken, 2, "");
    Expr p = Variable::make(Halide::Int(32), pair);
    Expr base = make_const(Halide::Int(32), m.min);
    Expr v_even = simplify(base + 2 * p), v_odd = simplify(base + 2 * p + 1);
    Expr pk_var = Variable::make(Halide::Int(64), pk);
    // The odd element's factor and index: the lets inside the loop (those that may depend on v)
    // substituted, the ones outside kept (their index arithmetic stays outside the pipeline).
    std::map<std::string, Expr> inner;
    for (Stmt s = m.loop->body; const LetStmt *l = s.as<LetStmt>(); s = l->body) inner[l->name] = substitute(inner, l->value);
    auto odd_of = [&](const Expr &e) { return substitute(v, v_odd, substitute(inner, e)); };
    std::vector<Expr> operands = {odd_of(m.packed_raw), m.packed_raw, m.shared_raw};
    Expr product = Call::make(Halide::Int(64), "flowhls_pack_mul", operands, Call::PureExtern);
    const Store *st = update->store;
    Expr index_odd = odd_of(st->index);
    auto add_part = [&](const Expr &index, const char *part) {
        Expr value = Call::make(Halide::Int(32), part, std::vector<Expr>{pk_var}, Call::PureExtern);
        Expr old = Load::make(m.acc_load->type, acc.name, index, m.acc_load->image, m.acc_load->param,
                              m.acc_load->predicate, m.acc_load->alignment);
        return Store::make(acc.name, old + value, index, st->param, st->predicate, st->alignment);
    };
    Stmt both = LetStmt::make(pk, product,
                              Block::make(add_part(st->index, "flowhls_pack_lo"), add_part(index_odd, "flowhls_pack_hi")));
    Stmt body = ReplaceStmt(st, both).mutate(m.loop->body);
    // One pair: no loop (as Halide drops loops of one iteration).
    Expr only = m.extent == 2 ? Expr(0) : Expr();
    body = SimplifyUses(pair, only).mutate(DropUnusedLets().mutate(substitute(v, v_even, body)));
    auto d = f.directives.find(v);
    LoopDirective moved = d->second;
    f.directives.erase(d);
    if (m.extent == 2) {
        f.body = ReplaceStmt(m.loop, body).mutate(f.body);
    } else {
        Stmt new_loop = For::make(pair, 0, static_cast<int>(m.extent / 2), m.loop->for_type, m.loop->device_api, body);
        f.body = ReplaceStmt(m.loop, new_loop).mutate(f.body);
        if (moved.unroll != kUnrollComplete) moved.unroll /= 2;
        f.directives[pair] = moved;
    }
    packed->push_back({f.name, v, acc.name});
}

// Packs the reduction into `acc` of `f` when it has the form of the contract; false otherwise.
bool pack(const FilterGraph &g, Filter &f, const LocalBuffer &acc, std::vector<PackedLoop> *packed) {
    if (acc.type != Halide::Int(32)) return false;
    if (!acc.scalar) {
        PackMatch m(acc.name, f.body);
        if (!match_unrolled_update(f, acc, &m) || !match_product(g, acc, &m)) return false;
        rewrite_unrolled(f, acc, m, packed);
        return true;
    }
    PackMatch m(acc.name, f.body);
    if (!match_init_update(acc, &m) || !match_product(g, acc, &m)) return false;
    if (!find_consumer(m.loop->body, acc.name, &m.consumer, &m.path)) return false;
    rewrite_packed(f, acc, m, packed);
    return true;
}

bool calls_pack(const Stmt &s) {
    bool found = false;
    struct Finder : IRVisitor {
        bool *found;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->name == "flowhls_pack_mul") *found = true;
            IRVisitor::visit(op);
        }
    } finder;
    finder.found = &found;
    s.accept(&finder);
    return found;
}

}  // namespace

FilterGraph pack_dsp_pairs(const FilterGraph &graph, std::vector<PackedLoop> *packed) {
    FilterGraph g = graph;
    for (Filter &f : g.filters) {
        std::vector<LocalBuffer> locals = f.locals;
        for (const LocalBuffer &l : locals) pack(g, f, l, packed);
    }
    return g;
}

bool uses_dsp_packing(const FilterGraph &graph) {
    for (const Filter &f : graph.filters) {
        if (calls_pack(f.body)) return true;
    }
    return false;
}

}  // namespace flowhls
