// The generated Vitis projects built against AMD's own HLS headers (ap_int, hls_stream from
// shared/vendor/xilinx-hls) instead of flowhls's stand-in, under -std=c++14 (Vitis HLS's
// default) and -std=c++17, and simulated against the reference (tests/emit/vendor-csim.sh).
// Skipped with a message without the headers, except in CI (FLOWHLS_CI), where that fails.
// The MLP and ResNet-18 of the model zoo are the ctest tests zoo_*_amd_headers_*.
#include "TestSupport.h"
#include "flowhls/Examples.h"
#include "support/Process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

struct Case {
    std::string name;  // example name, or "lenet5"
    std::string std;   // "c++14", "c++17"
};

std::string case_name(const testing::TestParamInfo<Case> &info) {
    std::string s = info.param.name + "_" + info.param.std;
    for (char &c : s) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return s;
}

std::vector<Case> cases() {
    std::vector<Case> out;
    std::vector<std::string> names = {"lenet5"};
    for (const ExampleInfo &e : list_examples()) names.push_back(e.name);
    for (const std::string &n : names) {
        for (const char *std : {"c++14", "c++17"}) out.push_back({n, std});
    }
    return out;
}

class AmdHeaders : public testing::TestWithParam<Case> {};

// Compiles `what` for Vitis into `dir` and builds and runs its simulation with AMD's headers.
void check(const std::string &what, const std::string &dir, const std::string &std) {
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile " + what + " -o " + dir, &out), 0) << out;
    ProcessResult r = run_process({std::string(FLOWHLS_SOURCE_DIR) + "/tests/emit/vendor-csim.sh", dir, std,
                                   FLOWHLS_TEST_XILINX_HLS},
                                  dir, nullptr);
    EXPECT_EQ(r.status, 0) << what << " with -std=" << std << ":\n" << r.output;
    // The verdict is the last line, after what hls_stream.h prints at exit.
    std::string log = r.output.substr(0, r.output.find_last_not_of('\n') + 1);
    EXPECT_EQ(log.substr(log.rfind('\n') + 1).rfind("PASS: ", 0), 0u) << r.output;
}

TEST_P(AmdHeaders, SimulationMatchesTheReference) {
    const Case &c = GetParam();
    if (!fs::exists(std::string(FLOWHLS_TEST_XILINX_HLS) + "/hls_stream.h")) {
        std::string why = "AMD's HLS headers not found (CMake FLOWHLS_XILINX_HLS_INCLUDE, default "
                          "shared/vendor/xilinx-hls/include next to the source tree)";
        if (std::getenv("FLOWHLS_CI")) FAIL() << why << " (FLOWHLS_CI is set: CI runs these tests)";
        GTEST_SKIP() << why;
    }
    test::TempDir dir;
    if (c.name == "lenet5") {
        std::string model = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
        check(model + " --weights rom", dir / "rom", c.std);
        check(model + " --weights axi", dir / "axi", c.std);
        check(model + " --device xcvu9p --weights uram", dir / "uram", c.std);  // static copies bound to URAM
        return;
    }
    for (const ExampleInfo &e : list_examples()) {
        if (e.name != c.name) continue;
        for (const std::string &s : e.schedules) {
            if (s == "parallel" || s == "vectorized") continue;  // PandA-Bambu only
            check("-e " + e.name + " -s " + s, dir / s, c.std);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Projects, AmdHeaders, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace flowhls
