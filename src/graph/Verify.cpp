// verify_graph: structural, naming, typing, scoping and bounds invariants of a FilterGraph.
#include "graph/Verify.h"
#include "ir/ConditionalVisitor.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

std::string text(const Expr &e) {
    std::ostringstream os;
    os << e;
    std::string s = os.str();
    return s.size() > 120 ? s.substr(0, 120) + "..." : s;
}

std::string names_text(const FilterGraph &g, const std::vector<int> &ids) {
    std::string out = "[";
    for (size_t i = 0; i < ids.size(); i++) {
        out += i ? ", " : "";
        out += ids[i] >= 0 && ids[i] < static_cast<int>(g.filters.size()) ? g.filters[ids[i]].name : "?";
    }
    return out + "]";
}

std::string list_text(const std::vector<std::string> &v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); i++) out += (i ? ", " : "") + v[i];
    return out + "]";
}

// Whether the expression tree of `e` has more than `limit` nodes.
bool larger_than(const Expr &e, int64_t limit) {
    struct Count : IRMutator {
        int64_t n = 0, limit = 0;
        Expr mutate(const Expr &x) override {
            if (++n > limit) return x;
            return IRMutator::mutate(x);
        }
    } c;
    c.limit = limit;
    c.mutate(e);
    return c.n > limit;
}

// Whether the interval of `e` over a box of exact loop ranges is exact: every variable is an
// exact loop variable used once, and every operation is monotone in each operand.
class ExactInterval : public IRVisitor {
public:
    explicit ExactInterval(const Scope<Interval> &loops) : loops(loops) {}
    bool exact = true;

private:
    const Scope<Interval> &loops;
    std::set<std::string> seen;
    using IRVisitor::visit;

    void visit(const Variable *op) override {
        if (!loops.contains(op->name) || !seen.insert(op->name).second) exact = false;
    }
    void visit(const Mul *op) override {
        if (!is_const(op->a) && !is_const(op->b)) exact = false;
        IRVisitor::visit(op);
    }
    void visit(const Div *op) override {
        if (!is_positive_const(op->b) || !op->type.is_int()) exact = false;
        IRVisitor::visit(op);
    }
    void visit(const Cast *op) override {
        if (!op->type.is_int() || !op->value.type().is_int() || op->type.bits() < op->value.type().bits()) exact = false;
        IRVisitor::visit(op);
    }
    void visit(const Ramp *op) override {
        if (!is_const(op->stride)) exact = false;
        IRVisitor::visit(op);
    }
    void visit(const Mod *) override { exact = false; }
    void visit(const Load *) override { exact = false; }
    void visit(const Call *) override { exact = false; }
    void visit(const Select *) override { exact = false; }
    void visit(const Let *) override { exact = false; }
    void visit(const FloatImm *) override { exact = false; }
    void visit(const Shuffle *) override { exact = false; }
};

// Checks one filter body: names, scoping, types and bounds of its accesses.
class BodyChecker : public ConditionalVisitor {
public:
    BodyChecker(const FilterGraph &g, const Filter &f, const VerifyOptions &options, std::vector<std::string> &problems,
                std::vector<OutOfBoundsAccess> &outside)
        : ConditionalVisitor(true), g(g), f(f), options(options), problems(problems), outside(outside) {
        for (const LocalBuffer &l : f.locals) local_size[l.name] = l.size;
    }
    /// Names of the loops of the body.
    std::set<std::string> loops_found;

private:
    const FilterGraph &g;
    const Filter &f;
    const VerifyOptions &options;
    std::vector<std::string> &problems;
    std::vector<OutOfBoundsAccess> &outside;
    std::map<std::string, int64_t> local_size;
    // Names in scope; bindings seen (for uniqueness); exact ranges of loop variables; lets
    // with their values in loop variables (undefined when too large); buffers allocated here.
    Scope<> bound;
    std::set<std::string> bound_once;
    Scope<Interval> loops;
    Scope<Expr> lets;
    Scope<int64_t> allocated;
    // `conditional` (ConditionalVisitor) also counts empty loops.
    using ConditionalVisitor::visit;

    void problem(const std::string &what) { problems.push_back("filter " + f.name + ": " + what); }

    // `e` with the enclosing lets replaced by their values (undefined if a let is too large).
    Expr expand(const Expr &e) const {
        struct Expand : IRMutator {
            const Scope<Expr> &lets;
            bool failed = false;
            explicit Expand(const Scope<Expr> &lets) : lets(lets) {}
            using IRMutator::visit;
            Expr visit(const Variable *op) override {
                if (!lets.contains(op->name)) return op;
                Expr v = lets.get(op->name);
                if (!v.defined()) failed = true;
                return v.defined() ? v : Expr(op);
            }
        } x(lets);
        Expr out = x.mutate(e);
        return x.failed ? Expr() : out;
    }

    void bind(const std::string &name, const char *what) {
        if (name.empty()) problem(std::string("a ") + what + " without a name");
        if (!options.c_identifiers) return;
        if (!is_c_identifier(name)) problem(std::string(what) + " '" + name + "' is not a C identifier");
        if (!bound_once.insert(name).second) problem(std::string(what) + " '" + name + "' is bound twice");
        if (g.has_buffer(name) || local_size.count(name)) {
            problem(std::string(what) + " '" + name + "' has the name of a buffer");
        }
    }

    // The element count of `name` (a graph buffer, a local or an allocation), or -1 if unknown.
    int64_t size_of(const std::string &name, Halide::Type *type) const {
        if (allocated.contains(name)) return allocated.get(name);
        auto l = local_size.find(name);
        for (const LocalBuffer &lb : f.locals) {
            if (lb.name == name) *type = lb.type;
        }
        if (l != local_size.end()) return l->second;
        for (const Buffer &b : g.buffers) {
            if (b.name == name) {
                *type = b.type;
                return b.size();
            }
        }
        return -1;
    }

    void check_access(const char *what, const std::string &name, Halide::Type type, const Expr &index,
                      const Expr &predicate) {
        Halide::Type buffer_type;
        int64_t size = size_of(name, &buffer_type);
        if (size < 0) {
            problem(std::string(what) + " of '" + name + "', which is neither a buffer nor a local");
            return;
        }
        if (!allocated.contains(name) && buffer_type != type.element_of()) {
            std::ostringstream os;
            os << what << " of '" << name << "' as " << type.element_of() << " but it holds " << buffer_type;
            problem(os.str());
        }
        if (conditional || !is_const_one(predicate)) return;
        Expr e = expand(index);
        if (!e.defined() || larger_than(e, 64)) return;
        ExactInterval exact(loops);
        e.accept(&exact);
        if (!exact.exact) return;
        Interval range = bounds_of_expr_in_scope(e, loops);
        Expr low = range.has_lower_bound() ? simplify(range.min) : Expr();
        Expr high = range.has_upper_bound() ? simplify(range.max) : Expr();
        const int64_t *lo = low.defined() ? as_const_int(low) : nullptr;
        const int64_t *hi = high.defined() ? as_const_int(high) : nullptr;
        if (!lo || !hi) return;
        if (*lo < 0 || *hi >= size) {
            outside.push_back({f.name, name, std::string(what) == "store", text(index), *lo, *hi, size});
        }
    }

    void visit(const Variable *op) override {
        if (!bound.contains(op->name)) problem("variable '" + op->name + "' is used where it is not bound");
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        bind(op->name, "loop");
        loops_found.insert(op->name);
        // (simplified in place: as_const_int points into the expression)
        Expr min = expand(op->min), extent = expand(op->extent);
        if (min.defined()) min = simplify(min);
        if (extent.defined()) extent = simplify(extent);
        const int64_t *m = min.defined() ? as_const_int(min) : nullptr;
        const int64_t *e = extent.defined() ? as_const_int(extent) : nullptr;
        ScopedBinding<> b(bound, op->name);
        bool empty = e && *e <= 0;
        conditional += empty;
        if (m && e && *e > 0) {
            Halide::Type t = op->min.type();
            ScopedBinding<Interval> r(loops, op->name, Interval(make_const(t, *m), make_const(t, *m + *e - 1)));
            op->body.accept(this);
        } else {
            op->body.accept(this);
        }
        conditional -= empty;
    }
    // A Let or LetStmt: its value checked, its name bound (with the value, when small, for
    // the bounds of accesses) while its body is checked.
    template <typename LetNode>
    void visit_let(const LetNode *op) {
        op->value.accept(this);
        bind(op->name, "let");
        Expr v = expand(op->value);
        if (v.defined() && larger_than(v, 64)) v = Expr();
        ScopedBinding<> b(bound, op->name);
        ScopedBinding<Expr> l(lets, op->name, v);
        op->body.accept(this);
    }
    void visit(const LetStmt *op) override { visit_let(op); }
    void visit(const Let *op) override { visit_let(op); }
    void visit(const Load *op) override {
        check_access("load", op->name, op->type, op->index, op->predicate);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        check_access("store", op->name, op->value.type(), op->index, op->predicate);
        for (const Buffer &b : g.buffers) {
            if (b.name == op->name && (b.kind == BufferKind::Input || b.kind == BufferKind::Constant)) {
                problem("stores to '" + b.name + "', an " + buffer_kind_name(b.kind) + " buffer");
            }
        }
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) e.accept(this);
        bind(op->name, "allocation");
        int64_t size = 1;
        for (const Expr &e : op->extents) {
            const int64_t *c = as_const_int(e);  // e lives in op
            size = c && size >= 0 ? size * *c : -1;
        }
        if (size < 0) problem("allocation '" + op->name + "' without a constant size");
        ScopedBinding<int64_t> a(allocated, op->name, std::max<int64_t>(size, 0));
        op->body.accept(this);
    }
};

void check_buffers(const FilterGraph &g, const VerifyOptions &o, std::vector<std::string> &p) {
    std::set<std::string> names;
    for (const Buffer &b : g.buffers) {
        std::string where = "buffer " + b.name + ": ";
        if (b.name.empty()) p.push_back("a buffer without a name");
        if (!names.insert(b.name).second) p.push_back(where + "the name is used twice");
        if (o.c_identifiers && !is_c_identifier(b.name)) p.push_back(where + "the name is not a C identifier");
        if (b.shape.empty()) p.push_back(where + "no shape");
        for (int64_t e : b.shape) {
            if (e <= 0) p.push_back(where + "an extent of " + std::to_string(e));
        }
        if (b.kind == BufferKind::Intermediate && b.shape.size() != 1) p.push_back(where + "an intermediate with more than one dimension");
        if (b.kind == BufferKind::Constant) {
            if (!b.contents.defined()) {
                p.push_back(where + "a ROM without contents");
            } else if (b.contents.type() != b.type || static_cast<int64_t>(b.contents.number_of_elements()) != b.size()) {
                p.push_back(where + "ROM contents of another type or size");
            }
        }
        int args = static_cast<int>(std::count(g.args.begin(), g.args.end(), b.name));
        bool is_arg = b.kind == BufferKind::Input || b.kind == BufferKind::Output;
        if (args != (is_arg ? 1 : 0)) {
            p.push_back(where + "an " + buffer_kind_name(b.kind) + " buffer listed " + std::to_string(args) +
                        " time(s) among the kernel arguments");
        }
        if (b.is_scalar() && (b.size() != 1 || b.kind != BufferKind::Intermediate)) {
            p.push_back(where + "a scalar that is not a one-element intermediate");
        }
        if (b.is_stream()) {
            if (b.kind != BufferKind::Intermediate) p.push_back(where + "a stream that is not an intermediate");
            if (b.producers.size() != 1 || b.consumers.size() != 1 || b.producers[0] >= b.consumers[0]) {
                p.push_back(where + "a stream needs one producer and one later consumer, it has " +
                            names_text(g, b.producers) + " and " + names_text(g, b.consumers));
            }
            if (b.stream_depth < 1) p.push_back(where + "a stream of depth " + std::to_string(b.stream_depth));
        }
        if (b.partition.enabled && b.partition.kind != PartitionKind::Complete && b.partition.factor < 1) {
            p.push_back(where + "a partition factor of " + std::to_string(b.partition.factor));
        }
        const LineBufferPlan &lb = b.line_buffer;
        if (b.channel == ChannelKind::LineBufferedStream) {
            if (lb.consumer < 0 || lb.consumer >= static_cast<int>(g.filters.size()) ||
                std::find(b.consumers.begin(), b.consumers.end(), lb.consumer) == b.consumers.end()) {
                p.push_back(where + "a line buffer whose consumer does not read the buffer");
            } else {
                const Filter &f = g.filters[lb.consumer];
                auto has_local = [&](const std::string &n) {
                    return std::any_of(f.locals.begin(), f.locals.end(), [&](const LocalBuffer &l) { return l.name == n; });
                };
                if (!lb.lines.empty() && !has_local(lb.lines)) p.push_back(where + "line buffer '" + lb.lines + "' is not a local of " + f.name);
                if (!(lb.window.empty() && lb.rows * lb.cols == 1) && !has_local(lb.window)) p.push_back(where + "window '" + lb.window + "' is not a local of " + f.name);
            }
        }
        const WindowBufferPlan &wb = b.window_buffer;
        if ((b.channel == ChannelKind::WindowBufferedStream) != (wb.consumer >= 0)) {
            p.push_back(where + "a window buffer plan only belongs to a window-buffered stream");
        } else if (wb.consumer >= 0) {
            if (wb.consumer >= static_cast<int>(g.filters.size()) ||
                std::find(b.consumers.begin(), b.consumers.end(), wb.consumer) == b.consumers.end()) {
                p.push_back(where + "a window buffer whose consumer does not read the buffer");
            } else {
                const Filter &f = g.filters[wb.consumer];
                auto ring = std::find_if(f.locals.begin(), f.locals.end(), [&](const LocalBuffer &l) { return l.name == wb.ring; });
                if (ring == f.locals.end()) {
                    p.push_back(where + "ring '" + wb.ring + "' is not a local of " + f.name);
                } else if (ring->size != wb.words()) {
                    p.push_back(where + "ring '" + wb.ring + "' has " + std::to_string(ring->size) + " words, the plan " +
                                std::to_string(wb.words()));
                }
            }
            if (wb.height * wb.row_words() != b.size() || wb.ring_rows < 1 || wb.ring_rows > wb.height) {
                p.push_back(where + "a window buffer whose rows do not tile the buffer");
            }
        }
    }
    // Inputs first, then outputs.
    bool output_seen = false;
    for (const std::string &a : g.args) {
        if (!g.has_buffer(a)) {
            p.push_back("kernel argument '" + a + "' is not a buffer");
            continue;
        }
        BufferKind k = g.buffer(a).kind;
        if (k == BufferKind::Output) output_seen = true;
        if (k == BufferKind::Input && output_seen) p.push_back("kernel argument '" + a + "': an input after an output");
    }
}

void check_edges(const FilterGraph &g, std::vector<std::string> &p) {
    FilterGraph fresh;
    fresh.buffers = g.buffers;
    fresh.filters = g.filters;
    recompute_edges(fresh);
    for (size_t i = 0; i < g.buffers.size(); i++) {
        const Buffer &b = g.buffers[i], &r = fresh.buffers[i];
        if (b.producers != r.producers || b.consumers != r.consumers) {
            p.push_back("buffer " + b.name + ": producers " + names_text(g, b.producers) + " and consumers " +
                        names_text(g, b.consumers) + " but the bodies give " + names_text(g, r.producers) + " and " +
                        names_text(g, r.consumers));
        }
    }
    for (size_t i = 0; i < g.filters.size(); i++) {
        const Filter &f = g.filters[i], &r = fresh.filters[i];
        if (f.reads != r.reads || f.writes != r.writes) {
            p.push_back("filter " + f.name + ": reads " + list_text(f.reads) + " and writes " + list_text(f.writes) +
                        " but its body loads " + list_text(r.reads) + " and stores " + list_text(r.writes));
        }
    }
}

void check_filters(const FilterGraph &g, const VerifyOptions &o, std::vector<std::string> &p) {
    std::set<std::string> names, functions;
    if (g.name.empty()) p.push_back("the kernel has no name");
    if (o.c_identifiers && !is_c_identifier(g.name)) p.push_back("kernel name '" + g.name + "' is not a C identifier");
    for (const Filter &f : g.filters) {
        std::string where = "filter " + f.name + ": ";
        if (f.name.empty()) p.push_back("a filter without a name");
        if (!names.insert(f.name).second) p.push_back(where + "the name is used twice");
        if (!functions.insert(f.function_name).second) p.push_back(where + "function " + f.function_name + " is used twice");
        if (o.c_identifiers && (!is_c_identifier(f.function_name) || f.function_name == g.name || g.has_buffer(f.function_name))) {
            p.push_back(where + "function name '" + f.function_name + "' is not a free C identifier");
        }
        if (!f.body.defined()) {
            p.push_back(where + "no body");
            continue;
        }
        std::set<std::string> locals;
        for (const LocalBuffer &l : f.locals) {
            if (!locals.insert(l.name).second) p.push_back(where + "local " + l.name + " is declared twice");
            if (g.has_buffer(l.name)) p.push_back(where + "local " + l.name + " has the name of a buffer");
            if (o.c_identifiers && !is_c_identifier(l.name)) p.push_back(where + "local " + l.name + " is not a C identifier");
            if (l.size <= 0 || (l.scalar && l.size != 1)) p.push_back(where + "local " + l.name + " of " + std::to_string(l.size) + " element(s)" + (l.scalar ? " is a scalar" : ""));
        }
        if (!f.returns.empty()) {
            if (!g.has_buffer(f.returns) || !g.buffer(f.returns).is_scalar() ||
                std::find(f.writes.begin(), f.writes.end(), f.returns) == f.writes.end()) {
                p.push_back(where + "returns '" + f.returns + "', which is not a scalar buffer it writes");
            }
        }
        std::vector<OutOfBoundsAccess> outside;
        BodyChecker checker(g, f, o, p, outside);
        f.body.accept(&checker);
        for (const OutOfBoundsAccess &a : outside) {
            p.push_back(where + (a.store ? "store to '" : "load of '") + a.buffer + "' at " + a.index + " reaches [" +
                        std::to_string(a.low) + ", " + std::to_string(a.high) + "], outside its " +
                        std::to_string(a.size) + " elements");
        }
        for (const auto &d : f.directives) {
            if (!checker.loops_found.count(d.first)) p.push_back(where + "a directive on loop '" + d.first + "', which it does not have");
        }
    }
}

}  // namespace

bool is_c_identifier(const std::string &name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<OutOfBoundsAccess> out_of_bounds_accesses(const FilterGraph &graph) {
    std::vector<OutOfBoundsAccess> outside;
    std::vector<std::string> ignored;
    for (const Filter &f : graph.filters) {
        if (!f.body.defined()) continue;
        BodyChecker checker(graph, f, VerifyOptions(), ignored, outside);
        f.body.accept(&checker);
    }
    return outside;
}

std::vector<std::string> verify_graph(const FilterGraph &graph, const VerifyOptions &options) {
    std::vector<std::string> problems;
    check_buffers(graph, options, problems);
    check_edges(graph, problems);
    check_filters(graph, options, problems);
    return problems;
}

void check_graph(const FilterGraph &graph, const VerifyOptions &options, const std::string &after_pass) {
    std::vector<std::string> problems = verify_graph(graph, options);
    if (problems.empty()) return;
    std::string message = "invalid filter graph after pass '" + after_pass + "':";
    for (const std::string &p : problems) message += "\n  " + p;
    throw std::logic_error(message);
}

}  // namespace flowhls
