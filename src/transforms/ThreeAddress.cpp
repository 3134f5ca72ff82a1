// three_address: splits expressions into single operations on named temporaries.
#include "transforms/ThreeAddress.h"
#include "ir/IRQueries.h"

#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

bool is_leaf(const Expr &e) {
    return e.as<Variable>() || e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>() || e.as<StringImm>();
}

class Flatten : public IRMutator {
public:
    explicit Flatten(std::set<std::string> taken) : taken(std::move(taken)) {}
    bool changed = false;

private:
    std::set<std::string> taken;
    int counter = 0;
    // Bindings created for the statement being rewritten, in evaluation order.
    std::vector<std::pair<std::string, Expr>> pending;
    using IRMutator::visit;

    // `e` as a leaf: a fresh temporary bound to it unless it already is one. An operation
    // already bound for the same statement is reused (value numbering), so equal indices of
    // a load and a store get the same temporary.
    Expr leaf(const Expr &e) {
        if (is_leaf(e)) return e;
        if (const Call *c = e.as<Call>()) {
            // A strict constant or variable is just that value.
            if (c->is_intrinsic(Call::strict_float) && is_leaf(c->args[0])) return c->args[0];
        }
        Expr single = one_op(e);
        for (const auto &b : pending) {
            if (equal(b.second, single)) return Variable::make(e.type(), b.first);
        }
        std::string name;
        do {
            name = "_" + std::to_string(counter++);
        } while (taken.count(name));
        pending.emplace_back(name, single);
        changed = true;
        return Variable::make(e.type(), name);
    }

    // `e` as one operation whose operands are leaves.
    Expr one_op(const Expr &e) {
        if (is_leaf(e)) return e;
        if (const Call *c = e.as<Call>()) {
            if (c->is_intrinsic(Call::strict_float) && !is_leaf(c->args[0])) {
                return Call::make(c->type, c->name, {one_op(c->args[0])}, c->call_type, c->func, c->value_index,
                                  c->image, c->param);
            }
            std::vector<Expr> args = c->args;
            bool lazy = c->is_intrinsic(Call::if_then_else);
            for (size_t i = 0; i < args.size(); i++) {
                if (!lazy || i == 0) args[i] = leaf(args[i]);
            }
            return Call::make(c->type, c->name, args, c->call_type, c->func, c->value_index, c->image, c->param);
        }
        if (const Load *l = e.as<Load>()) {
            return Load::make(l->type, l->name, leaf(l->index), l->image, l->param, l->predicate, l->alignment);
        }
        if (const Cast *c = e.as<Cast>()) return Cast::make(c->type, leaf(c->value));
        if (const Broadcast *b = e.as<Broadcast>()) return Broadcast::make(leaf(b->value), b->lanes);
        if (const Ramp *r = e.as<Ramp>()) {
            Expr base = leaf(r->base);
            return Ramp::make(base, leaf(r->stride), r->lanes);
        }
        if (const Not *n = e.as<Not>()) return Not::make(leaf(n->a));
        if (const Select *s = e.as<Select>()) {
            return Select::make(leaf(s->condition), leaf(s->true_value), leaf(s->false_value));
        }
#define FLOWHLS_BINARY(T)                                   \
    if (const T *op = e.as<T>()) {                          \
        Expr a = leaf(op->a);                               \
        return T::make(a, leaf(op->b));                     \
    }
        FLOWHLS_BINARY(Add)
        FLOWHLS_BINARY(Sub)
        FLOWHLS_BINARY(Mul)
        FLOWHLS_BINARY(Div)
        FLOWHLS_BINARY(Mod)
        FLOWHLS_BINARY(Min)
        FLOWHLS_BINARY(Max)
        FLOWHLS_BINARY(EQ)
        FLOWHLS_BINARY(NE)
        FLOWHLS_BINARY(LT)
        FLOWHLS_BINARY(LE)
        FLOWHLS_BINARY(GT)
        FLOWHLS_BINARY(GE)
        FLOWHLS_BINARY(And)
        FLOWHLS_BINARY(Or)
#undef FLOWHLS_BINARY
        // Anything else (vector nodes) is left as it is.
        return e;
    }

    // Wraps `s` in the pending bindings (the statement's operands, innermost last).
    Stmt wrap(Stmt s, std::vector<std::pair<std::string, Expr>> bindings) {
        for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
        return s;
    }
    std::vector<std::pair<std::string, Expr>> take() {
        std::vector<std::pair<std::string, Expr>> b;
        b.swap(pending);
        return b;
    }

    Stmt visit(const Store *op) override {
        Expr value = one_op(op->value);
        Expr index = leaf(op->index);
        return wrap(Store::make(op->name, value, index, op->param, op->predicate, op->alignment), take());
    }
    Stmt visit(const LetStmt *op) override {
        Expr value = one_op(op->value);
        auto bindings = take();
        return wrap(LetStmt::make(op->name, value, mutate(op->body)), bindings);
    }
    Stmt visit(const Evaluate *op) override {
        Expr value = one_op(op->value);
        return wrap(Evaluate::make(value), take());
    }
    Stmt visit(const For *op) override {
        Expr min = leaf(op->min), extent = leaf(op->extent);
        auto bindings = take();
        return wrap(For::make(op->name, min, extent, op->for_type, op->device_api, mutate(op->body)), bindings);
    }
    Stmt visit(const IfThenElse *op) override {
        Expr cond = leaf(op->condition);
        auto bindings = take();
        Stmt then_case = mutate(op->then_case);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        return wrap(IfThenElse::make(cond, then_case, else_case), bindings);
    }
};

}  // namespace

PassResult three_address(FilterGraph &graph) {
    PassResult result;
    std::set<std::string> globals;
    for (const Buffer &b : graph.buffers) globals.insert(b.name);
    for (const Filter &f : graph.filters) globals.insert(f.function_name);
    for (Filter &f : graph.filters) {
        std::set<std::string> names = names_in(f.body);
        names.insert(globals.begin(), globals.end());
        for (const LocalBuffer &l : f.locals) names.insert(l.name);
        Flatten flatten(names);
        f.body = flatten.mutate(f.body);
        result.changed |= flatten.changed;
    }
    return result;
}

}  // namespace flowhls
