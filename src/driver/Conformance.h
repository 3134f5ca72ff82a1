// flowhls conformance: compiles and simulates the ONNX backend test cases.
#pragma once

#include "flowhls/Compiler.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

/// Options of a conformance run.
struct ConformanceOptions {
    /// Directory holding the suites (Debian's libonnx-testdata).
    std::string root = "/usr/share/libonnx-testdata/data";
    /// Suites (subdirectories of root) to run.
    std::vector<std::string> suites = {"node", "pytorch-converted", "pytorch-operator", "simple"};
    /// Only cases whose name contains one of these (all when empty).
    std::vector<std::string> filters;
    int jobs = 2;
    /// Seconds each case may take (compile + C simulation) before it counts as failed.
    double timeout_seconds = 300.0;
    HlsTarget target = HlsTarget::Vitis;
    /// Simulate under AddressSanitizer and UBSan.
    bool sanitize = false;
    /// Where to write the Markdown summary ("" for none).
    std::string markdown;
    /// The flowhls executable run for each case.
    std::string flowhls_binary;
};

/// Outcome of one case.
struct ConformanceCase {
    std::string suite, name;
    enum class Result { Pass, Fail, Unsupported } result = Result::Fail;
    std::string reason;
};

/// Contract: runs `flowhls compile CASE/model.onnx --csim` on every case (a directory with
/// model.onnx and test_data_set_0) of the suites in its own process with a timeout, `jobs` at
/// a time; prints one line per case (PASS, FAIL or UNSUPPORTED with the reason) and the
/// closing line "N passed, M failed (K unsupported)"; writes the Markdown report if asked.
/// Returns the cases in suite and name order. Throws flowhls::Error if root is unreadable.
std::vector<ConformanceCase> run_conformance(const ConformanceOptions &options, std::ostream &out);

}  // namespace flowhls
