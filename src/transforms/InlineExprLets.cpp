// inline_expr_lets: substitutes Let expressions into their uses.
#include "transforms/InlineExprLets.h"

namespace flowhls {

using namespace Halide::Internal;

namespace {

class InlineLets : public IRMutator {
public:
    bool changed = false;

private:
    using IRMutator::visit;
    Halide::Expr visit(const Let *op) override {
        changed = true;
        return mutate(substitute(op->name, op->value, op->body));
    }
};

}  // namespace

PassResult inline_expr_lets(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        InlineLets m;
        f.body = m.mutate(f.body);
        result.changed |= m.changed;
    }
    return result;
}

}  // namespace flowhls
