// The HLS co-language (FROST style): directives attached to Halide Funcs, loops and buffers.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls {

/// How an array is split into banks (Vitis ARRAY_PARTITION types).
enum class PartitionKind {
    Cyclic,    ///< element i goes to bank i mod factor
    Block,     ///< factor contiguous blocks
    Complete,  ///< one register per element
};

/// Protocol of a kernel argument (Vitis INTERFACE modes).
enum class InterfaceMode {
    MAxi,  ///< AXI4 master port to external memory (the default)
    Axis,  ///< AXI4-Stream: elements arrive/leave in storage order, once each
    Bram,  ///< a block-RAM port the caller's memory is attached to
};

/// "cyclic", "block", "complete".
std::string partition_kind_name(PartitionKind kind);
/// "m_axi", "axis", "bram".
std::string interface_mode_name(InterfaceMode mode);

/// One directive as the user wrote it, keyed by names (resolved against the filter graph by
/// the apply-directives pass, which reports names that do not exist).
struct Directive {
    enum class Kind { Pipeline, Unroll, Partition, Stream, PingPong, Interface, Dataflow, Inline };
    Kind kind = Kind::Pipeline;
    /// The Func (filter or buffer), kernel argument, or region the directive is attached to.
    std::string target;
    /// For Pipeline/Unroll: the loop variable's name (the loop `target.sN.loop`).
    std::string loop;
    /// Pipeline: target II. Unroll: factor (0: complete). Partition: factor (0 for complete).
    /// Stream: FIFO depth (0: computed by balance-streams).
    int64_t value = 0;
    /// Partition: dimension of the Func, 0 = innermost (Halide's dimension order).
    int dim = 0;
    PartitionKind partition = PartitionKind::Cyclic;
    InterfaceMode mode = InterfaceMode::MAxi;
    /// Interface: bundle (port group) name, "" for one bundle per argument.
    std::string bundle;
    /// Dataflow: whether the region is a dataflow region.
    bool enable = true;
    /// Where it was written, for error messages ("C++ API", "FILE: conv1.pipeline[0]").
    std::string origin;
};

/// HLS directives of a program. Loops are named by Func and Var as in the Halide schedule;
/// buffers by the Func that produces them; kernel arguments by their ImageParam/Func name.
/// Anything not given is inferred (innermost loops pipelined at II 1, partitions from
/// unrolled accesses, m_axi interfaces).
class HlsSchedule {
public:
    /// Pipeline loop `loop` of `func` with target initiation interval `ii`.
    HlsSchedule &pipeline(const Halide::Func &func, const Halide::Var &loop, int ii = 1);
    /// Pipeline the loop of reduction variable `loop` (an update definition's loop).
    HlsSchedule &pipeline(const Halide::Func &func, const Halide::RVar &loop, int ii = 1);
    /// Unroll loop `loop` of `func` by `factor` in the HLS tool (0: completely). Unlike
    /// Halide's unroll, the loop stays a loop in the generated code with a pragma.
    HlsSchedule &unroll(const Halide::Func &func, const Halide::Var &loop, int factor = 0);
    /// Unroll the loop of reduction variable `loop` (an update definition's loop).
    HlsSchedule &unroll(const Halide::Func &func, const Halide::RVar &loop, int factor = 0);
    /// Partition the buffer `func` along its dimension `dim` (0 = innermost; -1 with Complete:
    /// the whole array). Buffers are flattened to one dimension, so only what the flattened
    /// array can express is accepted (docs/directives.md): cyclic/complete of dimension 0,
    /// block/complete of the outermost dimension, complete of the whole array. Called for
    /// several dimensions of one array (cyclic or complete each), the array keeps its shape and
    /// is partitioned in each of them.
    HlsSchedule &partition(const Halide::Func &func, int dim, PartitionKind kind, int factor = 0);
    /// Partition the kernel argument `param` (it needs a bram interface).
    HlsSchedule &partition(const Halide::ImageParam &param, int dim, PartitionKind kind, int factor = 0);
    /// Partition the Func or kernel argument called `name` (what the JSON form does).
    HlsSchedule &partition(const std::string &name, int dim, PartitionKind kind, int factor = 0);
    /// Implement the buffer `func` as a FIFO of `depth` (0: computed). The compiler refuses it
    /// when the accesses do not allow a FIFO, saying why.
    HlsSchedule &stream(const Halide::Func &func, int depth = 0);
    /// Implement the buffer `func` as a ping-pong (double) buffer even if it could stream.
    HlsSchedule &ping_pong(const Halide::Func &func);
    /// Protocol of the kernel argument `param` (an input).
    HlsSchedule &interface(const Halide::ImageParam &param, InterfaceMode mode, const std::string &bundle = "");
    /// Protocol of the kernel argument `output` (an output Func).
    HlsSchedule &interface(const Halide::Func &output, InterfaceMode mode, const std::string &bundle = "");
    /// Protocol of the kernel argument called `arg` (what the JSON form does).
    HlsSchedule &interface(const std::string &arg, InterfaceMode mode, const std::string &bundle = "");
    /// Make `region` (the kernel's name: its top function) a dataflow region or not.
    HlsSchedule &dataflow(const std::string &region, bool enable = true);
    /// Inline the filter computing `func` into its caller (`inline` is a C++ keyword).
    HlsSchedule &inline_filter(const Halide::Func &func);

    /// Appends a directive (what the JSON reader and the methods above do).
    HlsSchedule &add(Directive directive);
    const std::vector<Directive> &directives() const { return directives_; }
    bool empty() const { return directives_.empty(); }

private:
    HlsSchedule &pipeline_loop(const Halide::Func &func, const std::string &loop, int ii);
    HlsSchedule &unroll_loop(const Halide::Func &func, const std::string &loop, int factor);
    std::vector<Directive> directives_;
};

/// Reads a JSON schedule file (format in docs/directives.md), keyed by Func / ONNX node output
/// name. Throws flowhls::Error naming the file and the entry for anything malformed.
HlsSchedule read_directives_json(const std::string &path);
/// The same for the text of such a file, `path` naming it in messages.
HlsSchedule parse_directives_json(const std::string &text, const std::string &path);

}  // namespace flowhls
