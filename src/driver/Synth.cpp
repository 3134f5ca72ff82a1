// run_synth: PandA-Bambu synthesis and Verilator co-simulation of a project (its run_bambu.sh).
#include "flowhls/Synth.h"
#include "emit/bambu/BambuReport.h"
#include "flowhls/Error.h"
#include "support/OutputDir.h"
#include "support/Process.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

const char *const kHowToGetBambu =
    "PandA-Bambu was not found: give --bambu PATH (the bambu executable or its install directory) or put bambu on "
    "PATH. To get it: scripts/install-bambu.sh builds it from source on Debian 12 (about an hour), or download "
    "the upstream AppImage (https://release.bambuhls.eu/bambu-latest.AppImage, chmod +x, use it as bambu); "
    "RTL co-simulation also needs: apt-get install verilator clang-16 llvm-16 gcc-multilib g++-multilib libc6-dev-i386 "
    "libbdd0c2. See docs/bambu.md";

bool executable_file(const fs::path &p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// `name` on PATH ("" when absent).
std::string on_path(const std::string &name) {
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        fs::path p = fs::path(dir.empty() ? "." : dir) / name;
        if (executable_file(p)) return fs::absolute(p).string();
    }
    return "";
}

std::string read_file(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

// Replaces `path` by `contents` through a temporary file and a rename.
void write_file(const fs::path &path, const std::string &contents) {
    fs::path tmp = path;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << contents;
        if (!out) throw Error("cannot write '" + tmp.string() + "'");
    }
    fs::rename(tmp, path);
}

// The value of `--option=` on the command line in run_bambu.sh ("" if absent).
std::string script_option(const std::string &script, const std::string &option) {
    size_t at = script.find(option + "=");
    if (at == std::string::npos) return "";
    at += option.size() + 1;
    size_t end = script.find_first_of(" \\\n", at);
    return script.substr(at, end - at);
}

// A stream that copies Bambu's output to `echo` and turns it into one status line per stage
// on `progress` (a terminal), refreshed every second with the elapsed time.
class ProgressBuf : public std::streambuf {
public:
    ProgressBuf(std::ostream *echo, std::ostream *progress, std::string top)
        : echo_(echo), progress_(progress), top_(std::move(top)), start_(std::chrono::steady_clock::now()) {
        if (progress_) {
            stage("PandA-Bambu: front end (clang)");
            ticker_ = std::thread([this] { tick(); });
        }
    }
    ~ProgressBuf() override {
        if (ticker_.joinable()) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                done_ = true;
            }
            wake_.notify_all();
            ticker_.join();
            *progress_ << "\n" << std::flush;
        }
    }

protected:
    int overflow(int c) override {
        if (c != EOF) {
            char ch = static_cast<char>(c);
            xsputn(&ch, 1);
        }
        return c;
    }
    std::streamsize xsputn(const char *s, std::streamsize n) override {
        if (echo_) echo_->write(s, n);
        for (std::streamsize i = 0; i < n; i++) {
            if (s[i] != '\n') {
                line_ += s[i];
                continue;
            }
            if (progress_) line_done();
            line_.clear();
        }
        return n;
    }

private:
    void line_done() {
        auto has = [&](const char *key) { return line_.find(key) != std::string::npos; };
        auto function_after = [&](const char *key) {
            std::string f = line_.substr(line_.find(key) + std::strlen(key));
            return f.substr(0, f.find(':'));
        };
        if (has("Analyzing function")) stage("PandA-Bambu: analyzing the C code");
        else if (has("Scheduling Information of function ")) stage("PandA-Bambu: scheduling" + function_after("function"));
        else if (has("Module binding information for function ")) stage("PandA-Bambu: binding" + function_after("function"));
        else if (has(("Total number of flip-flops in function " + top_ + ":").c_str())) {
            stage("writing Verilog, building the Verilator model, RTL co-simulation");
        } else if (has("Total cycles")) stage("RTL co-simulation finished");
    }
    void stage(const std::string &name) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (name == stage_) return;
        if (!stage_.empty()) render(true);
        stage_ = name;
        render(false);
    }
    void render(bool final) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        *progress_ << "\r\033[K[synth " << std::setw(4) << static_cast<int>(s) << " s] " << stage_ << (final ? "\n" : "")
                   << std::flush;
    }
    void tick() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) render(false);
    }

    std::ostream *echo_, *progress_;
    std::string top_, line_, stage_;
    std::chrono::steady_clock::time_point start_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread ticker_;
};

// flowhls's estimate from report.json (the Bambu model when the report has it).
SynthEstimate read_estimate(const fs::path &report_json) {
    SynthEstimate e;
    try {
        nlohmann::json j = nlohmann::json::parse(read_file(report_json));
        if (j.contains("bambu_estimate")) {
            e.latency_cycles = j["bambu_estimate"].at("latency_cycles").get<int64_t>();
            e.model = "Bambu model";
        } else {
            e.latency_cycles = j.at("design").at("latency_cycles").get<int64_t>();
            e.model = "Vitis model";
        }
    } catch (const std::exception &) {
        e.latency_cycles = -1;
    }
    return e;
}

// Adds (or replaces) the measured section in report.txt, report.json and report.html.
void update_reports(const fs::path &dir, SynthResult &r) {
    SynthEstimate e = read_estimate(dir / "report.json");
    r.report = synth_report_text(r, e);
    std::string text = read_file(dir / "report.txt");
    size_t old = text.find(std::string("\n") + kSynthSectionTitle);
    if (old != std::string::npos) text.resize(old + 1);
    write_file(dir / "report.txt", text + "\n" + r.report);
    try {
        nlohmann::json j = nlohmann::json::parse(read_file(dir / "report.json"));
        j["measured"] = synth_report_json(r, e);
        write_file(dir / "report.json", j.dump(2) + "\n");
    } catch (const nlohmann::json::exception &) {
        throw Error("'" + (dir / "report.json").string() + "' is not valid JSON; recompile the project");
    }
    std::string html = read_file(dir / "report.html");
    size_t begin = html.find("<section id=\"measured\">");
    if (begin != std::string::npos) html.erase(begin, html.find("</section>\n", begin) + 11 - begin);
    size_t body = html.rfind("</body>");
    if (body != std::string::npos) write_file(dir / "report.html", html.insert(body, synth_report_html(r, e)));
}

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

std::string verdict(const SynthResult &r, int status, bool timed_out) {
    const SynthMeasurement &m = r.measured;
    std::string why = m.error.empty() ? "" : ": " + m.error;
    if (timed_out) return "FAIL: the run exceeded its time limit";
    if (!r.synthesized) return "FAIL: PandA-Bambu stopped before writing the Verilog" + why;
    if (!m.bambu_mismatches.empty()) {
        return "FAIL: RTL outputs differ from the C function's (" + std::to_string(m.bambu_mismatches.size()) +
               " mismatch(es) found by Bambu's check)";
    }
    if (m.testbench_verdict.rfind("FAIL", 0) == 0) return "FAIL: RTL co-simulation: " + m.testbench_verdict.substr(6);
    if (!r.simulated) return "FAIL: the RTL co-simulation did not finish" + why;
    if (status != 0) return "FAIL: PandA-Bambu exited with status " + std::to_string(status) + why;
    if (m.testbench_verdict.empty()) return "FAIL: the testbench printed no verdict in the RTL co-simulation";
    return "PASS: RTL co-simulation in Verilator, " + m.testbench_verdict.substr(6) + " (" + std::to_string(m.cycles) +
           " cycles)";
}

}  // namespace

std::string find_bambu(const std::string &given) {
    if (given.empty()) {
        std::string found = on_path("bambu");
        if (found.empty()) throw Error(kHowToGetBambu);
        return found;
    }
    std::error_code ec;
    fs::path p(given);
    if (fs::is_directory(p, ec)) {
        for (const char *candidate : {"bin/bambu", "bambu"}) {
            if (executable_file(p / candidate)) return fs::absolute(p / candidate).string();
        }
        throw Error("--bambu '" + given + "': the directory holds no bin/bambu. " + kHowToGetBambu);
    }
    if (!executable_file(p)) throw Error("--bambu '" + given + "' is not an executable file. " + kHowToGetBambu);
    return fs::absolute(p).string();
}

SynthResult run_synth(const std::string &dir, const SynthOptions &options) {
    std::error_code ec;
    fs::path project(dir);
    if (!fs::is_directory(project, ec) || !fs::exists(project / kProjectMarker, ec)) {
        throw Error("'" + dir + "' is not a flowhls project (no " + kProjectMarker + ")");
    }
    if (!fs::exists(project / "run_bambu.sh", ec)) {
        throw Error("'" + dir + "' is not a PandA-Bambu project (no run_bambu.sh): compile it with --target bambu");
    }
    std::string bambu = find_bambu(options.bambu);
    if (on_path("verilator").empty()) {
        throw Error("verilator is not on PATH: PandA-Bambu's RTL co-simulation needs it (apt-get install verilator)");
    }
    std::string script = read_file(project / "run_bambu.sh");
    std::string top = script_option(script, "--top-fname");

    SynthResult r;
    r.measured.verilator_version = first_line(run_process({"verilator", "--version"}, dir, nullptr).output);
    std::vector<std::string> argv = {"env", "BAMBU=" + bambu, "./run_bambu.sh"};
    argv.insert(argv.end(), options.extra_args.begin(), options.extra_args.end());
    auto start = std::chrono::steady_clock::now();
    ProcessResult run;
    {
        ProgressBuf buf(options.echo, options.progress, top);
        std::ostream out(&buf);
        run = run_process(argv, dir, &out, options.timeout_seconds);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.log = run.output;
    fs::path work = project / "bambu";
    fs::create_directories(work, ec);
    write_file(work / "bambu.log", run.output);

    std::string verilator_version = r.measured.verilator_version;
    r.measured = parse_bambu_run(run.output, read_file(work / "HLS_output" / "simulation" / "testbench.log"),
                                 read_file(work / (top + ".v")), top);
    r.measured.verilator_version = verilator_version;
    r.measured.device = script_option(script, "--device-name");
    try {
        r.measured.clock_period_ns = std::stod(script_option(script, "--clock-period"));
    } catch (const std::exception &) {
        r.measured.clock_period_ns = 0.0;
    }
    if (run.status == 127 && r.measured.bambu_version.empty()) r.measured.error = first_line(run.output);
    r.synthesized = fs::exists(work / (top + ".v"), ec);
    r.simulated = r.measured.cycles >= 0;
    r.verdict = verdict(r, run.status, run.timed_out);
    r.passed = r.verdict.rfind("PASS", 0) == 0;
    update_reports(project, r);
    return r;
}

}  // namespace flowhls
