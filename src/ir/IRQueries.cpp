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

}  // namespace flowhls
