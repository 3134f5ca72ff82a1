// compile: Halide program -> filter graph -> passes -> HLS project directory.
#include "flowhls/Compiler.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "analysis/Device.h"
#include "analysis/QorEstimator.h"
#include "emit/HtmlReport.h"
#include "emit/QorReport.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/Reference.h"
#include "graph/ExtractFilters.h"
#include "support/EmbeddedFiles.h"
#include "support/Npy.h"
#include "support/OutputDir.h"
#include "transforms/Pipeline.h"

#include <algorithm>
#include <iostream>

namespace flowhls {

namespace {

void log(const CompileOptions &o, const std::string &line) {
    if (o.log_stream) *o.log_stream << line << "\n" << std::flush;
}

}  // namespace

HlsTarget parse_hls_target(const std::string &name) {
    if (name == "vitis") return HlsTarget::Vitis;
    if (name == "bambu") return HlsTarget::Bambu;
    throw Error("unknown target '" + name + "' (targets: vitis, bambu)");
}

std::string hls_target_name(HlsTarget target) {
    switch (target) {
    case HlsTarget::Vitis: return "vitis";
    case HlsTarget::Bambu: return "bambu";
    }
    return "?";
}

std::vector<PassDescription> describe_passes() {
    std::vector<PassDescription> out;
    for (const PassInfo &p : pipeline_passes()) out.push_back({p.name, p.summary, p.required});
    return out;
}

std::vector<std::string> device_list() { return device_names(); }

std::vector<std::string> pass_names() {
    std::vector<std::string> names;
    for (const PassInfo &p : pipeline_passes()) names.push_back(p.name);
    return names;
}

CompileResult compile(const HalideProgram &program, const CompileOptions &options) {
    std::ostream &dump = options.dump_stream ? *options.dump_stream : std::cout;
    // Created first: an unwritable destination or unknown device fails before any work.
    OutputDir out(options.output_dir);
    Device device = load_device(options.device, options.clock_mhz);

    log(options, "[1/5] lowering Halide pipeline '" + program.name + "'");
    LoweredProgram lowered = lower_for_hls(program, options.target);

    log(options, "[2/5] extracting filters");
    FilterGraph graph = extract_filters(lowered);
    if (options.dump_graph) dump << "// ---- after extraction\n" << print_graph(graph);

    log(options, "[3/5] running passes");
    PipelineOptions po;
    po.dump_after = options.dump_after;
    po.disabled = options.disabled_passes;
    po.time_passes = options.time_passes;
    po.dump = &dump;
    po.log = options.log_stream;
    run_pipeline(graph, po);
    if (options.dump_graph) dump << "// ---- final\n" << print_graph(graph);

    log(options, "[4/5] emitting " + hls_target_name(options.target) + " code");
    ProjectSettings settings;
    settings.target = options.target;
    settings.vitis_part = device.vitis_part;
    settings.bambu_device = device.bambu_device;
    settings.clock_mhz = device.clock_mhz;
    std::vector<EmittedFile> files =
        options.target == HlsTarget::Vitis ? emit_vitis_files(graph, settings) : emit_bambu_files(graph, settings);
    DesignEstimate estimate = estimate_design(graph, device, QorOptions());
    std::string qor = qor_text(estimate, device);
    for (EmittedFile &f : emit_project_files(graph, settings)) {
        if (f.path == "report.txt") f.contents += "\n" + qor;
        files.push_back(std::move(f));
    }
    files.push_back({"report.json", qor_json(estimate, device)});
    files.push_back({"report.html", html_report(graph, estimate, device)});
    for (const EmbeddedFile &f : runtime_support_files()) {
        bool cxx_only = f.path.rfind("csim/", 0) == 0;  // the hls::stream stand-in
        if (!cxx_only || options.target == HlsTarget::Vitis) files.push_back({"include/" + f.path, f.contents});
    }
    files.push_back({"graph.txt", print_graph(graph)});

    log(options, "[5/5] computing reference outputs with the Halide JIT");
    ReferenceData ref = run_reference(program, random_inputs(program, options.seed));
    size_t in_i = 0, out_i = 0;
    for (const std::string &arg : graph.args) {
        const Buffer &b = graph.buffer(arg);
        const Halide::Buffer<> &data = b.kind == BufferKind::Input ? ref.inputs.at(in_i++) : ref.outputs.at(out_i++);
        files.push_back({data_file(b), npy_bytes(data)});
    }

    CompileResult result;
    for (const EmittedFile &f : files) {
        out.write(f.path, f.contents);
        result.files.push_back(f.path);
    }
    out.commit();
    std::sort(result.files.begin(), result.files.end());
    result.output_dir = out.final_path();
    result.kernel_name = graph.name;
    for (const Filter &f : graph.filters) result.filters.push_back(f.function_name);
    result.dataflow = graph.dataflow.legal;
    result.dataflow_reason = graph.dataflow.reason;
    result.graph_dump = print_graph(graph);
    result.qor_report = qor;
    result.latency_cycles = estimate.latency;
    result.interval_cycles = estimate.interval;
    result.throughput = estimate.throughput;
    result.dsp = estimate.total.dsp;
    result.bram18k = estimate.total.bram18k;
    result.lut = estimate.total.lut;
    result.ff = estimate.total.ff;
    result.fits = estimate.total.dsp <= device.capacity.dsp && estimate.total.bram18k <= device.capacity.bram18k &&
                  estimate.total.lut <= device.capacity.lut && estimate.total.ff <= device.capacity.ff;
    return result;
}

}  // namespace flowhls
