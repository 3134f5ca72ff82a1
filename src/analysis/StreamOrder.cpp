// stream_verdict: the order in which a filter writes a buffer and another reads it.
#include "analysis/StreamOrder.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <vector>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// One load or store of the buffer with its enclosing loops and let-bound names resolved.
struct Access {
    Expr index;
    std::vector<const For *> loops;  // outermost first
    bool conditional = false;
    /// Conditions of enclosing ifs that bound loop variables (`v < c`, `v >= c`, `v == c`):
    /// they only narrow the loops' ranges.
    std::vector<Expr> bounds;
};

// Splits a condition into conjuncts; false if one of them is not a bound of a variable by a
// constant.
bool box_conjuncts(const Expr &e, std::vector<Expr> &out) {
    if (const And *a = e.as<And>()) return box_conjuncts(a->a, out) && box_conjuncts(a->b, out);
    Expr a, b;
    if (const LT *op = e.as<LT>()) a = op->a, b = op->b;
    else if (const LE *op = e.as<LE>()) a = op->a, b = op->b;
    else if (const GT *op = e.as<GT>()) a = op->a, b = op->b;
    else if (const GE *op = e.as<GE>()) a = op->a, b = op->b;
    else if (const EQ *op = e.as<EQ>()) a = op->a, b = op->b;
    else return false;
    if (!a.as<Variable>() || !as_const_int(b)) return false;
    out.push_back(e);
    return true;
}

// A loop's range as an access sees it: the loop's bounds narrowed by the enclosing ifs.
struct LoopRange {
    const For *loop;
    int64_t min, extent;
};

// The ranges of an access's loops; "" or why they cannot be known.
std::string loop_ranges(const std::vector<const For *> &loops, const std::vector<Expr> &bounds,
                        std::vector<LoopRange> &out, const std::string &what) {
    out.clear();
    for (const For *f : loops) {
        const int64_t *min = as_const_int(f->min), *extent = as_const_int(f->extent);
        if (!min || !extent) return what + " is inside loop " + f->name + " whose bounds are not constant";
        int64_t lo = *min, hi = *min + *extent;  // [lo, hi)
        for (const Expr &e : bounds) {
            Expr a, b;
            int kind = 0;
            if (const LT *op = e.as<LT>()) a = op->a, b = op->b, kind = 0;
            if (const LE *op = e.as<LE>()) a = op->a, b = op->b, kind = 1;
            if (const GT *op = e.as<GT>()) a = op->a, b = op->b, kind = 2;
            if (const GE *op = e.as<GE>()) a = op->a, b = op->b, kind = 3;
            if (const EQ *op = e.as<EQ>()) a = op->a, b = op->b, kind = 4;
            if (a.as<Variable>()->name != f->name) continue;
            int64_t c = *as_const_int(b);
            if (kind == 0) hi = std::min(hi, c);
            if (kind == 1) hi = std::min(hi, c + 1);
            if (kind == 2) lo = std::max(lo, c + 1);
            if (kind == 3) lo = std::max(lo, c);
            if (kind == 4) lo = std::max(lo, c), hi = std::min(hi, c + 1);
        }
        if (hi <= lo) return what + " is never executed";
        out.push_back({f, lo, hi - lo});
    }
    // A bound of anything but an enclosing loop's variable makes the access conditional.
    for (const Expr &e : bounds) {
        std::string name;
        if (const LT *op = e.as<LT>()) name = op->a.as<Variable>()->name;
        if (const LE *op = e.as<LE>()) name = op->a.as<Variable>()->name;
        if (const GT *op = e.as<GT>()) name = op->a.as<Variable>()->name;
        if (const GE *op = e.as<GE>()) name = op->a.as<Variable>()->name;
        if (const EQ *op = e.as<EQ>()) name = op->a.as<Variable>()->name;
        bool found = std::any_of(loops.begin(), loops.end(), [&](const For *f) { return f->name == name; });
        if (!found) return what + " is conditional";
    }
    return "";
}

class FindAccesses : public IRVisitor {
public:
    explicit FindAccesses(const std::string &buffer) : buffer_(buffer) {}
    std::vector<Access> stores, loads;

private:
    using IRVisitor::visit;
    std::string buffer_;
    std::vector<const For *> loops_;
    LetBindings lets_;
    int conditional_ = 0;
    std::vector<Expr> bounds_;

    Access here(const Expr &index) const { return {resolve_lets(lets_, index), loops_, conditional_ > 0, bounds_}; }

    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        loops_.push_back(op);
        op->body.accept(this);
        loops_.pop_back();
    }
    void visit(const LetStmt *op) override { visit_let(op); }
    void visit(const Let *op) override { visit_let(op); }
    template <class LetNode> void visit_let(const LetNode *op) {
        op->value.accept(this);
        lets_.emplace_back(op->name, op->value);
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const IfThenElse *op) override {
        op->condition.accept(this);
        std::vector<Expr> box;
        bool bounds_only = !op->else_case.defined() && box_conjuncts(op->condition, box);
        if (bounds_only) {
            bounds_.insert(bounds_.end(), box.begin(), box.end());
            op->then_case.accept(this);
            bounds_.resize(bounds_.size() - box.size());
            return;
        }
        conditional_++;
        op->then_case.accept(this);
        if (op->else_case.defined()) op->else_case.accept(this);
        conditional_--;
    }
    void visit(const Select *op) override {
        op->condition.accept(this);
        conditional_++;
        op->true_value.accept(this);
        op->false_value.accept(this);
        conditional_--;
    }
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (op->name == buffer_) loads.push_back(here(op->index));
    }
    void visit(const Store *op) override {
        IRVisitor::visit(op);
        if (op->name == buffer_) stores.push_back(here(op->index));
    }
};

// An access's index as an affine function of its loops: per loop its range and coefficient,
// and the element of the first iteration.
struct AffineWalk {
    std::vector<LoopRange> ranges;
    std::vector<int64_t> coefficient;
    int64_t start = 0;
};

// "" when the access's index is affine in its loops (then `w` describes it); else why not.
std::string affine_walk(const Access &a, const std::string &what, AffineWalk &w) {
    if (a.conditional) return what + " is conditional";
    if (a.index.type().lanes() != 1) return what + " is a vector access";
    std::string why = loop_ranges(a.loops, a.bounds, w.ranges, what);
    if (!why.empty()) return why;
    Expr base = a.index;
    Expr affine = Expr(0);
    w.coefficient.assign(w.ranges.size(), 0);
    for (size_t k = 0; k < w.ranges.size(); k++) {
        const For *f = w.ranges[k].loop;
        Expr v = Variable::make(Halide::Int(32), f->name);
        Expr step = simplify(substitute(f->name, v + 1, a.index) - a.index);
        const int64_t *c = as_const_int(step);
        if (!c) return what + "'s index is not affine in loop " + f->name;
        w.coefficient[k] = *c;
        Expr min = Halide::Internal::make_const(Halide::Int(32), w.ranges[k].min);
        base = substitute(f->name, min, base);
        affine = affine + Halide::Internal::make_const(Halide::Int(32), *c) * (v - min);
    }
    base = simplify(base);
    const int64_t *start = as_const_int(base);
    if (!start) return what + "'s index does not start at a constant";
    if (!is_const_zero(simplify(a.index - (base + affine)))) return what + "'s index is not affine in its loops";
    w.start = *start;
    return "";
}

// (extent, coefficient) of the loops with more than one iteration, outermost first.
std::vector<std::pair<int64_t, int64_t>> moving_loops(const AffineWalk &w) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t k = 0; k < w.ranges.size(); k++) {
        if (w.ranges[k].extent > 1) out.push_back({w.ranges[k].extent, w.coefficient[k]});
    }
    return out;
}

// The same walk with every loop fused into the one around it when they walk consecutive
// elements together (a split loop and its unsplit form give the same list).
std::vector<std::pair<int64_t, int64_t>> fused_moving_loops(const AffineWalk &w) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto &l : moving_loops(w)) {
        if (!out.empty() && out.back().second == l.second * l.first) {
            out.back() = {out.back().first * l.first, l.second};
        } else {
            out.push_back(l);
        }
    }
    return out;
}

// "" when the access visits elements 0 .. size-1 once each, in order; else why not.
std::string in_order(const Access &a, int64_t size, const std::string &what) {
    AffineWalk w;
    std::string why = affine_walk(a, what, w);
    if (!why.empty()) return why;
    if (w.start != 0) return what + " starts at element " + std::to_string(w.start);
    int64_t expected = 1;
    for (size_t k = w.ranges.size(); k-- > 0;) {
        int64_t extent = w.ranges[k].extent;
        const For *f = w.ranges[k].loop;
        if (extent == 1) continue;
        if (w.coefficient[k] == 0) {
            return what + " repeats every element " + std::to_string(extent) + " times (loop " + f->name +
                   " does not move the index)";
        }
        if (w.coefficient[k] != expected) {
            return what + " is out of order: loop " + f->name + " moves the index by " +
                   std::to_string(w.coefficient[k]) + ", in order needs " + std::to_string(expected);
        }
        expected *= extent;
    }
    if (expected != size) {
        return what + " covers " + std::to_string(expected) + " of " + std::to_string(size) + " elements";
    }
    return "";
}

// Whether the write and the read visit every element of a buffer of `size` once each, in one
// and the same order that need not be storage order (a transposed producer and consumer).
bool same_permutation(const Access &write, const Access &read, int64_t size) {
    AffineWalk w, r;
    if (!affine_walk(write, "", w).empty() || !affine_walk(read, "", r).empty()) return false;
    std::vector<std::pair<int64_t, int64_t>> order = fused_moving_loops(w);
    if (w.start != 0 || r.start != 0 || order != fused_moving_loops(r)) return false;
    std::vector<std::pair<int64_t, int64_t>> by_coefficient;
    for (const auto &l : order) by_coefficient.push_back({l.second, l.first});
    std::sort(by_coefficient.begin(), by_coefficient.end());
    int64_t expected = 1;
    for (const auto &l : by_coefficient) {
        if (l.first != expected) return false;
        expected *= l.second;
    }
    return expected == size;
}

// Extents of the moving loops of an in-order access, outermost first (the producer's layout).
std::vector<int64_t> moving_extents(const Access &a) {
    std::vector<LoopRange> ranges;
    loop_ranges(a.loops, a.bounds, ranges, "");
    std::vector<int64_t> out;
    for (const LoopRange &r : ranges) {
        if (r.extent > 1) out.push_back(r.extent);
    }
    return out;
}


// "" when the reads are all unconditional scalar loads in one perfect loop nest at constant
// distances from the first (their offsets from it in `offsets`); else why not.
std::string window_reads(const std::vector<Access> &loads, std::vector<int64_t> &offsets) {
    if (loads.empty()) return "the consumer does not read it";
    for (const Access &l : loads) {
        if (l.conditional || !l.bounds.empty()) return "a read is conditional";
        if (l.index.type().lanes() != 1) return "a read is a vector access";
        if (l.loops != loads[0].loops) return "the reads are in different loop nests";
        std::optional<int64_t> d = constant_int(simplify(l.index - loads[0].index));
        if (!d) return "reads at non-constant distances";
        offsets.push_back(*d);
    }
    const std::vector<const For *> &nest = loads[0].loops;
    if (nest.empty()) return "the reads are not in a loop";
    for (size_t i = 0; i + 1 < nest.size(); i++) {
        Stmt s = nest[i]->body;
        while (const LetStmt *let = s.as<LetStmt>()) s = let->body;
        if (!s.same_as(Stmt(nest[i + 1]))) return "the loops around the reads are not a perfect nest";
    }
    return "";
}

// "" when the first read moves by one element in the innermost moving loop of `nest`; then
// the planes x height x width view of the `n` elements the consumer's row and plane strides
// choose (else the producer's innermost loop, `moving` its moving extents, gives the width)
// is in `p`. Else why not.
std::string window_layout(const std::vector<const For *> &nest, const Expr &first, int64_t n,
                          const std::vector<int64_t> &moving, LineBufferPlan &p) {
    std::vector<int64_t> strides;  // of the moving loops, innermost first
    for (size_t k = nest.size(); k-- > 0;) {
        const For *f = nest[k];
        const int64_t *extent = as_const_int(f->extent);
        if (!extent) return "loop " + f->name + " has bounds that are not constant";
        if (*extent == 1) continue;
        Expr v = Variable::make(Halide::Int(32), f->name);
        std::optional<int64_t> c = constant_int(simplify(substitute(f->name, v + 1, first) - first));
        if (!c) return "the window does not move affinely in loop " + f->name;
        if (*c == 0) return "loop " + f->name + " reads the same window " + std::to_string(*extent) + " times";
        strides.push_back(*c);
    }
    if (!strides.empty() && strides[0] != 1) {
        return "the innermost moving loop moves the window by " + std::to_string(strides[0]) +
               ", not along the producer's rows";
    }
    p.width = strides.size() >= 2 ? strides[1] : (moving.empty() ? n : moving.back());
    if (p.width < 2 || n % p.width != 0) return "the reads do not walk the buffer in rows";
    p.height = n / p.width;
    if (strides.size() >= 3 && strides[2] >= p.width && strides[2] % p.width == 0 && n % strides[2] == 0) {
        p.height = strides[2] / p.width;
    }
    p.planes = n / (p.width * p.height);
    return "";
}

// "" when every moving loop of `nest` moves the window corner `a.corner` by one column, row or
// plane of the layout in `a.plan`, in that order from the inside, and the windows stay inside
// rows and planes; then a.loops and the plan's first and output extents are set. Else why not.
std::string window_walk(const std::vector<const For *> &nest, LineBufferAnalysis &a) {
    LineBufferPlan &p = a.plan;
    Expr affine = Expr(0), start = a.corner;
    bool seen_p = false, seen_y = false, seen_x = false;
    for (const For *f : nest) {
        const int64_t *min = as_const_int(f->min), *extent = as_const_int(f->extent);
        if (!min || !extent) return "loop " + f->name + " has bounds that are not constant";
        Expr v = Variable::make(Halide::Int(32), f->name);
        std::optional<int64_t> c = constant_int(simplify(substitute(f->name, v + 1, a.corner) - a.corner));
        if (!c) return "the window does not move affinely in loop " + f->name;
        LineBufferAnalysis::NestLoop loop{f->name, *min, *extent, '1'};
        if (*extent > 1) {
            if (*c == 0) return "loop " + f->name + " reads the same window " + std::to_string(*extent) + " times";
            bool inner_seen = seen_y || seen_x;
            if (*c == 1 && !seen_x) loop.role = 'x';
            else if (*c == p.width && !seen_y && !seen_x && p.height > 1) loop.role = 'y';
            else if (*c == p.width * p.height && !seen_p && !inner_seen && p.planes > 1) loop.role = 'p';
            else return "loop " + f->name + " moves the window by " + std::to_string(*c) + ", not along the producer's order";
            seen_x |= loop.role == 'x';
            seen_y |= loop.role == 'y';
            seen_p |= loop.role == 'p';
            if (loop.role == 'x') p.out_cols = *extent;
            if (loop.role == 'y') p.out_rows = *extent;
            if (loop.role == 'p') p.out_planes = *extent;
        }
        affine = affine + Halide::Internal::make_const(Halide::Int(32), *c) * (v - f->min);
        start = substitute(f->name, f->min, start);
        a.loops.push_back(loop);
    }
    std::optional<int64_t> t0 = constant_int(simplify(start));
    if (!t0 || *t0 < 0) return "the first window does not start at a constant element";
    if (!is_const_zero(simplify(a.corner - (Expr(static_cast<int>(*t0)) + affine)))) {
        return "the window is not affine in its loops";
    }
    int64_t plane_size = p.width * p.height;
    p.first_plane = *t0 / plane_size;
    p.first_row = (*t0 % plane_size) / p.width;
    p.first_col = *t0 % p.width;
    if (p.first_col + p.out_cols + p.cols - 1 > p.width) return "windows cross the end of a row";
    if (p.first_row + p.out_rows + p.rows - 1 > p.height) return "windows cross the end of a plane";
    if (p.first_plane + p.out_planes > p.planes) return "windows go past the last plane";
    return "";
}

}  // namespace

namespace {

// An intermediate array with one producer and one consumer after it.
bool one_producer_later_consumer(const Buffer &b) {
    return b.kind == BufferKind::Intermediate && !b.is_scalar() && b.producers.size() == 1 && b.consumers.size() == 1 &&
           b.consumers[0] > b.producers[0];
}

}  // namespace

LineBufferAnalysis analyze_line_buffer(const FilterGraph &g, const Buffer &b) {
    LineBufferAnalysis a;
    auto fail = [&](const std::string &why) {
        a.reason = why;
        return a;
    };
    if (!one_producer_later_consumer(b)) return fail("not one producer and one later consumer");
    FindAccesses in_producer(b.name), in_consumer(b.name);
    g.filters[b.producers[0]].body.accept(&in_producer);
    g.filters[b.consumers[0]].body.accept(&in_consumer);
    if (in_producer.stores.size() != 1 || !in_producer.loads.empty()) return fail("the producer does not write it once");
    std::string why = in_order(in_producer.stores[0], b.size(), "the write");
    if (!why.empty()) return fail(why);
    const std::vector<Access> &loads = in_consumer.loads;
    std::vector<int64_t> offsets;
    why = window_reads(loads, offsets);
    if (why.empty()) why = window_layout(loads[0].loops, loads[0].index, b.size(), moving_extents(in_producer.stores[0]), a.plan);
    if (!why.empty()) return fail(why);
    // Window: rows and columns of every read relative to the first one.
    LineBufferPlan &p = a.plan;
    int64_t min_offset = *std::min_element(offsets.begin(), offsets.end());
    int64_t max_row = 0, min_col = 0, max_col = 0;
    for (size_t k = 0; k < offsets.size(); k++) {
        int64_t rel = offsets[k] - min_offset;
        int64_t row = (rel + p.width / 2) / p.width, col = rel - row * p.width;
        max_row = std::max(max_row, row);
        min_col = k ? std::min(min_col, col) : col;
        max_col = k ? std::max(max_col, col) : col;
    }
    p.rows = max_row + 1;
    p.cols = max_col - min_col + 1;
    if (p.cols > p.width) return fail("the window is wider than a row");
    a.corner = simplify(loads[0].index + static_cast<int>(min_offset + min_col));
    why = window_walk(loads[0].loops, a);
    if (!why.empty()) return fail(why);
    p.consumer = b.consumers[0];
    a.found = true;
    return a;
}

StreamVerdict stream_verdict(const FilterGraph &g, const Buffer &b) {
    StreamVerdict v;
    if (b.kind != BufferKind::Intermediate || b.is_scalar()) {
        v.reason = "not an intermediate array";
        return v;
    }
    if (!b.margin.empty()) {
        v.reason = "it has a margin for padded reads (pad-margins)";
        return v;
    }
    if (b.producers.size() != 1 || b.consumers.size() != 1 || b.producers[0] == b.consumers[0]) {
        v.reason = "not one producer and one other consumer";
        return v;
    }
    if (b.consumers[0] < b.producers[0]) {
        v.reason = "read before it is written";
        return v;
    }
    const Filter &producer = g.filters[b.producers[0]], &consumer = g.filters[b.consumers[0]];
    FindAccesses in_producer(b.name), in_consumer(b.name);
    producer.body.accept(&in_producer);
    consumer.body.accept(&in_consumer);
    if (!in_producer.loads.empty()) {
        v.reason = producer.name + " reads back what it writes";
        return v;
    }
    if (in_producer.stores.size() != 1) {
        v.reason = producer.name + " writes it in " + std::to_string(in_producer.stores.size()) + " places";
        return v;
    }
    if (in_consumer.loads.size() != 1) {
        v.reason = consumer.name + " reads it in " + std::to_string(in_consumer.loads.size()) + " places" +
                   (in_consumer.loads.size() > 1 ? " (a window)" : "");
        return v;
    }
    std::string why = in_order(in_producer.stores[0], b.size(), "the write in " + producer.name);
    if (why.empty()) why = in_order(in_consumer.loads[0], b.size(), "the read in " + consumer.name);
    if (!why.empty() && same_permutation(in_producer.stores[0], in_consumer.loads[0], b.size())) {
        v.stream = true;
        v.reason = "written once and read once in the same order, not storage order (" + producer.name + " -> " +
                   consumer.name + ")";
        return v;
    }
    if (!why.empty()) {
        v.reason = why;
        return v;
    }
    v.stream = true;
    v.reason = "written once and read once in the same order (" + producer.name + " -> " + consumer.name + ")";
    return v;
}

StreamVerdict argument_stream_verdict(const FilterGraph &g, const Buffer &b) {
    StreamVerdict v;
    bool input = b.kind == BufferKind::Input;
    if (!input && b.kind != BufferKind::Output) {
        v.reason = "not a kernel argument";
        return v;
    }
    const std::vector<int> &users = input ? b.consumers : b.producers;
    const std::vector<int> &others = input ? b.producers : b.consumers;
    if (users.size() != 1 || !others.empty()) {
        v.reason = input ? "it is read by " + std::to_string(users.size()) + " filter(s) and written by " +
                               std::to_string(others.size())
                         : "it is written by " + std::to_string(users.size()) + " filter(s) and read by " +
                               std::to_string(others.size());
        return v;
    }
    const Filter &f = g.filters[users[0]];
    FindAccesses access(b.name);
    f.body.accept(&access);
    const std::vector<Access> &list = input ? access.loads : access.stores;
    if (list.size() != 1) {
        v.reason = f.name + (input ? " reads" : " writes") + " it in " + std::to_string(list.size()) + " places";
        return v;
    }
    std::string why = in_order(list[0], b.size(), std::string(input ? "the read" : "the write") + " in " + f.name);
    if (!why.empty()) {
        v.reason = why;
        return v;
    }
    v.stream = true;
    v.reason = std::string(input ? "read" : "written") + " once in storage order by " + f.name;
    return v;
}

namespace {

// "" when the producer's store writes the rows of `plan` outermost and each element of a row
// once inside (then its loops inside the row loop are in `row_loops`); else why not.
std::string rows_outermost(const Access &store, const WindowBufferPlan &plan, std::vector<RowLoop> &row_loops) {
    AffineWalk w;
    std::string why = affine_walk(store, "the write", w);
    if (!why.empty()) return why;
    if (w.start != 0) return "the write starts at element " + std::to_string(w.start);
    std::vector<std::pair<int64_t, int64_t>> moving = moving_loops(w);
    const int64_t width = plan.width, plane = plan.width * plan.height;
    if (moving.empty() || moving[0].first != plan.height || moving[0].second != width) {
        return "the producer does not write rows outermost (its outermost moving loop moves the index by " +
               std::to_string(moving.empty() ? 0 : moving[0].second) + ", a row is " + std::to_string(width) + ")";
    }
    std::vector<std::pair<int64_t, int64_t>> by_coefficient;
    for (size_t k = 1; k < moving.size(); k++) {
        row_loops.push_back({moving[k].first, moving[k].second});
        by_coefficient.push_back({moving[k].second, moving[k].first});
    }
    std::sort(by_coefficient.begin(), by_coefficient.end());
    int64_t expected = 1;
    for (const auto &l : by_coefficient) {
        if (l.first == expected) expected *= l.second;
        else if (expected == width && l.first == plane) expected = plane * l.second;
        else return "the producer's loops inside its row loop do not write each element of a row once";
    }
    if (expected != (plan.channels == 1 ? width : plane * plan.channels)) {
        return "the producer's loops inside its row loop do not write each element of a row once";
    }
    return "";
}

// "" when every read lies inside one loop with more than one iteration (outside it only loops
// of one iteration): its position in the reads' loops in `r`. Else why not.
std::string row_loop_of(const std::vector<Access> &loads, size_t &r) {
    const std::vector<const For *> &nest = loads[0].loops;
    for (r = 0; r < nest.size(); r++) {
        std::optional<int64_t> extent = constant_int(nest[r]->extent);
        if (!extent || !constant_int(nest[r]->min)) return "loop " + nest[r]->name + " has bounds that are not constant";
        if (*extent > 1) break;
    }
    if (r == nest.size()) return "the reads are not in a loop with more than one iteration";
    for (const Access &l : loads) {
        if (l.index.type().lanes() != 1) return "a read is a vector access";
        if (l.loops.size() <= r || !std::equal(nest.begin(), nest.begin() + r + 1, l.loops.begin())) {
            return "the reads are not all inside loop " + nest[r]->name;
        }
    }
    return "";
}

// "" when each read's rows are bounded by constants in every iteration of the row loop `row`;
// then lo[k] / hi[k] are the rows iteration k reads (within [0, height)). Loops that move the
// index by whole planes (channels) do not change the row and are fixed at their minimum; the
// index's bounds over the other inner loops (Halide's interval analysis, per iteration k) must
// stay within one plane. Else why not.
std::string rows_read(const std::vector<Access> &loads, size_t row, const WindowBufferPlan &plan,
                      std::vector<int64_t> &lo, std::vector<int64_t> &hi) {
    const For *loop = loads[0].loops[row];
    const int64_t min = *constant_int(loop->min), extent = *constant_int(loop->extent);
    const int64_t plane = plan.width * plan.height;
    lo.assign(extent, plan.height - 1);
    hi.assign(extent, 0);
    for (const Access &l : loads) {
        Expr index = l.index;
        Scope<Interval> scope;
        for (size_t k = 0; k < l.loops.size(); k++) {
            const For *f = l.loops[k];
            std::optional<int64_t> fmin = constant_int(f->min), fextent = constant_int(f->extent);
            if (!fmin || !fextent) return "loop " + f->name + " has bounds that are not constant";
            if (k == row) continue;
            Expr v = Variable::make(Halide::Int(32), f->name);
            std::optional<int64_t> step = constant_int(simplify(substitute(f->name, v + 1, index) - index));
            if (k < row || (step && *step % plane == 0)) {
                index = substitute(f->name, f->min, index);
            } else {
                scope.push(f->name, Interval(f->min, simplify(f->min + f->extent - 1)));
            }
        }
        for (int64_t k = 0; k < extent; k++) {
            Expr at = Halide::Internal::make_const(Halide::Int(32), min + k);
            Interval bounds = bounds_of_expr_in_scope(simplify(substitute(loop->name, at, index)), scope);
            std::optional<int64_t> a, b;
            if (bounds.is_bounded()) {
                a = constant_int(simplify(bounds.min));
                b = constant_int(simplify(bounds.max));
            }
            if (!a || !b || *a < 0 || *a / plane != *b / plane) {
                return "the rows iteration " + std::to_string(k) + " of loop " + loop->name +
                       " reads are not bounded within one plane";
            }
            lo[k] = std::min(lo[k], (*a % plane) / plan.width);
            hi[k] = std::max(hi[k], (*b % plane) / plan.width);
        }
    }
    return "";
}

}  // namespace

std::vector<RowLoop> permuted_write_order(const FilterGraph &g, const Buffer &b) {
    if (b.producers.size() != 1) return {};
    FindAccesses in_producer(b.name);
    g.filters[b.producers[0]].body.accept(&in_producer);
    if (in_producer.stores.size() != 1 || !in_producer.loads.empty()) return {};
    const Access &store = in_producer.stores[0];
    if (in_order(store, b.size(), "").empty() || !same_permutation(store, store, b.size())) return {};
    AffineWalk w;
    affine_walk(store, "", w);
    const Filter &producer = g.filters[b.producers[0]];
    std::vector<RowLoop> out;
    for (size_t k = 0; k < w.ranges.size(); k++) {
        if (w.ranges[k].extent <= 1) continue;  // as moving_loops
        auto d = producer.directives.find(w.ranges[k].loop->name);
        out.push_back({w.ranges[k].extent, w.coefficient[k], d == producer.directives.end() ? 0 : d->second.unroll});
    }
    return out;
}

WindowBufferAnalysis analyze_window_buffer(const FilterGraph &g, const Buffer &b) {
    WindowBufferAnalysis a;
    auto fail = [&](const std::string &why) {
        a.reason = why;
        return a;
    };
    if (!one_producer_later_consumer(b)) return fail("not one producer and one later consumer");
    WindowBufferPlan &p = a.plan;
    if (b.dims.size() < 2 || b.dims[0] < 1 || b.dims[1] < 2 || b.size() % (b.dims[0] * b.dims[1]) != 0) {
        return fail("the buffer has no rows (its dims are not known constants)");
    }
    p.width = b.dims[0];
    p.height = b.dims[1];
    p.channels = b.size() / (p.width * p.height);
    FindAccesses in_producer(b.name), in_consumer(b.name);
    g.filters[b.producers[0]].body.accept(&in_producer);
    g.filters[b.consumers[0]].body.accept(&in_consumer);
    if (in_producer.stores.size() != 1 || !in_producer.loads.empty()) return fail("the producer does not write it once");
    std::string why = rows_outermost(in_producer.stores[0], p, a.row_loops);
    if (!why.empty()) return fail(why);
    const std::vector<Access> &loads = in_consumer.loads;
    if (loads.empty() || !in_consumer.stores.empty()) return fail("the consumer does not only read it");
    size_t row = 0;
    why = row_loop_of(loads, row);
    std::vector<int64_t> lo, hi;
    if (why.empty()) why = rows_read(loads, row, p, lo, hi);
    if (!why.empty()) return fail(why);
    // F(k): rows read before iteration k may start; a ring holds the rows from lo(k) to F(k).
    const int64_t n = static_cast<int64_t>(lo.size());
    std::vector<int64_t> filled(n);
    for (int64_t k = 0; k < n; k++) filled[k] = std::max(hi[k], k ? filled[k - 1] : 0);
    p.out_rows = n;
    p.last_row = filled[0];
    p.stride = n > 1 ? filled[1] - filled[0] : 0;
    p.ring_rows = 1;
    for (int64_t k = 0; k < n; k++) {
        if (p.rows_before(k) != filled[k] + 1) return fail("the rows read do not advance by a constant stride");
        p.ring_rows = std::max(p.ring_rows, filled[k] - lo[k] + 1);
    }
    // The rows copied in one iteration (and the first ones) fit the ring too.
    p.ring_rows = std::max({p.ring_rows, p.stride, p.last_row + 1});
    if (p.ring_rows >= p.height) {
        return fail("a window of " + std::to_string(p.ring_rows) + " rows is the whole buffer (" +
                    std::to_string(p.height) + " rows)");
    }
    a.row_loop = loads[0].loops[row]->name;
    a.row_loop_min = *constant_int(loads[0].loops[row]->min);
    p.consumer = b.consumers[0];
    a.found = true;
    return a;
}

}  // namespace flowhls
