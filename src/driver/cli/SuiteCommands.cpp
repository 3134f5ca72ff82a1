// The subcommands that run suites: bench (every example's QoR beside published figures) and
// conformance (the ONNX backend test cases).
#include "driver/BambuBench.h"
#include "driver/Bench.h"
#include "driver/Conformance.h"
#include "driver/cli/Command.h"
#include "flowhls/Compiler.h"

#include <iostream>
#include <memory>

namespace flowhls::cli {

Command bench_command(CLI::App &app) {
    struct Args {
        BenchOptions options;
        std::string target = "vitis";
        bool bambu = false;
    };
    auto a = std::make_shared<Args>();
    CLI::App *sub =
        app.add_subcommand("bench", "compile every bundled example; print compile time and QoR beside published figures");
    sub->add_option("--reference", a->options.reference_dir, "directory of the published figures")->capture_default_str();
    sub->add_option("--device", a->options.device, "FPGA part")->capture_default_str();
    sub->add_option("--clock", a->options.clock_mhz, "clock frequency in MHz")
        ->check(number_in(1.0, 10000.0))
        ->capture_default_str();
    sub->add_option("-t,--target", a->target, "HLS target: vitis or bambu")->capture_default_str();
    sub->add_flag("--bambu", a->bambu,
                  "instead: the Bambu model's cycle estimate beside the cycles PandA-Bambu measured "
                  "(bambu_measured.csv) for each design, with the error");
    return {sub, [a] {
                if (a->bambu) {
                    BambuBenchOptions o;
                    o.reference_dir = a->options.reference_dir;
                    o.flowhls_binary = self_path();
                    run_bambu_bench(o, std::cout);
                    return 0;
                }
                a->options.target = parse_hls_target(a->target);
                run_bench(a->options, std::cout);
                return 0;
            }};
}

Command conformance_command(CLI::App &app) {
    struct Args {
        ConformanceOptions options;
        std::string target = "vitis";
    };
    auto a = std::make_shared<Args>();
    ConformanceOptions &o = a->options;
    CLI::App *sub =
        app.add_subcommand("conformance", "compile and simulate the ONNX backend test cases (Debian libonnx-testdata)");
    sub->add_option("--root", o.root, "directory of the test suites")->capture_default_str();
    sub->add_option("--suite", o.suites,
                    "suite to run (repeatable; default: node, pytorch-converted, pytorch-operator, simple)")
        ->allow_extra_args(false);
    sub->add_option("--filter", o.filters, "only cases whose name contains this (repeatable)")->allow_extra_args(false);
    sub->add_option("-j,--jobs", o.jobs, "cases run at a time")->check(CLI::Range(1, 256))->capture_default_str();
    sub->add_option("--timeout", o.timeout_seconds, "seconds per case")
        ->check(number_in(1.0, 86400.0))
        ->capture_default_str();
    sub->add_option("-t,--target", a->target, "HLS target: vitis or bambu")->capture_default_str();
    sub->add_flag("--sanitize", o.sanitize, "simulate under AddressSanitizer and UBSan");
    sub->add_option("--markdown", o.markdown, "write the results as Markdown (docs/conformance.md)");
    return {sub, [a] {
                a->options.target = parse_hls_target(a->target);
                a->options.flowhls_binary = self_path();
                for (const ConformanceCase &c : run_conformance(a->options, std::cout)) {
                    if (c.result == ConformanceCase::Result::Fail) return 1;
                }
                return 0;
            }};
}

}  // namespace flowhls::cli
