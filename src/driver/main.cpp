// The flowhls command-line tool.
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <unistd.h>

namespace {

struct CompileArgs {
    std::string example, schedule, output, target = "vitis", model;
    uint64_t seed = 1;
    bool dump_graph = false, time_passes = false, csim = false, sanitize = false, verbose = false;
    std::vector<std::string> dump_after, disabled;
};

struct CsimArgs {
    std::string dir;
    bool sanitize = false, verbose = false;
    double atol = 0.0, rtol = 0.0;
};

int print_examples() {
    for (const flowhls::ExampleInfo &e : flowhls::list_examples()) {
        std::string schedules;
        for (const std::string &s : e.schedules) schedules += (schedules.empty() ? "" : ",") + s;
        std::cout << e.name << "  schedules: " << schedules << ",random:SEED  " << e.description << "\n";
    }
    return 0;
}

int print_passes() {
    for (const std::string &p : flowhls::pass_names()) std::cout << p << "\n";
    return 0;
}

int report_csim(const flowhls::CsimResult &r, bool verbose) {
    if (!r.passed && !verbose) std::cout << r.log;
    std::cout << "csim: " << r.verdict << "\n";
    return r.passed ? 0 : 1;
}

int run_compile(const CompileArgs &a) {
    if (!a.model.empty()) {
        throw flowhls::Error("'" + a.model + "': compiling model files is not supported yet; use --example NAME");
    }
    if (a.example.empty()) throw flowhls::Error("nothing to compile: give --example NAME (see 'flowhls examples')");
    flowhls::HalideProgram program = flowhls::build_example(a.example, a.schedule);
    std::string schedule = a.schedule;
    for (const flowhls::ExampleInfo &e : flowhls::list_examples()) {
        if (schedule.empty() && e.name == a.example) schedule = e.schedules.front();
    }
    flowhls::CompileOptions o;
    o.target = flowhls::parse_hls_target(a.target);
    o.output_dir = a.output.empty() ? "flowhls-out/" + a.example + "_" + schedule : a.output;
    for (char &c : o.output_dir) {
        if (c == ':') c = '_';
    }
    o.seed = a.seed;
    o.dump_graph = a.dump_graph;
    o.dump_after = a.dump_after;
    o.disabled_passes = a.disabled;
    o.time_passes = a.time_passes;
    bool terminal = isatty(STDERR_FILENO);
    o.log_stream = (a.verbose || a.time_passes || terminal) ? &std::cerr : nullptr;
    flowhls::CompileResult r = flowhls::compile(program, o);

    std::cout << "flowhls: example " << a.example << " (schedule " << schedule << ") compiled for " << a.target << "\n";
    std::cout << "  kernel:   " << r.kernel_name << ", " << r.filters.size() << " filter(s):";
    for (const std::string &f : r.filters) std::cout << " " << f;
    std::cout << "\n  dataflow: " << (r.dataflow ? "yes" : "no (" + r.dataflow_reason + ")") << "\n";
    std::cout << "  project:  " << r.output_dir << "\n";
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

    CompileArgs ca;
    CLI::App *compile = app.add_subcommand("compile", "compile a pipeline into an HLS project directory");
    compile->add_option("model", ca.model, "model file (not supported yet)");
    compile->add_option("-e,--example", ca.example, "bundled example to compile (see 'flowhls examples')");
    compile->add_option("-s,--schedule", ca.schedule, "schedule of the example (default: its first; random:SEED)");
    compile->add_option("-o,--output", ca.output, "output directory (default: flowhls-out/EXAMPLE_SCHEDULE)");
    compile->add_option("-t,--target", ca.target, "HLS target: vitis")->capture_default_str();
    compile->add_option("--seed", ca.seed, "seed of the random test inputs")->capture_default_str();
    compile->add_flag("--dump-graph", ca.dump_graph, "print the filter graph after extraction and at the end");
    compile->add_option("--dump-after", ca.dump_after, "print the graph after this pass ('all': every pass)");
    compile->add_option("--disable-pass", ca.disabled, "do not run this pass");
    compile->add_flag("--time-passes", ca.time_passes, "print the wall time of each pass");
    compile->add_flag("--csim", ca.csim, "run the C simulation after compiling");
    compile->add_flag("--sanitize", ca.sanitize, "with --csim: simulate under AddressSanitizer and UBSan");
    compile->add_flag("-v,--verbose", ca.verbose, "print progress and the simulation output");

    CsimArgs sa;
    CLI::App *csim = app.add_subcommand("csim", "build and run the C simulation of a generated project");
    csim->add_option("dir", sa.dir, "project directory written by 'flowhls compile'")->required();
    csim->add_flag("--sanitize", sa.sanitize, "build with AddressSanitizer and UndefinedBehaviorSanitizer");
    csim->add_option("--atol", sa.atol, "absolute tolerance (default 0: exact)");
    csim->add_option("--rtol", sa.rtol, "relative tolerance (default 0: exact)");
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
