// The FilterGraph IR: filters (loop nests of lowered Halide IR) connected by buffers.
#pragma once

#include <Halide.h>

#include "flowhls/Directives.h"
#include "flowhls/HalideProgram.h"
#include "flowhls/Precision.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// Depth of the FIFO of a stream channel.
constexpr int kStreamDepth = 2;

/// The partition of one dimension of an array partitioned in several dimensions.
struct DimensionPartition {
    /// The Func dimension (0 = innermost).
    int dim = 0;
    /// Cyclic or Complete (a complete partition is cyclic by the extent).
    PartitionKind kind = PartitionKind::Cyclic;
    /// Banks along the dimension (the extent for a complete partition).
    int64_t factor = 1;
};

/// An ARRAY_PARTITION of an array. Buffers are flattened to one dimension; an array partitioned
/// in several dimensions keeps its shape (emitted as a multi-dimensional C array).
struct ArrayPartition {
    bool enabled = false;
    PartitionKind kind = PartitionKind::Cyclic;
    /// Banks of a cyclic or block partition (of several dimensions: the product of the factors).
    int64_t factor = 0;
    /// Derived by infer-partitions (or a line buffer) rather than given by the user.
    bool inferred = false;
    /// Why: the directive it comes from or the accesses that need it.
    std::string reason;
    /// Non-empty: a partition of several dimensions of an array of extents `shape` (innermost
    /// first), one entry per partitioned dimension, innermost first; element (i_0, .., i_n-1) is
    /// in bank (i_d mod factor_d) of each partitioned dimension d. `kind` is then Cyclic.
    std::vector<DimensionPartition> dims;
    std::vector<int64_t> shape;
    /// The banks of a 1-D cyclic or block partition packed side by side into one memory of
    /// words `factor` elements wide (Vitis ARRAY_RESHAPE; reshape-banks): one port pair for all
    /// banks, an access a word (block: element i in word i mod ceil(size/factor); cyclic: word
    /// i / factor).
    bool reshape = false;
    /// Non-zero (a 1-D array of `factor` banks, or of one bank when not enabled; set by
    /// bind-uram on a URAM-resident weight): elements i and i + pairs share one word of twice
    /// the width, two floats a 72-bit UltraRAM word. A multiple of the banks, so element i stays
    /// in bank i mod factor. Emitted as a [2][pairs] array, ARRAY_RESHAPE complete on its dim 1.
    int64_t pairs = 0;
};

/// How a buffer carries data: one kind per buffer, decided by the pass that owns the choice
/// (extraction and apply-directives for kernel arguments and ROMs, trivial-buffers for
/// scalars, check-dataflow for arrays vs ping-pong buffers, detect-streams for FIFOs,
/// line-buffers for line-buffered FIFOs, window-buffers for window-buffered FIFOs) and read by
/// the estimator, the emitters and the reports.
enum class ChannelKind {
    OffChip,             ///< kernel argument in external memory, through an m_axi port
    Port,                ///< kernel argument through an on-chip port the caller drives (bram, axis)
    Rom,                 ///< constant contents in an on-chip ROM
    Array,               ///< intermediate array of a sequential top function
    PingPong,            ///< intermediate array between dataflow processes (two copies)
    Scalar,              ///< one-element intermediate passed by value (or returned)
    Stream,              ///< FIFO (hls::stream)
    LineBufferedStream,  ///< FIFO its consumer reads through line buffers and a window
    WindowBufferedStream,  ///< FIFO its consumer copies into a ring of rows it reads at random
    /// kernel argument (m_axi) its one reader copies, on the kernel's first call only, into a
    /// static on-chip array bound to UltraRAM and reads from there (place-weights' URAM tier:
    /// UltraScale+ URAM has no initial contents, so a weight there cannot be a ROM)
    Resident,
};

/// Name of a channel kind ("off-chip", "port", "rom", "array", "ping-pong", "scalar",
/// "stream", "line-buffered stream", "window-buffered stream", "uram-resident").
const char *channel_kind_name(ChannelKind kind);

/// Whether the kind is a FIFO (with or without a line or window buffer at its consumer).
inline bool is_stream(ChannelKind kind) {
    return kind == ChannelKind::Stream || kind == ChannelKind::LineBufferedStream ||
           kind == ChannelKind::WindowBufferedStream;
}

/// How the user asked a buffer to be implemented (HlsSchedule::stream / ping_pong).
enum class ChannelRequest { Auto, Stream, PingPong };

/// Protocol of a kernel argument.
struct ArgInterface {
    InterfaceMode mode = InterfaceMode::MAxi;
    /// Port group; "" = one bundle per argument.
    std::string bundle;
    /// Not given by the user (the default).
    bool inferred = true;
    /// m_axi: the port's data width in bits when wider than the element (Vitis automatic port
    /// widening, `max_widen_bitwidth`; set by place-weights from --axi-width); 0: the element's.
    int width_bits = 0;
};

/// A consumer that reads a buffer through a line buffer (unified buffer): it takes the
/// buffer's elements in the producer's order, one per iteration, keeps the last rows - 1 rows
/// in line buffers and a rows x cols window in registers, and computes one output iteration
/// whenever the window is complete. The buffer's layout as the producer writes it is
/// planes x height x width; set by line-buffers (the buffer's channel is then
/// ChannelKind::LineBufferedStream), read by the token simulation.
struct LineBufferPlan {
    int64_t planes = 1, height = 1, width = 1;
    /// Window extent.
    int64_t rows = 1, cols = 1;
    /// Window top-left (plane, row, column) of the consumer's first iteration, and how many
    /// planes, rows and columns the consumer iterates over.
    int64_t first_plane = 0, first_row = 0, first_col = 0;
    int64_t out_planes = 1, out_rows = 1, out_cols = 1;
    /// Filter (index) that reads through the line buffer, and its line buffer and window
    /// locals (lines is "" for one-row windows).
    int consumer = -1;
    std::string lines, window;

    /// Number of consumer iterations computed within the first `steps` elements read.
    int64_t outputs_within(int64_t steps) const;
    /// Number of consumer iterations.
    int64_t outputs() const { return out_planes * out_rows * out_cols; }
    /// Words of storage: rows - 1 lines and the window registers.
    int64_t words() const { return (rows - 1) * width + rows * cols; }
};

/// A consumer that reads a buffer through a window (ring) buffer of rows: the producer writes
/// the buffer row by row (`height` rows, each `row_words` = width x channels elements, in the
/// producer's order within a row); at the start of iteration k of its row loop (`out_rows`
/// iterations) the consumer copies the rows up to min(stride * k + last_row, height - 1) from
/// the FIFO into a ring of `ring_rows` rows (local `ring`, ring_rows x width x channels
/// words), which holds every row iteration k reads; rows no iteration reads are copied after
/// the loop. Set by window-buffers (the buffer's channel is then
/// ChannelKind::WindowBufferedStream), read by the token simulation and the reports.
struct WindowBufferPlan {
    int64_t height = 1, width = 1, channels = 1;
    int64_t ring_rows = 0;
    int64_t out_rows = 1, stride = 0, last_row = 0;
    /// Filter (index) that reads through the ring, and its ring local.
    int consumer = -1;
    std::string ring;

    /// Elements of one row.
    int64_t row_words() const { return width * channels; }
    /// Rows read from the FIFO once iteration k of the row loop may start.
    int64_t rows_before(int64_t k) const;
    /// Words of the ring.
    int64_t words() const { return ring_rows * width * channels; }
};

/// Role of a buffer in the kernel.
enum class BufferKind {
    Input,         ///< kernel argument read by the kernel
    Output,        ///< kernel argument written by the kernel
    Intermediate,  ///< allocated in the main filter, passed between filters
    Constant,      ///< read-only contents known at compile time, held in on-chip ROM
};

/// A buffer: an edge of the graph (or a kernel argument).
struct Buffer {
    Buffer() = default;
    Buffer(std::string name, Halide::Type type, std::vector<int64_t> shape, BufferKind kind = BufferKind::Intermediate,
           std::vector<int> producers = {}, std::vector<int> consumers = {})
        : name(std::move(name)), type(type), shape(std::move(shape)), kind(kind), producers(std::move(producers)),
          consumers(std::move(consumers)), channel(default_channel(kind)) {}

    /// The channel a buffer of `kind` starts with: off-chip arguments, ROMs, arrays.
    static ChannelKind default_channel(BufferKind kind);

    std::string name;
    Halide::Type type;
    /// Extent per dimension, innermost first. Intermediate buffers are one-dimensional
    /// (Halide flattens storage); kernel arguments keep their shape.
    std::vector<int64_t> shape;
    BufferKind kind = BufferKind::Intermediate;
    /// Indices into FilterGraph::filters of the filters that store to / load from it.
    std::vector<int> producers;
    std::vector<int> consumers;
    /// How it carries data.
    ChannelKind channel = ChannelKind::Array;
    /// Contents of a Constant buffer (ROM), in storage order.
    Halide::Buffer<> contents;
    /// Why an intermediate is or is not a FIFO stream (set by detect-streams).
    std::string channel_reason;
    /// FIFO depth of a stream (set by balance-streams).
    int64_t stream_depth = kStreamDepth;
    /// A stream of several FIFOs (lanes) so that several values pass per cycle: element i
    /// (storage index) travels in FIFO (i / stream_lane_stride) mod stream_lanes, each FIFO in
    /// the common order (stream_lanes_of, set by the pass that makes the stream). 1: one FIFO.
    int64_t stream_lanes = 1, stream_lane_stride = 1;
    /// An on-chip channel (ping-pong or array) bound to UltraRAM (bind-uram; bind_storage
    /// impl=uram in the top function): each copy's banks in their own blocks.
    bool uram = false;
    /// Words of storage a line buffer (unified buffer) would need for a sliding-window
    /// consumer of this buffer (0: not a sliding window; set by detect-streams).
    int64_t line_buffer_words = 0;
    /// The user's stream / ping_pong directive, and the FIFO depth it asks for (0: computed).
    ChannelRequest channel_request = ChannelRequest::Auto;
    int64_t requested_depth = 0;
    /// Extent of each dimension of the Func's storage, innermost first, when all are constants
    /// (intermediates; kernel arguments use `shape`). What a partition directive on a Func
    /// dimension is translated with.
    std::vector<int64_t> dims;
    /// Elements before each dimension (innermost first) that pad-margins added around the
    /// Func's storage so that padded reads need no clamp (`dims` include them; never written,
    /// read only where the padding's select discards the value). Empty: no margin.
    std::vector<int64_t> margin;
    /// ARRAY_PARTITION of an intermediate array (or of a kernel argument with a bram interface).
    ArrayPartition partition;
    /// Protocol of a kernel argument (inputs and outputs).
    ArgInterface interface;
    /// The consumer reads it through a line buffer (set by line-buffers).
    LineBufferPlan line_buffer;
    /// The consumer reads it through a ring of rows (set by window-buffers).
    WindowBufferPlan window_buffer;

    /// Number of elements.
    int64_t size() const;
    /// A FIFO (ChannelKind::Stream or LineBufferedStream).
    bool is_stream() const { return flowhls::is_stream(channel); }
    /// Passed by value (ChannelKind::Scalar).
    bool is_scalar() const { return channel == ChannelKind::Scalar; }
};

/// A buffer allocated inside one filter (compute_at / store_at storage, line buffers).
struct LocalBuffer {
    LocalBuffer() = default;
    LocalBuffer(std::string name, Halide::Type type, int64_t size, bool scalar = false)
        : name(std::move(name)), type(type), size(size), scalar(scalar) {}

    std::string name;
    Halide::Type type;
    int64_t size = 0;
    /// A one-element local printed as a scalar variable (set by trivial-buffers).
    bool scalar = false;
    /// Extent of each dimension of the Func's storage, innermost first, when all are constants.
    std::vector<int64_t> dims;
    /// ARRAY_PARTITION of the local array.
    ArrayPartition partition;
    /// Bound to UltraRAM (bind_storage impl=uram; set by bind-uram), each bank its own blocks.
    bool uram = false;
    /// Bound to LUT RAM (bind_storage impl=lutram; set by bind-lutram): shallow banks.
    bool lutram = false;
    /// Written by the copy task of a dataflow loop (LoopDirective::dataflow; set by
    /// apply-directives): that loop's name; the local is then a ping-pong buffer (two copies of
    /// its storage), declared inside the loop's body (the dataflow region). Empty: none.
    std::string ping_pong_loop;
};

/// LoopDirective::unroll value of a complete unroll.
constexpr int64_t kUnrollComplete = -1;

/// HLS directives on one loop of a filter.
struct LoopDirective {
    /// Pipeline with this target initiation interval (0: not pipelined).
    int pipeline_ii = 0;
    /// HLS unroll: 0 none, N > 0 by a factor N, kUnrollComplete completely.
    int64_t unroll = 0;
    /// Set by infer-directives rather than given by the user.
    bool inferred = false;
    /// The user only unrolled this loop; infer-directives added the pipeline (docs/directives.md).
    bool pipeline_inferred = false;
    /// The loop's body is a dataflow region (a `dataflow` directive with a loop): its tasks (the
    /// loops directly in the body, a block copy first) overlap across iterations, the copy of
    /// iteration k + 1 with the computation of iteration k, through ping-pong locals.
    bool dataflow = false;
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
    /// Inline the function into the top (HlsSchedule::inline_filter).
    bool inline_function = false;
    /// Where it comes from in an ONNX model (HalideProgram::onnx_origins; empty for Halide
    /// programs): the comment at the generated function, and the values `flowhls csim
    /// --trace` compares its output with. Copies legalize-dataflow makes name the value copied
    /// and hold no traced value.
    OnnxOrigin onnx = {};
    /// Vitis: the fixed-point format of its float values (--precision, graph/Precision.h);
    /// disabled (float) by default.
    FixedFormat fixed = {};
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
    /// The user turned the top's dataflow region off (HlsSchedule::dataflow(name, false)).
    bool dataflow_disabled = false;

    /// The buffer called `name`; throws if there is none.
    const Buffer &buffer(const std::string &name) const;
    Buffer &buffer(const std::string &name);
    /// Whether a buffer called `name` exists.
    bool has_buffer(const std::string &name) const;
};

/// Recomputes Filter::reads/writes and Buffer::producers/consumers from the filter bodies.
void recompute_edges(FilterGraph &graph);

/// Name of a buffer kind ("input", "output", "intermediate").
const char *buffer_kind_name(BufferKind kind);

}  // namespace flowhls
