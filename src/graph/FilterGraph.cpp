// FilterGraph queries, edge recomputation and the text printer.
#include "graph/FilterGraph.h"
#include "ir/IRQueries.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// Drops strict_float() wrappers for display: every float operation flowhls emits is strict.
class HideStrictFloat : public IRMutator {
    using IRMutator::visit;
    Halide::Expr visit(const Call *op) override {
        if (op->is_intrinsic(Call::strict_float)) return mutate(op->args[0]);
        return IRMutator::visit(op);
    }
};

std::string join(const std::vector<std::string> &items, const char *sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); i++) {
        if (i) out += sep;
        out += items[i];
    }
    return out;
}

std::string filter_names(const FilterGraph &graph, const std::vector<int> &ids) {
    std::vector<std::string> names;
    for (int id : ids) names.push_back(graph.filters[id].name);
    return names.empty() ? "-" : join(names, ", ");
}

std::string shape_text(const std::vector<int64_t> &shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); i++) {
        if (i) out += ", ";
        out += std::to_string(shape[i]);
    }
    return out + "]";
}

// "    partition: cyclic factor 4 (inferred: ...)" for a partitioned array or one with a reason.
std::string partition_text(const ArrayPartition &p, const char *indent) {
    if (!p.enabled && p.reason.empty()) return "";
    std::string out = std::string(indent) + "partition: ";
    if (!p.enabled) {
        out += "none";
    } else {
        out += partition_kind_name(p.kind);
        if (p.kind != PartitionKind::Complete) out += " factor " + std::to_string(p.factor);
    }
    if (!p.reason.empty()) out += " (" + p.reason + ")";
    return out + "\n";
}

}  // namespace

int64_t Buffer::size() const {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    return n;
}

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

std::string type_name(Halide::Type type) {
    std::ostringstream os;
    os << type;
    return os.str();
}

std::string print_graph(const FilterGraph &graph) {
    std::ostringstream os;
    os << "graph " << graph.name << "  (float arithmetic is strict IEEE; strict_float() not shown)\n";
    for (const Buffer &b : graph.buffers) {
        os << "  buffer " << b.name << ": " << buffer_kind_name(b.kind) << " " << type_name(b.type)
           << shape_text(b.shape) << (b.scalar ? " scalar" : "") << "  producers: " << filter_names(graph, b.producers)
           << "  consumers: " << filter_names(graph, b.consumers) << "\n";
        if (!b.interface.inferred) {
            os << "    interface: " << interface_mode_name(b.interface.mode)
               << (b.interface.bundle.empty() ? "" : " bundle " + b.interface.bundle) << " (directive)\n";
        }
        if (!b.channel_reason.empty()) {
            os << "    channel: "
               << (b.stream ? "stream depth " + std::to_string(b.stream_depth) : std::string("buffer")) << " ("
               << b.channel_reason << ")\n";
        }
        os << partition_text(b.partition, "    ");
    }
    os << "  main " << graph.name << "(" << join(graph.args, ", ") << ") calls:";
    for (const Filter &f : graph.filters) os << " " << f.name;
    os << "\n";
    if (graph.dataflow.checked) {
        os << "  dataflow: "
           << (graph.dataflow.legal ? "yes" : "no (" + graph.dataflow.reason + ")") << "\n";
    }
    if (graph.dataflow_disabled) os << "  dataflow region turned off (directive)\n";
    if (!graph.token_check.empty()) os << "  token simulation: " << graph.token_check << "\n";
    for (const Filter &f : graph.filters) {
        os << "filter " << f.name << " -> " << f.function_name;
        if (!f.returns.empty()) os << " returns " << f.returns;
        os << "\n";
        if (f.inline_function) os << "  inline (directive)\n";
        for (const auto &d : f.directives) {
            if (d.second.inferred) continue;
            os << "  loop " << d.first << ":";
            if (d.second.pipeline_ii > 0) os << " pipeline II=" << d.second.pipeline_ii << (d.second.pipeline_inferred ? " (inferred)" : "");
            if (d.second.unroll == kUnrollComplete) os << " unroll complete";
            else if (d.second.unroll > 0) os << " unroll " << d.second.unroll;
            os << "\n";
        }
        os << "  reads: " << (f.reads.empty() ? "-" : join(f.reads, ", ")) << "\n";
        os << "  writes: " << (f.writes.empty() ? "-" : join(f.writes, ", ")) << "\n";
        for (const LocalBuffer &l : f.locals) {
            os << "  local " << l.name << ": " << type_name(l.type) << "[" << l.size << "]" << (l.scalar ? " scalar" : "")
               << "\n";
            os << partition_text(l.partition, "    ");
        }
        std::ostringstream body;
        body << HideStrictFloat().mutate(f.body);
        std::istringstream lines(body.str());
        std::string line;
        while (std::getline(lines, line)) os << "    " << line << "\n";
    }
    return os.str();
}

}  // namespace flowhls
