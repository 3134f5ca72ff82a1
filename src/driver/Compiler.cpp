// compile: Halide program -> filter graph -> passes -> HLS project directory.
#include "flowhls/Compiler.h"
#include "analysis/FixedWidths.h"
#include "driver/CompileGraph.h"
#include "driver/LoweringMemo.h"
#include "graph/GraphText.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "analysis/Device.h"
#include "analysis/BambuTiming.h"
#include "analysis/QorEstimator.h"
#include "dse/Budget.h"
#include "emit/HtmlReport.h"
#include "emit/PrepareEmission.h"
#include "emit/ProjectReport.h"
#include "emit/QorReport.h"
#include "emit/bambu/BambuDevices.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/bambu/BambuReport.h"
#include "emit/vitis/PackDsp.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/ApplySchedule.h"
#include "frontend/halide/ProgramCopy.h"
#include "frontend/halide/Reference.h"
#include "graph/ExtractFilters.h"
#include "graph/Precision.h"
#include "support/EmbeddedFiles.h"
#include "support/Npy.h"
#include "support/OutputDir.h"
#include "support/Process.h"
#include "transforms/Pipeline.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <iostream>

namespace flowhls {

namespace {

void log(const CompileOptions &o, const std::string &line) {
    if (o.log_stream) *o.log_stream << line << "\n" << std::flush;
}

// The graph drawn by Graphviz as SVG ("" when dot is missing or fails). The dot text goes
// through a file in the project's staging directory, removed again.
std::string render_svg(const std::string &dot, const std::string &staging) {
    const std::filesystem::path path = std::filesystem::path(staging) / ".flowhls-graph.dot";
    {
        std::ofstream file(path);
        file << dot;
        if (!file) return "";
    }
    ProcessResult r = run_process({"dot", "-Tsvg", path.string()}, "", nullptr);
    std::filesystem::remove(path);
    if (r.status != 0) return "";
    size_t start = r.output.find("<svg");
    return start == std::string::npos ? "" : r.output.substr(start);
}

// The inputs (constants included) and expected outputs the testbench uses, in program order.
ReferenceData reference_data(const HalideProgram &program, const CompileOptions &options) {
    if (program.expected_outputs.empty()) {
        return run_reference(program, random_inputs(program, options.seed));
    }
    ReferenceData data;
    size_t next = 0;
    for (const ProgramInput &in : program.inputs) {
        if (in.constant.defined()) {
            data.inputs.push_back(in.constant);
        } else if (next < program.test_inputs.size()) {
            data.inputs.push_back(program.test_inputs[next++]);
        } else {
            throw Error("program '" + program.name + "' has expected outputs but no test value for input '" +
                        in.param.name() + "'");
        }
    }
    data.outputs = program.expected_outputs;
    if (data.outputs.size() != program.outputs.size()) {
        throw Error("program '" + program.name + "' has " + std::to_string(program.outputs.size()) +
                    " output(s) but " + std::to_string(data.outputs.size()) + " expected value(s)");
    }
    return data;
}

}  // namespace

std::vector<PassDescription> describe_passes() { return pipeline_passes(); }

std::vector<std::string> device_list() { return device_names(); }

std::vector<std::string> pass_names() {
    std::vector<std::string> names;
    for (const PassDescription &p : pipeline_passes()) {
        if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
    }
    return names;
}

FilterGraph compile_graph(const HalideProgram &program, const CompileOptions &options, const Device &device,
                          std::vector<std::string> *interface_names) {
    log(options, "[1/5] lowering Halide pipeline '" + program.name + "'");
    LoweredProgram lowered = lower_for_hls(program, options.target);

    log(options, "[2/5] extracting filters");
    return compile_extracted(extract_filters(lowered), program, options, device, interface_names);
}

FilterGraph compile_extracted(FilterGraph graph, const HalideProgram &program, const CompileOptions &options,
                              const Device &device, std::vector<std::string> *interface_names) {
    std::ostream &dump = options.dump_stream ? *options.dump_stream : std::cout;
    for (Filter &f : graph.filters) {
        auto origin = program.onnx_origins.find(f.name);
        if (origin != program.onnx_origins.end()) f.onnx = origin->second;
    }
    if (options.dump_graph) dump << "// ---- after extraction\n" << print_graph(graph);

    // The program's inputs and outputs by name, in buffer order: passes rename them
    // (legalize-names) and turn ROMs into arguments (place-weights), but never add, remove or
    // reorder them.
    if (interface_names) {
        interface_names->clear();
        for (const Buffer &b : graph.buffers) {
            if (b.kind != BufferKind::Intermediate) interface_names->push_back(b.name);
        }
    }

    log(options, "[3/5] running passes");
    PipelineOptions po;
    po.dump_after = options.dump_after;
    po.disabled = options.disabled_passes;
    po.time_passes = options.time_passes;
    po.verify_each = options.verify_each;
    po.weights = weight_options(options.weights, device, options.target, options.axi_width_bits);
    po.fifo_channels = options.target == HlsTarget::Vitis;
    if (options.target == HlsTarget::Vitis) {  // bind-uram fills the budget's URAM (default: 80%)
        po.uram.device = &device;
        po.lutram.device = &device;
        po.reshape.device = &device;
        po.uram.uram_blocks =
            (options.budget.empty() ? dse::default_budget(device) : dse::parse_budget(options.budget, device)).uram;
    }
    po.dump = &dump;
    po.log = options.log_stream;
    po.balance_memo = options.balance_memo;
    po.directives.directives = program.directives.directives();
    po.directives.aliases = program.directive_aliases;
    run_pipeline(graph, po);
    if (options.dump_graph) dump << "// ---- final\n" << print_graph(graph);
    return graph;
}

namespace {

// Contract: for Vitis with packing enabled, `graph` with two int8 MACs sharing an operand packed
// per multiply where the part's 27 x 18-bit multiply is one DSP (DSP48E2 parts, not 7-series:
// 25 x 18 takes two DSPs, as two int8 multiplies); otherwise `graph` unchanged. Logs each loop.
FilterGraph pack_dsp(FilterGraph graph, const CompileOptions &options, const Device &device) {
    if (options.target != HlsTarget::Vitis || !options.dsp_packing ||
        device.op("imul8x2").dsp >= 2 * device.op("imul8").dsp) {
        return graph;
    }
    std::vector<PackedLoop> packed;
    graph = pack_dsp_pairs(graph, &packed);
    for (const PackedLoop &p : packed) {
        log(options, "      DSP packing: filter " + p.filter + ", loop " + p.loop + " (two MACs per multiply)");
    }
    return graph;
}

// The refusal of a format whose sums cannot fit the 64 bits of PandA-Bambu's int64_t even when
// proven narrowest (2F fraction bits and at least one integer bit); "" otherwise. `what`
// names the option.
std::string bambu_format_error(const std::string &what, const FixedFormat &f) {
    if (!f.enabled() || 2 * f.fraction() + 1 <= 64) return "";
    return what + " on PandA-Bambu: its sums need at least 2F + 1 = " + std::to_string(2 * f.fraction() + 1) +
           " bits (F = W - I), more than the 64 bits of int64_t";
}

// Contract: throws flowhls::Error when --precision asks for a format the target cannot
// compute whatever the weights: on PandA-Bambu the sums are int64_t and keep 2F fraction bits.
// Checked on the options alone for fixed<W,I> (it fails before any work); the sums' integer
// bits are checked per filter once proven (check_bambu_sums).
void check_precision_target(const CompileOptions &options) {
    if (options.target != HlsTarget::Bambu) return;
    std::vector<std::pair<std::string, FixedFormat>> formats = options.precision.overrides;
    formats.insert(formats.begin(), {"", options.precision.model});
    for (const auto &f : formats) {
        if (f.second.automatic) continue;
        std::string e = bambu_format_error("--precision " + (f.first.empty() ? "" : f.first + "=") + f.second.text(), f.second);
        if (!e.empty()) throw Error(e);
    }
}

// Contract: throws flowhls::Error when a filter of `graph` has sums (FixedFormat::accumulator:
// proven by prove_fixed_accumulators, else the rule 2F + I + 10) wider than PandA-Bambu's
// 64-bit int64_t, naming its ONNX node and format (and the W `auto` chose it from); nothing
// for Vitis.
void check_bambu_sums(const FilterGraph &graph, const CompileOptions &options) {
    if (options.target != HlsTarget::Bambu) return;
    for (const Filter &f : graph.filters) {
        const FixedFormat acc = f.fixed.accumulator();
        if (!f.fixed.enabled() || acc.width <= 64) continue;
        const std::string node = f.onnx.node.empty() ? f.name : f.onnx.node;
        const std::string format = f.fixed.measured < 0 ? "--precision gives ONNX node '" + node + "' " + f.fixed.text()
                                                        : "--precision auto<" + std::to_string(f.fixed.width) + "> chose " +
                                                              f.fixed.text() + " for ONNX node '" + node + "'";
        const std::string how = f.fixed.sum_integer > 0 ? "proven from its weights and inputs" : "2F + I + 10 bits: not proven";
        throw Error(format + " on PandA-Bambu: its sums, fixed<" + std::to_string(acc.width) + "," +
                    std::to_string(acc.integer) + "> (" + how + ", F = W - I), do not fit the 64 bits of int64_t" +
                    (f.fixed.measured < 0 ? "" : "; give a smaller W"));
    }
}

// Contract: `graph` with the fixed-point formats of --precision assigned to its filters
// (assign_precision) and the integer bits of their sums proven from the weights where they
// can be (prove_fixed_accumulators, on the scheduled bodies); unchanged when the options ask for none. Throws flowhls::Error for what
// check_precision_target and check_bambu_sums refuse.
FilterGraph fixed_point(FilterGraph graph, const CompileOptions &options) {
    if (!options.precision.any()) return graph;
    check_precision_target(options);
    assign_precision(graph, options.precision);
    prove_fixed_accumulators(graph);
    check_bambu_sums(graph, options);
    return graph;
}

// The QoR estimates of a compiled graph: the Vitis-calibrated model, and for PandA-Bambu its
// own cycle model (Bambu schedules differently); `json` is report.json's text.
struct ProjectEstimates {
    DesignEstimate design;
    std::optional<BambuEstimate> bambu;
    std::string json;
    std::string bambu_model;  // report text of the Bambu model ("" for Vitis)
};

// Contract: the estimates of `graph` (after the pipeline) on `device` for `target`. Pure.
ProjectEstimates estimate_project(const FilterGraph &graph, const Device &device, HlsTarget target) {
    ProjectEstimates e;
    e.design = estimate_design(graph, device, QorOptions());
    e.json = qor_json(e.design, device);
    if (target == HlsTarget::Bambu) {
        e.bambu = estimate_bambu_cycles(graph);
        nlohmann::json j = nlohmann::json::parse(e.json);
        j["bambu_estimate"] = bambu_model_json(*e.bambu);
        e.json = j.dump(2) + "\n";
        e.bambu_model = bambu_model_text(*e.bambu);
    }
    return e;
}

// Contract: the project settings (target, part, clock, tolerances) of `program` on `device`. Pure.
ProjectSettings project_settings(const HalideProgram &program, const CompileOptions &options, const Device &device) {
    ProjectSettings settings;
    settings.target = options.target;
    settings.vitis_part = device.vitis_part;
    settings.bambu_device = device.bambu_device;
    settings.clock_mhz = device.clock_mhz;
    settings.atol = program.atol;
    settings.rtol = program.rtol;
    return settings;
}

// Contract: every generated file except the test data: the kernel sources (checked emittable
// first, so a graph the target cannot print is refused before anything is written), the
// project files, report.txt/json/html, the runtime headers and graph.txt. `staging` is the
// output's staging directory (render_svg's scratch file). Fills `estimates`.
std::vector<EmittedFile> code_and_report_files(const FilterGraph &graph, const HalideProgram &program,
                                               const CompileOptions &options, const Device &device,
                                               const std::string &staging, ProjectEstimates &estimates) {
    log(options, "[4/5] emitting " + hls_target_name(options.target) + " code");
    check_emittable(graph, options.target);
    const ProjectSettings settings = project_settings(program, options, device);
    std::vector<EmittedFile> files =
        options.target == HlsTarget::Vitis ? emit_vitis_files(graph, settings) : emit_bambu_files(graph, settings);
    estimates = estimate_project(graph, device, options.target);
    for (EmittedFile &f : emit_project_files(graph, settings)) files.push_back(std::move(f));
    files.push_back({"report.txt", project_report(graph, options.target, estimates.design, device, estimates.bambu_model)});
    files.push_back({"report.json", estimates.json});
    files.push_back({"report.html", html_report(graph, estimates.design, device,
                                                render_svg(dataflow_dot(graph, estimates.design), staging))});
    for (const EmbeddedFile &f : runtime_support_files()) {
        // The hls::stream and ap_int stand-ins and the DSP packing helpers (ap_int) are C++; the
        // fixed-point helpers of PandA-Bambu's C99 serve it alone.
        bool cxx_only = f.path.rfind("csim/", 0) == 0 || f.path == "flowhls_pack.h" || f.path == "flowhls_fixed.h";
        bool c_only = f.path == "flowhls_fixed_c.h";
        if (options.target == HlsTarget::Vitis ? !c_only : !cxx_only) files.push_back({"include/" + f.path, f.contents});
    }
    files.push_back({"graph.txt", print_graph(graph)});
    return files;
}

// Contract: the test data files: one .npy per kernel argument (from the program's test data or
// the Halide JIT's reference run) and data/manifest.txt listing the program's inputs and
// outputs in program order (what `flowhls csim --inputs/--expected` replaces).
// `interface_names` are the program names of the graph's non-intermediate buffers in buffer
// order (compile_graph's); a pass that added or removed one is an internal error.
std::vector<EmittedFile> test_data_files(const FilterGraph &graph, const HalideProgram &program,
                                         const CompileOptions &options,
                                         const std::vector<std::string> &interface_names) {
    log(options, program.expected_outputs.empty() ? "[5/5] computing reference outputs with the Halide JIT"
                                                  : "[5/5] writing the test data");
    ReferenceData ref = reference_data(program, options);
    std::map<std::string, const Halide::Buffer<> *> data_of;
    for (size_t i = 0; i < program.inputs.size(); i++) data_of[program.inputs[i].param.name()] = &ref.inputs.at(i);
    for (size_t i = 0; i < program.outputs.size(); i++) data_of[program.outputs[i].func.name()] = &ref.outputs.at(i);
    // The program name of each kernel argument.
    std::map<std::string, std::string> program_name_of;
    size_t k = 0;
    for (const Buffer &b : graph.buffers) {
        if (b.kind == BufferKind::Intermediate) continue;
        if (k >= interface_names.size()) throw std::logic_error("compile: the passes added an interface buffer " + b.name);
        program_name_of[b.name] = interface_names[k++];
    }
    if (k != interface_names.size()) throw std::logic_error("compile: the passes removed an interface buffer");
    std::vector<EmittedFile> files;
    std::map<std::string, std::string> file_of;
    for (const std::string &arg : graph.args) {
        const Buffer &b = graph.buffer(arg);
        auto it = data_of.find(program_name_of.at(arg));
        if (it == data_of.end()) throw std::logic_error("compile: no test data for kernel argument " + b.name);
        files.push_back({data_file(b), npy_bytes(*it->second)});
        file_of[program_name_of.at(arg)] = data_file(b);
    }
    std::string manifest = "# kind file (program order; generated by flowhls)\n";
    for (const ProgramInput &in : program.inputs) {
        auto it = file_of.find(in.param.name());
        if (!in.constant.defined() && it != file_of.end()) manifest += "input " + it->second + "\n";
    }
    for (const ProgramOutput &o : program.outputs) manifest += "output " + file_of.at(o.func.name()) + "\n";
    files.push_back({"data/manifest.txt", manifest});
    return files;
}

// Contract: writes `files` into `out`'s staging directory (executable ones with exec bits),
// commits it, and returns the written paths sorted.
std::vector<std::string> write_project(OutputDir &out, const std::vector<EmittedFile> &files) {
    std::vector<std::string> paths;
    for (const EmittedFile &f : files) {
        out.write(f.path, f.contents);
        if (f.executable) {
            std::filesystem::permissions(std::filesystem::path(out.staging_path()) / f.path,
                                         std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                             std::filesystem::perms::others_exec,
                                         std::filesystem::perm_options::add);
        }
        paths.push_back(f.path);
    }
    out.commit();
    std::sort(paths.begin(), paths.end());
    return paths;
}

// Contract: fills the summary fields of `result` (kernel, filters, dataflow verdict, graph dump,
// estimates, channel and line-buffer words, whether the design fits `device`). Pure.
void summarize(const FilterGraph &graph, const ProjectEstimates &estimates, const Device &device,
               CompileResult &result) {
    const DesignEstimate &estimate = estimates.design;
    result.kernel_name = graph.name;
    for (const Filter &f : graph.filters) result.filters.push_back(f.function_name);
    result.dataflow = graph.dataflow.legal;
    result.dataflow_reason = graph.dataflow.reason;
    result.graph_dump = print_graph(graph);
    result.qor_report = estimate_text(estimate, device, estimates.bambu_model);
    result.latency_cycles = estimate.latency;
    result.bambu_cycles = estimates.bambu ? estimates.bambu->cycles : -1;
    result.interval_cycles = estimate.interval;
    result.throughput = estimate.throughput;
    result.dsp = estimate.total.dsp;
    result.bram18k = estimate.total.bram18k;
    result.lut = estimate.total.lut;
    result.ff = estimate.total.ff;
    for (const Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar()) continue;
        result.intermediate_words += b.size();
        if (b.is_stream()) {
            result.channel_words += b.stream_depth + (b.channel == ChannelKind::LineBufferedStream ? b.line_buffer_words : 0) +
                                   (b.channel == ChannelKind::WindowBufferedStream ? b.window_buffer.words() : 0);
        }
        else result.channel_words += b.size();
        if (b.line_buffer_words > 0) {
            result.line_buffer_words += b.line_buffer_words;
            result.line_buffer_edges++;
        }
    }
    result.fits = estimate.total.dsp <= device.capacity.dsp && estimate.total.bram18k <= device.capacity.bram18k &&
                  estimate.total.lut <= device.capacity.lut && estimate.total.ff <= device.capacity.ff;
}

// Contract: throws flowhls::Error naming every resource `used` (the estimate) takes beyond
// `budget`; returns when the design fits.
void refuse_over_budget(const Resources &used, const Resources &budget, const Device &device) {
    std::vector<std::string> over = dse::over_budget(used, budget);
    if (over.empty()) return;
    std::string list;
    for (const std::string &o : over) list += (list.empty() ? "" : ", ") + o;
    throw Error("the design does not fit the budget on " + device.part + " (estimated " + list + "; budget " +
                dse::budget_text(budget) + "); nothing was written (without --budget the report shows where the "
                "resources go)");
}

// Contract: adds the fixed-point formats of `graph`'s filters (precision_report_text/json) to
// report.txt, README.md and report.json's "precision"; nothing when no filter is fixed.
void add_precision_report(std::vector<EmittedFile> &files, const FilterGraph &graph) {
    std::string text = precision_report_text(graph);
    if (text.empty()) return;
    for (EmittedFile &f : files) {
        if (f.path == "report.txt") f.contents += text;
        if (f.path == "README.md") f.contents += "\n## Fixed point\n" + text;
        if (f.path == "report.json") {
            nlohmann::json j = nlohmann::json::parse(f.contents);
            j["precision"] = nlohmann::json::parse(precision_report_json(graph));
            f.contents = j.dump(2) + "\n";
        }
    }
}

// Contract: adds what the design-space exploration chose (options.extra_files, the report and
// README sections, report.json's `dse` object, the frontier plot `frontier.svg` inline in
// report.html) to the project's `files`.
void add_dse_results(std::vector<EmittedFile> &files, const CompileOptions &options) {
    for (EmittedFile &f : files) {
        if (f.path == "report.txt") f.contents += options.dse_report_text;
        if (f.path == "README.md") f.contents += options.dse_readme_text;
        if (f.path == "report.html") {
            // The exploration's frontier plot (an extra file), inline so the page stays self-contained.
            for (const auto &extra : options.extra_files) {
                size_t end = f.contents.rfind("</body>");
                if (extra.first != "frontier.svg" || end == std::string::npos) continue;
                f.contents.insert(end, "<h2>Design-space exploration (estimates)</h2>\n" + extra.second);
            }
        }
        if (f.path == "report.json" && !options.dse_report_json.empty()) {
            nlohmann::json j = nlohmann::json::parse(f.contents);
            j["dse"] = nlohmann::json::parse(options.dse_report_json);
            f.contents = j.dump(2) + "\n";
        }
    }
    for (const auto &[path, contents] : options.extra_files) files.push_back({path, contents});
}

}  // namespace

DesignEstimate estimate_program(const HalideProgram &program, const CompileOptions &options, LoweringMemo *memo) {
    Device device = load_device(options.device, options.clock_mhz);
    // The passes read the program's directives, aliases and ONNX origins, which lowering an
    // isolated copy with its loop transformations applied leaves as they are.
    FilterGraph extracted = memo ? memo->extract(program, options.target) : extract_program(program, options.target);
    FilterGraph graph = fixed_point(
        pack_dsp(compile_extracted(std::move(extracted), program, options, device), options, device), options);
    QorOptions qor;
    qor.threads = options.estimate_threads;
    qor.memo = options.schedule_memo;
    return estimate_design(graph, device, qor);
}

CompileResult compile(const HalideProgram &caller_program, const CompileOptions &options) {
    // Lowering binds shapes and rewrites schedules, the reference binds buffers: all on a copy.
    // The co-language's loop transformations change the copy's schedule, so the generated code
    // and the Halide JIT reference (test data) both follow the transformed loop nest.
    HalideProgram program = isolated_copy(caller_program);
    apply_loop_schedule(program);
    // Created first: an unwritable destination or unknown device fails before any work.
    OutputDir out(options.output_dir);
    Device device = load_device(options.device, options.clock_mhz);
    // A part PandA-Bambu has no characterization of is refused before any work.
    if (options.target == HlsTarget::Bambu) device.bambu_device = bambu_device_name(device);
    check_precision_target(options);
    std::optional<Resources> budget;
    if (!options.budget.empty()) budget = dse::parse_budget(options.budget, device);
    std::vector<std::string> interface_names;
    FilterGraph graph =
        fixed_point(pack_dsp(compile_graph(program, options, device, &interface_names), options, device), options);

    ProjectEstimates estimates;
    std::vector<EmittedFile> files = code_and_report_files(graph, program, options, device, out.staging_path(), estimates);
    if (budget) refuse_over_budget(estimates.design.total, *budget, device);
    add_dse_results(files, options);
    add_precision_report(files, graph);
    for (EmittedFile &f : test_data_files(graph, program, options, interface_names)) files.push_back(std::move(f));

    CompileResult result;
    result.files = write_project(out, files);
    result.output_dir = out.final_path();
    summarize(graph, estimates, device, result);
    return result;
}

}  // namespace flowhls
