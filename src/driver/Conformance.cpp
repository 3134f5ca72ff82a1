// run_conformance: the ONNX backend test cases compiled and simulated, one process each.
#include "driver/Conformance.h"
#include "flowhls/Error.h"
#include "support/Process.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

using Result = ConformanceCase::Result;

std::vector<ConformanceCase> find_cases(const ConformanceOptions &o) {
    std::error_code ec;
    if (!fs::is_directory(o.root, ec)) {
        throw Error("ONNX test data directory '" + o.root + "' does not exist (Debian package libonnx-testdata)");
    }
    std::vector<ConformanceCase> cases;
    for (const std::string &suite : o.suites) {
        fs::path dir = fs::path(o.root) / suite;
        if (!fs::is_directory(dir, ec)) throw Error("suite '" + suite + "' not found under " + o.root);
        for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
            std::string name = e.path().filename().string();
            if (!e.is_directory()) continue;
            bool wanted = o.filters.empty();
            for (const std::string &f : o.filters) wanted |= name.find(f) != std::string::npos;
            if (wanted) cases.push_back({suite, name, Result::Fail, ""});
        }
    }
    std::sort(cases.begin(), cases.end(), [](const ConformanceCase &a, const ConformanceCase &b) {
        return std::tie(a.suite, a.name) < std::tie(b.suite, b.name);
    });
    return cases;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
    size_t b = s.find_first_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b);
}

// The reason of an unsupported case: its node lines joined ("Op: reason; ...").
std::string unsupported_reason(const std::string &output) {
    std::istringstream in(output);
    std::string line, reason;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.rfind("node '", 0) != 0 && line.rfind("node '(model)'", 0) != 0) continue;
        size_t open = line.find(" ("), close = line.find("): ");
        std::string op = open != std::string::npos && close != std::string::npos ? line.substr(open + 2, close - open - 2)
                                                                                 : "";
        size_t comma = op.find(',');
        if (comma != std::string::npos) op.resize(comma);
        std::string why = close != std::string::npos ? line.substr(close + 3) : line;
        std::string item = (op.empty() || op == "-" ? "" : op + ": ") + why;
        if (reason.find(item) == std::string::npos) reason += (reason.empty() ? "" : "; ") + item;
    }
    return reason.empty() ? "unsupported" : reason;
}

// The most telling line of a failed case.
std::string failure_reason(const ProcessResult &r) {
    if (r.timed_out) return "timed out";
    std::istringstream in(r.output);
    std::string line, found, first_mismatch;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.rfind("flowhls: error:", 0) == 0 || line.rfind("flowhls: internal error:", 0) == 0) found = line;
        if (line.find("error:") != std::string::npos && found.empty()) found = line;
        if (line.rfind("first mismatch", 0) == 0 && first_mismatch.empty()) first_mismatch = line;
        if (line.rfind("csim: FAIL", 0) == 0 && found.empty()) found = line;
    }
    if (!first_mismatch.empty()) found = first_mismatch;
    if (found.empty()) found = "exit status " + std::to_string(r.status);
    if (found.size() > 200) found = found.substr(0, 200) + "...";
    return found;
}

ConformanceCase run_case(ConformanceCase c, const ConformanceOptions &o, const std::string &work) {
    fs::path dir = fs::path(o.root) / c.suite / c.name;
    std::error_code ec;
    if (!fs::exists(dir / "model.onnx", ec)) {
        c.result = Result::Unsupported;
        c.reason = "no model.onnx in the case";
        return c;
    }
    if (!fs::is_directory(dir / "test_data_set_0", ec)) {
        c.result = Result::Unsupported;
        c.reason = "no test_data_set_0 in the case";
        return c;
    }
    std::string out_dir = work + "/" + c.suite + "_" + c.name;
    std::vector<std::string> argv = {o.flowhls_binary, "compile", (dir / "model.onnx").string(), "-o", out_dir,
                                     "--csim", "-t", hls_target_name(o.target),
                                     "--specialize-shape-inputs", "--verify-each"};
    if (o.sanitize) argv.push_back("--sanitize");
    ProcessResult r = run_process(argv, "", nullptr, o.timeout_seconds);
    if (r.status == 0 && !r.timed_out) {
        c.result = Result::Pass;
    } else if (r.status == 2 && r.output.find("cannot compile:") != std::string::npos) {
        c.result = Result::Unsupported;
        c.reason = unsupported_reason(r.output);
    } else {
        c.result = Result::Fail;
        c.reason = failure_reason(r);
    }
    fs::remove_all(out_dir, ec);
    return c;
}

const char *result_name(Result r) {
    switch (r) {
    case Result::Pass: return "PASS";
    case Result::Fail: return "FAIL";
    case Result::Unsupported: return "UNSUPPORTED";
    }
    return "?";
}

std::string markdown(const std::vector<ConformanceCase> &cases, const ConformanceOptions &o) {
    std::map<std::string, std::array<int, 3>> per_suite;
    std::map<std::string, int> reasons;
    for (const ConformanceCase &c : cases) {
        per_suite[c.suite][static_cast<int>(c.result)]++;
        if (c.result == Result::Unsupported) reasons[c.reason]++;
    }
    std::ostringstream os;
    os << "# ONNX conformance\n\n"
       << "Every case of the ONNX backend test data shipped by Debian's `libonnx-testdata` (`" << o.root
       << "`) compiled with `flowhls compile CASE/model.onnx --csim` (target " << hls_target_name(o.target)
       << ") and simulated against its `test_data_set_0` (rtol 1e-4, atol 1e-5). Graph inputs that "
          "ops read as shapes, axes or pads are specialized to their test values "
          "(`--specialize-shape-inputs`); the filter graph is verified after every pass (`--verify-each`). Regenerate with "
          "`scripts/conformance.sh` (or `flowhls conformance --markdown docs/conformance.md`).\n\n"
       << "| suite | passed | failed | unsupported |\n|---|---:|---:|---:|\n";
    std::array<int, 3> total{0, 0, 0};
    for (const auto &s : per_suite) {
        os << "| " << s.first << " | " << s.second[0] << " | " << s.second[1] << " | " << s.second[2] << " |\n";
        for (int i = 0; i < 3; i++) total[i] += s.second[i];
    }
    os << "| **all** | **" << total[0] << "** | **" << total[1] << "** | **" << total[2] << "** |\n\n";
    os << "## Failures\n\n";
    bool any = false;
    for (const ConformanceCase &c : cases) {
        if (c.result != Result::Fail) continue;
        any = true;
        os << "- `" << c.suite << "/" << c.name << "`: " << c.reason << "\n";
    }
    if (!any) os << "None.\n";
    os << "\n## Every case\n\n| suite | case | result | reason |\n|---|---|---|---|\n";
    for (const ConformanceCase &c : cases) {
        std::string reason = c.reason;
        std::replace(reason.begin(), reason.end(), '|', '/');
        os << "| " << c.suite << " | " << c.name << " | " << result_name(c.result) << " | " << reason << " |\n";
    }
    return os.str();
}

}  // namespace

std::vector<ConformanceCase> run_conformance(const ConformanceOptions &o, std::ostream &out) {
    std::vector<ConformanceCase> cases = find_cases(o);
    std::string work = (fs::temp_directory_path() / ("flowhls-conformance-" + std::to_string(getpid()))).string();
    fs::create_directories(work);
    std::atomic<size_t> next{0};
    std::mutex lock;
    size_t done = 0;
    auto worker = [&] {
        for (size_t i = next++; i < cases.size(); i = next++) {
            ConformanceCase c = run_case(cases[i], o, work);
            std::lock_guard<std::mutex> guard(lock);
            cases[i] = c;
            done++;
            out << result_name(c.result) << " " << c.suite << "/" << c.name << (c.reason.empty() ? "" : ": " + c.reason)
                << "  [" << done << "/" << cases.size() << "]\n"
                << std::flush;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::max(1, o.jobs); j++) threads.emplace_back(worker);
    for (std::thread &t : threads) t.join();
    std::error_code ec;
    fs::remove_all(work, ec);

    int pass = 0, fail = 0, unsupported = 0;
    for (const ConformanceCase &c : cases) {
        if (c.result == Result::Pass) pass++;
        else if (c.result == Result::Fail) fail++;
        else unsupported++;
    }
    out << pass << " passed, " << fail << " failed (" << unsupported << " unsupported)\n";
    if (!o.markdown.empty()) {
        std::ofstream md(o.markdown);
        if (!md) throw Error("cannot write '" + o.markdown + "'");
        md << markdown(cases, o);
    }
    return cases;
}

}  // namespace flowhls
