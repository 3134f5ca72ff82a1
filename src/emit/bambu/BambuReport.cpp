// synth_report_*: what PandA-Bambu measured, beside flowhls's estimate, for the report files.
#include "emit/bambu/BambuReport.h"
#include "emit/HtmlReport.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace flowhls {

const char *const kSynthSectionTitle = "PandA-Bambu synthesis and RTL co-simulation";

namespace {

std::string figure(int64_t v) { return v < 0 ? "n/a" : std::to_string(v); }

std::string mhz(double v) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << v;
    return os.str();
}

double clock_mhz(const SynthMeasurement &m) { return m.clock_period_ns > 0 ? 1000.0 / m.clock_period_ns : 0.0; }

// "+12.3% vs measured" for an estimate beside a measurement.
std::string error_text(int64_t estimate, int64_t measured) {
    if (estimate < 0 || measured <= 0) return "";
    std::ostringstream os;
    os << std::showpos << std::fixed << std::setprecision(1)
       << 100.0 * (static_cast<double>(estimate) - static_cast<double>(measured)) / static_cast<double>(measured) << "%";
    return os.str();
}

}  // namespace

std::string bambu_model_text(const BambuEstimate &e) {
    std::ostringstream os;
    os << "Cycle estimate for PandA-Bambu (Bambu model: no loop pipelining, filters one after the other, one "
          "soft-float unit of each kind; calibrated on PandA-Bambu 2024.10, docs/bambu.md)\n\n";
    for (const BambuEstimate::Filter &f : e.filters) {
        std::string name = f.name;
        name.resize(std::max<size_t>(name.size(), 30), ' ');
        os << "  " << name << " " << f.cycles << "\n";
    }
    os << "  total                          " << e.cycles << " cycles\n";
    return os.str();
}

nlohmann::json bambu_model_json(const BambuEstimate &e) {
    nlohmann::json j;
    j["latency_cycles"] = e.cycles;
    j["model"] = "Bambu model";
    for (const BambuEstimate::Filter &f : e.filters) j["filters"].push_back({{"name", f.name}, {"cycles", f.cycles}});
    return j;
}

std::string synth_tool_label(const SynthMeasurement &m) {
    std::string bambu = m.bambu_version.rfind("PandA ", 0) == 0 ? m.bambu_version.substr(6) : m.bambu_version;
    return "PandA-Bambu " + (bambu.empty() ? std::string("(version unknown)") : bambu) + " + " +
           (m.verilator_version.empty() ? std::string("Verilator (version unknown)") : m.verilator_version);
}

std::string synth_report_text(const SynthResult &r, const SynthEstimate &e) {
    const SynthMeasurement &m = r.measured;
    std::ostringstream os;
    os << kSynthSectionTitle << " (measured by " << synth_tool_label(m) << ")\n\n"
       << "  device " << m.device << " at " << mhz(clock_mhz(m)) << " MHz (clock period " << m.clock_period_ns << " ns)\n"
       << "  verdict: " << r.verdict << "\n";
    if (!m.testbench_lines.empty()) {
        os << "  testbench on the RTL outputs:\n";
        for (const std::string &l : m.testbench_lines) os << "    " << (l.rfind("  ", 0) == 0 ? l.substr(2) : l) << "\n";
    }
    for (const std::string &l : m.bambu_mismatches) os << "  Bambu's check: " << l << "\n";
    os << "  cycles (RTL simulation)      " << figure(m.cycles);
    if (e.latency_cycles >= 0) {
        os << "   (flowhls estimate, " << e.model << ": " << e.latency_cycles;
        std::string err = error_text(e.latency_cycles, m.cycles);
        os << (err.empty() ? "" : ", " + err) << ")";
    }
    os << "\n"
       << "  achievable clock (estimate)  " << (m.fmax_mhz > 0 ? mhz(m.fmax_mhz) + " MHz" : "n/a") << "\n"
       << "  area (Bambu's estimates)     LUT " << (m.lut_lower_bound ? ">=" : "") << figure(m.lut) << "  FF " << figure(m.ff) << "  DSP " << figure(m.dsp)
       << "  BRAM18K " << figure(m.bram18k) << "\n"
       << "  run time                     " << std::fixed << std::setprecision(0) << r.seconds << " s\n"
       << "  (LUT and FF: the top function after binding; DSP: summed over the synthesized functions; BRAM18K:\n"
       << "   the block-RAM arrays of the Verilog; clock: the slowest schedule. Bambu's log: bambu/bambu.log)\n";
    if (m.lut_lower_bound) os << "  (LUT: Bambu's multiplexer area is 'inf'; the figure counts the other modules)\n";
    return os.str();
}

nlohmann::json synth_report_json(const SynthResult &r, const SynthEstimate &e) {
    const SynthMeasurement &m = r.measured;
    nlohmann::json j;
    j["tool"] = synth_tool_label(m);
    j["bambu_version"] = m.bambu_version;
    j["verilator_version"] = m.verilator_version;
    j["device"] = m.device;
    j["clock_period_ns"] = m.clock_period_ns;
    j["passed"] = r.passed;
    j["verdict"] = r.verdict;
    j["testbench"] = m.testbench_lines;
    j["cycles"] = m.cycles;
    j["fmax_mhz"] = m.fmax_mhz;
    j["resources"] = {{"LUT", m.lut}, {"FF", m.ff}, {"DSP", m.dsp}, {"BRAM18K", m.bram18k}};
    j["lut_lower_bound"] = m.lut_lower_bound;
    j["memory_bytes"] = m.memory_bytes;
    j["seconds"] = r.seconds;
    j["estimate"] = {{"latency_cycles", e.latency_cycles}, {"model", e.model}};
    return j;
}

std::string synth_report_html(const SynthResult &r, const SynthEstimate &e) {
    const SynthMeasurement &m = r.measured;
    std::ostringstream os;
    os << "<section id=\"measured\">\n<h2>Measured by " << html_escape(synth_tool_label(m)) << "</h2>\n"
       << "<p>" << html_escape(m.device) << " at " << mhz(clock_mhz(m)) << " MHz. <b"
       << (r.passed ? "" : " class=\"bad\"") << ">" << html_escape(r.verdict) << "</b></p>\n";
    if (!m.testbench_lines.empty()) {
        os << "<pre>";
        for (const std::string &l : m.testbench_lines) os << html_escape(l) << "\n";
        os << "</pre>\n";
    }
    os << "<table><tr><th>cycles (RTL)</th><th>flowhls estimate (" << html_escape(e.model)
       << ")</th><th>clock (MHz, est.)</th><th>LUT</th><th>FF</th><th>DSP</th><th>BRAM18K</th><th>run time (s)</th></tr>\n"
       << "<tr><td>" << figure(m.cycles) << "</td><td>" << figure(e.latency_cycles) << " "
       << error_text(e.latency_cycles, m.cycles) << "</td><td>" << (m.fmax_mhz > 0 ? mhz(m.fmax_mhz) : "n/a") << "</td><td>"
       << (m.lut_lower_bound ? "&ge;" : "") << figure(m.lut) << "</td><td>" << figure(m.ff) << "</td><td>" << figure(m.dsp) << "</td><td>" << figure(m.bram18k)
       << "</td><td>" << std::fixed << std::setprecision(0) << r.seconds << "</td></tr>\n</table>\n</section>\n";
    return os.str();
}

}  // namespace flowhls
