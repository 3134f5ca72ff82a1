// FilterGraph queries, channel kinds and edge recomputation.
#include "graph/FilterGraph.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <set>

namespace flowhls {

using namespace Halide::Internal;


const char *channel_kind_name(ChannelKind kind) {
    switch (kind) {
    case ChannelKind::OffChip: return "off-chip";
    case ChannelKind::Port: return "port";
    case ChannelKind::Rom: return "rom";
    case ChannelKind::Array: return "array";
    case ChannelKind::PingPong: return "ping-pong";
    case ChannelKind::Scalar: return "scalar";
    case ChannelKind::Stream: return "stream";
    case ChannelKind::LineBufferedStream: return "line-buffered stream";
    case ChannelKind::WindowBufferedStream: return "window-buffered stream";
    case ChannelKind::Resident: return "uram-resident";
    }
    return "?";
}

ChannelKind Buffer::default_channel(BufferKind kind) {
    switch (kind) {
    case BufferKind::Input:
    case BufferKind::Output: return ChannelKind::OffChip;
    case BufferKind::Constant: return ChannelKind::Rom;
    case BufferKind::Intermediate: return ChannelKind::Array;
    }
    return ChannelKind::Array;
}

int64_t Buffer::size() const {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    return n;
}

int64_t WindowBufferPlan::rows_before(int64_t k) const { return std::min(stride * k + last_row, height - 1) + 1; }

int64_t LineBufferPlan::outputs_within(int64_t steps) const {
    auto clamp = [](int64_t v, int64_t hi) { return std::max<int64_t>(0, std::min(v, hi)); };
    int64_t plane_size = height * width;
    int64_t plane = steps / plane_size, rest = steps % plane_size;
    int64_t per_plane = out_rows * out_cols;
    // Whole planes, then whole rows of the current plane, then columns of the current row.
    int64_t n = clamp(plane - first_plane, out_planes) * per_plane;
    if (plane < first_plane || plane >= first_plane + out_planes) return n;
    int64_t row = rest / width, col = rest % width;
    n += clamp(row - (first_row + rows - 1), out_rows) * out_cols;
    if (row >= first_row + rows - 1 && row < first_row + rows - 1 + out_rows) {
        n += clamp(col - (first_col + cols - 1), out_cols);
    }
    return n;
}

const Buffer &FilterGraph::buffer(const std::string &name) const {
    for (const Buffer &b : buffers) {
        if (b.name == name) return b;
    }
    throw std::logic_error("FilterGraph: no buffer named " + name);
}

Buffer &FilterGraph::buffer(const std::string &name) {
    return const_cast<Buffer &>(static_cast<const FilterGraph *>(this)->buffer(name));
}

bool FilterGraph::has_buffer(const std::string &name) const {
    return std::any_of(buffers.begin(), buffers.end(),
                       [&](const Buffer &b) { return b.name == name; });
}

void recompute_edges(FilterGraph &graph) {
    for (Buffer &b : graph.buffers) {
        b.producers.clear();
        b.consumers.clear();
    }
    for (size_t i = 0; i < graph.filters.size(); i++) {
        Filter &f = graph.filters[i];
        BufferAccesses acc = buffer_accesses(f.body);
        std::set<std::string> locals;
        for (const LocalBuffer &l : f.locals) locals.insert(l.name);
        f.reads.clear();
        f.writes.clear();
        for (const std::string &n : acc.loads) {
            if (locals.count(n) || !graph.has_buffer(n)) continue;
            f.reads.push_back(n);
            graph.buffer(n).consumers.push_back(static_cast<int>(i));
        }
        for (const std::string &n : acc.stores) {
            if (locals.count(n) || !graph.has_buffer(n)) continue;
            f.writes.push_back(n);
            graph.buffer(n).producers.push_back(static_cast<int>(i));
        }
    }
}

const char *buffer_kind_name(BufferKind kind) {
    switch (kind) {
    case BufferKind::Input: return "input";
    case BufferKind::Output: return "output";
    case BufferKind::Intermediate: return "intermediate";
    case BufferKind::Constant: return "constant (ROM)";
    }
    return "?";
}

}  // namespace flowhls
