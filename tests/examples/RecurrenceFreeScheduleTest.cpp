// The reorder that removes a reduction's recurrence (issue 14, WP4): a schedule.json putting the
// reduction loop outside the pipelined loop gives II 1 in the estimate, and C-sim still passes.
#include "TestSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// The pipelined loops of report.json: "filter/loop" -> {ii, ii_reason}.
std::map<std::string, std::pair<int64_t, std::string>> pipelined_loops(const std::string &report) {
    std::map<std::string, std::pair<int64_t, std::string>> out;
    nlohmann::json j = nlohmann::json::parse(test::read_file(report));
    for (const auto &f : j["filters"]) {
        for (const auto &l : f["loops"]) {
            if (l["pipelined"].get<bool>()) {
                out[f["name"].get<std::string>() + "/" + l["name"].get<std::string>()] = {l["ii"].get<int64_t>(),
                                                                                        l["ii_reason"].get<std::string>()};
            }
        }
    }
    return out;
}

// The largest II of a pipelined loop, and the reason of that loop's II, as text.
std::pair<int64_t, std::string> worst_ii(const std::string &report) {
    std::pair<int64_t, std::string> worst{0, ""};
    for (const auto &kv : pipelined_loops(report)) {
        if (kv.second.first > worst.first) worst = {kv.second.first, kv.first + ": " + kv.second.second};
    }
    return worst;
}

// Compiles `program` with `directives` (none if empty) into DIR/NAME with --csim.
std::string compile(const test::TempDir &dir, const std::string &program, const std::string &name,
                    const std::string &directives) {
    std::string args = "compile " + program + " -o " + (dir / name) + " --csim";
    if (!directives.empty()) {
        std::ofstream(dir / (name + ".json")) << directives;
        args += " --directives " + (dir / (name + ".json"));
    }
    std::string out;
    EXPECT_EQ(test::run_flowhls(args, &out), 0) << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    return dir / (name + "/report.json");
}

TEST(RecurrenceFreeSchedule, GemmWithKOutsideThePipelinedLoopHasIIOne) {
    test::TempDir dir;
    const std::string gemm = "--example pb_gemm --size small";
    // Default: k innermost, the fadd recurrence sets the II.
    auto before = worst_ii(compile(dir, gemm, "default", ""));
    EXPECT_GT(before.first, 1) << before.second;
    EXPECT_TRUE(has(before.second, "recurrence")) << before.second;
    // Seed 003's permutation: j innermost, then k, then i.
    auto after = worst_ii(compile(dir, gemm, "reordered", R"({"C_out": {"schedule": [{"stage": 1, "reorder": ["j", "k", "i"]}]}})"));
    EXPECT_EQ(after.first, 1) << after.second;
}

TEST(RecurrenceFreeSchedule, Lenet5ConvReductionOutsideThePipelinedLoopHasIIOne) {
    test::TempDir dir;
    const std::string lenet = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
    auto before = pipelined_loops(compile(dir, lenet, "default", ""));
    std::string schedule = test::read_file(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/schedule.json");
    auto after = pipelined_loops(compile(dir, lenet, "reordered", schedule));
    // Every conv's accumulation: II above 1 by default (fadd recurrence), 1 with the schedule.
    int convs = 0;
    for (const auto &kv : before) {
        if (kv.first.rfind("conv", 0) != 0 || !has(kv.second.second, "recurrence")) continue;
        convs++;
        EXPECT_GT(kv.second.first, 1) << kv.first;
    }
    EXPECT_EQ(convs, 2);
    for (const auto &kv : after) {
        if (kv.first.rfind("conv", 0) == 0) EXPECT_EQ(kv.second.first, 1) << kv.first << ": " << kv.second.second;
    }
}

}  // namespace
}  // namespace flowhls
