// legalize_dataflow: fork and copy filters, merged producers (HIDA optimization 1).
#include "transforms/LegalizeDataflow.h"
#include "analysis/StreamOrder.h"
#include "transforms/CopyFilter.h"

namespace flowhls {

using namespace Halide::Internal;

namespace {

bool any_returns(const FilterGraph &g, int from, int to) {
    for (int i = from; i <= to; i++) {
        if (!g.filters[i].returns.empty()) return true;
    }
    return false;
}

// Merges the filters from the first to the last producer of a buffer with several.
bool merge_producers(FilterGraph &g) {
    for (const Buffer &b : g.buffers) {
        if (b.producers.size() < 2) continue;
        int first = b.producers.front(), last = b.producers.back();
        if (any_returns(g, first, last)) continue;
        Filter merged = g.filters[first];
        merged.function_name = g.filters[first].function_name;
        for (int i = first + 1; i <= last; i++) {
            const Filter &f = g.filters[i];
            merged.name += "_" + f.name;
            merged.body = Block::make(merged.body, f.body);
            merged.locals.insert(merged.locals.end(), f.locals.begin(), f.locals.end());
            merged.directives.insert(f.directives.begin(), f.directives.end());
            merged.inline_function |= f.inline_function;
            // The first producer's node stays; the values of all are the merged filter's.
            if (merged.onnx.empty()) merged.onnx = f.onnx;
            else merged.onnx.values.insert(merged.onnx.values.end(), f.onnx.values.begin(), f.onnx.values.end());
        }
        g.filters.erase(g.filters.begin() + first, g.filters.begin() + last + 1);
        g.filters.insert(g.filters.begin() + first, merged);
        recompute_edges(g);
        return true;
    }
    return false;
}

// An output read by other filters is computed into an intermediate copied to the output.
bool separate_read_outputs(FilterGraph &g) {
    for (size_t bi = 0; bi < g.buffers.size(); bi++) {
        Buffer out = g.buffers[bi];
        if (out.kind != BufferKind::Output || out.producers.size() != 1) continue;
        bool read_by_other = false;
        for (int c : out.consumers) read_by_other |= c != out.producers[0];
        if (!read_by_other) continue;
        std::string inner = fresh_graph_name(g, out.name + "_value");
        for (Filter &f : g.filters) f.body = rename_buffer(f.body, out.name, inner, true);
        g.buffers.push_back(intermediate_like(out, inner));
        Filter copy = copy_filter(g, fresh_graph_name(g, out.name + "_copy"), g.buffers.back(), {out.name}, out.producers[0]);
        g.filters.push_back(copy);
        recompute_edges(g);
        return true;
    }
    return false;
}

// A buffer read by several filters gets a fork filter writing one copy per reader.
bool fork_shared_buffers(FilterGraph &g) {
    for (size_t bi = 0; bi < g.buffers.size(); bi++) {
        Buffer b = g.buffers[bi];
        if (b.kind == BufferKind::Constant || b.kind == BufferKind::Output || b.is_scalar()) continue;
        if (b.producers.size() > 1) continue;
        std::vector<int> readers;
        for (int c : b.consumers) {
            if (b.producers.empty() || c != b.producers[0]) readers.push_back(c);
        }
        if (readers.size() < 2) continue;
        if (!b.producers.empty() && !g.filters[b.producers[0]].returns.empty()) continue;
        std::string fork_name = fresh_graph_name(g, b.name + "_fork");
        // A producer writing in a transposed order is forked in that order (its copies keep the
        // storage's dims, so window-buffers sees their rows).
        std::vector<RowLoop> order = b.kind == BufferKind::Intermediate ? permuted_write_order(g, b) : std::vector<RowLoop>{};
        std::vector<std::string> copies;
        for (size_t k = 0; k < readers.size(); k++) {
            std::string copy = fresh_graph_name(g, b.name + "_to_" + g.filters[readers[k]].name);
            g.buffers.push_back(intermediate_like(b, copy));
            if (!order.empty()) g.buffers.back().dims = b.dims;
            Filter &reader = g.filters[readers[k]];
            reader.body = rename_buffer(reader.body, b.name, copy, false);
            copies.push_back(copy);
        }
        Filter fork = copy_filter(g, fork_name, b, copies, b.producers.empty() ? -1 : b.producers[0], order);
        int at = b.producers.empty() ? 0 : b.producers[0] + 1;
        g.filters.insert(g.filters.begin() + at, fork);
        recompute_edges(g);
        return true;
    }
    return false;
}

}  // namespace

PassResult legalize_dataflow(FilterGraph &graph) {
    PassResult result;
    // A top function the dataflow directive keeps sequential needs no forks or copies.
    if (graph.filters.size() < 2 || graph.dataflow_disabled) return result;
    while (merge_producers(graph)) result.changed = true;
    while (separate_read_outputs(graph)) result.changed = true;
    while (fork_shared_buffers(graph)) result.changed = true;
    return result;
}

}  // namespace flowhls
