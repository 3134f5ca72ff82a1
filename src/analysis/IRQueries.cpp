// buffer_accesses / referenced_variables: IR visitors collecting names.
#include "analysis/IRQueries.h"

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
    void visit(const Variable *op) override { variables.insert(op->name); }
};

template <typename Node>
Collect collect(const Node &n) {
    Collect c;
    if (n.defined()) n.accept(&c);
    return c;
}

}  // namespace

BufferAccesses buffer_accesses(const Stmt &s) { return collect(s).accesses; }
BufferAccesses buffer_accesses(const Halide::Expr &e) { return collect(e).accesses; }
std::set<std::string> referenced_variables(const Halide::Expr &e) { return collect(e).variables; }
std::set<std::string> referenced_variables(const Stmt &s) { return collect(s).variables; }

}  // namespace flowhls
