// stream_verdict: the order in which a filter writes a buffer and another reads it.
#include "analysis/StreamOrder.h"

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
};

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

    Expr resolve(Expr e) const {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) e = substitute(it->first, it->second, e);
        return simplify(e);
    }
    Access here(const Expr &index) const { return {resolve(index), loops_, conditional_ > 0}; }

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
    Expr base = a.index;
    Expr affine = Expr(0);
    for (const For *f : a.loops) {
        const int64_t *min = as_const_int(f->min), *extent = as_const_int(f->extent);
        if (!min || !extent) return what + " is inside loop " + f->name + " whose bounds are not constant";
    }
    std::vector<int64_t> coefficient(a.loops.size());
    for (size_t k = 0; k < a.loops.size(); k++) {
        const For *f = a.loops[k];
        Expr v = Variable::make(Halide::Int(32), f->name);
        Expr step = simplify(substitute(f->name, v + 1, a.index) - a.index);
        const int64_t *c = as_const_int(step);
        if (!c) return what + "'s index is not affine in loop " + f->name;
        coefficient[k] = *c;
        base = substitute(f->name, f->min, base);
        affine = affine + Halide::Internal::make_const(Halide::Int(32), *c) * (v - f->min);
    }
    base = simplify(base);
    const int64_t *start = as_const_int(base);
    if (!start) return what + "'s index does not start at a constant";
    if (!is_const_zero(simplify(a.index - (base + affine)))) return what + "'s index is not affine in its loops";
    if (*start != 0) return what + " starts at element " + std::to_string(*start);
    int64_t expected = 1;
    for (size_t k = a.loops.size(); k-- > 0;) {
        int64_t extent = *as_const_int(a.loops[k]->extent);
        if (extent == 1) continue;
        if (coefficient[k] == 0) {
            return what + " repeats every element " + std::to_string(extent) + " times (loop " + a.loops[k]->name +
                   " does not move the index)";
        }
        if (coefficient[k] != expected) {
            return what + " is out of order: loop " + a.loops[k]->name + " moves the index by " +
                   std::to_string(coefficient[k]) + ", in order needs " + std::to_string(expected);
        }
        expected *= extent;
    }
    if (expected != size) {
        return what + " covers " + std::to_string(expected) + " of " + std::to_string(size) + " elements";
    }
    return "";
}

// Extent of the innermost moving loop of an in-order access (the producer's row width).
int64_t inner_extent(const Access &a) {
    for (size_t k = a.loops.size(); k-- > 0;) {
        int64_t extent = *as_const_int(a.loops[k]->extent);
        if (extent > 1) return extent;
    }
    return 1;
}

}  // namespace

SlidingWindow sliding_window(const FilterGraph &g, const Buffer &b) {
    SlidingWindow w;
    if (b.kind != BufferKind::Intermediate || b.scalar || b.producers.size() != 1 || b.consumers.size() != 1 ||
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
        if (a.conditional || a.loops.size() != loads[0].loops.size()) {
            w.reason = "a read is conditional or in another loop nest";
            return w;
        }
        const int64_t *d = as_const_int(simplify(a.index - loads[0].index));
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

StreamVerdict stream_verdict(const FilterGraph &g, const Buffer &b) {
    StreamVerdict v;
    if (b.kind != BufferKind::Intermediate || b.scalar) {
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
