// calibrate / print_calibration: flowhls's estimates of the corpus designs beside Vitis HLS's figures.
#include "driver/Calibration.h"
#include "analysis/Device.h"
#include "analysis/QorEstimator.h"
#include "driver/CompileGraph.h"
#include "driver/CorpusDesigns.h"
#include "driver/PublishedFigures.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>

namespace flowhls {

namespace {

const char *kCorpusDir = "vitis_hls_2023_2/";

// A corpus table as maps from header names to cells.
std::vector<std::map<std::string, std::string>> records(const CsvTable &table) {
    std::vector<std::map<std::string, std::string>> out;
    for (size_t r = 1; r < table.size(); r++) {
        std::map<std::string, std::string> rec;
        for (size_t c = 0; c < table[0].size() && c < table[r].size(); c++) rec[table[0][c]] = table[r][c];
        out.push_back(rec);
    }
    return out;
}

int64_t figure(const std::map<std::string, std::string> &rec, const std::string &key) {
    auto it = rec.find(key);
    if (it == rec.end() || it->second.empty()) return -1;
    return std::stoll(it->second);
}

struct FlowLoop {
    std::string name;
    bool pipelined = false;
    int64_t trip = 0, ii = 0, depth = 0, latency = 0;
    bool taken = false;
};

// Pairs each corpus loop with the first unused flowhls loop of the same kind and trip count
// after the previous match (or anywhere, for processes reported in another order).
std::vector<LoopCalibration> match_loops(const std::vector<std::map<std::string, std::string>> &rows,
                                         std::vector<FlowLoop> flow) {
    std::vector<LoopCalibration> out;
    size_t next = 0;
    for (const auto &row : rows) {
        if (row.at("kind") != "loop") continue;
        LoopCalibration l;
        l.vitis_name = row.at("name");
        l.pipelined = row.at("pipelined") == "yes";
        l.trip.vitis = figure(row, "trip");
        l.ii.vitis = l.pipelined ? figure(row, "interval") : -1;
        l.iteration_latency.vitis = figure(row, "iteration_latency");
        l.latency.vitis = figure(row, "latency");
        auto fits = [&](const FlowLoop &f) { return !f.taken && f.pipelined == l.pipelined && f.trip == l.trip.vitis; };
        size_t found = flow.size();
        for (size_t k = next; k < flow.size() && found == flow.size(); k++) {
            if (fits(flow[k])) found = k;
        }
        for (size_t k = 0; k < next && found == flow.size(); k++) {
            if (fits(flow[k])) found = k;
        }
        if (found < flow.size()) {
            FlowLoop &f = flow[found];
            f.taken = true;
            next = found + 1;
            l.flowhls_name = f.name;
            l.trip.flowhls = f.trip;
            l.ii.flowhls = l.pipelined ? f.ii : -1;
            l.iteration_latency.flowhls = f.depth;
            l.latency.flowhls = f.latency;
        }
        out.push_back(l);
    }
    return out;
}

std::string percent(double e) {
    if (std::isinf(e)) return "inf";
    std::ostringstream s;
    s << std::showpos << std::fixed << std::setprecision(std::fabs(e) < 0.1 ? 1 : 0) << e * 100 << "%";
    return s.str();
}

std::string cell(const FigurePair &p) {
    if (!p.known()) return p.vitis >= 0 ? std::to_string(p.vitis) + " / -" : "-";
    return std::to_string(p.vitis) + " / " + std::to_string(p.flowhls) + " " + percent(p.error());
}

struct Metric {
    const char *name;
    FigurePair DesignCalibration::*field;
};

const Metric kMetrics[] = {{"latency", &DesignCalibration::latency}, {"interval", &DesignCalibration::interval},
                           {"DSP", &DesignCalibration::dsp},         {"BRAM18K", &DesignCalibration::bram18k},
                           {"URAM", &DesignCalibration::uram},       {"LUT", &DesignCalibration::lut},
                           {"FF", &DesignCalibration::ff}};

// The targets of issue 13 per metric: a median bound (latency: a hit rate instead).
struct Target {
    const char *metric;
    double median_bound;  // < 0: none
};

double scalehls_error(int64_t predicted, int64_t vitis) {
    if (predicted < 0 || vitis <= 0) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(predicted - vitis) / static_cast<double>(vitis);
}

std::string loop_line(const LoopCalibration &l) {
    std::ostringstream s;
    s << l.vitis_name << " = " << (l.flowhls_name.empty() ? "(no flowhls loop with this trip count)" : l.flowhls_name)
      << ": trip " << l.trip.vitis << "/" << (l.trip.flowhls >= 0 ? std::to_string(l.trip.flowhls) : "-");
    if (l.pipelined) s << ", II " << l.ii.vitis << "/" << (l.ii.flowhls >= 0 ? std::to_string(l.ii.flowhls) : "-");
    s << ", iteration latency " << l.iteration_latency.vitis << "/"
      << (l.iteration_latency.flowhls >= 0 ? std::to_string(l.iteration_latency.flowhls) : "-") << ", latency "
      << cell(l.latency);
    return s.str();
}

// The fitted LUT/FF costs and their in-sample and held-out errors, as text (markdown: tables).
std::string cost_fit_section(const std::vector<DesignCalibration> &designs, bool markdown) {
    std::vector<CostSample> samples = cost_fit_samples(designs);
    std::ostringstream out;
    if (samples.size() < 3) return "";  // nothing to fit on and hold out
    CostFit all = fit_costs(samples);
    const CostSample &first = samples.front();
    auto cost = [](double table, double fit) {
        std::ostringstream c;
        c << table << " / " << std::llround(fit);
        return c.str();
    };
    out << (markdown ? "" : "\n") << "LUT/FF costs fitted on these " << samples.size()
        << " designs (control logic and the adder in logic; non-negative least squares of the relative error). "
           "Device table / fit on all:\n\n";
    if (markdown) out << "| term | LUT | FF |\n|---|---|---|\n";
    for (size_t j = 0; j < first.terms.size(); j++) {
        if (markdown) {
            out << "| " << first.terms[j] << " | " << cost(first.table_cost_lut[j], all.lut[j]) << " | "
                << cost(first.table_cost_ff[j], all.ff[j]) << " |\n";
        } else {
            out << "  " << std::left << std::setw(18) << first.terms[j] << std::right << " LUT " << std::setw(11)
                << cost(first.table_cost_lut[j], all.lut[j]) << "   FF " << std::setw(11)
                << cost(first.table_cost_ff[j], all.ff[j]) << "\n";
        }
    }
    out << "\nCross-validation of those costs, |relative error| median / worst: with the device table's costs, "
           "refitted on all designs, each design predicted by a fit without it (leave one out), and by a fit "
           "without its whole family (suite/framework):\n\n";
    auto pair = [](double median, double worst) { return percent(median).substr(1) + " / " + percent(worst).substr(1); };
    if (markdown) {
        out << "| metric | designs | device table | refit on all | leave one design out | leave one family out |\n"
            << "|---|---|---|---|---|---|\n";
    } else {
        out << "metric  designs  device table   refit on all   leave one out   leave family out\n";
    }
    for (const HeldOutError &h : cross_validate(samples)) {
        std::string worst_family = h.family_worst_name;
        if (markdown) {
            out << "| " << h.metric << " | " << h.designs << " | " << pair(h.table_median, h.table_worst) << " | "
                << pair(h.refit_median, h.refit_worst) << " | " << pair(h.design_median, h.design_worst) << " ("
                << h.design_worst_name << ") | " << pair(h.family_median, h.family_worst) << " (" << worst_family
                << ") |\n";
        } else {
            out << std::left << std::setw(6) << h.metric << std::right << std::setw(9) << h.designs << std::setw(15)
                << pair(h.table_median, h.table_worst) << std::setw(15) << pair(h.refit_median, h.refit_worst)
                << std::setw(16) << pair(h.design_median, h.design_worst) << std::setw(19)
                << pair(h.family_median, h.family_worst) << "\n";
        }
    }
    return out.str();
}

// ScaleHLS/HIDA's own estimate (written at the top of the sources they generated) against
// Vitis, beside flowhls's, on the reproduced designs that have one ("" if none has).
std::string scalehls_comparison(const std::vector<DesignCalibration> &designs, bool markdown) {
    int compared = 0, lat_closer = 0, dsp_closer = 0;
    std::ostringstream lines;
    for (const DesignCalibration &d : designs) {
        if (d.scalehls_latency < 0) continue;
        compared++;
        double sl = scalehls_error(d.scalehls_latency, d.latency.vitis);
        double sd = scalehls_error(d.scalehls_dsp, d.dsp.vitis);
        bool lc = std::fabs(d.latency.error()) <= std::fabs(sl) + 1e-12;
        bool dc = std::fabs(d.dsp.error()) <= std::fabs(sd) + 1e-12;
        lat_closer += lc;
        dsp_closer += dc;
        if (markdown) {
            lines << "| " << d.design << " | " << d.scalehls_latency << " " << percent(sl) << " | "
                  << d.latency.flowhls << " " << percent(d.latency.error()) << (lc ? "" : " (farther)") << " | "
                  << d.scalehls_dsp << " " << percent(sd) << " | " << d.dsp.flowhls << " " << percent(d.dsp.error())
                  << (dc ? "" : " (farther)") << " |\n";
        } else {
            lines << "  " << d.design << ": latency ScaleHLS " << percent(sl) << ", flowhls "
                  << percent(d.latency.error()) << (lc ? "" : " (farther)") << "; DSP ScaleHLS " << percent(sd)
                  << ", flowhls " << percent(d.dsp.error()) << (dc ? "" : " (farther)") << "\n";
        }
    }
    if (compared == 0) return "";
    std::ostringstream out;
    out << "\nScaleHLS/HIDA's own estimate (written in the generated sources) on " << compared
        << " designs: flowhls at least as close in latency on " << lat_closer << ", in DSP on " << dsp_closer
        << (markdown ? ":\n\n| design | ScaleHLS/HIDA latency | flowhls latency | ScaleHLS/HIDA DSP | flowhls DSP |\n"
                       "|---|---|---|---|---|\n"
                     : "\n")
        << lines.str();
    return out.str();
}

}  // namespace

double FigurePair::error() const {
    if (vitis == 0) return flowhls == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return static_cast<double>(flowhls - vitis) / static_cast<double>(vitis);
}

std::vector<DesignCalibration> calibrate(const CalibrationOptions &options) {
    auto designs = records(published_table(std::string(kCorpusDir) + "designs.csv", options.reference_dir));
    auto loops = records(published_table(std::string(kCorpusDir) + "loops.csv", options.reference_dir));
    std::map<std::string, std::map<std::string, std::string>> design_of;
    for (const auto &d : designs) design_of[d.at("design")] = d;

    std::vector<const CorpusReproduction *> selected;
    for (const CorpusReproduction &r : corpus_reproductions()) {
        bool wanted = options.designs.empty();
        for (const std::string &s : options.designs) wanted |= r.design.find(s) != std::string::npos;
        if (wanted) selected.push_back(&r);
    }
    std::vector<DesignCalibration> out;
    for (size_t n = 0; n < selected.size(); n++) {
        const CorpusReproduction &r = *selected[n];
        if (options.progress) {
            *options.progress << "[" << n + 1 << "/" << selected.size() << "] " << r.design << " (" << r.example << " "
                              << r.schedule << ")\n"
                              << std::flush;
        }
        auto it = design_of.find(r.design);
        if (it == design_of.end()) throw Error("corpus design '" + r.design + "' is not in the corpus figures");
        const auto &rec = it->second;
        CompileOptions o;
        o.target = HlsTarget::Vitis;
        o.device = library_part(rec.at("device"));
        o.clock_mhz = std::round(1000.0 / std::stod(rec.at("clock_ns")));
        o.disabled_passes = r.disabled_passes;
        Device device = load_device(o.device, o.clock_mhz);
        std::ostringstream dumps;
        o.dump_stream = &dumps;
        FilterGraph graph = compile_graph(build_example(r.example, r.schedule, r.size), o, device);
        DesignEstimate est = estimate_design(graph, device, QorOptions());

        DesignCalibration d;
        d.design = r.design;
        d.example = r.example;
        d.schedule = r.schedule;
        d.size = r.size;
        d.note = r.note;
        d.in_cost_fit = r.fit_costs;
        d.latency = {figure(rec, "latency"), est.latency};
        d.interval = {figure(rec, "interval"), est.interval};
        d.dsp = {figure(rec, "dsp"), est.total.dsp};
        d.bram18k = {figure(rec, "bram18k"), est.total.bram18k};
        d.lut = {figure(rec, "lut"), est.total.lut};
        d.ff = {figure(rec, "ff"), est.total.ff};
        d.uram = {figure(rec, "uram"), est.total.uram};
        d.cosim = {figure(rec, "cosim_cycles"), est.stalled_latency};
        d.scalehls_latency = figure(rec, "scalehls_latency");
        d.scalehls_dsp = figure(rec, "scalehls_dsp");
        std::vector<FlowLoop> flow;
        for (const FilterEstimate &f : est.filters) {
            for (const LoopEstimate &l : f.loops) flow.push_back({l.name, l.pipelined, l.trip, l.ii, l.depth, l.latency});
        }
        std::vector<std::map<std::string, std::string>> rows;
        for (const auto &l : loops) {
            if (l.at("design") == r.design) rows.push_back(l);
        }
        d.loops = match_loops(rows, flow);
        d.costs = cost_sample(graph, device);
        d.costs.design = r.design;
        d.costs.family = r.design.substr(0, r.design.find('/', r.design.find('/') + 1));
        d.costs.vitis_lut = d.lut.vitis;
        d.costs.vitis_ff = d.ff.vitis;
        out.push_back(d);
    }
    return out;
}

std::vector<CostSample> cost_fit_samples(const std::vector<DesignCalibration> &designs) {
    std::vector<CostSample> samples;
    for (const DesignCalibration &d : designs) {
        if (d.in_cost_fit) samples.push_back(d.costs);
    }
    return samples;
}

std::vector<MetricSummary> summarize(const std::vector<DesignCalibration> &designs) {
    std::vector<MetricSummary> out;
    std::vector<Metric> metrics(std::begin(kMetrics), std::end(kMetrics));
    metrics.push_back({"cosim", &DesignCalibration::cosim});
    for (const Metric &m : metrics) {
        MetricSummary s;
        s.metric = m.name;
        std::vector<double> errors;
        for (const DesignCalibration &d : designs) {
            const FigurePair &p = d.*m.field;
            if (!p.known()) continue;
            double e = std::fabs(p.error());
            errors.push_back(e);
            if (s.worst_design.empty() || e > s.worst) {
                s.worst = e;
                s.worst_design = d.design;
            }
            s.within_10 += e <= 0.10;
            s.within_15 += e <= 0.15;
            s.within_25 += e <= 0.25;
            s.within_35 += e <= 0.35;
            double ratio = p.vitis > 0 ? static_cast<double>(p.flowhls) / static_cast<double>(p.vitis)
                                       : (p.flowhls == 0 ? 1.0 : std::numeric_limits<double>::infinity());
            s.within_1_5x += ratio <= 1.5 && ratio >= 1.0 / 1.5;
        }
        s.designs = static_cast<int>(errors.size());
        if (!errors.empty()) {
            std::sort(errors.begin(), errors.end());
            size_t n = errors.size();
            s.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
        }
        out.push_back(s);
    }
    return out;
}

void print_calibration(const std::vector<DesignCalibration> &designs, std::ostream &out) {
    out << "flowhls bench --calibration: " << designs.size()
        << " reproduced designs of the Vitis HLS 2023.2 corpus (Stream-HLS FPGA'25 artifacts; csynth, xcu280 at "
           "3.33 ns)\n"
        << "cells are Vitis / flowhls (error = (flowhls - Vitis) / Vitis); flowhls's figures are estimates of its own\n"
        << "reproduction of each design, Vitis's are what the tool reported for the corpus source\n\n";
    for (const DesignCalibration &d : designs) {
        out << d.design << (d.note.empty() ? "" : " *") << "  (" << d.example << " " << d.schedule << ", " << d.size
            << ")\n  ";
        for (const Metric &m : kMetrics) out << m.name << " " << cell(d.*m.field) << "   ";
        if (d.cosim.vitis >= 0) out << "cosim / with FIFO stalls " << cell(d.cosim);
        out << "\n";
        if (!d.note.empty()) out << "  * " << d.note << "\n";
        for (const LoopCalibration &l : d.loops) out << "    " << loop_line(l) << "\n";
    }
    if (!corpus_gaps().empty()) {
        out << "\nNot reproduced:\n";
        for (const CorpusGap &g : corpus_gaps()) out << "  " << g.design << ": " << g.reason << "\n";
    }
    std::vector<MetricSummary> summary = summarize(designs);
    out << "\nmetric     designs  median|err|  worst|err|  within 10%  15%  25%  35%  1.5x  worst design\n";
    for (const MetricSummary &s : summary) {
        out << std::left << std::setw(11) << s.metric << std::right << std::setw(7) << s.designs << std::setw(13)
            << percent(s.median).substr(1) << std::setw(12) << (std::isinf(s.worst) ? "inf" : percent(s.worst).substr(1))
            << std::setw(12) << s.within_10 << std::setw(5) << s.within_15 << std::setw(5) << s.within_25
            << std::setw(5) << s.within_35 << std::setw(6) << s.within_1_5x << "  " << s.worst_design << "\n";
    }
    out << cost_fit_section(designs, false);
    out << scalehls_comparison(designs, false);
    const MetricSummary &lat = summary[0];
    auto mark = [](bool ok) { return ok ? "met" : "NOT MET"; };
    out << "\ntargets: latency within 10% on >= 80% of the designs: " << lat.within_10 << "/" << lat.designs << " "
        << mark(lat.designs > 0 && lat.within_10 * 5 >= lat.designs * 4) << "; within 1.5x on all: "
        << lat.within_1_5x << "/" << lat.designs << " " << mark(lat.within_1_5x == lat.designs) << "\n";
    const Target medians[] = {{"DSP", 0.15}, {"BRAM18K", 0.25}, {"LUT", 0.35}, {"FF", 0.35}};
    out << "         ";
    for (const Target &t : medians) {
        for (const MetricSummary &s : summary) {
            if (s.metric == t.metric) {
                out << " " << t.metric << " median " << percent(s.median).substr(1) << " (<= " << t.median_bound * 100
                    << "%) " << mark(s.median <= t.median_bound) << ";";
            }
        }
    }
    out << "\n";
}

std::string calibration_markdown(const std::vector<DesignCalibration> &designs) {
    std::ostringstream md;
    md << "Generated by `flowhls bench --calibration --markdown docs/calibration.md` (" << designs.size()
       << " designs). Cells: Vitis HLS 2023.2 csynth / flowhls estimate (error).\n\n";
    md << "| design | example, schedule |";
    for (const Metric &m : kMetrics) md << " " << m.name << " |";
    md << "\n|---|---|";
    for (size_t i = 0; i < sizeof(kMetrics) / sizeof(kMetrics[0]); i++) md << "---|";
    md << "\n";
    for (const DesignCalibration &d : designs) {
        md << "| " << d.design << (d.note.empty() ? "" : " *") << " | " << d.example << " " << d.schedule << " |";
        for (const Metric &m : kMetrics) md << " " << cell(d.*m.field) << " |";
        md << "\n";
    }
    md << "\nPer loop (Vitis / flowhls):\n\n";
    for (const DesignCalibration &d : designs) {
        md << "- " << d.design << "\n";
        for (const LoopCalibration &l : d.loops) md << "  - " << loop_line(l) << "\n";
    }
    std::vector<MetricSummary> summary = summarize(designs);
    md << "\n| metric | designs | median \\|error\\| | worst \\|error\\| | within 10% | 15% | 25% | 35% | 1.5x |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    for (const MetricSummary &s : summary) {
        md << "| " << s.metric << " | " << s.designs << " | " << percent(s.median).substr(1) << " | "
           << (std::isinf(s.worst) ? "inf" : percent(s.worst).substr(1)) << " (" << s.worst_design << ") | "
           << s.within_10 << " | " << s.within_15 << " | " << s.within_25 << " | " << s.within_35 << " | "
           << s.within_1_5x << " |\n";
    }
    md << "\n" << cost_fit_section(designs, true);
    std::ostringstream notes;
    for (const DesignCalibration &d : designs) {
        if (!d.note.empty()) notes << "- " << d.design << ": " << d.note << "\n";
    }
    md << scalehls_comparison(designs, true);
    if (!notes.str().empty()) md << "\nMarked designs (*):\n\n" << notes.str();
    if (!corpus_gaps().empty()) {
        md << "\nNot reproduced:\n\n";
        for (const CorpusGap &g : corpus_gaps()) md << "- " << g.design << ": " << g.reason << "\n";
    }
    return md.str();
}

void update_markdown(const std::string &path, const std::string &table) {
    const std::string begin = "<!-- calibration:begin -->", end = "<!-- calibration:end -->";
    std::string text;
    {
        std::ifstream in(path);
        std::stringstream s;
        if (in) s << in.rdbuf();
        text = s.str();
    }
    size_t b = text.find(begin), e = text.find(end);
    if (b != std::string::npos && e != std::string::npos && e > b) {
        text = text.substr(0, b + begin.size()) + "\n" + table + text.substr(e);
    } else {
        text = table;
    }
    std::ofstream out(path);
    out << text;
    if (!out) throw Error("cannot write '" + path + "'");
}

}  // namespace flowhls
