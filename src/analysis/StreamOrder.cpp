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
    std::vector<std::pair<std::string, Expr>> lets_;
    int conditional_ = 0;
    std::vector<Expr> bounds_;

    Expr resolve(Expr e) const {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) e = substitute(it->first, it->second, e);
        return simplify(e);
    }
    Access here(const Expr &index) const { return {resolve(index), loops_, conditional_ > 0, bounds_}; }

    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        loops_.push_back(op);
        op->body.accept(this);
        loops_.pop_back();
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        lets_.emplace_back(op->name, op->value);
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const Let *op) override {
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

// "" when the access visits elements 0 .. size-1 once each, in order; else why not.
std::string in_order(const Access &a, int64_t size, const std::string &what) {
    if (a.conditional) return what + " is conditional";
    if (a.index.type().lanes() != 1) return what + " is a vector access";
    std::vector<LoopRange> ranges;
    std::string why = loop_ranges(a.loops, a.bounds, ranges, what);
    if (!why.empty()) return why;
    Expr base = a.index;
    Expr affine = Expr(0);
    std::vector<int64_t> coefficient(ranges.size());
    for (size_t k = 0; k < ranges.size(); k++) {
        const For *f = ranges[k].loop;
        Expr v = Variable::make(Halide::Int(32), f->name);
        Expr step = simplify(substitute(f->name, v + 1, a.index) - a.index);
        const int64_t *c = as_const_int(step);
        if (!c) return what + "'s index is not affine in loop " + f->name;
        coefficient[k] = *c;
        Expr min = Halide::Internal::make_const(Halide::Int(32), ranges[k].min);
        base = substitute(f->name, min, base);
        affine = affine + Halide::Internal::make_const(Halide::Int(32), *c) * (v - min);
    }
    base = simplify(base);
    const int64_t *start = as_const_int(base);
    if (!start) return what + "'s index does not start at a constant";
    if (!is_const_zero(simplify(a.index - (base + affine)))) return what + "'s index is not affine in its loops";
    if (*start != 0) return what + " starts at element " + std::to_string(*start);
    int64_t expected = 1;
    for (size_t k = ranges.size(); k-- > 0;) {
        int64_t extent = ranges[k].extent;
        const For *f = ranges[k].loop;
        if (extent == 1) continue;
        if (coefficient[k] == 0) {
            return what + " repeats every element " + std::to_string(extent) + " times (loop " + f->name +
                   " does not move the index)";
        }
        if (coefficient[k] != expected) {
            return what + " is out of order: loop " + f->name + " moves the index by " +
                   std::to_string(coefficient[k]) + ", in order needs " + std::to_string(expected);
        }
        expected *= extent;
    }
    if (expected != size) {
        return what + " covers " + std::to_string(expected) + " of " + std::to_string(size) + " elements";
    }
    return "";
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

// Extent of the innermost moving loop of an in-order access (the producer's row width).
int64_t inner_extent(const Access &a) {
    std::vector<int64_t> moving = moving_extents(a);
    return moving.empty() ? 1 : moving.back();
}

}  // namespace

SlidingWindow sliding_window(const FilterGraph &g, const Buffer &b) {
    SlidingWindow w;
    if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.producers.size() != 1 || b.consumers.size() != 1 ||
        b.consumers[0] <= b.producers[0]) {
        w.reason = "not one producer and one later consumer";
        return w;
    }
    FindAccesses in_producer(b.name), in_consumer(b.name);
    g.filters[b.producers[0]].body.accept(&in_producer);
    g.filters[b.consumers[0]].body.accept(&in_consumer);
    if (in_producer.stores.size() != 1 || !in_producer.loads.empty()) {
        w.reason = "the producer does not write it once";
        return w;
    }
    std::string why = in_order(in_producer.stores[0], b.size(), "the write");
    if (!why.empty()) {
        w.reason = why;
        return w;
    }
    const std::vector<Access> &loads = in_consumer.loads;
    if (loads.size() < 2) {
        w.reason = "fewer than two reads";
        return w;
    }
    // Offsets of every load from the first; the base is the smallest.
    std::vector<int64_t> offsets;
    for (const Access &a : loads) {
        if (a.conditional || !a.bounds.empty() || a.loops.size() != loads[0].loops.size()) {
            w.reason = "a read is conditional or in another loop nest";
            return w;
        }
        std::optional<int64_t> d = constant_int(simplify(a.index - loads[0].index));
        if (!d) {
            w.reason = "reads at non-constant distances";
            return w;
        }
        offsets.push_back(*d);
    }
    int64_t min_offset = *std::min_element(offsets.begin(), offsets.end());
    int64_t width = inner_extent(in_producer.stores[0]);
    // The base read must move like the producer's layout: coefficient 1 on the innermost
    // moving loop, `width` on the next.
    Expr base = simplify(loads[0].index + static_cast<int>(min_offset));
    std::vector<int64_t> strides;
    for (const For *f : loads[0].loops) {
        Expr step = simplify(substitute(f->name, Variable::make(Halide::Int(32), f->name) + 1, base) - base);
        const int64_t *c = as_const_int(step);
        const int64_t *extent = as_const_int(f->extent);
        if (!c || !extent) {
            w.reason = "the window does not move affinely";
            return w;
        }
        if (*extent > 1 && *c != 0) strides.push_back(*c);
    }
    if (strides.size() < 2 || strides.back() != 1 || strides[strides.size() - 2] != width) {
        w.reason = "the window does not move along the producer's rows";
        return w;
    }
    int64_t min_row = 0, max_row = 0, min_col = 0, max_col = 0;
    bool first = true;
    for (int64_t o : offsets) {
        int64_t rel = o - min_offset;
        int64_t row = (rel + width / 2) / width, col = rel - row * width;
        if (first) {
            min_row = max_row = row;
            min_col = max_col = col;
            first = false;
        }
        min_row = std::min(min_row, row);
        max_row = std::max(max_row, row);
        min_col = std::min(min_col, col);
        max_col = std::max(max_col, col);
    }
    w.found = true;
    w.rows = max_row - min_row + 1;
    w.cols = max_col - min_col + 1;
    w.row_width = width;
    return w;
}

LineBufferAnalysis analyze_line_buffer(const FilterGraph &g, const Buffer &b) {
    LineBufferAnalysis a;
    auto fail = [&](const std::string &why) {
        a.reason = why;
        return a;
    };
    if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.producers.size() != 1 || b.consumers.size() != 1 ||
        b.consumers[0] <= b.producers[0]) {
        return fail("not one producer and one later consumer");
    }
    const Filter &consumer = g.filters[b.consumers[0]];
    FindAccesses in_producer(b.name), in_consumer(b.name);
    g.filters[b.producers[0]].body.accept(&in_producer);
    consumer.body.accept(&in_consumer);
    if (in_producer.stores.size() != 1 || !in_producer.loads.empty()) return fail("the producer does not write it once");
    std::string why = in_order(in_producer.stores[0], b.size(), "the write");
    if (!why.empty()) return fail(why);
    LineBufferPlan &p = a.plan;
    const std::vector<Access> &loads = in_consumer.loads;
    if (loads.empty()) return fail("the consumer does not read it");
    std::vector<int64_t> offsets;
    for (const Access &l : loads) {
        if (l.conditional || !l.bounds.empty()) return fail("a read is conditional");
        if (l.index.type().lanes() != 1) return fail("a read is a vector access");
        if (l.loops != loads[0].loops) return fail("the reads are in different loop nests");
        std::optional<int64_t> d = constant_int(simplify(l.index - loads[0].index));
        if (!d) return fail("reads at non-constant distances");
        offsets.push_back(*d);
    }
    const std::vector<const For *> &nest = loads[0].loops;
    if (nest.empty()) return fail("the reads are not in a loop");
    for (size_t i = 0; i + 1 < nest.size(); i++) {
        Stmt s = nest[i]->body;
        while (const LetStmt *let = s.as<LetStmt>()) s = let->body;
        if (!s.same_as(Stmt(nest[i + 1]))) return fail("the loops around the reads are not a perfect nest");
    }
    // The layout: the producer writes the elements in order, so any planes x height x width
    // view of them holds; the consumer's row and plane strides choose it (else the
    // producer's innermost loop gives the width).
    std::vector<int64_t> strides;  // of the moving loops, innermost first
    for (size_t k = nest.size(); k-- > 0;) {
        const For *f = nest[k];
        const int64_t *extent = as_const_int(f->extent);
        if (!extent) return fail("loop " + f->name + " has bounds that are not constant");
        if (*extent == 1) continue;
        Expr v = Variable::make(Halide::Int(32), f->name);
        std::optional<int64_t> c = constant_int(simplify(substitute(f->name, v + 1, loads[0].index) - loads[0].index));
        if (!c) return fail("the window does not move affinely in loop " + f->name);
        if (*c == 0) return fail("loop " + f->name + " reads the same window " + std::to_string(*extent) + " times");
        strides.push_back(*c);
    }
    if (!strides.empty() && strides[0] != 1) {
        return fail("the innermost moving loop moves the window by " + std::to_string(strides[0]) +
                    ", not along the producer's rows");
    }
    const int64_t n = b.size();
    std::vector<int64_t> moving = moving_extents(in_producer.stores[0]);
    p.width = strides.size() >= 2 ? strides[1] : (moving.empty() ? n : moving.back());
    if (p.width < 2 || n % p.width != 0) return fail("the reads do not walk the buffer in rows");
    p.height = n / p.width;
    if (strides.size() >= 3 && strides[2] >= p.width && strides[2] % p.width == 0 && n % strides[2] == 0) {
        p.height = strides[2] / p.width;
    }
    p.planes = n / (p.width * p.height);
    // Window: rows and columns of every read relative to the first one.
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
    Expr affine = Expr(0), start = a.corner;
    bool seen_p = false, seen_y = false, seen_x = false;
    for (const For *f : nest) {
        const int64_t *min = as_const_int(f->min), *extent = as_const_int(f->extent);
        if (!min || !extent) return fail("loop " + f->name + " has bounds that are not constant");
        Expr v = Variable::make(Halide::Int(32), f->name);
        std::optional<int64_t> c = constant_int(simplify(substitute(f->name, v + 1, a.corner) - a.corner));
        if (!c) return fail("the window does not move affinely in loop " + f->name);
        LineBufferAnalysis::NestLoop loop{f->name, *min, *extent, '1'};
        if (*extent > 1) {
            if (*c == 0) return fail("loop " + f->name + " reads the same window " + std::to_string(*extent) + " times");
            bool inner_seen = seen_y || seen_x;
            if (*c == 1 && !seen_x) loop.role = 'x';
            else if (*c == p.width && !seen_y && !seen_x && p.height > 1) loop.role = 'y';
            else if (*c == p.width * p.height && !seen_p && !inner_seen && p.planes > 1) loop.role = 'p';
            else return fail("loop " + f->name + " moves the window by " + std::to_string(*c) + ", not along the producer's order");
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
    if (!t0 || *t0 < 0) return fail("the first window does not start at a constant element");
    if (!is_const_zero(simplify(a.corner - (Expr(static_cast<int>(*t0)) + affine)))) {
        return fail("the window is not affine in its loops");
    }
    int64_t plane_size = p.width * p.height;
    p.first_plane = *t0 / plane_size;
    p.first_row = (*t0 % plane_size) / p.width;
    p.first_col = *t0 % p.width;
    if (p.first_col + p.out_cols + p.cols - 1 > p.width) return fail("windows cross the end of a row");
    if (p.first_row + p.out_rows + p.rows - 1 > p.height) return fail("windows cross the end of a plane");
    if (p.first_plane + p.out_planes > p.planes) return fail("windows go past the last plane");
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

}  // namespace flowhls
