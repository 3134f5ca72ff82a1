// detect_streams: FIFO channels between filters, proven from the access order.
#include "transforms/DetectStreams.h"
#include "analysis/StreamOrder.h"
#include "flowhls/Error.h"

namespace flowhls {

using namespace Halide::Internal;

namespace {

// Accesses of a stream have no address: their index becomes 0.
class DropStreamIndex : public IRMutator {
public:
    explicit DropStreamIndex(std::string name) : name_(std::move(name)) {}

private:
    using IRMutator::visit;
    std::string name_;
    Halide::Expr visit(const Load *op) override {
        if (op->name != name_) return IRMutator::visit(op);
        return Load::make(op->type, op->name, Halide::Expr(0), op->image, op->param, op->predicate, op->alignment);
    }
    Stmt visit(const Store *op) override {
        if (op->name != name_) return IRMutator::visit(op);
        return Store::make(op->name, mutate(op->value), Halide::Expr(0), op->param, op->predicate, op->alignment);
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

Stmt drop_stream_index(const Stmt &body, const std::string &buffer) { return DropStreamIndex(buffer).mutate(body); }

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
        for (int f : {b.producers[0], b.consumers[0]}) {
            graph.filters[f].body = drop_stream_index(graph.filters[f].body, b.name);
        }
    }
    return result;
}

}  // namespace flowhls
