// The thesis's flow end to end with the real tools: flowhls's C synthesized by PandA-Bambu and
// co-simulated in Verilator, the RTL outputs compared with the reference. Needs bambu (CMake's
// FLOWHLS_BAMBU, shared/vendor/panda-bambu, or PATH) and verilator: skipped with a message
// without them, except in CI (FLOWHLS_CI set by .ci/run), where a missing tool fails the test.
// The whole sweep (every example, LeNet-5 both ways) is bench/bambu-sweep.sh; this is the CI
// subset (8.5 minutes one after the other on a 2-core machine at load 12, docs/bambu.md).
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

std::string on_path(const std::string &name) {
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        fs::path p = fs::path(dir) / name;
        if (access(p.c_str(), X_OK) == 0) return p.string();
    }
    return "";
}

// The bambu the tests use, or "" after skipping (or failing, in CI) with the reason.
std::string bambu_or_skip(std::string *why) {
    std::string bambu = FLOWHLS_TEST_BAMBU;
    if (bambu.empty() || access(bambu.c_str(), X_OK) != 0) bambu = on_path("bambu");
    if (bambu.empty()) {
        *why = "PandA-Bambu not found: no FLOWHLS_BAMBU (CMake), no shared/vendor/panda-bambu next to the source "
               "tree, no bambu on PATH (scripts/install-bambu.sh builds one)";
    } else if (on_path("verilator").empty()) {
        *why = "verilator is not on PATH (apt-get install verilator)";
        bambu.clear();
    }
    return bambu;
}

bool in_ci() { return std::getenv("FLOWHLS_CI") != nullptr; }

#define REQUIRE_BAMBU(var)                                                               \
    std::string why_##var, var = bambu_or_skip(&why_##var);                              \
    if (var.empty()) {                                                                   \
        if (in_ci()) FAIL() << why_##var << " (FLOWHLS_CI is set: CI runs these tests)"; \
        GTEST_SKIP() << why_##var;                                                       \
    }

// Without the tools (no bambu, no verilator on PATH) a test of this file fails in CI and is
// skipped elsewhere, saying why. Runs one of them in a child test process.
TEST(BambuTools, MissingToolsFailInCiAndSkipElsewhere) {
    std::string out;
    std::string run = " PATH=/nonexistent " + fs::read_symlink("/proc/self/exe").string() +
                      " --gtest_filter=BambuFlow.GaussianRoot";
    EXPECT_NE(test::run_shell("env FLOWHLS_CI=1" + run, &out), 0) << out;
    EXPECT_NE(out.find("(FLOWHLS_CI is set: CI runs these tests)"), std::string::npos) << out;
    EXPECT_NE(out.find("[  FAILED  ] BambuFlow.GaussianRoot"), std::string::npos) << out;
    EXPECT_EQ(test::run_shell("env -u FLOWHLS_CI" + run, &out), 0) << out;
    EXPECT_NE(out.find("[  SKIPPED ] BambuFlow.GaussianRoot"), std::string::npos) << out;
    EXPECT_TRUE(out.find("PandA-Bambu not found") != std::string::npos ||
                out.find("verilator is not on PATH") != std::string::npos)
        << out;
}

// Compiles `what` for Bambu with --synth; returns the report's measured section.
nlohmann::json synthesize(const std::string &what, const std::string &bambu, const std::string &dir, std::string *out) {
    int rc = test::run_flowhls("compile " + what + " --target bambu --synth --bambu " + bambu + " -o " + dir, out);
    EXPECT_EQ(rc, 0) << *out;
    EXPECT_NE(out->find("synth: PASS: RTL co-simulation in Verilator"), std::string::npos) << *out;
    nlohmann::json j = nlohmann::json::parse(test::read_file(dir + "/report.json"));
    EXPECT_TRUE(j.contains("measured")) << j.dump(1);
    EXPECT_EQ(test::report_schema_problem(j), "");
    if (!j.contains("measured")) return {};
    const nlohmann::json &m = j["measured"];
    EXPECT_EQ(m["passed"], true);
    EXPECT_GT(m["cycles"].get<int64_t>(), 0);
    EXPECT_GT(m["resources"]["LUT"].get<int64_t>(), 0);
    EXPECT_GT(m["fmax_mhz"].get<double>(), 0.0);
    EXPECT_EQ(m["bambu_version"].get<std::string>().rfind("PandA 20", 0), 0u) << m.dump(1);
    EXPECT_EQ(m["verilator_version"].get<std::string>().rfind("Verilator ", 0), 0u) << m.dump(1);
    return m;
}

// A float stencil: bit-exact RTL against Halide's JIT.
TEST(BambuFlow, GaussianRoot) {
    REQUIRE_BAMBU(bambu);
    test::TempDir dir;
    std::string out;
    nlohmann::json m = synthesize("-e gaussian -s root", bambu, dir / "g", &out);
    EXPECT_NE(out.find("output blur_y: 4096 values, 0 mismatches"), std::string::npos) << out;
    EXPECT_NE(out.find("bit-exact"), std::string::npos) << out;
    // The thesis's hexfloat constants, read by Bambu's front end.
    EXPECT_NE(test::read_file(dir / "g/kernel.c").find(" * 0x1p-2f)"), std::string::npos);
}

// 16-bit integer arithmetic.
TEST(BambuFlow, BrightenBlurRoot) {
    REQUIRE_BAMBU(bambu);
    test::TempDir dir;
    std::string out;
    synthesize("-e brighten_blur -s root", bambu, dir / "b", &out);
}

// The thesis's `#pragma omp for` (Bambu ignores it: same cycles as the serial loop, see
// docs/bambu.md) must not change the result.
TEST(BambuFlow, ConvReluParallelOmpFor) {
    REQUIRE_BAMBU(bambu);
    test::TempDir dir;
    std::string out;
    synthesize("-e conv_relu -s parallel", bambu, dir / "c", &out);
    EXPECT_NE(test::read_file(dir / "c/kernel.c").find("#pragma omp for\n"), std::string::npos);
}

// The thesis's vector helpers: small arrays, one element per lane.
TEST(BambuFlow, GemmVectorized) {
    REQUIRE_BAMBU(bambu);
    test::TempDir dir;
    std::string out;
    synthesize("-e gemm -s vectorized", bambu, dir / "v", &out);
    EXPECT_NE(test::read_file(dir / "v/kernel.c").find("[8];"), std::string::npos);
}

// The flagship model: LeNet-5 with its weights in on-chip ROMs (one C source each, linked by
// Bambu), within the model's tolerance of PyTorch's outputs.
TEST(BambuFlow, Lenet5WeightsInRom) {
    REQUIRE_BAMBU(bambu);
    test::TempDir dir;
    std::string out;
    std::string model = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
    nlohmann::json m = synthesize(model + " --weights rom", bambu, dir / "l", &out);
    EXPECT_TRUE(fs::exists(dir / "l/rom"));
    EXPECT_NE(out.find("0 mismatches"), std::string::npos) << out;
}

}  // namespace
}  // namespace flowhls
