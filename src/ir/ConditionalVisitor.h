// ConditionalVisitor: an IRVisitor that knows whether the node it visits runs conditionally.
#pragma once

#include <Halide.h>

namespace flowhls {

/// Counts, in `conditional`, the conditional constructs around the node being visited: the
/// branches of an IfThenElse and the lazy arguments of if_then_else; with
/// `lazy_operators`, also the branches of a Select and the second operand of && and ||
/// (evaluated lazily in the C the emitters print). Subclasses call the base visit of these
/// nodes (or leave them alone) and read `conditional == 0` for "runs whenever its statement does".
class ConditionalVisitor : public Halide::Internal::IRVisitor {
public:
    explicit ConditionalVisitor(bool lazy_operators) : lazy_operators(lazy_operators) {}

protected:
    /// Depth of conditional evaluation.
    int conditional = 0;

    using Halide::Internal::IRVisitor::visit;
    void visit(const Halide::Internal::IfThenElse *op) override {
        op->condition.accept(this);
        conditional++;
        op->then_case.accept(this);
        if (op->else_case.defined()) op->else_case.accept(this);
        conditional--;
    }
    void visit(const Halide::Internal::Call *op) override {
        for (size_t i = 0; i < op->args.size(); i++) {
            bool lazy = op->is_intrinsic(Halide::Internal::Call::if_then_else) && i > 0;
            conditional += lazy;
            op->args[i].accept(this);
            conditional -= lazy;
        }
    }
    void visit(const Halide::Internal::Select *op) override {
        op->condition.accept(this);
        conditional += lazy_operators;
        op->true_value.accept(this);
        op->false_value.accept(this);
        conditional -= lazy_operators;
    }
    void visit(const Halide::Internal::And *op) override { lazy_second(op->a, op->b); }
    void visit(const Halide::Internal::Or *op) override { lazy_second(op->a, op->b); }

private:
    bool lazy_operators;
    void lazy_second(const Halide::Expr &a, const Halide::Expr &b) {
        a.accept(this);
        conditional += lazy_operators;
        b.accept(this);
        conditional -= lazy_operators;
    }
};

}  // namespace flowhls
