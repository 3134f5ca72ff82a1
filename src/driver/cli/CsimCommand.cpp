// The subcommands that read a generated project: csim (rebuild and rerun the simulation)
// and report.
#include "driver/cli/Command.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "support/OutputDir.h"
#include "support/Paths.h"

#include <filesystem>
#include <iostream>
#include <memory>

namespace flowhls::cli {

int print_csim_verdict(const CsimResult &r, bool verbose) {
    if (!r.passed && !verbose && !r.traced) std::cout << r.log;
    if (r.traced) std::cout << r.trace.text;
    std::cout << "csim: " << r.verdict << "\n";
    return r.passed ? 0 : 1;
}

namespace {

struct CsimArgs {
    std::string dir;
    bool verbose = false;
    CsimOptions options;
};

}  // namespace

Command csim_command(CLI::App &app) {
    auto a = std::make_shared<CsimArgs>();
    CLI::App *sub = app.add_subcommand("csim", "build and run the C simulation of a generated project");
    sub->add_option("dir", a->dir, "project directory written by 'flowhls compile'")->required();
    sub->add_flag("--sanitize", a->options.sanitize, "build with AddressSanitizer and UndefinedBehaviorSanitizer");
    sub->add_option("--atol", a->options.atol,
                    "absolute tolerance (default: the project's; 0 for Halide programs, 1e-5 for models)")
        ->check(non_negative_number());
    sub->add_option("--rtol", a->options.rtol,
                    "relative tolerance (default: the project's; 0 for Halide programs, 1e-4 for models)")
        ->check(non_negative_number());
    sub->add_option("--inputs", a->options.inputs, "test inputs (.pb or .npy) replacing data/, in program order")
        ->allow_extra_args(false);
    sub->add_option("--expected", a->options.expected,
                    "expected outputs (.pb or .npy) replacing data/, in program order")
        ->allow_extra_args(false);
    sub->add_option("--trace", a->options.trace_reference,
                    "compare every filter's output with the float64 reference of the ONNX model MODEL.onnx "
                    "(evaluated on the simulation's inputs; needs python3 with numpy and onnx) or with the "
                    "intermediates in REF_DIR (models/trace_reference.py) and name the first node that diverges")
        ->type_name("MODEL.onnx|REF_DIR");
    sub->add_flag("-v,--verbose", a->verbose, "print the build and simulation output");
    return {sub, [a] {
                a->options.echo = a->verbose;
                return print_csim_verdict(run_csim(a->dir, a->options), a->verbose);
            }};
}

Command report_command(CLI::App &app) {
    auto dir = std::make_shared<std::string>();
    CLI::App *sub = app.add_subcommand("report", "print the report of a generated project (filters, dataflow, QoR)");
    sub->add_option("dir", *dir, "project directory written by 'flowhls compile'")->required();
    return {sub, [dir] {
                require_directory(*dir, "project directory");
                std::string report = *dir + "/report.txt";
                std::error_code ec;
                if (!std::filesystem::is_regular_file(report, ec) ||
                    !std::filesystem::is_regular_file(*dir + "/" + kProjectMarker, ec)) {
                    throw Error("'" + *dir + "' is not a flowhls project with a report (no report.txt)");
                }
                std::cout << read_file_bytes(report, "report", 1 << 26);
                return 0;
            }};
}

}  // namespace flowhls::cli
