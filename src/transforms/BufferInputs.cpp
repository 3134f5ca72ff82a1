// buffer_inputs: on-chip copies of kernel inputs their consumer reads out of order.
#include "transforms/BufferInputs.h"
#include "analysis/StreamOrder.h"
#include "ir/IRQueries.h"
#include "transforms/CopyFilter.h"

namespace flowhls {

namespace {

int64_t bytes_of(const Buffer &b) { return b.size() * ((b.type.bits() + 7) / 8); }

// Whether every read of buffer `name` in `body` is the whole value of a store into another
// buffer inside a loop whose variable both indices use with the same step (an element-wise
// on-chip copy: the `in` of a jammed block of weights, docs/dse.md; not an accumulator's
// initialization from a bias, whose index does not move with the copy's), and there is one.
bool only_copied(const Halide::Internal::Stmt &body, const std::string &name) {
    class Reads : public Halide::Internal::IRVisitor {
    public:
        std::string name;
        int loads = 0, copies = 0;

    private:
        using IRVisitor::visit;
        LetBindings lets_;
        std::vector<std::string> loops_;
        void visit(const Halide::Internal::For *op) override {
            op->min.accept(this);
            op->extent.accept(this);
            loops_.push_back(op->name);
            op->body.accept(this);
            loops_.pop_back();
        }
        void visit(const Halide::Internal::LetStmt *op) override {
            op->value.accept(this);
            lets_.emplace_back(op->name, op->value);
            op->body.accept(this);
            lets_.pop_back();
        }
        bool element_wise(const Halide::Expr &to, const Halide::Expr &from) const {
            if (loops_.empty()) return false;
            Halide::Expr a = resolve_lets(lets_, to), b = resolve_lets(lets_, from);
            const std::string &inner = loops_.back();
            return referenced_variables(b).count(inner) &&
                   !referenced_variables(Halide::Internal::simplify(a - b)).count(inner);
        }
        void visit(const Halide::Internal::Store *op) override {
            Halide::Expr v = op->value;  // a float copy's value is strict_float(load)
            const auto *c = v.as<Halide::Internal::Call>();
            if (c && c->is_intrinsic(Halide::Internal::Call::strict_float) && c->args.size() == 1) v = c->args[0];
            const auto *l = v.as<Halide::Internal::Load>();
            if (l && l->name == name && op->name != name) {
                copies += element_wise(op->index, l->index) ? 1 : 0;
                loads++;
                l->index.accept(this);
                op->index.accept(this);
                op->predicate.accept(this);
                return;
            }
            IRVisitor::visit(op);
        }
        void visit(const Halide::Internal::Load *op) override {
            if (op->name == name) loads++;
            IRVisitor::visit(op);
        }
    } reads;
    reads.name = name;
    body.accept(&reads);
    return reads.copies > 0 && reads.copies == reads.loads;
}

// Whether `b` is an off-chip input its only reader reads other than once in order, and not
// only to copy it on chip (that copy already reads it in bursts through its port, widen-copies;
// a whole second copy would only add block RAM: hida_resnet18_int8's blocks_6_conv1 weights,
// 1,152 BRAM18K).
bool read_out_of_order(const FilterGraph &g, const Buffer &b) {
    if (b.kind != BufferKind::Input || b.channel != ChannelKind::OffChip) return false;
    if (!b.producers.empty() || b.consumers.size() != 1) return false;
    if (only_copied(g.filters[b.consumers.front()].body, b.name)) return false;
    return !argument_stream_verdict(g, b).stream;
}

// Rows outermost, then channels, then columns, for an input of shape (W, H, C[, 1...]),
// innermost first: the order window-buffers needs of a producer (each row whole before the
// next) that still reads the input in bursts of a row. Empty for other shapes.
std::vector<RowLoop> rows_outermost(const Buffer &input) {
    const std::vector<int64_t> &s = input.shape;
    if (s.size() < 3 || s[1] < 2) return {};
    for (size_t d = 3; d < s.size(); d++) {
        if (s[d] != 1) return {};
    }
    return {{s[1], s[0]}, {s[2], s[0] * s[1]}, {s[0], 1}};
}

// Inserts the copy of `input` (read by one filter) into `graph`: a load filter before the
// other filters writing a new intermediate that the reader reads instead, in `order` (empty:
// storage order). Returns the copy's name.
std::string insert_copy(FilterGraph &graph, const Buffer &input, const std::vector<RowLoop> &order, int position) {
    std::string copy = fresh_graph_name(graph, input.name + "_buf");
    Filter &reader = graph.filters[input.consumers.front()];
    reader.body = rename_buffer(reader.body, input.name, copy, false);
    Buffer buf = intermediate_like(input, copy);
    if (!order.empty()) buf.dims = input.shape;
    graph.buffers.push_back(buf);
    Filter load = copy_filter(graph, fresh_graph_name(graph, input.name + "_load"), input, {copy}, -1, order);
    graph.filters.insert(graph.filters.begin() + position, load);
    recompute_edges(graph);
    return copy;
}

}  // namespace

PassResult buffer_inputs(FilterGraph &graph, const InputBufferOptions &options) {
    PassResult result;
    if (!options.dataflow_target || graph.dataflow_disabled) return result;
    int64_t used = 0;
    for (const Buffer &b : graph.buffers) {
        if (b.channel == ChannelKind::Rom) used += bytes_of(b);
    }
    int inserted = 0;
    const std::vector<std::string> args = graph.args;  // graph is replaced below
    for (const std::string &arg : args) {
        const Buffer input = graph.buffer(arg);
        if (!read_out_of_order(graph, input)) continue;
        // A reader walking rows of windows (a convolution in the streaming layout) gets the copy
        // rows outermost: window-buffers then streams it through a ring of rows, which costs a
        // few rows of block RAM whatever the input's size (ResNet-18's 224x224x3 input, read
        // through its port at II 22, bound the whole design).
        std::vector<RowLoop> order = rows_outermost(input);
        if (!order.empty()) {
            FilterGraph trial = graph;
            std::string copy = insert_copy(trial, input, order, inserted);
            WindowBufferAnalysis ring = analyze_window_buffer(trial, trial.buffer(copy));
            if (ring.found) {
                graph = std::move(trial);
                inserted++;
                result.changed = true;
                continue;
            }
        }
        // The half of the block RAM place-weights fills with ROMs: a weight it made an argument
        // did not fit in what the ROMs left of it, so twice its bytes do not either.
        if (used + 2 * bytes_of(input) > options.bram_bytes / 2) continue;
        used += 2 * bytes_of(input);
        insert_copy(graph, input, {}, inserted++);
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
