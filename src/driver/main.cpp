// The flowhls command-line tool.
#include "driver/Bench.h"
#include "driver/Calibration.h"
#include "driver/Conformance.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Generators.h"
#include "flowhls/Onnx.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace {

struct CompileArgs {
    std::string example, schedule, size, output, target = "vitis", model, generator, kernel_name;
    std::vector<std::string> plugins, shapes, params, input_files, expected_files;
    std::string test_data, weights = "auto", directives;
    double atol = 1e-5, rtol = 1e-4;
    bool no_fold_bn = false, specialize = false;
    uint64_t seed = 1;
    bool dump_graph = false, time_passes = false, csim = false, sanitize = false, verbose = false, report = false;
    std::string device = "xc7z020";
    double clock_mhz = 100.0;
    std::vector<std::string> dump_after, disabled;
};

struct CsimArgs {
    std::string dir;
    bool sanitize = false, verbose = false;
    double atol = -1.0, rtol = -1.0;
    std::vector<std::string> inputs, expected;
};

// This executable's path (for running itself on each conformance case).
std::string fs_self_path(const char *argv0) {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(argv0) : self.string();
}

int print_examples() {
    for (const flowhls::ExampleInfo &e : flowhls::list_examples()) {
        std::string schedules;
        for (const std::string &s : e.schedules) schedules += (schedules.empty() ? "" : ",") + s;
        std::string sizes;
        for (const std::string &s : e.sizes) sizes += (sizes.empty() ? "  sizes: " : ",") + s;
        std::cout << e.name << "  schedules: " << schedules << ",random:SEED" << sizes << "  " << e.description << "\n";
    }
    return 0;
}

int print_passes() {
    for (const flowhls::PassDescription &p : flowhls::describe_passes()) {
        std::string name = p.name;
        name.resize(20, ' ');
        std::cout << name << (p.required ? "required  " : "optional  ") << p.summary << "\n";
    }
    return 0;
}

int print_report(const std::string &dir) {
    std::ifstream in(dir + "/report.txt");
    if (!in || !std::ifstream(dir + "/.flowhls-project")) {
        throw flowhls::Error("'" + dir + "' is not a flowhls project with a report (no report.txt)");
    }
    std::cout << in.rdbuf();
    return 0;
}

int report_csim(const flowhls::CsimResult &r, bool verbose) {
    if (!r.passed && !verbose) std::cout << r.log;
    std::cout << "csim: " << r.verdict << "\n";
    return r.passed ? 0 : 1;
}

// Splits "NAME=VALUE" of option `option`.
std::pair<std::string, std::string> key_value(const std::string &text, const char *option) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw flowhls::Error(std::string(option) + " '" + text + "': expected NAME=VALUE");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// The program a compile command names, a label for messages and the default output directory.
flowhls::HalideProgram program_to_compile(const CompileArgs &a, std::string *label, std::string *default_dir) {
    if (!a.model.empty()) {
        if (!a.example.empty() || !a.generator.empty()) {
            throw flowhls::Error("give a model file, --example or --generator, not several");
        }
        if (!a.schedule.empty() || !a.size.empty() || !a.params.empty() || !a.plugins.empty()) {
            throw flowhls::Error("--schedule, --size, --param and --plugin do not apply to models");
        }
        flowhls::OnnxImportOptions o;
        for (const std::string &s : a.shapes) {
            auto kv = key_value(s, "--shape");
            std::vector<int> dims = flowhls::parse_shape(kv.second, "--shape " + kv.first);  // outermost first
            o.shapes[kv.first] = std::vector<int64_t>(dims.begin(), dims.end());
        }
        o.input_files = a.input_files;
        o.expected_files = a.expected_files;
        o.test_data_dir = a.test_data;
        o.atol = a.atol;
        o.rtol = a.rtol;
        o.fold_batchnorm = !a.no_fold_bn;
        o.specialize_shape_inputs = a.specialize;
        o.kernel_name = a.kernel_name;
        flowhls::HalideProgram p = flowhls::import_onnx(a.model, o);
        *label = "model " + a.model;
        *default_dir = "flowhls-out/" + p.name;
        return p;
    }
    if (!a.example.empty() && !a.generator.empty()) throw flowhls::Error("give either --example or --generator, not both");
    if (!a.generator.empty()) {
        if (!a.schedule.empty() || !a.size.empty()) {
            throw flowhls::Error("--schedule and --size apply to examples; a generator takes --shape and --param");
        }
        flowhls::GeneratorRequest r;
        r.plugins = a.plugins;
        r.generator = a.generator;
        r.kernel_name = a.kernel_name;
        for (const std::string &p : a.params) r.params.insert(key_value(p, "--param"));
        for (const std::string &s : a.shapes) {
            auto kv = key_value(s, "--shape");
            r.shapes[kv.first] = flowhls::parse_shape(kv.second, "--shape " + kv.first);
        }
        *label = "generator " + a.generator;
        *default_dir = "flowhls-out/" + a.generator;
        return flowhls::load_generator(r);
    }
    if (a.example.empty()) {
        throw flowhls::Error("nothing to compile: give --example NAME (see 'flowhls examples') or --generator NAME");
    }
    if (!a.shapes.empty() || !a.params.empty() || !a.plugins.empty()) {
        throw flowhls::Error("--shape, --param and --plugin apply to --generator, not to examples");
    }
    flowhls::HalideProgram program = flowhls::build_example(a.example, a.schedule, a.size);
    std::string schedule = a.schedule;
    for (const flowhls::ExampleInfo &e : flowhls::list_examples()) {
        if (schedule.empty() && e.name == a.example) schedule = e.schedules.front();
    }
    if (!a.kernel_name.empty()) program.name = a.kernel_name;
    *label = "example " + a.example + " (schedule " + schedule + ")";
    *default_dir = "flowhls-out/" + a.example + "_" + schedule;
    return program;
}

int run_compile(const CompileArgs &a) {
    std::string label, default_dir;
    flowhls::HalideProgram program = program_to_compile(a, &label, &default_dir);
    if (!a.directives.empty()) {
        flowhls::HlsSchedule file = flowhls::read_directives_json(a.directives);
        for (const flowhls::Directive &d : file.directives()) program.directives.add(d);
    }
    flowhls::CompileOptions o;
    o.target = flowhls::parse_hls_target(a.target);
    o.output_dir = a.output.empty() ? default_dir : a.output;
    for (char &c : o.output_dir) {
        if (c == ':') c = '_';
    }
    o.seed = a.seed;
    o.weights = flowhls::parse_weight_placement(a.weights);
    o.device = a.device;
    o.clock_mhz = a.clock_mhz;
    o.dump_graph = a.dump_graph;
    o.dump_after = a.dump_after;
    o.disabled_passes = a.disabled;
    o.time_passes = a.time_passes;
    bool terminal = isatty(STDERR_FILENO);
    o.log_stream = (a.verbose || a.time_passes || terminal) ? &std::cerr : nullptr;
    flowhls::CompileResult r = flowhls::compile(program, o);

    std::cout << "flowhls: " << label << " compiled for " << a.target << "\n";
    std::cout << "  kernel:   " << r.kernel_name << ", " << r.filters.size() << " filter(s):";
    for (const std::string &f : r.filters) std::cout << " " << f;
    std::cout << "\n  dataflow: " << (r.dataflow ? "yes" : "no (" + r.dataflow_reason + ")") << "\n";
    std::cout << "  project:  " << r.output_dir << "\n";
    if (a.report) std::cout << "\n" << r.qor_report;
    if (!a.csim) return 0;
    flowhls::CsimOptions co;
    co.sanitize = a.sanitize;
    co.echo = a.verbose;
    return report_csim(flowhls::run_csim(r.output_dir, co), a.verbose);
}

int run_csim_command(const CsimArgs &a) {
    flowhls::CsimOptions o;
    o.sanitize = a.sanitize;
    o.atol = a.atol;
    o.rtol = a.rtol;
    o.inputs = a.inputs;
    o.expected = a.expected;
    o.echo = a.verbose;
    return report_csim(flowhls::run_csim(a.dir, o), a.verbose);
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"flowhls: compiles Halide pipelines into dataflow HLS designs and verifies them in C simulation"};
    app.set_version_flag("--version", std::string("flowhls ") + FLOWHLS_VERSION);
    app.require_subcommand(1);

    app.add_subcommand("examples", "list the bundled examples: name, schedules, description");
    app.add_subcommand("passes", "list the optimization passes in pipeline order");
    std::vector<std::string> gen_plugins;
    CLI::App *generators = app.add_subcommand("generators", "list the registered Halide Generators");
    generators->add_option("--plugin", gen_plugins, "shared library with Halide Generators to load (repeatable)")
        ->allow_extra_args(false);

    CompileArgs ca;
    CLI::App *compile = app.add_subcommand("compile", "compile a pipeline into an HLS project directory");
    compile->add_option("model", ca.model, "ONNX model file (.onnx) to compile");
    compile->add_option("-e,--example", ca.example, "bundled example to compile (see 'flowhls examples')");
    compile->add_option("--size", ca.size, "problem size of an example with several (PolyBench: medium, small, mini)");
    compile->add_option("-g,--generator", ca.generator, "registered Halide Generator to compile");
    compile->add_option("--plugin", ca.plugins, "shared library with Halide Generators to load (repeatable)")
        ->allow_extra_args(false);
    compile->add_option("--shape", ca.shapes,
                        "NAME=1x3x32x32: static shape of a model input or generator input/output, outermost first")
        ->allow_extra_args(false);
    compile->add_option("--param", ca.params, "KEY=VALUE: a GeneratorParam value")
        ->allow_extra_args(false);
    compile->add_option("--inputs", ca.input_files, "model test inputs (.pb or .npy, in graph order)")
        ->allow_extra_args(false);
    compile->add_option("--expected", ca.expected_files, "expected model outputs (.pb or .npy, in graph order)")
        ->allow_extra_args(false);
    compile->add_option("--test-data", ca.test_data,
                        "directory with input_N.pb / output_N.pb (default: test_data_set_0 beside the model)");
    compile->add_option("--weights", ca.weights,
                        "where model weights live: auto (ROM while they fit half the BRAM), rom, axi")
        ->capture_default_str();
    compile->add_option("--atol", ca.atol, "testbench absolute tolerance for models")->capture_default_str();
    compile->add_option("--rtol", ca.rtol, "testbench relative tolerance for models")->capture_default_str();
    compile->add_flag("--specialize-shape-inputs", ca.specialize,
                      "model inputs used as shapes, axes or pads take their test value as a constant");
    compile->add_flag("--no-fold-batchnorm", ca.no_fold_bn, "keep BatchNormalization nodes instead of folding them into Conv");
    compile->add_option("--name", ca.kernel_name, "kernel (top function) name");
    compile->add_option("--directives", ca.directives,
                        "JSON file of HLS directives (pipeline, unroll, partition, stream, interface...; "
                        "see docs/directives.md)");
    compile->add_option("-s,--schedule", ca.schedule, "schedule of the example (default: its first; random:SEED)");
    compile->add_option("-o,--output", ca.output, "output directory (default: flowhls-out/EXAMPLE_SCHEDULE)");
    compile->add_option("-t,--target", ca.target, "HLS target: vitis (C++ for Vitis HLS) or bambu (C99 for PandA-Bambu)")->capture_default_str();
    compile->add_option("--seed", ca.seed, "seed of the random test inputs")->capture_default_str();
    compile->add_option("--device", ca.device, "FPGA part for the scripts and the QoR estimate (see 'flowhls devices')")
        ->capture_default_str();
    compile->add_option("--clock", ca.clock_mhz, "clock frequency in MHz")->capture_default_str();
    compile->add_flag("--report", ca.report, "print the QoR estimate (always written to report.txt and report.json)");
    compile->add_flag("--dump-graph", ca.dump_graph, "print the filter graph after extraction and at the end");
    compile->add_option("--dump-after", ca.dump_after, "print the graph after this pass ('all': every pass)")
        ->allow_extra_args(false);
    compile->add_option("--disable-pass", ca.disabled, "do not run this pass")
        ->allow_extra_args(false);
    compile->add_flag("--time-passes", ca.time_passes, "print the wall time of each pass");
    compile->add_flag("--csim", ca.csim, "run the C simulation after compiling");
    compile->add_flag("--sanitize", ca.sanitize, "with --csim: simulate under AddressSanitizer and UBSan");
    compile->add_flag("-v,--verbose", ca.verbose, "print progress and the simulation output");

    app.add_subcommand("devices", "list the FPGA parts of the device library");
    app.add_subcommand("onnx-ops", "list the ONNX op types flowhls converts");
    flowhls::BenchOptions bo;
    std::string bench_target = "vitis";
    CLI::App *bench = app.add_subcommand(
        "bench", "compile every bundled example; print compile time and QoR beside published figures");
    bench->add_option("--reference", bo.reference_dir,
                      "read the published figures from this directory instead of the copy built into flowhls");
    bool calibration = false;
    std::vector<std::string> calib_designs;
    std::string calib_markdown;
    bench->add_flag("--calibration", calibration,
                    "estimate the reproduced designs of the Vitis HLS 2023.2 corpus beside what Vitis reported");
    bench->add_option("--design", calib_designs, "with --calibration: only designs whose name contains this (repeatable)")
        ->allow_extra_args(false);
    bench->add_option("--markdown", calib_markdown,
                      "with --calibration: also write the table into this Markdown file (between its calibration markers)");
    bench->add_option("--device", bo.device, "FPGA part")->capture_default_str();
    bench->add_option("--clock", bo.clock_mhz, "clock frequency in MHz")->capture_default_str();
    bench->add_option("-t,--target", bench_target, "HLS target: vitis or bambu")->capture_default_str();
    flowhls::ConformanceOptions conf;
    std::string conf_target = "vitis";
    CLI::App *conformance = app.add_subcommand(
        "conformance", "compile and simulate the ONNX backend test cases (Debian libonnx-testdata)");
    conformance->add_option("--root", conf.root, "directory of the test suites")->capture_default_str();
    conformance->add_option("--suite", conf.suites, "suite to run (repeatable; default: node, pytorch-converted, "
                                                    "pytorch-operator, simple)")
        ->allow_extra_args(false);
    conformance->add_option("--filter", conf.filters, "only cases whose name contains this (repeatable)")
        ->allow_extra_args(false);
    conformance->add_option("-j,--jobs", conf.jobs, "cases run at a time")->capture_default_str();
    conformance->add_option("--timeout", conf.timeout_seconds, "seconds per case")->capture_default_str();
    conformance->add_option("-t,--target", conf_target, "HLS target: vitis or bambu")->capture_default_str();
    conformance->add_flag("--sanitize", conf.sanitize, "simulate under AddressSanitizer and UBSan");
    conformance->add_option("--markdown", conf.markdown, "write the results as Markdown (docs/conformance.md)");
    std::string report_dir;
    CLI::App *report = app.add_subcommand("report", "print the report of a generated project (filters, dataflow, QoR)");
    report->add_option("dir", report_dir, "project directory written by 'flowhls compile'")->required();

    CsimArgs sa;
    CLI::App *csim = app.add_subcommand("csim", "build and run the C simulation of a generated project");
    csim->add_option("dir", sa.dir, "project directory written by 'flowhls compile'")->required();
    csim->add_flag("--sanitize", sa.sanitize, "build with AddressSanitizer and UndefinedBehaviorSanitizer");
    csim->add_option("--atol", sa.atol,
                     "absolute tolerance (default: the project's; 0 for Halide programs, 1e-5 for models)");
    csim->add_option("--rtol", sa.rtol,
                     "relative tolerance (default: the project's; 0 for Halide programs, 1e-4 for models)");
    csim->add_option("--inputs", sa.inputs, "test inputs (.pb or .npy) replacing data/, in program order")
        ->allow_extra_args(false);
    csim->add_option("--expected", sa.expected, "expected outputs (.pb or .npy) replacing data/, in program order")
        ->allow_extra_args(false);
    csim->add_flag("-v,--verbose", sa.verbose, "print the build and simulation output");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return 2;
    }

    try {
        if (app.got_subcommand("examples")) return print_examples();
        if (app.got_subcommand("passes")) return print_passes();
        if (app.got_subcommand("devices")) {
            for (const std::string &d : flowhls::device_list()) std::cout << d << "\n";
            return 0;
        }
        if (app.got_subcommand("onnx-ops")) {
            for (const std::string &op : flowhls::supported_onnx_ops()) std::cout << op << "\n";
            return 0;
        }
        if (report->parsed()) return print_report(report_dir);
        if (conformance->parsed()) {
            conf.target = flowhls::parse_hls_target(conf_target);
            conf.flowhls_binary = fs_self_path(argv[0]);
            std::vector<flowhls::ConformanceCase> cases = flowhls::run_conformance(conf, std::cout);
            for (const flowhls::ConformanceCase &c : cases) {
                if (c.result == flowhls::ConformanceCase::Result::Fail) return 1;
            }
            return 0;
        }
        if (bench->parsed()) {
            bo.target = flowhls::parse_hls_target(bench_target);
            if (calibration) {
                flowhls::CalibrationOptions co;
                co.reference_dir = bo.reference_dir;
                co.designs = calib_designs;
                co.progress = isatty(STDERR_FILENO) ? &std::cerr : nullptr;
                std::vector<flowhls::DesignCalibration> results = flowhls::calibrate(co);
                flowhls::print_calibration(results, std::cout);
                if (!calib_markdown.empty()) flowhls::update_markdown(calib_markdown, flowhls::calibration_markdown(results));
                return 0;
            }
            if (!calib_designs.empty() || !calib_markdown.empty()) {
                throw flowhls::Error("--design and --markdown apply to bench --calibration");
            }
            flowhls::run_bench(bo, std::cout);
            return 0;
        }
        if (generators->parsed()) {
            for (const std::string &g : flowhls::list_generators(gen_plugins)) std::cout << g << "\n";
            return 0;
        }
        if (compile->parsed()) return run_compile(ca);
        if (csim->parsed()) return run_csim_command(sa);
    } catch (const flowhls::Error &e) {
        std::cerr << "flowhls: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception &e) {
        std::cerr << "flowhls: internal error: " << e.what() << "\n";
        return 3;
    }
    return 2;
}
