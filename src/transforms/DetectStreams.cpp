// detect_streams: FIFO channels between filters, proven from the access order.
#include "transforms/DetectStreams.h"
#include "analysis/StreamOrder.h"
#include "transforms/DeadCode.h"

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

}  // namespace

Stmt drop_stream_index(const Stmt &body, const std::string &buffer) { return DropStreamIndex(buffer).mutate(body); }

PassResult detect_streams(FilterGraph &graph, bool fifo_channels) {
    PassResult result;
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.scalar) continue;
        bool stream = false;
        std::string reason;
        if (!graph.dataflow.legal) {
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
            SlidingWindow w = sliding_window(graph, b);
            if (w.found) {
                line_words = w.line_words() + w.window_words();
                reason += "; a " + std::to_string(w.rows) + "x" + std::to_string(w.cols) + " sliding window over rows of " +
                          std::to_string(w.row_width) + ": a line buffer needs " + std::to_string(w.line_words()) +
                          " words + " + std::to_string(w.window_words()) + " window registers";
            }
        }
        result.changed |= stream != b.stream || reason != b.channel_reason || line_words != b.line_buffer_words;
        b.line_buffer_words = line_words;
        b.stream = stream;
        b.channel_reason = reason;
        if (!stream) continue;
        for (int f : {b.producers[0], b.consumers[0]}) {
            graph.filters[f].body = drop_stream_index(graph.filters[f].body, b.name);
        }
    }
    if (result.changed) dead_code(graph);  // the index computations of stream accesses
    return result;
}

}  // namespace flowhls
