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
    enum class Kind { Pipeline, Unroll, Partition, Stream, PingPong, Interface, Dataflow, Inline, DataflowLoop };
    Kind kind = Kind::Pipeline;
    /// The Func (filter or buffer), kernel argument, or region the directive is attached to.
    std::string target;
    /// For Pipeline/Unroll/DataflowLoop: the loop variable's name (the loop `target.sN.loop`).
    /// DataflowLoop: the loop's body is a dataflow region whose first task copies a block
    /// (an `in` copy computed at that loop) into a ping-pong buffer: the copy of iteration
    /// k + 1 overlaps the rest of iteration k (docs/directives.md, `dataflow_loop`).
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

    /// Whether two directives are the same (origin aside).
    bool operator==(const Directive &o) const;
};

/// One loop transformation of the Halide schedule (a Halide scheduling primitive), keyed by
/// names like a Directive. flowhls applies them to its own copy of the program before
/// lowering (and the Halide JIT reference runs the same schedule), so they change the loop
/// nest the HLS code is generated from: docs/directives.md, "Loop transformations".
struct LoopTransform {
    enum class Kind {
        Split,           ///< loop -> outer, inner by factor (Halide split)
        Reorder,         ///< loops, innermost first (Halide reorder)
        Fuse,            ///< outer, inner -> fused (Halide fuse; `loop` unused)
        Unroll,          ///< Halide unroll of `loop` by factor: the body is copied in the IR
        ComputeAt,       ///< compute `func` inside loop `at_loop` of `at_func`
        StoreAt,         ///< allocate `func` at loop `at_loop` of `at_func`
        ComputeRoot,     ///< compute `func` once, outside every loop
        ReorderStorage,  ///< storage order of `func`'s dimensions (`loops`, innermost first)
        In,              ///< a copy of kernel input `input` for reader `func` (Halide `in`), computed
                         ///< inside loop `at_loop` of `at_func`: a local buffer loaded there
    };
    Kind kind = Kind::Split;
    /// The Func (or ONNX name, or `NODE#acc`) whose schedule is changed.
    std::string func;
    /// Split/Reorder/Fuse/Unroll: the definition, 0 = pure, k = update k-1 (Halide's `.sK`).
    /// ComputeAt/StoreAt: the stage of `at_func` (-1: its last stage, Halide's default).
    int stage = 0;
    /// Reorder, ReorderStorage: variable names, innermost first.
    std::vector<std::string> loops;
    /// Split/Unroll: the loop; Split: the new outer and inner loops; Fuse: inner, outer, fused.
    std::string loop, outer, inner, fused;
    /// ComputeAt/StoreAt/In: the Func and loop to compute/store at.
    std::string at_func, at_loop;
    /// In: the kernel input (ImageParam name, or its ONNX name) `func` reads through the copy.
    std::string input;
    /// Split/Unroll: the factor (at least 2 for split, 1 for unroll).
    int factor = 0;
    /// Split/Unroll: how a factor that does not divide the extent is handled.
    Halide::TailStrategy tail = Halide::TailStrategy::Auto;
    /// Where it was written, for error messages ("C++ API: split(f, x)", "FILE: f.schedule[0]").
    std::string origin;

    /// Whether two transforms are the same (origin aside).
    bool operator==(const LoopTransform &o) const;
};

/// "split", "reorder", "fuse", "unroll", "compute_at", "store_at", "compute_root", "storage", "in".
std::string loop_transform_name(LoopTransform::Kind kind);
/// "auto", "guard_with_if", "shift_inwards", "round_up", "predicate", ...: Halide's tail
/// strategies as the JSON form spells them; empty for an unknown one.
std::string tail_strategy_name(Halide::TailStrategy tail);

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
    /// Make the body of loop `loop` of `func` a dataflow region (Directive::Kind::DataflowLoop):
    /// the block copy computed at that loop runs one iteration ahead into a ping-pong buffer.
    HlsSchedule &dataflow_loop(const Halide::Func &func, const std::string &loop);

    /// Loop transformations (Halide scheduling primitives, applied before lowering). `stage`
    /// 0 is the pure definition, k the update k-1; loops are named by their variable.
    /// Split loop `loop` of `func` into `outer` and `inner` (inner extent `factor`).
    HlsSchedule &split(const Halide::Func &func, const std::string &loop, const std::string &outer,
                       const std::string &inner, int factor, int stage = 0,
                       Halide::TailStrategy tail = Halide::TailStrategy::Auto);
    /// Reorder the loops of a stage of `func`, innermost first (Halide's order).
    HlsSchedule &reorder(const Halide::Func &func, const std::vector<std::string> &loops, int stage = 0);
    /// Fuse loops `inner` and `outer` of a stage of `func` into one loop `fused`.
    HlsSchedule &fuse(const Halide::Func &func, const std::string &inner, const std::string &outer,
                      const std::string &fused, int stage = 0);
    /// Halide unroll of loop `loop` by `factor` (the body is copied; prefer the HLS unroll).
    HlsSchedule &halide_unroll(const Halide::Func &func, const std::string &loop, int factor, int stage = 0);
    /// Compute `func` inside loop `loop` of `at` (Halide compute_at; `at_stage` -1: last stage).
    HlsSchedule &compute_at(const Halide::Func &func, const Halide::Func &at, const std::string &loop,
                            int at_stage = -1);
    /// Allocate `func` at loop `loop` of `at` (Halide store_at).
    HlsSchedule &store_at(const Halide::Func &func, const Halide::Func &at, const std::string &loop,
                          int at_stage = -1);
    /// Compute `func` once, outside every loop (Halide compute_root).
    HlsSchedule &compute_root(const Halide::Func &func);
    /// Storage order of `func`'s dimensions, innermost first (Halide reorder_storage).
    HlsSchedule &reorder_storage(const Halide::Func &func, const std::vector<std::string> &dims);
    /// Read kernel input `input` in `func` through a copy (Halide `input.in(func)`) computed
    /// inside loop `loop` of `at` (a local buffer of what `func` reads of it in one iteration).
    HlsSchedule &copy_in(const Halide::Func &func, const std::string &input, const Halide::Func &at,
                         const std::string &loop, int at_stage = -1);

    /// Appends a directive (what the JSON reader and the methods above do).
    HlsSchedule &add(Directive directive);
    /// Appends a loop transformation (checked when it is applied).
    HlsSchedule &add(LoopTransform transform);
    /// Appends every directive and transformation of `other`, in order.
    HlsSchedule &append(const HlsSchedule &other);
    const std::vector<Directive> &directives() const { return directives_; }
    const std::vector<LoopTransform> &transforms() const { return transforms_; }
    bool empty() const { return directives_.empty() && transforms_.empty(); }

    /// Whether two schedules say the same thing (origins aside): the same directives and
    /// transformations per target, in the same order per target and kind (the order
    /// write_schedule_json keeps).
    bool operator==(const HlsSchedule &o) const;
    bool operator!=(const HlsSchedule &o) const { return !(*this == o); }

private:
    HlsSchedule &pipeline_loop(const Halide::Func &func, const std::string &loop, int ii);
    HlsSchedule &unroll_loop(const Halide::Func &func, const std::string &loop, int factor);
    std::vector<Directive> directives_;
    std::vector<LoopTransform> transforms_;
};

/// Reads a JSON schedule file (format in docs/directives.md), keyed by Func / ONNX node output
/// name. Throws flowhls::Error naming the file and the entry for anything malformed.
HlsSchedule read_directives_json(const std::string &path);
/// The same for the text of such a file, `path` naming it in messages.
HlsSchedule parse_directives_json(const std::string &text, const std::string &path);
/// The schedule in its JSON file form, canonical: targets sorted, keys sorted, one directive
/// or transformation per line, so the same schedule always gives the same bytes and
/// parse_directives_json(write_schedule_json(s)) == s. Throws flowhls::Error for what the
/// file form cannot hold (two `stream` directives of one buffer, for example).
std::string write_schedule_json(const HlsSchedule &schedule);

}  // namespace flowhls
