// check_emittable: refuses what the printer cannot express before anything is emitted.
#include "emit/PrepareEmission.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"

#include <sstream>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

void check_type(Halide::Type t) {
    if (c_type_supported(t)) return;
    std::ostringstream os;
    os << t.element_of();
    throw Error("type " + os.str() + " is not supported by the C emitter");
}

// Visits every node the printer prints, in its order, without IRGraphVisitor's sharing (a
// shared node can be inside a vector statement at one place and outside at another).
class Checker : public IRGraphVisitor {
public:
    Checker(const CDialect &dialect, const std::set<std::string> &scalars, const std::set<std::string> &streams)
        : dialect(dialect), scalars(scalars), streams(streams) {}

    void include(const Expr &e) override {
        if (!e.defined()) return;
        check(e);
        e.accept(this);
    }
    void include(const Stmt &s) override {
        if (!s.defined()) return;
        if (!printable_stmt(s)) {
            std::ostringstream text;
            text << s;
            throw Error("statement cannot be printed as C: " + text.str().substr(0, 160));
        }
        s.accept(this);
    }

private:
    const CDialect &dialect;
    const std::set<std::string> &scalars;
    const std::set<std::string> &streams;
    // Inside a vector statement, printed lane by lane.
    bool in_lane = false;

    static bool printable_stmt(const Stmt &s) {
        return s.as<Block>() || s.as<For>() || s.as<LetStmt>() || s.as<Store>() || s.as<IfThenElse>() ||
               s.as<Allocate>() || s.as<ProducerConsumer>() || s.as<Evaluate>();
    }

    // The checks of one expression node (its children are visited after).
    void check(const Expr &e) {
        if (e.type().lanes() != 1 && !in_lane) {
            throw Error("vector expression cannot be printed as C for this target: " + short_text(e));
        }
        if (e.as<Let>()) return;  // inline-expr-lets removes them: the printer's internal error
        if (e.as<Shuffle>() || e.as<VectorReduce>()) {
            throw Error("vector shuffles and reductions are not supported: " + short_text(e));
        }
        if (e.as<StringImm>()) throw Error("expression cannot be printed as C: " + short_text(e));
        check_type(e.type());
        if (const Load *l = e.as<Load>()) {
            bool plain = scalars.count(l->name) || streams.count(l->name) || is_const_one(l->predicate);
            if (!plain && e.type().lanes() == 1) throw Error("predicated load cannot be printed as C: " + short_text(e));
        }
        if (const Call *c = e.as<Call>()) {
            if (!c_call_supported(c)) {
                throw Error("call to '" + c->name + "' is not supported by the C emitter (in " + short_text(e) + ")");
            }
        }
    }

    // A vector statement's parts, printed lane by lane.
    void lanes(const std::vector<Expr> &parts) {
        if (!dialect.vectors_as_arrays) throw Error("vector code cannot be printed for this target");
        in_lane = true;
        for (const Expr &e : parts) include(e);
        in_lane = false;
    }

    void visit(const Load *op) override {
        if (scalars.count(op->name) || streams.count(op->name)) return;  // printed without an index
        include(op->index);
        if (!is_const_one(op->predicate)) include(op->predicate);
    }
    void visit(const For *op) override {
        include(op->min);
        include(op->extent);
        if (op->for_type == ForType::Parallel && !dialect.openmp_parallel) {
            throw Error("parallel loop '" + op->name + "' cannot be printed for this target");
        }
        include(op->body);
    }
    void visit(const LetStmt *op) override {
        check_type(op->value.type());
        if (op->value.type().lanes() > 1) {
            lanes({op->value});
        } else {
            include(op->value);
        }
        include(op->body);
    }
    void visit(const Store *op) override {
        if (op->value.type().lanes() > 1) {
            lanes({op->index, op->value, op->predicate});
            return;
        }
        if (!is_const_one(op->predicate)) throw Error("predicated store cannot be printed as C");
        if (!scalars.count(op->name) && !streams.count(op->name)) include(op->index);
        include(op->value);
    }
    void visit(const Allocate *op) override {
        check_type(op->type);
        include(op->body);
    }
    void visit(const Evaluate *op) override {
        if (!is_const(op->value)) include(op->value);
    }
};

}  // namespace

void check_printable(const Stmt &s, const CDialect &dialect, const std::set<std::string> &scalars,
                     const std::set<std::string> &streams) {
    Checker checker(dialect, scalars, streams);
    checker.include(s);
}

void check_printable(const Expr &e, const CDialect &dialect) {
    const std::set<std::string> none;
    Checker checker(dialect, none, none);
    checker.include(e);
}

void check_emittable(const FilterGraph &graph, const KernelStyle &style) {
    for (const Buffer &b : graph.buffers) check_type(b.type);
    for (const Filter &f : graph.filters) {
        for (const LocalBuffer &l : f.locals) check_type(l.type);
        std::set<std::string> scalars, streams;
        printed_as_values(graph, f, style, scalars, streams);
        check_printable(f.body, style.dialect, scalars, streams);
    }
}

void check_emittable(const FilterGraph &graph, HlsTarget target) {
    check_emittable(graph, target == HlsTarget::Vitis ? vitis_kernel_style() : bambu_kernel_style());
}

}  // namespace flowhls
