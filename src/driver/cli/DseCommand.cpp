// The dse subcommand: explore a program's design space, print the Pareto frontier, write pareto.csv.
#include "driver/cli/DseCommand.h"
#include "driver/CalibrationRanges.h"
#include "driver/CompileGraph.h"
#include "analysis/ScheduleMemo.h"
#include "driver/LoweringMemo.h"
#include "driver/cli/Command.h"
#include "dse/Budget.h"
#include "dse/FrontierPlot.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"
#include "flowhls/Precision.h"
#include "support/OutputDir.h"
#include "transforms/BalanceStreams.h"
#include "transforms/PlaceWeights.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace flowhls::cli {

namespace {

// "\r[#####.....] 12/40 points" on stderr.
void draw_progress(int done, int total) {
    const int width = 30;
    int filled = total > 0 ? std::min(width, done * width / total) : width;
    std::cerr << "\rdse: [" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/"
              << total << " points" << std::flush;
}

// Contract: the point of `result` that is smallest against `budget` (the least largest share
// of a resource), among the points that compiled; -1 when none did.
int smallest_point(const dse::SearchResult &result, const Resources &budget) {
    int best = -1;
    double best_share = 0.0;
    auto share = [](int64_t used, int64_t cap) {
        return cap > 0 ? static_cast<double>(used) / static_cast<double>(cap) : (used > 0 ? 1e30 : 0.0);
    };
    for (size_t i = 0; i < result.points.size(); i++) {
        const dse::EvaluatedPoint &p = result.points[i];
        if (!p.ok) continue;
        double s = std::max({share(p.total.dsp, budget.dsp), share(p.total.bram18k, budget.bram18k),
                             share(p.total.uram, budget.uram), share(p.total.lut, budget.lut),
                             share(p.total.ff, budget.ff)});
        if (best < 0 || s < best_share) {
            best = static_cast<int>(i);
            best_share = s;
        }
    }
    return best;
}

// Throws the error of an exploration in which no point compiled or none fits.
void check_outcome(const DseOutcome &o) {
    if (o.result.chosen >= 0) return;
    int smallest = smallest_point(o.result, o.budget);
    if (smallest < 0) {
        const std::string &why = o.result.points.empty() ? "no point evaluated" : o.result.points[0].error;
        throw Error("design-space exploration: no point compiles (" + why + ")");
    }
    std::string needs;
    for (const std::string &s : dse::over_budget(o.result.points[smallest].total, o.budget)) {
        needs += (needs.empty() ? "" : ", ") + s;
    }
    throw Error("budget too small: the smallest design explored (point " + std::to_string(smallest) + ", " +
                dse::point_text(o.space, o.result.points[smallest].choices) + ") needs " + needs + " (budget " +
                dse::budget_text(o.budget) + " on " + o.device.part + "); nothing was written");
}

struct DseArgs {
    std::string model, example, schedule, size, directives, output = "flowhls-dse";
    std::vector<std::string> precision, calibration;
    bool verbose = false;
    CompileOptions options;
    DseSettings settings;
};

int run_dse(DseArgs &a) {
    if (a.model.empty() == a.example.empty()) throw Error("give a model file or --example NAME (one of them)");
    if (!a.model.empty() && (!a.schedule.empty() || !a.size.empty())) {
        throw Error("--schedule and --size apply to examples, not to models");
    }
    HalideProgram program = a.model.empty() ? build_example(a.example, a.schedule, a.size)
                                            : import_onnx(a.model, OnnxImportOptions());
    HlsSchedule base;
    if (!a.directives.empty()) base = read_directives_json(a.directives);
    program.directives.append(base);
    for (const std::string &p : a.precision) add_precision_argument(p, a.options.precision);
    // auto formats: the ranges measured once, before the search; every point uses the same formats.
    measure_auto_precision(a.model, a.calibration, program, a.options, a.verbose ? &std::cerr : nullptr);
    OutputDir out(a.output);  // an unwritable destination fails before the exploration
    DseOutcome o = explore_program(program, a.options, a.settings);
    std::cout << frontier_table(o);
    out.write("pareto.csv", dse::pareto_csv(o.space, o.result));
    std::string plot = dse::frontier_svg(o.result, o.budget);
    if (!plot.empty()) out.write("frontier.svg", plot);
    for (size_t i = 0; i < o.result.points.size(); i++) {
        if (!o.result.points[i].ok) continue;
        char name[64];
        std::snprintf(name, sizeof name, "points/%03zu.schedule.json", i);
        out.write(name,
                  point_schedule_json(o, static_cast<int>(i), base));
    }
    out.commit();
    const dse::EvaluatedPoint &c = o.result.points[o.result.chosen];
    std::cout << "dse: " << o.result.points.size() << " points evaluated in " << format_number(o.seconds, "%.1f")
              << " s; best point that fits: " << o.result.chosen << " (interval " << c.interval << " cycles, DSP "
              << c.total.dsp << "); files in " << out.final_path() << "\n";
    return 0;
}

}  // namespace

DseOutcome explore_program(const HalideProgram &program, const CompileOptions &options, const DseSettings &settings) {
    auto start = std::chrono::steady_clock::now();
    DseOutcome o;
    o.device = load_device(options.device, options.clock_mhz);
    o.budget = settings.budget.empty() ? dse::default_budget(o.device) : dse::parse_budget(settings.budget, o.device);
    CompileOptions quiet = options;
    quiet.dump_graph = false;
    quiet.dump_after.clear();
    quiet.time_passes = false;
    quiet.log_stream = nullptr;
    quiet.estimate_threads = settings.threads;
    // The points are estimated, never refused (estimate_program); the budget's URAM is what
    // bind-uram fills.
    quiet.budget = settings.budget;
    // The points share most of their stream structure: balance-streams simulates each once.
    BalanceMemo balance_memo;
    quiet.balance_memo = &balance_memo;
    // A point usually changes one or a few filters: the others' schedules are computed once.
    ScheduleMemo schedule_memo;
    quiet.schedule_memo = &schedule_memo;
    // Points with the same loop transformations (most differ only in directives) lower once.
    LoweringMemo lowering_memo;
    {
        // The weights place-weights puts in external memory: the space copies a jam's block of them.
        FilterGraph graph = lowering_memo.extract(program, options.target);
        place_weights(graph, weight_options(options.weights, o.device, options.target, options.axi_width_bits));
        o.space = dse::build_space(program, graph);
    }
    dse::SearchOptions so;
    so.seed = settings.seed;
    so.max_points = settings.max_points;
    so.budget = o.budget;
    if (isatty(STDERR_FILENO)) so.progress = [&](int done) { draw_progress(done, settings.max_points); };
    dse::Evaluator evaluate = [&](const HlsSchedule &schedule) {
        HalideProgram p = program;
        p.directives.append(schedule);
        return estimate_program(p, quiet, &lowering_memo);
    };
    if (settings.threads > 1 && settings.prefetch) {
        // The search's guess at its next point is lowered while the current one is evaluated
        // (LoweringMemo::prefetch): the same graphs, sooner.
        so.prefetch = [&](const HlsSchedule &schedule) {
            HalideProgram p = program;
            p.directives.append(schedule);
            lowering_memo.prefetch(p, options.target);
        };
    }
    o.result = dse::explore(o.space, evaluate, so);
    lowering_memo.wait();
    if (so.progress) std::cerr << "\n";
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check_outcome(o);
    return o;
}

std::string frontier_table(const DseOutcome &o) {
    std::string t = "Pareto frontier (estimates; " + o.device.part + " at " + format_number(o.device.clock_mhz, "%g") +
                    " MHz; budget " + dse::budget_text(o.budget) + "; * = chosen)\n";
    t += " point      interval   samples/s     DSP  BRAM18K       LUT  fits  knobs\n";
    std::vector<size_t> rows;
    for (size_t i = 0; i < o.result.points.size(); i++) {
        if (o.result.points[i].pareto) rows.push_back(i);
    }
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
        return o.result.points[a].interval < o.result.points[b].interval;
    });
    for (size_t i : rows) {
        const dse::EvaluatedPoint &p = o.result.points[i];
        std::string mark = static_cast<int>(i) == o.result.chosen ? "*" : " ";
        t += pad_text(mark + std::to_string(i), 6) + pad_text(std::to_string(p.interval), 14) +
             pad_text(format_number(p.throughput, "%.4g"), 12) + pad_text(std::to_string(p.total.dsp), 8) +
             pad_text(std::to_string(p.total.bram18k), 9) + pad_text(std::to_string(p.total.lut), 10) +
             pad_text(p.fits ? "yes" : "no", 6) + "  " + dse::point_text(o.space, p.choices) + "\n";
    }
    return t;
}

std::string point_schedule_json(const DseOutcome &o, int point, const HlsSchedule &base) {
    HlsSchedule s = base;
    s.append(dse::point_schedule(o.space, o.result.points.at(point).choices));
    return write_schedule_json(s);
}

void describe_choice(const DseOutcome &o, const std::string &seed_text, CompileOptions &options) {
    const dse::EvaluatedPoint &c = o.result.points.at(o.result.chosen), &naive = o.result.points.at(0);
    int frontier = 0;
    for (const dse::EvaluatedPoint &p : o.result.points) frontier += p.pareto ? 1 : 0;
    std::string knobs = dse::point_text(o.space, c.choices);
    options.dse_report_text =
        "\nDesign-space exploration (compile --dse; estimates):\n  budget   " + dse::budget_text(o.budget) +
        "\n  points   " + std::to_string(o.result.points.size()) + " evaluated (" + seed_text + "), " +
        std::to_string(frontier) + " on the Pareto frontier\n  chosen   point " + std::to_string(o.result.chosen) +
        ": " + knobs + "\n  interval " + std::to_string(c.interval) + " cycles (naive " + std::to_string(naive.interval) +
        "), DSP " + std::to_string(c.total.dsp) + " (naive " + std::to_string(naive.total.dsp) + ")\n" +
        "  schedule.json holds the chosen point: compile with --directives schedule.json for the same design\n";
    options.dse_readme_text =
        "\n## Design-space exploration\n\nThis design is the point `flowhls compile --dse` chose (" + knobs +
        "). Its loop transformations and HLS directives are in `schedule.json`; compiling the same program with "
        "`--directives schedule.json` (without `--dse`) gives this design again, and the file can be edited. "
        "report.txt's last section summarizes the exploration.\n";
    nlohmann::json j;
    j["budget"] = {{"dsp", o.budget.dsp}, {"bram18k", o.budget.bram18k}, {"uram", o.budget.uram},
                   {"lut", o.budget.lut}, {"ff", o.budget.ff}};
    j["points"] = o.result.points.size();
    j["frontier"] = frontier;
    j["chosen_point"] = o.result.chosen;
    j["chosen"] = knobs;
    j["interval"] = c.interval;
    j["dsp"] = c.total.dsp;
    j["naive_interval"] = naive.interval;
    j["naive_dsp"] = naive.total.dsp;
    j["schedule"] = "schedule.json";
    options.dse_report_json = j.dump();
}

Command dse_command(CLI::App &app) {
    auto a = std::make_shared<DseArgs>();
    CLI::App *c = app.add_subcommand("dse", "explore a program's design space: the Pareto frontier of interval vs "
                                            "DSP, BRAM18K and LUT (estimates), pareto.csv and one schedule per point");
    c->add_option("model", a->model, "ONNX model file (.onnx)");
    c->add_option("-e,--example", a->example, "bundled example (see 'flowhls examples')");
    c->add_option("-s,--schedule", a->schedule, "schedule of the example (default: its first)")->check(non_empty());
    c->add_option("--size", a->size, "problem size of an example with several (PolyBench: medium, small, mini)")
        ->check(non_empty());
    c->add_option("--directives", a->directives, "JSON schedule the exploration starts from (docs/directives.md)");
    a->options.device = "xc7z020";
    c->add_option("--device", a->options.device, "FPGA part (see 'flowhls devices')")->capture_default_str();
    c->add_option("--clock", a->options.clock_mhz, "clock frequency in MHz")
        ->check(number_in(1.0, 10000.0))
        ->capture_default_str();
    c->add_option("--axi-width", a->options.axi_width_bits,
                  "bits of the m_axi ports of weights in external memory (Vitis widens them; 8..1024, a power of two)")
        ->check(axi_width())
        ->capture_default_str();
    c->add_option("--budget", a->settings.budget,
                  "what a design may use: dsp=N,bram=N,uram=N,lut=N,ff=N, counts or percentages of the part; "
                  "default 80% of each")
        ->type_name("BUDGET");
    c->add_option("--seed", a->settings.seed, "seed of the search")
        ->check(whole_number_in(0, UINT64_MAX))
        ->capture_default_str();
    c->add_option("--max-points", a->settings.max_points, "most points evaluated")
        ->check(whole_number_in(1, 100000))
        ->capture_default_str();
    c->add_option("--threads", a->settings.threads,
                  "threads: a point's filters estimated at once, and with 2 or more the search's guess at its next "
                  "point lowered ahead (the results do not depend on it)")
        ->check(whole_number_in(1, 64))
        ->capture_default_str();
    c->add_option("--precision", a->precision,
                  "float data in fixed point, as compile's --precision: every point is estimated with it "
                  "(fixed<W,I>, auto or auto<W> (formats from ranges measured once, before the search), or "
                  "KEY=fixed<W,I> / KEY=auto<W> / KEY=float for an ONNX node name or op type; repeatable)");
    c->add_option("--calibration", a->calibration,
                  "--precision auto: calibration inputs, as compile's (.npy/.pb or a directory; repeatable; default: "
                  "the model's test input)");
    c->add_flag("-v,--verbose", a->verbose, "echo the float64 reference's run (--precision auto)");
    c->add_option("-o,--output", a->output, "directory for pareto.csv and points/NNN.schedule.json")
        ->check(non_empty())
        ->capture_default_str();
    return {c, [a] { return run_dse(*a); }};
}

}  // namespace flowhls::cli
