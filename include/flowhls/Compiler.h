// Public entry point: compile a Halide program into an HLS project directory.
#pragma once

#include "flowhls/HalideProgram.h"
#include "flowhls/Passes.h"
#include "flowhls/Precision.h"
#include "flowhls/Target.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace flowhls {

class BalanceMemo;
class ScheduleMemo;

/// Options of one compilation. Nothing here is global: every option is passed in.
struct CompileOptions {
    HlsTarget target = HlsTarget::Vitis;
    /// Directory the HLS project is written to. It is created or replaced atomically; an
    /// existing directory is replaced only if flowhls created it.
    std::string output_dir;
    /// Seed of the random test inputs.
    uint64_t seed = 1;
    /// FPGA part (see devices/) and clock the scripts and the QoR estimate use.
    std::string device = "xc7z020";
    double clock_mhz = 100.0;
    /// Resource budget ("dsp=2000,bram=60%", see `flowhls compile --help`); when set, a design
    /// whose estimate exceeds it is refused (an error, nothing written). "" = no budget.
    std::string budget;
    /// Placement of constant inputs (weights).
    WeightPlacement weights = WeightPlacement::Auto;
    /// Vitis: data width in bits of the m_axi ports of the weights in external memory
    /// (--axi-width): aligned bursts of consecutive weights, such as a jam's per-block copy,
    /// read width / 32 floats per cycle (docs/qor.md, "m_axi"). 512 is the memory controller's
    /// native width and Vitis's own default in its kernel flow.
    int axi_width_bits = 512;
    /// Vitis: two int8 MACs of adjacent iterations sharing an operand computed with one wide
    /// multiply (one DSP, AMD WP486), written out in the C++ (docs/quantization.md).
    bool dsp_packing = true;
    /// Vitis: float data in fixed point, ap_fixed<W,I> (--precision, docs/quantization.md
    /// "Fixed point for float models"); default: float.
    PrecisionOptions precision;
    /// Also print the filter graph after extraction to `dump_stream`.
    bool dump_graph = false;
    /// Print the graph after each pass named here to `dump_stream` ("all" for every pass).
    std::vector<std::string> dump_after;
    /// Passes that are not run (by name).
    std::vector<std::string> disabled_passes;
    /// Print one line per pass with its wall time to `log_stream`.
    bool time_passes = false;
    /// Verify the filter graph after extraction and after every pass (--verify-each); an
    /// invalid graph is an internal error naming the pass. On in debug builds.
#ifdef NDEBUG
    bool verify_each = false;
#else
    bool verify_each = true;
#endif
    /// What the design-space exploration adds to the project (`compile --dse`): files written
    /// into it (relative path, contents; listed in its manifest like every file), a section
    /// appended to report.txt and README.md, and the `dse` object of report.json (JSON text).
    /// Empty: nothing.
    std::vector<std::pair<std::string, std::string>> extra_files;
    std::string dse_report_text, dse_readme_text, dse_report_json;
    /// Where dumps go (stdout when null).
    std::ostream *dump_stream = nullptr;
    /// Where progress and pass timing go (nothing is logged when null).
    std::ostream *log_stream = nullptr;
    /// balance-streams' results shared by the compilations of one design-space exploration
    /// (owned by it; src/transforms/BalanceStreams.h); null: none shared.
    BalanceMemo *balance_memo = nullptr;
    /// Filters the QoR estimate schedules at once (QorOptions::threads; 1: one after another).
    /// The estimate, and every file written, do not depend on it.
    int estimate_threads = 1;
    /// Filter schedules shared by the estimates of one design-space exploration (owned by it;
    /// QorOptions::memo, src/analysis/ScheduleMemo.h); null: none shared. The estimate does not
    /// depend on it.
    ScheduleMemo *schedule_memo = nullptr;
};

/// What a successful compilation produced.
struct CompileResult {
    std::string output_dir;
    std::string kernel_name;
    /// Names of the filters (HLS functions) in execution order.
    std::vector<std::string> filters;
    /// Whether the top function is a `#pragma HLS dataflow` region, and if not, why not.
    bool dataflow = false;
    std::string dataflow_reason;
    /// Files written, relative to output_dir, sorted.
    std::vector<std::string> files;
    /// The filter graph as printed by --dump-graph, after all passes.
    std::string graph_dump;
    /// The QoR estimate as text (also in report.txt; report.json has it as JSON).
    std::string qor_report;
    /// The estimate's headline numbers.
    int64_t latency_cycles = 0, interval_cycles = 0;
    /// For --target bambu: the Bambu model's cycles of one call (-1 for Vitis).
    int64_t bambu_cycles = -1;
    double throughput = 0.0;  ///< samples per second
    int64_t dsp = 0, bram18k = 0, lut = 0, ff = 0;
    bool fits = true;
    /// Words of the intermediate arrays between filters, and of the line buffers (with window
    /// registers) that would replace those read as sliding windows (`line_buffer_edges` of them).
    int64_t intermediate_words = 0, line_buffer_words = 0;
    int line_buffer_edges = 0;
    /// Words of on-chip storage the channels between filters use as implemented: FIFOs at
    /// their depths, line buffers with their window registers, and the arrays that remain.
    int64_t channel_words = 0;
};

/// Names of the parts --device accepts.
std::vector<std::string> device_list();

/// Compiles `program` into an HLS project in options.output_dir: kernel sources, testbench,
/// test data (random inputs and the Halide JIT's outputs), tool scripts and a README.
/// Throws flowhls::Error when the program cannot be compiled; nothing is written then.
/// `program` is not changed: lowering and the reference work on a deep copy of its Funcs and
/// Parameters, so one program can be compiled many times with different options.
CompileResult compile(const HalideProgram &program, const CompileOptions &options);

/// Names of the passes of the optimization pipeline, in order (for --dump-after and
/// --disable-pass).
std::vector<std::string> pass_names();

/// The passes of the pipeline, in order.
std::vector<PassDescription> describe_passes();

}  // namespace flowhls
