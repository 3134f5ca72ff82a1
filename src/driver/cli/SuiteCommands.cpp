// The subcommands that run suites: bench (every example's QoR beside published figures, or the
// parallelization ablation of one program) and conformance (the ONNX backend test cases).
#include "driver/Ablation.h"
#include "driver/BambuBench.h"
#include "driver/Bench.h"
#include "driver/Calibration.h"
#include "driver/Conformance.h"
#include "driver/cli/Command.h"
#include "flowhls/Compiler.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"

#include <iostream>
#include <memory>

#include <unistd.h>

namespace flowhls::cli {

namespace {

struct BenchArgs {
    BenchOptions options;
    std::string target = "vitis";
    bool calibration = false;
    std::vector<std::string> designs;
    std::string markdown;
    bool bambu = false;
    std::string ablation, example, size;
    bool json = false;
};

// bench --ablation: the ablation table of one model or example.
int run_ablation_command(const BenchArgs &a) {
    if (a.ablation.empty() == a.example.empty()) throw Error("--ablation needs a model file or --example NAME (one of them)");
    if (!a.size.empty() && a.example.empty()) throw Error("--size applies to --example");
    HalideProgram program =
        a.example.empty() ? import_onnx(a.ablation, OnnxImportOptions()) : build_example(a.example, "", a.size);
    Device device = load_device(a.options.device, a.options.clock_mhz);
    dse::BuiltModel model = dse::build_model(program, parse_hls_target(a.target), device);
    AblationOptions o;
    o.clock_mhz = a.options.clock_mhz;
    AblationTable t = run_ablation(a.example.empty() ? a.ablation : a.example, model, o);
    std::cout << (a.json ? ablation_json(t) : ablation_text(t));
    return 0;
}

}  // namespace

Command bench_command(CLI::App &app) {
    auto a = std::make_shared<BenchArgs>();
    CLI::App *sub =
        app.add_subcommand("bench", "compile every bundled example; print compile time and QoR beside published figures");
    sub->add_option("--reference", a->options.reference_dir,
                    "read the published figures from this directory instead of the copy built into flowhls");
    sub->add_flag("--calibration", a->calibration,
                  "estimate the reproduced designs of the Vitis HLS 2023.2 corpus beside what Vitis reported");
    sub->add_option("--design", a->designs, "with --calibration: only designs whose name contains this (repeatable)")
        ->allow_extra_args(false);
    sub->add_option("--markdown", a->markdown,
                    "with --calibration: also write the table into this Markdown file (between its calibration markers)")
        ->check(non_empty());
    sub->add_option("--device", a->options.device, "FPGA part")->capture_default_str();
    sub->add_option("--clock", a->options.clock_mhz, "clock frequency in MHz")
        ->check(number_in(1.0, 10000.0))
        ->capture_default_str();
    sub->add_option("-t,--target", a->target, "HLS target: vitis or bambu")->capture_default_str();
    sub->add_flag("--bambu", a->bambu,
                  "instead: the Bambu model's cycle estimate beside the cycles PandA-Bambu measured "
                  "(bambu_measured.csv) for each design, with the error");
    CLI::Option *ablation =
        sub->add_option("--ablation", a->ablation,
                        "instead: HIDA's parallelization ablation (naive, intensity-aware, connectedness-aware, both) "
                        "of this ONNX model (or of --example) at parallel factors 2..256: closed-form model "
                        "ESTIMATES of interval, DSP and memory banks")
            ->expected(0, 1);
    sub->add_option("--example", a->example, "with --ablation: a bundled example instead of a model")
        ->check(non_empty());
    sub->add_option("--size", a->size, "with --ablation --example: the example's problem size");
    sub->add_flag("--json", a->json, "with --ablation: print the table as JSON");
    return {sub, [a, ablation] {
                if (ablation->count() > 0) return run_ablation_command(*a);
                if (!a->example.empty() || !a->size.empty() || a->json) {
                    throw Error("--example, --size and --json apply to bench --ablation");
                }
                if (a->bambu) {
                    BambuBenchOptions o;
                    o.reference_dir = a->options.reference_dir;
                    o.flowhls_binary = self_path();
                    run_bambu_bench(o, std::cout);
                    return 0;
                }
                a->options.target = parse_hls_target(a->target);
                if (a->calibration) {
                    CalibrationOptions co;
                    co.reference_dir = a->options.reference_dir;
                    co.designs = a->designs;
                    co.progress = isatty(STDERR_FILENO) ? &std::cerr : nullptr;
                    std::vector<DesignCalibration> results = calibrate(co);
                    print_calibration(results, std::cout);
                    if (!a->markdown.empty()) update_markdown(a->markdown, calibration_markdown(results));
                    return 0;
                }
                if (!a->designs.empty() || !a->markdown.empty()) {
                    throw Error("--design and --markdown apply to bench --calibration");
                }
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
    sub->add_option("-j,--jobs", o.jobs, "cases run at a time")->check(whole_number_in(1, 256))->capture_default_str();
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
