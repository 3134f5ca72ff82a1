// window_buffers: a row-window consumer reads its input from a FIFO through a ring of rows.
#include "transforms/WindowBuffers.h"
#include "analysis/StreamOrder.h"
#include "ir/IRBuild.h"
#include "ir/IRQueries.h"
#include "support/Names.h"
#include "transforms/DetectStreams.h"

#include <algorithm>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// The ring's row `row` of a ring of R rows, R x W words a channel, is at
// select(t >= R W, t - R W, t) for t = row W + shift, where shift = ((base mod R) - base) W is
// computed once per iteration of the row loop (base = F(k) - R + 1, the oldest row the ring
// holds): every row from base to base + R - 1 lands in row mod R, without a division.
Expr wrapped(const Expr &t, const WindowBufferPlan &p) {
    Expr size = int_const(p.ring_rows * p.width);
    return select(t >= size, t - size, t);
}

// Every read of the buffer replaced by a read of the ring. The index (lets resolved) is split
// into its channel part (the loops that move it by whole planes) and its position in a plane,
// row W + column; the position plus the shift gets a let before the statement that reads.
class ReadRing : public IRMutator {
public:
    ReadRing(const std::string &buffer, const WindowBufferPlan &plan, const std::string &shift, std::set<std::string> &taken)
        : buffer_(buffer), plan_(plan), shift_(shift), taken_(taken) {}

private:
    using IRMutator::visit;
    std::string buffer_;
    const WindowBufferPlan &plan_;
    std::string shift_;
    std::set<std::string> &taken_;
    LetBindings lets_;
    Scope<Interval> bounds_;
    std::vector<const For *> loops_;
    std::vector<std::pair<std::string, Expr>> pending_;
    bool collecting_ = false;  // inside a let's value or a store, which can get lets before them

    // `s` after the lets its reads asked for since `mark`.
    Stmt with_pending(Stmt s, size_t mark) {
        while (pending_.size() > mark) {
            s = LetStmt::make(pending_.back().first, pending_.back().second, s);
            pending_.pop_back();
        }
        return s;
    }
    Stmt visit(const LetStmt *op) override {
        size_t mark = pending_.size();
        collecting_ = true;
        Expr value = mutate(op->value);
        collecting_ = false;
        std::vector<std::pair<std::string, Expr>> mine(pending_.begin() + mark, pending_.end());
        pending_.resize(mark);
        lets_.emplace_back(op->name, op->value);
        Stmt body = mutate(op->body);
        lets_.pop_back();
        pending_.insert(pending_.end(), mine.begin(), mine.end());
        return with_pending(LetStmt::make(op->name, value, body), mark);
    }
    Stmt visit(const Store *op) override {
        size_t mark = pending_.size();
        collecting_ = true;
        Stmt s = IRMutator::visit(op);
        collecting_ = false;
        return with_pending(s, mark);
    }
    Stmt visit(const For *op) override {
        std::optional<int64_t> min = constant_int(op->min), extent = constant_int(op->extent);
        if (!min || !extent) return IRMutator::visit(op);
        ScopedBinding<Interval> bind(bounds_, op->name, Interval(op->min, int_const(*min + *extent - 1)));
        loops_.push_back(op);
        Stmt s = IRMutator::visit(op);
        loops_.pop_back();
        return s;
    }
    Expr visit(const Load *op) override {
        if (op->name != buffer_) return IRMutator::visit(op);
        Expr index = ring_index(resolve_lets(lets_, op->index));
        return Load::make(op->type, plan_.ring, index, Halide::Buffer<>(), Parameter(), op->predicate, ModulusRemainder());
    }

    Expr ring_index(const Expr &index) {
        const WindowBufferPlan &p = plan_;
        const int64_t plane = p.width * p.height;
        Expr rest = index, channel = int_const(0), linear = int_const(0);
        for (const For *f : loops_) {
            Expr v = int_var(f->name);
            std::optional<int64_t> step = constant_int(simplify(substitute(f->name, v + 1, index) - index));
            if (!step || *step == 0 || *step % plane != 0) continue;
            rest = substitute(f->name, f->min, rest);
            channel = channel + int_const(*step / plane) * (v - f->min);
            linear = linear + int_const(*step) * (v - f->min);
        }
        rest = simplify(rest, true, bounds_);
        Interval range = bounds_of_expr_in_scope(rest, bounds_);
        std::optional<int64_t> lo, hi;
        if (range.is_bounded()) lo = constant_int(simplify(range.min)), hi = constant_int(simplify(range.max));
        bool split = lo && hi && *lo >= 0 && *lo / plane == *hi / plane && is_const_zero(simplify(index - (rest + linear)));
        if (!split || !collecting_) {
            // Not separable: the general form (divisions), correct for any index in the buffer.
            Expr w = int_const(p.width), row = (index / w) % int_const(p.height);
            Expr at = (row * w + index % w) + int_var(shift_);
            return simplify((index / int_const(plane)) * int_const(p.ring_rows * p.width) + wrapped(at, p), true, bounds_);
        }
        int64_t q = *lo / plane;
        std::string name = fresh_name(plan_.ring + "_at", taken_, 1);
        pending_.push_back({name, simplify(rest - int_const(q * plane) + int_var(shift_), true, bounds_)});
        Expr c = simplify(channel + int_const(q), true, bounds_);
        return simplify(c * int_const(p.ring_rows * p.width) + wrapped(int_var(name), p), true, bounds_);
    }
};

// Copies row `row` from the FIFO into the ring at ring row offset `slot` (row W + ...): the
// producer's loops inside its row loop, in its order (loop variables `prefix`_0, _1, ...).
// With several lanes the loop that walks them (coefficient the lane stride) is HLS-unrolled
// by the lanes in `directives`, as the producer's is, so that one iteration reads each FIFO.
Stmt copy_row(const WindowBufferAnalysis &a, const Buffer &b, const Expr &row, const Expr &slot_offset,
              const std::string &prefix, std::map<std::string, LoopDirective> &directives) {
    const WindowBufferPlan &p = a.plan;
    Expr element = row * int_const(p.width);
    Expr slot = slot_offset;
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
        const RowLoop &l = a.row_loops[k];
        std::string name = prefix + "_" + std::to_string(k);
        if (b.stream_lanes > 1 && std::abs(l.coefficient) == b.stream_lane_stride && l.extent % b.stream_lanes == 0) {
            directives[name].unroll = l.extent == b.stream_lanes ? kUnrollComplete : b.stream_lanes;
        }
        s = serial_for(name, int_const(0), int_const(l.extent), s);
    }
    return s;
}

// The row loop: at the start of iteration k the shift of the ring's rows is computed and the
// rows (F(k - 1), F(k)] are copied into the ring; after it the rows no iteration reads are read
// (into the ring's first row, never read again).
class FillRing : public IRMutator {
public:
    FillRing(const WindowBufferAnalysis &a, const Buffer &b, const std::string &shift, const std::string &top,
             std::set<std::string> &taken, std::map<std::string, LoopDirective> &directives)
        : a_(a), b_(b), shift_(shift), top_(top), top_value_(fresh_name(top, taken, 1)), taken_(taken),
          directives_(directives) {}

private:
    using IRMutator::visit;
    const WindowBufferAnalysis &a_;
    const Buffer &b_;
    std::string shift_, top_, top_value_;
    std::set<std::string> &taken_;
    std::map<std::string, LoopDirective> &directives_;

    Stmt visit(const For *op) override {
        if (op->name != a_.row_loop) return IRMutator::visit(op);
        const WindowBufferPlan &p = a_.plan;
        Expr k = int_var(op->name) - int_const(a_.row_loop_min);
        Expr last = int_const(p.height - 1);
        Expr hi = min(int_const(p.stride) * k + int_const(p.last_row), last);
        Expr lo = select(k == 0, int_const(0), min(int_const(p.stride) * k + int_const(p.last_row - p.stride), last) + 1);
        // base mod R, carried from one iteration to the next in the one-element local `top`
        // (base moves by at most stride <= R rows): no division.
        Expr base = hi - int_const(p.ring_rows - 1);
        Expr hi_before = min(int_const(p.stride) * k + int_const(p.last_row - p.stride), last);
        Expr moved = load(Halide::Int(32), top_, int_const(0)) + simplify(hi - hi_before);
        std::string mod = fresh_name(b_.name + "_mod", taken_, 1);
        Expr m = int_var(mod);
        Expr wrapped_m = select(m >= int_const(p.ring_rows), m - int_const(p.ring_rows), m);
        Expr shift = simplify((int_var(top_value_) - base) * int_const(p.width));
        int64_t most = std::min(p.height, std::max(p.last_row + 1, p.stride));
        std::string fill = fresh_name(b_.name + "_fill", taken_, 1);
        std::string row = fresh_name(b_.name + "_row", taken_, 1);
        std::string slot = fresh_name(b_.name + "_slot", taken_, 1);
        Stmt copy = copy_row(a_, b_, int_var(row), int_var(slot), fresh_name(b_.name + "_c", taken_, 1), directives_);
        copy = LetStmt::make(slot, wrapped(simplify(int_var(row) * int_const(p.width)) + int_var(shift_), p), copy);
        Stmt body = LetStmt::make(row, simplify(lo + int_var(fill)), IfThenElse::make(int_var(row) <= simplify(hi), copy));
        Stmt each = LetStmt::make(shift_, shift, Block::make(serial_for(fill, int_const(0), int_const(most), body), op->body));
        each = Block::make(Store::make(top_, int_var(top_value_), int_const(0), Parameter(), const_true(), ModulusRemainder()), each);
        each = LetStmt::make(mod, moved, LetStmt::make(top_value_, wrapped_m, each));
        Stmt loop = For::make(op->name, op->min, op->extent, op->for_type, op->device_api, each);
        // Before the loop: base(-1) mod R, so that iteration 0 finds base(0) mod R.
        int64_t base0 = p.rows_before(0) - p.ring_rows, before = base0 - p.stride;
        int64_t init = ((before % p.ring_rows) + p.ring_rows) % p.ring_rows;
        loop = Block::make(Store::make(top_, int_const(init), int_const(0), Parameter(), const_true(), ModulusRemainder()), loop);
        int64_t filled = p.rows_before(p.out_rows - 1);
        if (filled >= p.height) return loop;
        std::string rest = fresh_name(b_.name + "_rest", taken_, 1);
        Stmt drain = copy_row(a_, b_, int_var(rest), int_const(0), fresh_name(b_.name + "_d", taken_, 1), directives_);
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
    std::string shift = fresh_name(b.name + "_shift", taken, 1);
    Stmt body = ReadRing(b.name, b.window_buffer, shift, taken).mutate(f.body);
    std::string top = fresh_name(b.name + "_top", taken, 1);
    StreamLanes lanes = stream_lanes_of(g.filters[b.producers[0]], b.name);
    b.stream_lanes = lanes.lanes;
    b.stream_lane_stride = lanes.stride;
    f.body = FillRing(a, b, shift, top, taken, f.directives).mutate(body);
    f.locals.emplace_back(b.window_buffer.ring, b.type, b.window_buffer.words());
    f.locals.emplace_back(top, Halide::Int(32), 1, true);
    recompute_edges(g);
    for (int id : {b.producers[0], b.consumers[0]}) {
        g.filters[id].body = drop_stream_index(g.filters[id].body, b.name, lanes);
    }
    b.channel = ChannelKind::WindowBufferedStream;
    b.channel_reason = plan_text(f, b.window_buffer);
}

}  // namespace

PassResult window_buffers(FilterGraph &graph, bool fifo_channels) {
    PassResult result;
    if (!fifo_channels || !graph.dataflow.legal) return result;
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.is_stream()) continue;
        if (b.channel_request == ChannelRequest::PingPong || !b.margin.empty()) continue;
        WindowBufferAnalysis a = analyze_window_buffer(graph, b);
        if (!a.found) continue;
        apply(graph, b, a);
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
