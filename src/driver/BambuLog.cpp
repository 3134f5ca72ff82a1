// parse_bambu_run: the figures of a finished PandA-Bambu run, read from its log and Verilog.
#include "flowhls/Synth.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace flowhls {

namespace {

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t\r");
    size_t e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The text after `key` on `line` (trimmed), or "" when the line does not hold `key`.
std::string after(const std::string &line, const std::string &key) {
    size_t at = line.find(key);
    return at == std::string::npos ? "" : trim(line.substr(at + key.size()));
}

int64_t integer(const std::string &text) {
    try {
        return std::stoll(text);
    } catch (const std::exception &) {
        return -1;
    }
}

// 18 Kb block RAMs holding `words` words of `bits` bits (7-series/UltraScale aspect ratios:
// 16K x 1 ... 512 x 36, wider words use several blocks side by side).
int64_t bram18k_blocks(int64_t words, int64_t bits) {
    struct Shape {
        int64_t width, depth;
    };
    static const Shape shapes[] = {{1, 16384}, {2, 8192}, {4, 4096}, {9, 2048}, {18, 1024}, {36, 512}};
    int64_t columns = (bits + 35) / 36, depth = 512;
    for (const Shape &s : shapes) {
        if (bits <= s.width) {
            columns = 1;
            depth = s.depth;
            break;
        }
    }
    return columns * ((words + depth - 1) / depth);
}

// Block RAMs of the BRAM arrays instantiated in the Verilog (instances with numeric sizes;
// the library modules' own parameterized instances are skipped).
int64_t verilog_bram18k(const std::string &verilog) {
    static const std::regex instance(R"(\bARRAY_1D_STD_BRAM\w*\s*#\()");
    static const std::regex elements(R"(\.n_elements\((\d+)\))");
    static const std::regex width(R"(\.data_size\((\d+)\))");
    int64_t total = 0;
    for (auto it = std::sregex_iterator(verilog.begin(), verilog.end(), instance); it != std::sregex_iterator(); ++it) {
        size_t start = static_cast<size_t>(it->position() + it->length());
        size_t end = verilog.find(';', start);
        std::string params = verilog.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::smatch n, w;
        if (std::regex_search(params, n, elements) && std::regex_search(params, w, width)) {
            total += bram18k_blocks(integer(n[1]), integer(w[1]));
        }
    }
    return total;
}

}  // namespace

SynthMeasurement parse_bambu_run(const std::string &log, const std::string &testbench_log, const std::string &verilog,
                                 const std::string &top) {
    SynthMeasurement m;
    std::istringstream in(log);
    std::string line, function, section;
    int64_t dsp_total = 0;
    bool any_dsp = false;
    while (std::getline(in, line)) {
        std::string v;
        if (!(v = after(line, "Version: PandA")).empty() && m.bambu_version.empty()) m.bambu_version = "PandA " + v;
        if (!(v = after(line, "Scheduling Information of function")).empty()) {
            function = v.substr(0, v.find(':'));
            section = "scheduling";
        }
        if (!(v = after(line, "Module binding information for function")).empty()) {
            function = v.substr(0, v.find(':'));
            section = "binding";
        }
        if (!(v = after(line, "Estimated max frequency (MHz):")).empty() && section == "scheduling") {
            double f = std::stod(v);
            if (m.fmax_mhz == 0.0 || f < m.fmax_mhz) m.fmax_mhz = f;
        }
        // The area without multiplexers, then the total; Bambu prints "inf" for the multiplexers of
        // some designs (LeNet-5 with m_axi weights), the total is then a lower bound.
        if (section == "binding" && function == top) {
            if (!(v = after(line, "Estimated resources area (no Muxes and address logic):")).empty()) {
                m.lut = integer(v);
                m.lut_lower_bound = true;
            } else if (!(v = after(line, "Total estimated area:")).empty() && integer(v) >= 0) {
                m.lut = integer(v);
                m.lut_lower_bound = false;
            }
        }
        if (section == "binding" && !(v = after(line, "Estimated number of DSPs:")).empty()) {
            dsp_total += std::max<int64_t>(0, integer(v));
            any_dsp = true;
        }
        if (!(v = after(line, "Total number of flip-flops in function " + top + ":")).empty()) m.ff = integer(v);
        if (!(v = after(line, "Internally allocated memory:")).empty()) m.memory_bytes = integer(v);
        if (!(v = after(line, "Total cycles")).empty()) m.cycles = integer(after(v, ":"));
        if (line.find("error ->") != std::string::npos) m.error = trim(line);
        if (line.find(": error:") != std::string::npos && m.error.empty()) m.error = trim(line);
    }
    if (any_dsp) m.dsp = dsp_total;
    if (!verilog.empty()) m.bram18k = verilog_bram18k(verilog);
    std::istringstream tb(testbench_log);
    while (std::getline(tb, line)) {
        if (line.find("mismatch with respect to") != std::string::npos) {
            m.bambu_mismatches.push_back(trim(line));
            continue;
        }
        if (line.rfind("  output ", 0) == 0 || line.rfind("    first mismatch", 0) == 0) m.testbench_lines.push_back(line);
        if (line.rfind("PASS", 0) == 0 || line.rfind("FAIL", 0) == 0) {
            m.testbench_lines.push_back(line);
            m.testbench_verdict = line;
        }
    }
    return m;
}

}  // namespace flowhls
