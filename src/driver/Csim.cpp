// run_csim: builds a generated project's testbench with its Makefile and runs it.
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "support/OutputDir.h"
#include "support/Process.h"

#include <filesystem>
#include <iostream>
#include <sstream>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

std::string number(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

// The last line of `log` that starts with PASS or FAIL.
std::string verdict_line(const std::string &log) {
    std::istringstream in(log);
    std::string line, found;
    while (std::getline(in, line)) {
        if (line.rfind("PASS", 0) == 0 || line.rfind("FAIL", 0) == 0) found = line;
    }
    return found;
}

}  // namespace

CsimResult run_csim(const std::string &dir, const CsimOptions &options) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error("'" + dir + "' is not a directory");
    if (!fs::exists(fs::path(dir) / "Makefile", ec) || !fs::exists(fs::path(dir) / kProjectMarker, ec)) {
        throw Error("'" + dir + "' is not a flowhls project (no Makefile or " + kProjectMarker + ")");
    }
    std::ostream *echo = options.echo ? &std::cout : nullptr;
    const std::string binary = options.sanitize ? "build/csim-sanitize" : "build/csim";
    CsimResult result;
    ProcessResult build = run_process({"make", "--no-print-directory", binary}, dir, echo);
    result.log = build.output;
    if (build.status != 0) {
        result.verdict = build.status == -1 ? "FAIL: could not run make" : "FAIL: the testbench did not compile";
        return result;
    }
    result.built = true;
    std::vector<std::string> argv = {"./" + binary, "data"};
    if (options.atol >= 0.0) argv.insert(argv.end(), {"--atol", number(options.atol)});
    if (options.rtol >= 0.0) argv.insert(argv.end(), {"--rtol", number(options.rtol)});
    ProcessResult run = run_process(argv, dir, echo);
    result.log += run.output;
    std::string line = verdict_line(run.output);
    result.passed = run.status == 0 && line.rfind("PASS", 0) == 0;
    if (!line.empty()) {
        result.verdict = line;
    } else {
        result.verdict = "FAIL: the simulation exited with status " + std::to_string(run.status) + " without a verdict";
    }
    if (!result.passed && line.rfind("PASS", 0) == 0) {
        result.verdict = "FAIL: the simulation printed PASS but exited with status " + std::to_string(run.status);
    }
    return result;
}

}  // namespace flowhls
