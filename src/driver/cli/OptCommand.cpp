// The opt subcommand: read a graph's text, run named passes on it, print the result.
#include "driver/cli/Command.h"
#include "analysis/Device.h"
#include "analysis/PrintAnalyses.h"
#include "dse/Budget.h"
#include "flowhls/Directives.h"
#include "flowhls/Error.h"
#include "graph/GraphText.h"
#include "graph/Verify.h"
#include "transforms/Pipeline.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace flowhls::cli {

namespace {

struct OptArgs {
    std::string input, output, target = "vitis", directives, weights = "auto", device = "xc7z020", budget;
    int axi_width = 512;
    std::vector<std::string> passes, dump_after, analyses;
    bool no_verify = false, time_passes = false;
};

std::string read_input(const std::string &path) {
    std::ostringstream text;
    if (path == "-") {
        text << std::cin.rdbuf();
        return text.str();
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read graph file '" + path + "'");
    text << in.rdbuf();
    return text.str();
}

// Writes `text` to `path` through a temporary file renamed into place (no partial output).
void write_output(const std::string &path, const std::string &text) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!(out << text) || !out.flush()) {
            std::remove(tmp.c_str());
            throw Error("cannot write '" + path + "'");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw Error("cannot write '" + path + "'");
    }
}

int run_opt(const OptArgs &a) {
    if (a.target != "vitis" && a.target != "bambu") throw Error("unknown target '" + a.target + "' (targets: vitis, bambu)");
    std::string source = a.input == "-" ? "<stdin>" : a.input;
    FilterGraph graph = parse_graph(read_input(a.input), source);
    // An invalid input graph is bad input; an invalid graph after a pass is a bug (exit code 3).
    if (!a.no_verify) {
        std::vector<std::string> problems = verify_graph(graph);
        if (!problems.empty()) {
            std::string message = source + ": invalid filter graph:";
            for (const std::string &p : problems) message += " " + p + ";";
            message.pop_back();
            throw Error(message);
        }
    }
    PipelineOptions o;
    o.fifo_channels = a.target == "vitis";
    o.verify_each = !a.no_verify;
    o.time_passes = a.time_passes;
    o.log = &std::cerr;
    o.dump_after = a.dump_after;
    o.dump = &std::cout;
    if (!a.directives.empty()) {
        HlsSchedule file = read_directives_json(a.directives);
        if (!file.transforms().empty()) {
            throw Error(file.transforms()[0].origin + ": a loop transformation changes the Halide program; `opt` works "
                        "on a filter graph (use it with `flowhls compile --directives`)");
        }
        o.directives.directives = file.directives();
    }
    Device device = load_device(a.device, 100.0);
    o.weights = weight_options(parse_weight_placement(a.weights), device, parse_hls_target(a.target), a.axi_width);
    if (parse_hls_target(a.target) == HlsTarget::Vitis) {
        o.uram.device = &device;
        o.lutram.device = &device;
        o.reshape.device = &device;
        o.uram.uram_blocks = (a.budget.empty() ? dse::default_budget(device) : dse::parse_budget(a.budget, device)).uram;
    }
    run_passes(graph, a.passes, o);
    // Analyses print comment lines before the graph (hls-unroll replaces the bodies).
    std::string text;
    for (const std::string &n : a.analyses) {
        if (n == "memory-ports") text += print_memory_ports(graph);
        else if (n == "hls-unroll") graph = with_hls_unroll(graph);
    }
    text += print_graph(graph);
    if (a.output.empty()) std::cout << text;
    else write_output(a.output, text);
    return 0;
}

}  // namespace

Command opt_command(CLI::App &app) {
    auto a = std::make_shared<OptArgs>();
    CLI::App *c = app.add_subcommand(
        "opt", "run passes on a filter graph read from its text form (graph.txt, --dump-after) and print the result");
    c->add_option("graph", a->input, "graph text file ('-' reads standard input)")->required();
    c->add_option("--pass", a->passes, "passes to run, in order (comma-separated or repeated; see 'flowhls passes')")
        ->delimiter(',');
    c->add_option("--analysis", a->analyses,
                  "analyses to show after the passes: memory-ports (port demand of each pipelined loop's arrays, "
                  "as comments), hls-unroll (bodies with the HLS unrolls materialized)")
        ->delimiter(',')
        ->check(CLI::IsMember(analysis_names()));
    c->add_option("-t,--target", a->target, "vitis (FIFO channels) or bambu (none)")->capture_default_str();
    c->add_option("--directives", a->directives, "JSON file of HLS directives for apply-directives");
    c->add_option("--weights", a->weights, "auto, rom, axi or uram: where place-weights puts constant inputs")
        ->capture_default_str();
    c->add_option("--axi-width", a->axi_width, "bits of the m_axi ports place-weights gives weights (8..1024, a power of two)")
        ->check(axi_width())
        ->capture_default_str();
    c->add_option("--device", a->device, "FPGA part whose block RAM place-weights fills (see 'flowhls devices')")
        ->capture_default_str();
    c->add_option("--budget", a->budget,
                  "budget whose URAM bind-uram fills (as compile's --budget; default: 80% of the part's)");
    c->add_option("--dump-after", a->dump_after, "also print the graph after these passes ('all' for every pass)")
        ->delimiter(',');
    c->add_flag("--no-verify", a->no_verify, "do not verify the graph before and after every pass");
    c->add_flag("--time-passes", a->time_passes, "print the wall time of each pass");
    c->add_option("-o", a->output, "write the result here instead of standard output")->check(non_empty());
    return {c, [a] { return run_opt(*a); }};
}

}  // namespace flowhls::cli
