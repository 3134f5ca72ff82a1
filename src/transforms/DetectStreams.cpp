// detect_streams: FIFO channels between filters, proven from the access order.
#include "transforms/DetectStreams.h"
#include "analysis/StreamOrder.h"
#include "analysis/HlsUnroll.h"
#include "flowhls/Error.h"
#include "ir/IRBuild.h"
#include "ir/IRQueries.h"

#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Accesses of a stream have no address: their index becomes 0, or the element's lane.
class DropStreamIndex : public IRMutator {
public:
    DropStreamIndex(std::string name, StreamLanes lanes) : name_(std::move(name)), lanes_(lanes) {}

private:
    using IRMutator::visit;
    std::string name_;
    StreamLanes lanes_;
    LetBindings lets_;
    Scope<Interval> bounds_;
    // Let-bound names kept as variables (with their interval in bounds_) inside an if that
    // bounds them (visit(IfThenElse)).
    std::set<std::string> kept_;

    std::vector<const For *> loops_;

    // `e` with the let-bound names substituted, except the kept ones.
    Expr resolved(const Expr &e) const {
        if (kept_.empty()) return resolve_lets(lets_, e);
        LetBindings lets;
        for (const auto &l : lets_) {
            if (!kept_.count(l.first)) lets.push_back(l);
        }
        return resolve_lets(lets, e);
    }

    // (index / stride) mod lanes. An index affine in the loops around the access is split into
    // the terms that move it by multiples of the stride and the rest; when the rest stays
    // within one multiple of the stride, or is a known constant modulo stride x lanes, the
    // quotient is a sum of loop variables (the lane a constant in each copy of the loop
    // unrolled along the lanes); else the general form.
    Expr lane(const Expr &index) const {
        if (lanes_.lanes <= 1) return Halide::Expr(0);
        const Expr i = resolved(index), stride = int_const(lanes_.stride), k = int_const(lanes_.lanes);
        Expr rest = i, quotient = int_const(0);
        for (const For *f : loops_) {
            Expr v = int_var(f->name);
            std::optional<int64_t> step = constant_int(simplify(substitute(f->name, v + 1, i) - i));
            if (!step || *step == 0) continue;
            rest = substitute(f->name, f->min, rest);
            if (*step % lanes_.stride == 0) quotient = quotient + int_const(*step / lanes_.stride) * (v - f->min);
            else rest = rest + int_const(*step) * (v - f->min);
        }
        rest = simplify(rest, true, bounds_);
        Interval range = bounds_of_expr_in_scope(rest, bounds_);
        std::optional<int64_t> lo, hi;
        if (range.is_bounded()) lo = constant_int(simplify(range.min)), hi = constant_int(simplify(range.max));
        // A variable whose step is a constant (for every value of the others) enters the index
        // as step x (v - min) exactly, so index = rest + the multiples of the stride.
        if (lo && hi && *lo >= 0 && *lo / lanes_.stride == *hi / lanes_.stride) {
            return simplify((quotient + int_const(*lo / lanes_.stride)) % k, true, bounds_);
        }
        // Else a rest known modulo stride x lanes (a ring fill's row, a let of a select: its
        // multiples of a row move no lane): the lane is the quotient's plus the remainder's.
        const int64_t period = lanes_.stride * lanes_.lanes;
        int64_t remainder = 0;
        if (reduce_expr_modulo(simplify(rest), period, &remainder)) {
            remainder = ((remainder % period) + period) % period;
            return simplify((quotient + int_const(remainder / lanes_.stride)) % k, true, bounds_);
        }
        return simplify((i / stride) % k, true, bounds_);
    }

    Stmt visit(const LetStmt *op) override {
        lets_.emplace_back(op->name, op->value);
        Stmt body = mutate(op->body);
        lets_.pop_back();
        Expr value = mutate(op->value);
        if (body.same_as(op->body) && value.same_as(op->value)) return op;
        return LetStmt::make(op->name, value, body);
    }
    // A let-bound name compared with an upper bound (`row <= min(oy, 54) + 1`: the guard of a
    // ring fill's row, window-buffers): inside the then-case the name stays a variable with the
    // constant bounds of its value and of that bound, which a row of a stream's lane needs
    // (its value alone, select(oy == 0, 0, oy + 1) + fill, reaches past the last row).
    Stmt visit(const IfThenElse *op) override {
        Expr var, upper;
        if (const LE *le = op->condition.as<LE>()) var = le->a, upper = le->b;
        if (const LT *lt = op->condition.as<LT>()) var = lt->a, upper = lt->b - 1;
        const Variable *v = var.defined() ? var.as<Variable>() : nullptr;
        bool let = false;
        for (const auto &l : lets_) let = let || (v && l.first == v->name);
        if (!let || bounds_.contains(v->name) || kept_.count(v->name)) return IRMutator::visit(op);
        Interval value = bounds_of_expr_in_scope(resolved(var), bounds_);
        Interval cap = bounds_of_expr_in_scope(resolved(upper), bounds_);
        std::optional<int64_t> lo, hi, top;
        if (value.has_lower_bound()) lo = constant_int(simplify(value.min));
        if (value.has_upper_bound()) hi = constant_int(simplify(value.max));
        if (cap.has_upper_bound()) top = constant_int(simplify(cap.max));
        if (!lo || !top) return IRMutator::visit(op);
        const int64_t most = hi ? std::min(*hi, *top) : *top;
        if (most < *lo) return IRMutator::visit(op);
        Expr condition = mutate(op->condition);
        Stmt then_case;
        {
            ScopedBinding<Interval> bind(bounds_, v->name, Interval(int_const(*lo), int_const(most)));
            kept_.insert(v->name);
            then_case = mutate(op->then_case);
            kept_.erase(v->name);
        }
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        if (condition.same_as(op->condition) && then_case.same_as(op->then_case) && else_case.same_as(op->else_case)) {
            return op;
        }
        return IfThenElse::make(condition, then_case, else_case);
    }
    Stmt visit(const For *op) override {
        std::optional<int64_t> min = constant_int(op->min), extent = constant_int(op->extent);
        if (!min || !extent || *extent < 1) return IRMutator::visit(op);
        ScopedBinding<Interval> bind(bounds_, op->name, Interval(op->min, int_const(*min + *extent - 1)));
        loops_.push_back(op);
        Stmt s = IRMutator::visit(op);
        loops_.pop_back();
        return s;
    }
    Halide::Expr visit(const Load *op) override {
        if (op->name != name_) return IRMutator::visit(op);
        return Load::make(op->type, op->name, lane(op->index), op->image, op->param, op->predicate, op->alignment);
    }
    Stmt visit(const Store *op) override {
        if (op->name != name_) return IRMutator::visit(op);
        return Store::make(op->name, mutate(op->value), lane(op->index), op->param, op->predicate, op->alignment);
    }
};

// The stores to one buffer with the loops around each (for stream_lanes_of).
class StoreSites : public IRVisitor {
public:
    explicit StoreSites(std::string name) : name_(std::move(name)) {}
    struct Site {
        Expr index;
        std::vector<const For *> loops;
    };
    std::vector<Site> sites;

private:
    using IRVisitor::visit;
    std::string name_;
    LetBindings lets_;
    std::vector<const For *> loops_;
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        lets_.emplace_back(op->name, op->value);
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const For *op) override {
        loops_.push_back(op);
        IRVisitor::visit(op);
        loops_.pop_back();
    }
    void visit(const Store *op) override {
        if (op->name == name_) sites.push_back({resolve_lets(lets_, op->index), loops_});
        IRVisitor::visit(op);
    }
};

// Throws unless every axis interface directive is on an argument accessed once, in order.
void check_axis_arguments(const FilterGraph &graph) {
    for (const Buffer &b : graph.buffers) {
        if (b.interface.inferred || b.interface.mode != InterfaceMode::Axis) continue;
        StreamVerdict v = argument_stream_verdict(graph, b);
        if (!v.stream) {
            throw Error("interface directive: kernel argument '" + b.name +
                        "' cannot be an AXI4-Stream (axis) port: " + v.reason +
                        "; an axis port delivers each element once, in storage order (use m_axi or bram)");
        }
    }
}

}  // namespace

Stmt drop_stream_index(const Stmt &body, const std::string &buffer, StreamLanes lanes) {
    return DropStreamIndex(buffer, lanes).mutate(body);
}

StreamLanes stream_lanes_of(const Filter &producer, const std::string &buffer) {
    StoreSites find(buffer);
    producer.body.accept(&find);
    StreamLanes out;
    for (size_t n = 0; n < find.sites.size(); n++) {
        const StoreSites::Site &site = find.sites[n];
        StreamLanes here;
        for (size_t k = site.loops.size(); k-- > 0;) {
            const For *f = site.loops[k];
            std::optional<int64_t> trip = constant_int(f->extent);
            int64_t u = trip ? hls_unroll_factor(producer.directives, f->name, *trip) : 1;
            if (u <= 1) continue;
            Expr v = int_var(f->name);
            std::optional<int64_t> step = constant_int(simplify(substitute(f->name, v + 1, site.index) - site.index));
            if (step && *step != 0) here = StreamLanes{u, *step < 0 ? -*step : *step};
            break;
        }
        if (n > 0 && (here.lanes != out.lanes || here.stride != out.stride)) return StreamLanes();
        out = here;
    }
    return out;
}

PassResult detect_streams(FilterGraph &graph, bool fifo_channels) {
    PassResult result;
    check_axis_arguments(graph);
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate) continue;
        if (b.is_scalar()) {
            if (b.channel_request != ChannelRequest::Auto) {
                throw Error(std::string(b.channel_request == ChannelRequest::Stream ? "stream" : "ping_pong") +
                            " directive: buffer '" + b.name +
                            "' holds a single value, passed between filters as a scalar (trivial-buffers)");
            }
            continue;
        }
        bool stream = false;
        std::string reason;
        if (b.channel_request == ChannelRequest::Stream) {
            StreamVerdict v = stream_verdict(graph, b);
            if (!v.stream) {
                throw Error("stream directive: buffer '" + b.name + "' cannot be a FIFO: " + v.reason +
                            " (a FIFO needs one producer writing every element once and one later consumer "
                            "reading them once, in the same order)");
            }
            if (!graph.dataflow.legal) {
                throw Error("stream directive: buffer '" + b.name +
                            "' can only be a FIFO inside a dataflow region, and the top function is not one: " +
                            graph.dataflow.reason);
            }
            stream = fifo_channels;
            reason = fifo_channels ? "stream directive; " + v.reason
                                   : "array: stream directive not applied, this target has no FIFOs (" + v.reason + ")";
        } else if (b.channel_request == ChannelRequest::PingPong) {
            reason = graph.dataflow.legal ? "ping-pong: ping_pong directive"
                                          : "array: ping_pong directive, but the top function is not a dataflow region";
        } else if (!graph.dataflow.legal) {
            reason = "array: the top function is not a dataflow region";
        } else if (!fifo_channels) {
            StreamVerdict v = stream_verdict(graph, b);
            reason = v.stream ? "array: a stream for targets with FIFOs (" + v.reason + "); this target has none"
                              : "ping-pong: " + v.reason;
        } else {
            StreamVerdict v = stream_verdict(graph, b);
            stream = v.stream;
            reason = v.stream ? v.reason : "ping-pong: " + v.reason;
        }
        int64_t line_words = 0;
        if (!stream) {
            LineBufferAnalysis w = analyze_line_buffer(graph, b);
            if (w.sliding()) {
                const LineBufferPlan &p = w.plan;
                line_words = p.words();
                reason += "; a " + std::to_string(p.rows) + "x" + std::to_string(p.cols) + " sliding window over rows of " +
                          std::to_string(p.width) + ": a line buffer needs " + std::to_string((p.rows - 1) * p.width) +
                          " words + " + std::to_string(p.rows * p.cols) + " window registers";
            }
        }
        ChannelKind channel = stream ? ChannelKind::Stream : graph.dataflow.legal ? ChannelKind::PingPong : ChannelKind::Array;
        result.changed |= channel != b.channel || reason != b.channel_reason || line_words != b.line_buffer_words;
        b.line_buffer_words = line_words;
        b.channel = channel;
        b.channel_reason = reason;
        if (!stream) continue;
        StreamLanes lanes = stream_lanes_of(graph.filters[b.producers[0]], b.name);
        b.stream_lanes = lanes.lanes;
        b.stream_lane_stride = lanes.stride;
        for (int f : {b.producers[0], b.consumers[0]}) {
            graph.filters[f].body = drop_stream_index(graph.filters[f].body, b.name, lanes);
        }
    }
    return result;
}

}  // namespace flowhls
