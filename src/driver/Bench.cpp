// run_bench: one table of flowhls's own figures, then the published ones.
#include "driver/Bench.h"
#include "driver/PublishedFigures.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

using Csv = CsvTable;

// Prints the header and the rows of `csv` whose first cell is in `names` (case-insensitive).
void published(std::ostream &out, const std::string &title, const Csv &csv, const std::vector<std::string> &names) {
    auto lower = [](std::string s) {
        for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    out << "\n" << title << "\n";
    if (csv.empty()) return;
    std::vector<const std::vector<std::string> *> rows = {&csv[0]};
    for (size_t i = 1; i < csv.size(); i++) {
        for (const std::string &n : names) {
            if (lower(csv[i][0]) == lower(n)) rows.push_back(&csv[i]);
        }
    }
    std::vector<size_t> width;
    for (const auto *row : rows) {
        for (size_t c = 0; c < row->size(); c++) {
            if (width.size() <= c) width.push_back(0);
            width[c] = std::max(width[c], (*row)[c].size() + 2);
        }
    }
    for (const auto *row : rows) {
        out << "  ";
        for (size_t c = 0; c < row->size(); c++) out << std::left << std::setw(static_cast<int>(width[c])) << (*row)[c];
        out << "\n";
    }
}

bool accepted(HlsTarget t, const std::string &schedule) {
    return t == HlsTarget::Bambu || (schedule != "parallel" && schedule != "vectorized");
}

}  // namespace

void run_bench(const BenchOptions &options, std::ostream &out) {
    Csv unified = published_table("unified_buffer.csv", options.reference_dir);
    Csv hida = published_table("hida_kernels.csv", options.reference_dir);
    Csv scalehls = published_table("scalehls_kernels.csv", options.reference_dir);

    char tmpl[] = "/tmp/flowhls-bench-XXXXXX";
    if (!mkdtemp(tmpl)) throw Error("cannot create a temporary directory for the benchmark");
    std::string tmp = tmpl;

    out << "flowhls bench: bundled examples for " << hls_target_name(options.target) << " on " << options.device
        << " at " << options.clock_mhz << " MHz (flowhls's own compile times and QoR estimates)\n\n";
    out << std::left << std::setw(15) << "example" << std::setw(12) << "schedule" << std::right << std::setw(10)
        << "compile_s" << std::setw(11) << "latency" << std::setw(11) << "interval" << std::setw(12) << "samples/s"
        << std::setw(6) << "DSP" << std::setw(9) << "BRAM18K" << std::setw(8) << "LUT" << std::setw(8) << "FF" << "\n";
    for (const ExampleInfo &e : list_examples()) {
        // The PolyBench kernels at their baseline (the corpus schedules: --calibration).
        bool polybench = e.name.rfind("pb_", 0) == 0;
        for (const std::string &s : e.schedules) {
            if (!accepted(options.target, s) || (polybench && s != e.schedules.front())) continue;
            CompileOptions o;
            o.target = options.target;
            o.device = options.device;
            o.clock_mhz = options.clock_mhz;
            o.output_dir = tmp + "/" + e.name + "_" + s;
            auto start = std::chrono::steady_clock::now();
            CompileResult r = compile(build_example(e.name, s), o);
            double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            out << std::left << std::setw(15) << e.name << std::setw(12) << s << std::right << std::fixed
                << std::setprecision(2) << std::setw(10) << seconds << std::setw(11) << r.latency_cycles
                << std::setw(11) << r.interval_cycles << std::setprecision(1) << std::setw(12) << r.throughput
                << std::setw(6) << r.dsp << std::setw(9) << r.bram18k << std::setw(8) << r.lut << std::setw(8) << r.ff
                << "\n";
        }
    }
    // Storage of the stencil apps: full intermediate arrays versus line buffers (analysis of
    // the root schedules' sliding windows), beside the unified buffer paper's SRAM words.
    out << "\nIntermediate storage of the root schedules (words): full arrays, line buffers + window registers of\n"
           "the sliding-window edges, and what the design uses (FIFOs at their depths, line buffers, arrays left):\n";
    out << std::left << std::setw(15) << "example" << std::right << std::setw(14) << "arrays" << std::setw(14)
        << "line_buffers" << std::setw(8) << "edges" << std::setw(10) << "design" << std::setw(22) << "PUBLISHED sequential" << std::setw(18)
        << "PUBLISHED final" << "\n";
    for (const char *app : {"gaussian", "harris", "unsharp", "upsample"}) {
        CompileOptions o;
        o.target = options.target;
        o.device = options.device;
        o.clock_mhz = options.clock_mhz;
        o.output_dir = tmp + "/" + app + "_storage";
        CompileResult r = compile(build_example(app, "root"), o);
        std::string seq = "-", fin = "-";
        for (const std::vector<std::string> &row : unified) {
            if (!row.empty() && row[0] == app && row.size() > 5) {
                seq = row[4];
                fin = row[5];
            }
        }
        out << std::left << std::setw(15) << app << std::right << std::setw(14) << r.intermediate_words
            << std::setw(14) << r.line_buffer_words << std::setw(8) << r.line_buffer_edges << std::setw(10)
            << r.channel_words << std::setw(22) << seq
            << std::setw(18) << fin << "\n";
    }
    std::error_code ec;
    fs::remove_all(tmp, ec);

    out << "\nPUBLISHED figures of other systems (their papers, machines and problem sizes; not measured here):";
    published(out, "Unified buffer compiler (seed 004, tables VI/VII): cycles and SRAM words per app", unified,
              {"gaussian", "harris", "upsample", "unsharp"});
    published(out, "HIDA vs ScaleHLS/SOFF/Vitis on PolyBench (seed 001): samples/s and resources", hida, {"2mm"});
    published(out, "ScaleHLS DSE on PolyBench, problem size 4096 (seed 003)", scalehls, {"GEMM"});
}

}  // namespace flowhls
