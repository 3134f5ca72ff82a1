// The synth subcommand: PandA-Bambu synthesis and Verilator RTL co-simulation of a project.
#include "driver/cli/Command.h"
#include "flowhls/Synth.h"

#include <iostream>
#include <memory>
#include <unistd.h>

namespace flowhls::cli {

int run_synth_and_print(const std::string &dir, const std::string &bambu, bool verbose) {
    SynthOptions o;
    o.bambu = bambu;
    o.echo = verbose ? &std::cout : nullptr;
    o.progress = !verbose && isatty(STDERR_FILENO) ? &std::cerr : nullptr;
    SynthResult r = run_synth(dir, o);
    if (!r.passed && !verbose) std::cout << r.log;
    std::cout << r.report << "synth: " << r.verdict << "\n";
    return r.passed ? 0 : 1;
}

namespace {

struct SynthArgs {
    std::string dir, bambu;
    bool verbose = false;
};

}  // namespace

Command synth_command(CLI::App &app) {
    auto a = std::make_shared<SynthArgs>();
    CLI::App *sub = app.add_subcommand(
        "synth", "PandA-Bambu synthesis and RTL co-simulation (Verilator) of a --target bambu project: the cycles, "
                 "area and clock they measure, added to its report");
    sub->add_option("dir", a->dir, "project directory written by 'flowhls compile --target bambu'")->required();
    sub->add_option("--bambu", a->bambu, "the bambu executable or its install directory (default: bambu on PATH)");
    sub->add_flag("-v,--verbose", a->verbose, "print Bambu's whole output");
    return {sub, [a] { return run_synth_and_print(a->dir, a->bambu, a->verbose); }};
}

}  // namespace flowhls::cli
