// constant_int / buffer_accesses / referenced_variables / constant_offset_groups: small IR queries.
#include "ir/IRQueries.h"

#include <cstring>
#include <type_traits>

namespace flowhls {

using namespace Halide::Internal;

namespace {

class Collect : public IRVisitor {
public:
    BufferAccesses accesses;
    std::set<std::string> variables;

private:
    using IRVisitor::visit;
    void visit(const Load *op) override {
        accesses.loads.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        accesses.stores.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        accesses.allocates.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override { variables.insert(op->name); }
};

template <typename Node>
Collect collect(const Node &n) {
    Collect c;
    if (n.defined()) n.accept(&c);
    return c;
}

}  // namespace

std::optional<int64_t> constant_int(const Halide::Expr &e) {
    if (const int64_t *c = as_const_int(e)) return *c;
    return std::nullopt;
}

Halide::Expr element_constant(const Halide::Buffer<> &b, int64_t i) {
    const Halide::Type t = b.type();
    return read_element(b, i, [&](auto v) {
        if constexpr (std::is_floating_point_v<decltype(v)>) return Halide::Expr(v);
        else return make_const(t, v);
    });
}

Halide::Expr resolve_lets(const LetBindings &lets, Halide::Expr e) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) e = substitute(it->first, it->second, e);
    return simplify(e);
}

Halide::Expr without_constant_clamps(const Halide::Expr &e) {
    class Unclamp : public IRMutator {
        using IRMutator::visit;
        Halide::Expr visit(const Min *op) override {
            return is_const(op->b) ? mutate(op->a) : is_const(op->a) ? mutate(op->b) : IRMutator::visit(op);
        }
        Halide::Expr visit(const Max *op) override {
            return is_const(op->b) ? mutate(op->a) : is_const(op->a) ? mutate(op->b) : IRMutator::visit(op);
        }
    };
    return Unclamp().mutate(e);
}

BufferAccesses buffer_accesses(const Stmt &s) { return collect(s).accesses; }
BufferAccesses buffer_accesses(const Halide::Expr &e) { return collect(e).accesses; }
std::set<std::string> referenced_variables(const Halide::Expr &e) { return collect(e).variables; }
std::set<std::string> referenced_variables(const Stmt &s) { return collect(s).variables; }

std::vector<ConstantOffsetGroup> constant_offset_groups(const std::vector<Halide::Expr> &indices) {
    std::vector<ConstantOffsetGroup> groups;
    for (size_t i = 0; i < indices.size(); i++) {
        bool placed = false;
        for (ConstantOffsetGroup &g : groups) {
            Halide::Expr diff = simplify(indices[i] - g.base);
            const int64_t *c = as_const_int(diff);
            if (!c) continue;
            g.members.push_back(i);
            g.offsets.push_back(*c);
            placed = true;
            break;
        }
        if (!placed) groups.push_back(ConstantOffsetGroup{indices[i], {i}, {0}});
    }
    return groups;
}

namespace {

class Names : public Halide::Internal::IRVisitor {
public:
    std::set<std::string> names;

private:
    using IRVisitor::visit;
    void visit(const Halide::Internal::Variable *op) override { names.insert(op->name); }
    void visit(const Halide::Internal::LetStmt *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Halide::Internal::Let *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Halide::Internal::For *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Halide::Internal::Load *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Halide::Internal::Store *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Halide::Internal::Allocate *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
};

}  // namespace

std::set<std::string> names_in(const Halide::Internal::Stmt &s) {
    Names n;
    if (s.defined()) s.accept(&n);
    return n.names;
}

bool contains_loop(const Halide::Internal::Stmt &s) {
    class Find : public Halide::Internal::IRVisitor {
    public:
        bool found = false;

    private:
        using IRVisitor::visit;
        void visit(const Halide::Internal::For *) override { found = true; }
    } f;
    if (s.defined()) s.accept(&f);
    return f.found;
}

namespace {

// The additive terms of `e` as (coefficient, expression) pairs plus a constant; false when a
// term is not a constant multiple of an expression (vectors and non-integer types included).
bool affine_terms(const Halide::Expr &e, int64_t sign, std::vector<std::pair<int64_t, Halide::Expr>> &terms,
                  int64_t &constant) {
    if (auto c = constant_int(e)) {
        constant += sign * *c;
        return true;
    }
    if (const Add *a = e.as<Add>()) return affine_terms(a->a, sign, terms, constant) && affine_terms(a->b, sign, terms, constant);
    if (const Sub *s = e.as<Sub>()) return affine_terms(s->a, sign, terms, constant) && affine_terms(s->b, -sign, terms, constant);
    if (const Mul *m = e.as<Mul>()) {
        auto cb = constant_int(m->b);
        if (cb) return affine_terms(m->a, sign * *cb, terms, constant);
    }
    terms.emplace_back(sign, e);
    return true;
}

}  // namespace

std::vector<Halide::Expr> dimension_indices(const Halide::Expr &flat, const std::vector<int64_t> &shape,
                                            const Scope<Interval> &bounds) {
    std::vector<Halide::Expr> out;
    size_t n = shape.size();
    std::vector<int64_t> strides(n, 1);
    for (size_t d = 1; d < n; d++) strides[d] = strides[d - 1] * shape[d - 1];
    // The affine split: each term to the outermost dimension whose stride divides its
    // coefficient, the constant as mixed-radix digits; kept when every dimension but the
    // outermost is proved within its extent (then it is the only split).
    std::vector<std::pair<int64_t, Halide::Expr>> terms;
    int64_t constant = 0;
    if (flat.type().is_scalar() && flat.type().is_int() && n > 0 && affine_terms(simplify(flat), 1, terms, constant)) {
        std::vector<Halide::Expr> idx(n, Halide::Internal::make_zero(flat.type()));
        for (const auto &t : terms) {
            size_t d = n - 1;
            while (d > 0 && t.first % strides[d] != 0) d--;
            idx[d] = idx[d] + t.second * Halide::Internal::make_const(flat.type(), t.first / strides[d]);
        }
        int64_t rest = constant;
        for (size_t d = n; d-- > 0;) {
            int64_t digit = d == 0 ? rest : (rest >= 0 ? rest / strides[d] : -((-rest + strides[d] - 1) / strides[d]));
            rest -= digit * strides[d];
            idx[d] = simplify(idx[d] + Halide::Internal::make_const(flat.type(), digit), true, bounds);
        }
        bool proved = true;
        for (size_t d = 0; d + 1 < n && proved; d++) {
            Interval r = bounds_of_expr_in_scope(idx[d], bounds);
            auto lo = r.has_lower_bound() ? constant_int(simplify(r.min)) : std::nullopt;
            auto hi = r.has_upper_bound() ? constant_int(simplify(r.max)) : std::nullopt;
            proved = lo && hi && *lo >= 0 && *hi < shape[d];
        }
        if (proved) return idx;
    }
    if (n == 2 && shape[1] == 2 && flat.type().is_scalar() && flat.type().is_int()) {
        // Two halves (an array packed in pairs, [2][H]): a comparison instead of a division.
        Halide::Expr h = Halide::Internal::make_const(flat.type(), shape[0]);
        Halide::Expr upper = flat >= h;
        return {simplify(Halide::select(upper, flat - h, flat), true, bounds),
                simplify(Halide::select(upper, Halide::Internal::make_one(flat.type()),
                                        Halide::Internal::make_zero(flat.type())),
                         true, bounds)};
    }
    for (size_t d = 0; d < n; d++) {
        Halide::Expr i = strides[d] == 1 ? flat : flat / Halide::Internal::make_const(flat.type(), strides[d]);
        if (d + 1 < n) i = i % Halide::Internal::make_const(flat.type(), shape[d]);
        out.push_back(simplify(i, true, bounds));
    }
    return out;
}

}  // namespace flowhls
