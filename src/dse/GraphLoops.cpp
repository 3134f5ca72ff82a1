// graph_loops: the `FUNC.sN.VAR` loops of a filter body with their trips and nesting.
#include "dse/GraphLoops.h"
#include "support/Names.h"

namespace flowhls::dse {

namespace {

class LoopCollector : public Halide::Internal::IRVisitor {
public:
    std::vector<GraphLoop> loops;

private:
    using IRVisitor::visit;
    void visit(const Halide::Internal::For *op) override {
        const auto *extent = op->extent.as<Halide::Internal::IntImm>();
        HalideLoopName parts;
        bool named = extent && split_halide_loop_name(op->name, parts);
        if (named) {
            GraphLoop l;
            l.func = halide_base_name(parts.func);
            l.stage = parts.stage;
            l.var = parts.var;
            l.trip = extent->value;
            l.parent = open_.empty() ? -1 : open_.back();
            open_.push_back(static_cast<int>(loops.size()));
            loops.push_back(l);
        }
        IRVisitor::visit(op);
        if (named) open_.pop_back();
    }
    std::vector<int> open_;  // the collected loops enclosing the visit
};

}  // namespace

std::vector<GraphLoop> graph_loops(const Halide::Internal::Stmt &body) {
    LoopCollector c;
    if (body.defined()) body.accept(&c);
    return c.loops;
}

}  // namespace flowhls::dse
