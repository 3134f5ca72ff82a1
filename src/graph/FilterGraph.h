// The FilterGraph IR: filters (loop nests of lowered Halide IR) connected by buffers.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// Role of a buffer in the kernel.
/// Depth of the FIFO of a stream channel.
constexpr int kStreamDepth = 2;

enum class BufferKind {
    Input,         ///< kernel argument read by the kernel
    Output,        ///< kernel argument written by the kernel
    Intermediate,  ///< allocated in the main filter, passed between filters
    Constant,      ///< read-only contents known at compile time, held in on-chip ROM
};

/// A buffer: an edge of the graph (or a kernel argument).
struct Buffer {
    std::string name;
    Halide::Type type;
    /// Extent per dimension, innermost first. Intermediate buffers are one-dimensional
    /// (Halide flattens storage); kernel arguments keep their shape.
    std::vector<int64_t> shape;
    BufferKind kind = BufferKind::Intermediate;
    /// Indices into FilterGraph::filters of the filters that store to / load from it.
    std::vector<int> producers;
    std::vector<int> consumers;
    /// A one-element intermediate passed as a scalar value (set by trivial-buffers).
    bool scalar = false;
    /// Contents of a Constant buffer (ROM), in storage order.
    Halide::Buffer<> contents;
    /// An intermediate passed as a FIFO stream (set by detect-streams), and why it is or
    /// is not one.
    bool stream = false;
    std::string channel_reason;
    /// FIFO depth of a stream (set by balance-streams).
    int64_t stream_depth = kStreamDepth;
    /// Words of storage a line buffer (unified buffer) would need for a sliding-window
    /// consumer of this buffer (0: not a sliding window; set by detect-streams).
    int64_t line_buffer_words = 0;

    /// Number of elements.
    int64_t size() const;
};

/// A buffer allocated inside one filter (compute_at / store_at storage, line buffers).
struct LocalBuffer {
    std::string name;
    Halide::Type type;
    int64_t size = 0;
    /// A one-element local printed as a scalar variable (set by trivial-buffers).
    bool scalar = false;
};

/// HLS directives on one loop of a filter.
struct LoopDirective {
    /// Pipeline with this target initiation interval (0: not pipelined).
    int pipeline_ii = 0;
    /// Set by infer-directives rather than given by the user.
    bool inferred = false;
};

/// A filter: one root-level producer of the lowered pipeline with its loop nest.
struct Filter {
    /// Name of the Halide Func it produces.
    std::string name;
    /// Name of the HLS function that implements it.
    std::string function_name;
    /// The loop nest (lowered, flattened Halide IR).
    Halide::Internal::Stmt body;
    /// Buffers (of FilterGraph::buffers) it loads from / stores to, sorted by name.
    std::vector<std::string> reads;
    std::vector<std::string> writes;
    /// Buffers allocated inside this filter; their Allocate nodes are hoisted out of the body.
    std::vector<LocalBuffer> locals;
    /// A scalar intermediate this filter returns as its function value ("" = none).
    std::string returns;
    /// HLS directives by loop name.
    std::map<std::string, LoopDirective> directives;
};

/// Whether the main filter can be a dataflow region, and why not.
struct DataflowVerdict {
    bool checked = false;
    bool legal = false;
    std::string reason;
};

/// The whole kernel: the main filter (entry point) calls `filters` in order, owns the
/// intermediate buffers and exposes the kernel arguments.
struct FilterGraph {
    /// Kernel (main filter) name: the top-level HLS function.
    std::string name;
    /// Kernel arguments in call order: inputs first, then outputs.
    std::vector<std::string> args;
    std::vector<Buffer> buffers;
    std::vector<Filter> filters;
    DataflowVerdict dataflow;
    /// Outcome of the token-level deadlock check of the streams (balance-streams), "" if none.
    std::string token_check;

    /// The buffer called `name`; throws if there is none.
    const Buffer &buffer(const std::string &name) const;
    Buffer &buffer(const std::string &name);
    /// Whether a buffer called `name` exists.
    bool has_buffer(const std::string &name) const;
};

/// Recomputes Filter::reads/writes and Buffer::producers/consumers from the filter bodies.
void recompute_edges(FilterGraph &graph);

/// The text form of the graph used by --dump-graph, --dump-after and golden tests.
std::string print_graph(const FilterGraph &graph);

/// Name of a buffer kind ("input", "output", "intermediate").
const char *buffer_kind_name(BufferKind kind);

/// C-like name of a Halide scalar type for dumps ("float32", "uint16", ...).
std::string type_name(Halide::Type type);

}  // namespace flowhls
