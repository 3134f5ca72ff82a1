// run_pipeline: the FilterGraph passes, in order; logs, times and dumps each.
#include "transforms/Pipeline.h"
#include "graph/GraphText.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <iomanip>
#include <ostream>
#include <set>

#include "flowhls/Error.h"
#include "graph/Verify.h"
#include "transforms/ApplyDirectives.h"
#include "transforms/BalanceStreams.h"
#include "transforms/BindUram.h"
#include "transforms/BufferInputs.h"
#include "transforms/CheckDataflow.h"
#include "transforms/DeadCode.h"
#include "transforms/DetectStreams.h"
#include "transforms/HoistInvariants.h"
#include "transforms/InferDirectives.h"
#include "transforms/InferPartitions.h"
#include "transforms/InlineExprLets.h"
#include "transforms/LegalizeDataflow.h"
#include "transforms/LegalizeNames.h"
#include "transforms/LineBuffers.h"
#include "transforms/PadMargins.h"
#include "transforms/WidenCopies.h"
#include "transforms/WindowBuffers.h"
#include "transforms/PlaceWeights.h"
#include "transforms/ScalarReplacement.h"
#include "transforms/ThreeAddress.h"
#include "transforms/TrivialBuffers.h"

namespace flowhls {

namespace {

using PassFunction = std::function<PassResult(FilterGraph &, const PipelineOptions &)>;

// A row of the pass table: the pass as `flowhls passes` shows it, what runs, and for a
// clean-up after a rewrite, the pass that must have run just before and changed the graph.
struct PassEntry {
    PassDescription info;
    PassFunction run;
    const char *only_after_change_of = nullptr;
};

// A pass that needs nothing but the graph.
PassFunction on_graph(PassResult (*pass)(FilterGraph &)) {
    return [pass](FilterGraph &g, const PipelineOptions &) { return pass(g); };
}

// The pipeline, top to bottom: everything between extraction and emission.
const std::vector<PassEntry> &passes() {
    static const std::vector<PassEntry> list = {
        {{"place-weights", "constant inputs as on-chip ROMs or m_axi kernel arguments (--weights)", true},
         [](FilterGraph &g, const PipelineOptions &o) { return place_weights(g, o.weights); }},
        {{"inline-expr-lets", "substitute Let expressions into their uses", true}, on_graph(inline_expr_lets)},
        {{"apply-directives", "the user's HLS directives (pipeline, unroll, partition, stream, interface...)"},
         [](FilterGraph &g, const PipelineOptions &o) { return apply_directives(g, o.directives); }},
        {{"pad-margins", "padded reads whose clamps defeat banking read an array with a margin of the padding instead"},
         on_graph(pad_margins)},
        {{"legalize-names", "unique C identifiers for functions, buffers and variables", true}, on_graph(legalize_names)},
        {{"three-address", "one operation per statement, on named temporaries"}, on_graph(three_address)},
        {{"hoist-invariants", "move loop-invariant computations and stores out of loops"}, on_graph(hoist_invariants)},
        {{"scalar-replacement", "keep accumulators in one-element locals across loops"}, on_graph(scalar_replacement)},
        {{"trivial-buffers", "one-element buffers as scalars, and as function results without a dataflow target"},
         [](FilterGraph &g, const PipelineOptions &o) { return trivial_buffers(g, o.fifo_channels); }},
        {{"dead-code", "remove unused lets, dead stores, empty loops, unread buffers and filters"},
         on_graph(dead_code)},
        {{"legalize-dataflow", "fork filters for shared buffers, copies for read outputs, merged producers"},
         on_graph(legalize_dataflow)},
        {{"buffer-inputs", "kernel inputs read out of order (windows, repeated reads) copied on chip by one burst first"},
         [](FilterGraph &g, const PipelineOptions &o) {
             return buffer_inputs(g, {o.fifo_channels, o.weights.bram_bytes});
         }},
        {{"check-dataflow", "decide whether the main filter is a legal dataflow region (arrays: ping-pong or not)", true},
         on_graph(check_dataflow)},
        {{"detect-streams", "buffers written and read once in the same order become FIFO streams"},
         [](FilterGraph &g, const PipelineOptions &o) { return detect_streams(g, o.fifo_channels); }},
        {{"dead-code", "after detect-streams changed the graph: the index computations of stream accesses", true},
         on_graph(dead_code),
         "detect-streams"},
        {{"line-buffers", "sliding-window consumers stream their input through line buffers and window registers"},
         [](FilterGraph &g, const PipelineOptions &o) { return line_buffers(g, o.fifo_channels); }},
        {{"dead-code", "after line-buffers changed the graph: the reads it replaced", true},
         on_graph(dead_code),
         "line-buffers"},
        {{"window-buffers", "row-window consumers of maps written rows outermost read a FIFO through a ring of rows"},
         [](FilterGraph &g, const PipelineOptions &o) { return window_buffers(g, o.fifo_channels); }},
        {{"dead-code", "after window-buffers changed the graph: the index computations it replaced", true},
         on_graph(dead_code),
         "window-buffers"},
        {{"widen-copies", "on-chip copies of widened m_axi inputs move a beat of consecutive elements per cycle"},
         on_graph(widen_copies)},
        {{"infer-directives", "innermost loops pipelined with target II 1 where no directive is given"},
         on_graph(infer_directives)},
        {{"infer-partitions", "array partitions for arrays accessed more often per pipeline iteration than they have ports"},
         on_graph(infer_partitions)},
        {{"reshape-banks", "banks of integer ROMs read at one offset a cycle packed into wide words (ARRAY_RESHAPE)"},
         [](FilterGraph &g, const PipelineOptions &o) { return reshape_banks(g, o.reshape); }},
        {{"bind-uram",
          "large banked local arrays (a jam's block copies) and on-chip channels bound to UltraRAM, "
          "URAM-resident weights packed two a word, within the URAM budget"},
         [](FilterGraph &g, const PipelineOptions &o) { return bind_uram(g, o.uram); }},
        {{"bind-lutram", "local arrays of shallow banks (row accumulators, laned rings) bound to LUT RAM"},
         [](FilterGraph &g, const PipelineOptions &o) { return bind_lutram(g, o.lutram); }},
        {{"balance-streams", "FIFO depths from a token-level simulation, so reconvergent paths cannot deadlock"},
         [](FilterGraph &g, const PipelineOptions &o) { return balance_streams(g, o.balance_memo); }},
    };
    return list;
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

void check_names(const std::vector<std::string> &names, const char *option, bool allow_all) {
    for (const std::string &n : names) {
        if (allow_all && n == "all") continue;
        bool known =
            std::any_of(passes().begin(), passes().end(), [&](const PassEntry &p) { return p.info.name == n; });
        if (!known) {
            std::string list;
            std::set<std::string> listed;
            for (const PassEntry &p : passes()) {
                if (listed.insert(p.info.name).second) list += " " + p.info.name;
            }
            throw Error(std::string(option) + ": unknown pass '" + n + "' (passes:" + list + ")");
        }
    }
}

}  // namespace

std::vector<PassDescription> pipeline_passes() {
    std::vector<PassDescription> out;
    for (const PassEntry &p : passes()) out.push_back(p.info);
    return out;
}

namespace {

// The first row that runs pass `name` (for `flowhls opt`, which runs it unconditionally).
const PassEntry &find_pass(const std::string &name) {
    for (const PassEntry &p : passes()) {
        if (p.info.name == name && !p.only_after_change_of) return p;
    }
    throw std::logic_error("no pass " + name);
}

// Runs `list` in order with the pipeline's logging, timing, verification and dumps.
void run_list(FilterGraph &graph, const std::vector<const PassEntry *> &list, const PipelineOptions &options) {
    VerifyOptions verify;
    if (options.verify_each) {
        // Names are checked as C identifiers once legalize-names has run, or from the start
        // when they already are (a graph read back after that pass).
        verify.c_identifiers = true;
        if (!verify_graph(graph, verify).empty()) verify.c_identifiers = false;
        check_graph(graph, verify, "(input of the pipeline)");
    }
    std::string previous;
    bool previous_changed = false;
    for (const PassEntry *pass : list) {
        const std::string &name = pass->info.name;
        if (pass->only_after_change_of && !(previous == pass->only_after_change_of && previous_changed)) continue;
        auto start = std::chrono::steady_clock::now();
        PassResult r = pass->run(graph, options);
        previous = name;
        previous_changed = r.changed;
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (options.log && options.time_passes) {
            *options.log << "pass " << std::left << std::setw(20) << name << std::right << std::fixed
                         << std::setprecision(3) << std::setw(10) << ms << " ms  "
                         << (r.changed ? "changed" : "unchanged") << "\n";
        }
        if (options.verify_each) {
            if (name == "legalize-names") verify.c_identifiers = true;
            check_graph(graph, verify, name);
        }
        if (options.dump && (contains(options.dump_after, name) || contains(options.dump_after, "all"))) {
            *options.dump << "// ---- after " << name << (r.changed ? "" : " (unchanged)") << "\n"
                          << print_graph(graph);
        }
    }
}

}  // namespace

void run_pipeline(FilterGraph &graph, const PipelineOptions &options) {
    check_names(options.dump_after, "--dump-after", true);
    check_names(options.disabled, "--disable-pass", false);
    for (const std::string &n : options.disabled) {
        bool optional = std::any_of(passes().begin(), passes().end(),
                                    [&](const PassEntry &p) { return p.info.name == n && !p.info.required; });
        if (!optional) throw Error("--disable-pass: pass '" + n + "' is required for code generation and cannot be disabled");
    }
    std::vector<const PassEntry *> list;
    for (const PassEntry &pass : passes()) {
        if (pass.info.required || !contains(options.disabled, pass.info.name)) {
            list.push_back(&pass);
        } else if (options.log && options.time_passes) {
            *options.log << "pass " << pass.info.name << ": disabled\n";
        }
    }
    run_list(graph, list, options);
}

void run_passes(FilterGraph &graph, const std::vector<std::string> &names, const PipelineOptions &options) {
    check_names(names, "--pass", false);
    check_names(options.dump_after, "--dump-after", true);
    std::vector<const PassEntry *> list;
    for (const std::string &n : names) list.push_back(&find_pass(n));
    run_list(graph, list, options);
}

}  // namespace flowhls
