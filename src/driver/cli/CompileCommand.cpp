// The compile subcommand: a model, example or generator into an HLS project (then csim).
#include "driver/cli/Command.h"
#include "driver/cli/DseCommand.h"
#include "driver/CalibrationRanges.h"
#include "dse/FrontierPlot.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Directives.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Generators.h"
#include "flowhls/Onnx.h"
#include "flowhls/Synth.h"
#include "support/Sizes.h"

#include <iostream>
#include <cstdio>
#include <memory>
#include <optional>
#include <unistd.h>

namespace flowhls::cli {

namespace {

struct CompileArgs {
    std::string example, schedule, size, output, target = "vitis", model, generator, kernel_name;
    std::vector<std::string> plugins, shapes, params, input_files, expected_files;
    std::string test_data, weights = "auto", directives;
    int axi_width = 512;
    double atol = 1e-5, rtol = 1e-4;
    bool no_fold_bn = false, no_fuse_qdq = false, specialize = false;
    uint64_t seed = 1;
    bool dump_graph = false, time_passes = false, verify_each = false, csim = false, sanitize = false, verbose = false, report = false;
    std::string device = "xc7z020", budget;
    double clock_mhz = 100.0;
    std::vector<std::string> dump_after, disabled, precision, calibration;
    int64_t max_memory = 0;  // bytes; 0: default_memory_budget()
    bool synth = false, no_dsp_packing = false;
    std::string bambu;
    bool dse = false;
    uint64_t dse_seed = 1;
    int max_points = 40;
};

// Splits "NAME=VALUE" of option `option`.
std::pair<std::string, std::string> key_value(const std::string &text, const char *option) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw Error(std::string(option) + " '" + text + "': expected NAME=VALUE");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// A program to compile, how messages name it and the default output directory.
struct Named {
    HalideProgram program;
    std::string label, default_dir;
};

Named model_program(const CompileArgs &a) {
    if (!a.example.empty() || !a.generator.empty()) throw Error("give a model file, --example or --generator, not several");
    if (!a.schedule.empty() || !a.size.empty() || !a.params.empty() || !a.plugins.empty()) {
        throw Error("--schedule, --size, --param and --plugin do not apply to models");
    }
    OnnxImportOptions o;
    for (const std::string &s : a.shapes) {
        auto kv = key_value(s, "--shape");
        std::vector<int> dims = parse_shape(kv.second, "--shape " + kv.first);  // outermost first
        o.shapes[kv.first] = std::vector<int64_t>(dims.begin(), dims.end());
    }
    o.input_files = a.input_files;
    o.expected_files = a.expected_files;
    o.test_data_dir = a.test_data;
    o.atol = a.atol;
    o.rtol = a.rtol;
    o.fold_batchnorm = !a.no_fold_bn;
    o.fuse_qdq = !a.no_fuse_qdq;
    o.specialize_shape_inputs = a.specialize;
    o.kernel_name = a.kernel_name;
    o.max_memory_bytes = a.max_memory;
    HalideProgram p = import_onnx(a.model, o);
    std::string dir = "flowhls-out/" + p.name;
    return {std::move(p), "model " + a.model, dir};
}

Named generator_program(const CompileArgs &a) {
    if (!a.schedule.empty() || !a.size.empty()) {
        throw Error("--schedule and --size apply to examples; a generator takes --shape and --param");
    }
    GeneratorRequest r;
    r.plugins = a.plugins;
    r.generator = a.generator;
    r.kernel_name = a.kernel_name;
    for (const std::string &p : a.params) r.params.insert(key_value(p, "--param"));
    for (const std::string &s : a.shapes) {
        auto kv = key_value(s, "--shape");
        r.shapes[kv.first] = parse_shape(kv.second, "--shape " + kv.first);
    }
    return {load_generator(r), "generator " + a.generator, "flowhls-out/" + a.generator};
}

Named example_program(const CompileArgs &a) {
    if (!a.shapes.empty() || !a.params.empty() || !a.plugins.empty()) {
        throw Error("--shape, --param and --plugin apply to --generator, not to examples");
    }
    HalideProgram program = build_example(a.example, a.schedule, a.size);
    std::string schedule = a.schedule;
    for (const ExampleInfo &e : list_examples()) {
        if (schedule.empty() && e.name == a.example) schedule = e.schedules.front();
    }
    if (!a.kernel_name.empty()) program.name = a.kernel_name;
    return {std::move(program), "example " + a.example + " (schedule " + schedule + ")",
            "flowhls-out/" + a.example + "_" + schedule};
}

// The program a compile command names.
Named program_to_compile(const CompileArgs &a) {
    if (!a.model.empty()) return model_program(a);
    if (!a.example.empty() && !a.generator.empty()) throw Error("give either --example or --generator, not both");
    if (!a.generator.empty()) return generator_program(a);
    if (a.example.empty()) {
        throw Error("nothing to compile: give --example NAME (see 'flowhls examples') or --generator NAME");
    }
    return example_program(a);
}

CompileOptions compile_options(const CompileArgs &a, const std::string &default_dir) {
    CompileOptions o;
    o.target = parse_hls_target(a.target);
    o.output_dir = a.output;
    if (o.output_dir.empty()) {
        o.output_dir = default_dir;
        for (char &c : o.output_dir) {
            if (c == ':') c = '_';
        }
    }
    o.seed = a.seed;
    o.weights = parse_weight_placement(a.weights);
    o.axi_width_bits = a.axi_width;
    o.dsp_packing = !a.no_dsp_packing;
    for (const std::string &p : a.precision) add_precision_argument(p, o.precision);
    o.device = a.device;
    o.clock_mhz = a.clock_mhz;
    o.budget = a.budget;
    o.dump_graph = a.dump_graph;
    o.dump_after = a.dump_after;
    o.disabled_passes = a.disabled;
    o.time_passes = a.time_passes;
    o.verify_each = o.verify_each || a.verify_each;
    bool terminal = isatty(STDERR_FILENO);
    o.log_stream = (a.verbose || a.time_passes || terminal) ? &std::cerr : nullptr;
    return o;
}

// The inputs and outputs of a program (the buffers the reference and the testbench hold) fit
// one tensor's limit each and the memory budget together.
void check_program_memory(const HalideProgram &p, int64_t budget) {
    int64_t total = 0;
    auto charge = [&](const std::string &what, Halide::Type type, const std::vector<int> &shape) {
        int64_t bytes = checked_bytes(std::vector<int64_t>(shape.begin(), shape.end()), type.bytes(), kMaxTensorBytes);
        if (bytes < 0) {
            throw Error(what + " would take more than " + byte_size_text(kMaxTensorBytes) +
                        ", the most one buffer may hold");
        }
        total += bytes;
        if (total > budget) {
            throw Error("the program's inputs and outputs need more than the memory budget of " +
                        byte_size_text(budget) + " (" + what + " brings them to " + byte_size_text(total) +
                        "); raise it with --max-memory");
        }
    };
    for (const ProgramInput &in : p.inputs) charge("input '" + in.param.name() + "'", in.param.type(), in.shape);
    for (const ProgramOutput &out : p.outputs) {
        charge("output '" + out.func.name() + "'", out.func.defined() ? out.func.output_types()[0] : Halide::UInt(8),
               out.shape);
    }
}

int run_compile(const CompileArgs &a) {
    if (a.synth) {
        if (a.target != "bambu") throw Error("--synth runs PandA-Bambu: compile with --target bambu");
        find_bambu(a.bambu);  // no Bambu: refused before compiling
    }
    Named named = program_to_compile(a);
    HalideProgram &program = named.program;
    check_program_memory(program, a.max_memory > 0 ? a.max_memory : default_memory_budget());
    HlsSchedule user;
    if (!a.directives.empty()) user = read_directives_json(a.directives);
    CompileOptions options = compile_options(a, named.default_dir);
    measure_auto_precision(a.model, a.calibration, program, options, a.verbose ? &std::cerr : nullptr);
    std::optional<DseOutcome> explored;
    if (a.dse) {
        // The best point that fits, compiled from its schedule.json text exactly as
        // `--directives schedule.json` would compile it.
        HalideProgram start = program;
        start.directives.append(user);
        DseSettings settings{a.budget, a.dse_seed, a.max_points};
        // The project's graph.txt shows Halide's numbering, which counts the lowerings made
        // before it in the process: lowerings started ahead and not used would change it.
        settings.prefetch = false;
        explored = explore_program(start, options, settings);
        std::string json = point_schedule_json(*explored, explored->result.chosen, user);
        user = parse_directives_json(json, "schedule.json");
        options.extra_files.push_back({"schedule.json", json});
        std::string plot = dse::frontier_svg(explored->result, explored->budget);
        if (!plot.empty()) options.extra_files.push_back({"frontier.svg", plot});
        describe_choice(*explored, "seed " + std::to_string(a.dse_seed), options);
    }
    program.directives.append(user);
    CompileResult r = compile(program, options);

    // With dumps, standard output holds only graphs (each readable by `flowhls opt`).
    std::ostream &summary = a.dump_graph || !a.dump_after.empty() ? std::cerr : std::cout;
    summary << "flowhls: " << named.label << " compiled for " << a.target << "\n";
    summary << "  kernel:   " << r.kernel_name << ", " << r.filters.size() << " filter(s):";
    for (const std::string &f : r.filters) summary << " " << f;
    summary << "\n  dataflow: " << (r.dataflow ? "yes" : "no (" + r.dataflow_reason + ")") << "\n";
    summary << "  project:  " << r.output_dir << "\n";
    if (explored) {
        const dse::EvaluatedPoint &c = explored->result.points[explored->result.chosen], &n = explored->result.points[0];
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", explored->seconds);
        summary << "  dse:      " << explored->result.points.size() << " points in " << seconds << " s; chosen point "
                << explored->result.chosen << " (" << dse::point_text(explored->space, c.choices)
                << "): interval " << c.interval << " cycles (naive " << n.interval << "), DSP " << c.total.dsp
                << " (naive " << n.total.dsp << "), estimates; schedule.json written\n";
    }
    if (a.report) summary << "\n" << r.qor_report;
    if (a.csim) {
        CsimOptions co;
        co.sanitize = a.sanitize;
        co.echo = a.verbose;
        int status = print_csim_verdict(run_csim(r.output_dir, co), a.verbose);
        if (status != 0) return status;
    }
    return a.synth ? run_synth_and_print(r.output_dir, a.bambu, a.verbose) : 0;
}

// The options of the program: what to compile and how to build it.
void add_program_options(CLI::App *c, CompileArgs &a) {
    c->add_option("model", a.model, "ONNX model file (.onnx) to compile");
    c->add_option("-e,--example", a.example, "bundled example to compile (see 'flowhls examples')");
    c->add_option("--size", a.size, "problem size of an example with several (PolyBench: medium, small, mini)")
        ->check(non_empty());
    c->add_option("-g,--generator", a.generator, "registered Halide Generator to compile");
    c->add_option("--plugin", a.plugins, "shared library with Halide Generators to load (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--shape", a.shapes,
                  "NAME=1x3x32x32: static shape of a model input or generator input/output, outermost first")
        ->allow_extra_args(false);
    c->add_option("--param", a.params, "KEY=VALUE: a GeneratorParam value")->allow_extra_args(false);
    c->add_option("-s,--schedule", a.schedule, "schedule of the example (default: its first; random:SEED)")
        ->check(non_empty());
    c->add_option("--name", a.kernel_name, "kernel (top function) name")->check(non_empty());
    c->add_option("--directives", a.directives,
                  "JSON file of HLS directives (pipeline, unroll, partition, stream, interface...; "
                  "see docs/directives.md)");
}

// The options only models have: test data, weights, tolerances, import switches.
void add_model_options(CLI::App *c, CompileArgs &a) {
    c->add_option("--inputs", a.input_files, "model test inputs (.pb or .npy, in graph order)")->allow_extra_args(false);
    c->add_option("--expected", a.expected_files, "expected model outputs (.pb or .npy, in graph order)")
        ->allow_extra_args(false);
    c->add_option("--test-data", a.test_data,
                  "directory with input_N.pb / output_N.pb (default: test_data_set_0 beside the model)");
    c->add_option("--weights", a.weights, "where model weights live: auto (ROM while they fit half the BRAM, a quarter on parts with UltraRAM, then UltraRAM loaded on the first call while they fit half the URAM; Vitis), rom, axi, uram")
        ->capture_default_str();
    c->add_option("--axi-width", a.axi_width,
                  "Vitis: bits of the m_axi ports of weights in external memory (widened; 8..1024, a power of two)")
        ->check(axi_width())
        ->capture_default_str();
    c->add_option("--atol", a.atol, "testbench absolute tolerance for models")
        ->check(non_negative_number())
        ->capture_default_str();
    c->add_option("--rtol", a.rtol, "testbench relative tolerance for models")
        ->check(non_negative_number())
        ->capture_default_str();
    c->add_flag("--specialize-shape-inputs", a.specialize,
                "model inputs used as shapes, axes or pads take their test value as a constant");
    c->add_flag("--no-fold-batchnorm", a.no_fold_bn, "keep BatchNormalization nodes instead of folding them into Conv");
    c->add_flag("--no-fuse-qdq", a.no_fuse_qdq,
                "keep a quantized model's QDQ patterns in float instead of integer arithmetic");
}

// The options of the output: where, for what, what to print.
void add_output_options(CLI::App *c, CompileArgs &a) {
    c->add_option("-o,--output", a.output, "output directory (default: flowhls-out/EXAMPLE_SCHEDULE)")
        ->check(non_empty());
    c->add_option("-t,--target", a.target, "HLS target: vitis (C++ for Vitis HLS) or bambu (C99 for PandA-Bambu)")
        ->capture_default_str();
    c->add_option("--seed", a.seed, "seed of the random test inputs")->check(whole_number_in(0, UINT64_MAX))->capture_default_str();
    c->add_flag("--no-dsp-packing", a.no_dsp_packing,
                "Vitis: keep one multiply per int8 MAC (by default two MACs sharing an operand share one DSP, WP486)");
    c->add_option("--precision", a.precision,
                  "float data in fixed point: fixed<W,I> (whole model; W 1..32, I 0..W), auto or auto<W> "
                  "(Vitis; I per node from ranges measured on --calibration inputs; W default 16) or KEY=fixed<W,I> / "
                  "KEY=auto<W> / KEY=float for an ONNX node name or op type (repeatable; default float); ap_fixed on "
                  "Vitis, stdint integers on PandA-Bambu (sums at most 64 bits: 2(W-I)+I+10 <= 64)");
    c->add_option("--calibration", a.calibration,
                  "--precision auto: calibration inputs (.npy/.pb, several samples per file allowed, or a directory "
                  "of them; repeatable; default: the test inputs)")
        ->allow_extra_args(false);
    c->add_option("--device", a.device, "FPGA part for the scripts and the QoR estimate (see 'flowhls devices')")
        ->capture_default_str();
    c->add_option("--max-memory", a.max_memory,
                  "most memory the tensors of the program may take together, in bytes or with K, M, G, T "
                  "(default: half the physical memory)")
        ->transform(byte_size())
        ->type_name("SIZE");
    c->add_option("--clock", a.clock_mhz, "clock frequency in MHz")->check(number_in(1.0, 10000.0))->capture_default_str();
    c->add_option("--budget", a.budget,
                  "refuse a design whose estimate exceeds this budget: dsp=N,bram=N,uram=N,lut=N,ff=N, each a count "
                  "or a percentage of the part (dsp=50%); resources not named: 80% of the part; one PERCENT% sets all")
        ->type_name("BUDGET");
    c->add_flag("--dse", a.dse,
                "explore the design space (loop orders, unroll factors; docs/dse.md) and compile the fastest point "
                "that fits --budget; writes its schedule.json into the project");
    c->add_option("--dse-seed", a.dse_seed, "with --dse: seed of the search")
        ->check(whole_number_in(0, UINT64_MAX))
        ->capture_default_str();
    c->add_option("--max-points", a.max_points, "with --dse: most points evaluated")
        ->check(whole_number_in(1, 100000))
        ->capture_default_str();
    c->add_flag("--report", a.report, "print the QoR estimate (always written to report.txt and report.json)");
    c->add_flag("--dump-graph", a.dump_graph, "print the filter graph after extraction and at the end");
    c->add_option("--dump-after", a.dump_after, "print the graph after this pass ('all': every pass)")
        ->allow_extra_args(false);
    c->add_option("--disable-pass", a.disabled, "do not run this pass")->allow_extra_args(false);
    c->add_flag("--time-passes", a.time_passes, "print the wall time of each pass");
    c->add_flag("--verify-each", a.verify_each, "verify the filter graph after every pass (internal check)");
    c->add_flag("--csim", a.csim, "run the C simulation after compiling");
    c->add_flag("--sanitize", a.sanitize, "with --csim: simulate under AddressSanitizer and UBSan");
    c->add_flag("-v,--verbose", a.verbose, "print progress and the simulation output");
    c->add_flag("--synth", a.synth, "then synthesize with PandA-Bambu and co-simulate the RTL (see 'synth')");
    c->add_option("--bambu", a.bambu, "with --synth: the bambu executable or its install directory");
}

}  // namespace

Command compile_command(CLI::App &app) {
    auto args = std::make_shared<CompileArgs>();
    CLI::App *sub = app.add_subcommand("compile", "compile a pipeline into an HLS project directory");
    add_program_options(sub, *args);
    add_model_options(sub, *args);
    add_output_options(sub, *args);
    return {sub, [args] { return run_compile(*args); }};
}

}  // namespace flowhls::cli
