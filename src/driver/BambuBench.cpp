// run_bambu_bench: estimate against measurement for the designs Bambu was run on.
#include "driver/BambuBench.h"
#include "flowhls/Error.h"
#include "support/Process.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

// The cells of one CSV line ("..." cells may hold commas).
std::vector<std::string> csv_cells(const std::string &line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) cells.emplace_back();
        else cells.back() += c;
    }
    return cells;
}

// The words of a command-line fragment (no quoting in the file's arguments).
std::vector<std::string> words(const std::string &text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

}  // namespace

void run_bambu_bench(const BambuBenchOptions &options, std::ostream &out) {
    std::string path = options.reference_dir + "/bambu_measured.csv";
    std::ifstream in(path);
    if (!in) throw Error("cannot read '" + path + "' (give --reference DIR)");
    fs::path root = fs::absolute(fs::path(options.reference_dir)) / ".." / "..";
    char tmpl[] = "/tmp/flowhls-bench-bambu-XXXXXX";
    if (!mkdtemp(tmpl)) throw Error("cannot create a temporary directory");
    fs::path work(tmpl);
    std::string line, tool;
    std::vector<std::string> header;
    double abs_error = 0.0;
    int count = 0;
    while (std::getline(in, line)) {
        if (line.rfind("# Measured by", 0) == 0) tool = line.substr(line.find(": ") + 2);
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells = csv_cells(line);
        if (header.empty()) {
            header = cells;
            out << "Cycles of one call: measured by " << (tool.empty() ? "PandA-Bambu + Verilator" : tool)
                << " (RTL co-simulation; " << path << ")\nbeside flowhls's Bambu-model estimate\n\n"
                << std::left << std::setw(22) << "design" << std::right << std::setw(12) << "measured" << std::setw(12)
                << "estimate" << std::setw(9) << "error" << "\n";
            continue;
        }
        auto cell = [&](const std::string &name) {
            for (size_t i = 0; i < header.size() && i < cells.size(); i++) {
                if (header[i] == name) return cells[i];
            }
            throw Error("'" + path + "' has no column '" + name + "'");
        };
        std::string name = cell("name");
        std::vector<std::string> argv = {options.flowhls_binary, "compile"};
        for (const std::string &w : words(cell("args"))) argv.push_back(w);
        argv.insert(argv.end(), {"--target", "bambu", "-o", (work / name).string()});
        ProcessResult r = run_process(argv, root.string(), nullptr);
        if (r.status != 0) {
            fs::remove_all(work);
            throw Error("bench --bambu: " + name + " did not compile: " + r.output);
        }
        std::ifstream report(work / name / "report.json");
        int64_t estimate = nlohmann::json::parse(report)["bambu_estimate"]["latency_cycles"].get<int64_t>();
        int64_t measured = std::stoll(cell("cycles"));
        double error = 100.0 * static_cast<double>(estimate - measured) / static_cast<double>(measured);
        abs_error += std::fabs(error);
        count++;
        out << std::left << std::setw(22) << name << std::right << std::setw(12) << measured << std::setw(12) << estimate
            << std::setw(8) << std::showpos << std::fixed << std::setprecision(1) << error << std::noshowpos << "%\n";
    }
    fs::remove_all(work);
    if (count) {
        out << "\nmean absolute error " << std::fixed << std::setprecision(1) << abs_error / count << "% over " << count
            << " designs (the estimate is a model: docs/bambu.md)\n";
    }
}

}  // namespace flowhls
