// buffer_inputs: on-chip copies of kernel inputs their consumer reads out of order.
#include "transforms/BufferInputs.h"
#include "analysis/StreamOrder.h"
#include "transforms/CopyFilter.h"

namespace flowhls {

namespace {

int64_t bytes_of(const Buffer &b) { return b.size() * ((b.type.bits() + 7) / 8); }

// Whether `b` is an off-chip input its only reader reads other than once in order.
bool read_out_of_order(const FilterGraph &g, const Buffer &b) {
    if (b.kind != BufferKind::Input || b.channel != ChannelKind::OffChip) return false;
    if (!b.producers.empty() || b.consumers.size() != 1) return false;
    return !argument_stream_verdict(g, b).stream;
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
    for (const std::string &arg : graph.args) {
        const Buffer input = graph.buffer(arg);
        if (!read_out_of_order(graph, input)) continue;
        // The half of the block RAM place-weights fills with ROMs: a weight it made an argument
        // did not fit in what the ROMs left of it, so twice its bytes do not either.
        if (used + 2 * bytes_of(input) > options.bram_bytes / 2) continue;
        used += 2 * bytes_of(input);
        std::string copy = fresh_graph_name(graph, input.name + "_buf");
        Filter &reader = graph.filters[input.consumers.front()];
        reader.body = rename_buffer(reader.body, input.name, copy, false);
        graph.buffers.push_back(intermediate_like(input, copy));
        Filter load = copy_filter(graph, fresh_graph_name(graph, input.name + "_load"), input, {copy}, -1);
        graph.filters.insert(graph.filters.begin() + inserted++, load);
        recompute_edges(graph);
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
