// window_buffers: a row-window consumer reads its input from a FIFO through a ring of rows.
#include "transforms/WindowBuffers.h"
#include "analysis/StreamOrder.h"
#include "ir/IRQueries.h"
#include "support/Names.h"
#include "transforms/DetectStreams.h"

#include <algorithm>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

Expr int_const(int64_t v) { return make_const(Halide::Int(32), v); }
Expr int_var(const std::string &name) { return Variable::make(Halide::Int(32), name); }

Stmt serial_for(const std::string &name, Expr min, Expr extent, Stmt body) {
    return For::make(name, std::move(min), std::move(extent), ForType::Serial, Halide::DeviceAPI::None, std::move(body));
}

// The element index of the buffer (rows x width x channels, CHW storage) in the ring,
// simplified knowing the ranges of the enclosing loops.
Expr ring_index(const Expr &index, const WindowBufferPlan &p, const Scope<Interval> &loops) {
    Expr w = int_const(p.width), plane = int_const(p.width * p.height);
    Expr row = simplify((index / w) % int_const(p.height), true, loops);
    return simplify((index / plane) * int_const(p.ring_rows * p.width) + (row % int_const(p.ring_rows)) * w + index % w,
                    true, loops);
}

// Every read of the buffer replaced by a read of the ring (indices with lets resolved).
class ReadRing : public IRMutator {
public:
    ReadRing(const std::string &buffer, const WindowBufferPlan &plan) : buffer_(buffer), plan_(plan) {}

private:
    using IRMutator::visit;
    std::string buffer_;
    const WindowBufferPlan &plan_;
    LetBindings lets_;

    template <class LetNode> auto mutate_let(const LetNode *op) {
        Expr value = mutate(op->value);
        lets_.emplace_back(op->name, op->value);
        auto body = mutate(op->body);
        lets_.pop_back();
        return LetNode::make(op->name, value, body);
    }
    Scope<Interval> loops_;

    Stmt visit(const LetStmt *op) override { return mutate_let(op); }
    Expr visit(const Let *op) override { return mutate_let(op); }
    Stmt visit(const For *op) override {
        std::optional<int64_t> min = constant_int(op->min), extent = constant_int(op->extent);
        if (!min || !extent) return IRMutator::visit(op);
        ScopedBinding<Interval> bind(loops_, op->name, Interval(op->min, int_const(*min + *extent - 1)));
        return IRMutator::visit(op);
    }
    Expr visit(const Load *op) override {
        if (op->name != buffer_) return IRMutator::visit(op);
        Expr index = ring_index(resolve_lets(lets_, op->index), plan_, loops_);
        return Load::make(op->type, plan_.ring, index, Halide::Buffer<>(), Parameter(), op->predicate, ModulusRemainder());
    }
};

// Copies row `row` from the FIFO into the ring: the producer's loops inside its row loop, in
// its order (loop variables `prefix`_0, _1, ...).
Stmt copy_row(const WindowBufferAnalysis &a, const Buffer &b, const Expr &row, const std::string &prefix) {
    const WindowBufferPlan &p = a.plan;
    Expr element = row * int_const(p.width);
    Expr slot = (row % int_const(p.ring_rows)) * int_const(p.width);
    for (size_t k = 0; k < a.row_loops.size(); k++) {
        const RowLoop &l = a.row_loops[k];
        Expr v = int_var(prefix + "_" + std::to_string(k));
        element = element + int_const(l.coefficient) * v;
        // Columns keep their coefficient; channels (multiples of a plane) move by a ring plane.
        int64_t c = l.coefficient < p.width ? l.coefficient : l.coefficient / (p.width * p.height) * p.ring_rows * p.width;
        slot = slot + int_const(c) * v;
    }
    Expr value = Load::make(b.type, b.name, simplify(element), Halide::Buffer<>(), Parameter(), const_true(), ModulusRemainder());
    Stmt s = Store::make(p.ring, value, simplify(slot), Parameter(), const_true(), ModulusRemainder());
    for (size_t k = a.row_loops.size(); k-- > 0;) {
        s = serial_for(prefix + "_" + std::to_string(k), int_const(0), int_const(a.row_loops[k].extent), s);
    }
    return s;
}

// The row loop: at the start of iteration k the rows (F(k - 1), F(k)] are copied into the ring;
// after it the rows no iteration reads.
class FillRing : public IRMutator {
public:
    FillRing(const WindowBufferAnalysis &a, const Buffer &b, std::set<std::string> &taken) : a_(a), b_(b), taken_(taken) {}

private:
    using IRMutator::visit;
    const WindowBufferAnalysis &a_;
    const Buffer &b_;
    std::set<std::string> &taken_;

    Stmt visit(const For *op) override {
        if (op->name != a_.row_loop) return IRMutator::visit(op);
        const WindowBufferPlan &p = a_.plan;
        Expr k = int_var(op->name) - int_const(a_.row_loop_min);
        Expr last = int_const(p.height - 1);
        Expr hi = min(int_const(p.stride) * k + int_const(p.last_row), last);
        Expr lo = select(k == 0, int_const(0), min(int_const(p.stride) * k + int_const(p.last_row - p.stride), last) + 1);
        int64_t most = std::min(p.height, std::max(p.last_row + 1, p.stride));
        std::string fill = fresh_name(b_.name + "_fill", taken_, 1);
        std::string row = fresh_name(b_.name + "_row", taken_, 1);
        Stmt copy = copy_row(a_, b_, int_var(row), fresh_name(b_.name + "_c", taken_, 1));
        Stmt body = LetStmt::make(row, simplify(lo + int_var(fill)), IfThenElse::make(int_var(row) <= simplify(hi), copy));
        Stmt loop = For::make(op->name, op->min, op->extent, op->for_type, op->device_api,
                              Block::make(serial_for(fill, int_const(0), int_const(most), body), op->body));
        int64_t filled = p.rows_before(p.out_rows - 1);
        if (filled >= p.height) return loop;
        std::string rest = fresh_name(b_.name + "_rest", taken_, 1);
        Stmt drain = copy_row(a_, b_, int_var(rest), fresh_name(b_.name + "_d", taken_, 1));
        return Block::make(loop, serial_for(rest, int_const(filled), int_const(p.height - filled), drain));
    }
};

std::string plan_text(const Filter &consumer, const WindowBufferPlan &p) {
    return "stream through a window buffer in " + consumer.name + ": a ring of " + std::to_string(p.ring_rows) +
           " of " + std::to_string(p.height) + " rows (" + std::to_string(p.words()) +
           " words), the producer writes rows outermost";
}

void apply(FilterGraph &g, Buffer &b, WindowBufferAnalysis a) {
    Filter &f = g.filters[a.plan.consumer];
    std::set<std::string> taken = names_in(f.body);
    for (const Buffer &other : g.buffers) taken.insert(other.name);
    for (const Filter &other : g.filters) {
        taken.insert(other.function_name);
        for (const LocalBuffer &l : other.locals) taken.insert(l.name);
    }
    a.plan.ring = fresh_name(b.name + "_ring", taken, 1);
    b.window_buffer = a.plan;
    Stmt body = ReadRing(b.name, b.window_buffer).mutate(f.body);
    f.body = FillRing(a, b, taken).mutate(body);
    f.locals.emplace_back(b.window_buffer.ring, b.type, b.window_buffer.words());
    recompute_edges(g);
    for (int id : {b.producers[0], b.consumers[0]}) g.filters[id].body = drop_stream_index(g.filters[id].body, b.name);
    b.channel = ChannelKind::WindowBufferedStream;
    b.channel_reason = plan_text(f, b.window_buffer);
}

}  // namespace

PassResult window_buffers(FilterGraph &graph, bool fifo_channels) {
    PassResult result;
    if (!fifo_channels || !graph.dataflow.legal) return result;
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.is_stream()) continue;
        if (b.channel_request == ChannelRequest::PingPong) continue;
        WindowBufferAnalysis a = analyze_window_buffer(graph, b);
        if (!a.found) continue;
        apply(graph, b, a);
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
