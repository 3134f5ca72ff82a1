// The reorder that removes a reduction's recurrence (issue 14, WP4): a schedule.json putting the
// reduction loop outside the pipelined loop gives II 1 in the estimate, and C-sim still passes.
#include "TestSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
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

// Compiles `program` with `directives` (none if empty) into DIR/NAME with --csim; returns the
// path of report.json.
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
    // k innermost (Halide's default order of an update): the fadd recurrence sets the II.
    auto before = worst_ii(compile(dir, gemm, "k_inner", R"({"C_out": {"schedule": [{"stage": 1, "reorder": ["k", "j", "i"]}]}})"));
    EXPECT_GT(before.first, 1) << before.second;
    EXPECT_TRUE(has(before.second, "recurrence")) << before.second;
    // Seed 003's permutation: j innermost, then k, then i.
    auto after = worst_ii(compile(dir, gemm, "k_outer", R"({"C_out": {"schedule": [{"stage": 1, "reorder": ["j", "k", "i"]}]}})"));
    EXPECT_EQ(after.first, 1) << after.second;
    // The same on the gemm example's root schedule, whose default order has k innermost: the
    // recurrence goes; what is left is the m_axi bound of A (read at one address per j loop,
    // no burst), II 2.
    before = worst_ii(compile(dir, "--example gemm --schedule root", "root", ""));
    EXPECT_EQ(before.first, 4) << before.second;
    EXPECT_TRUE(has(before.second, "recurrence")) << before.second;
    after = worst_ii(compile(dir, "--example gemm --schedule root", "root_k_outer",
                             R"({"prod": {"schedule": [{"stage": 1, "reorder": ["j", "k", "i"]}]}})"));
    EXPECT_EQ(after.first, 2) << after.second;
    EXPECT_TRUE(has(after.second, "m_axi port of 'A'")) << after.second;
}

TEST(RecurrenceFreeSchedule, Lenet5ConvReductionOutsideThePipelinedLoopHasIIOne) {
    test::TempDir dir;
    // Operand loads stay in the innermost loop so the reduction nest flattens into one pipeline
    // (hoisting the weight load out of the pixel loops would stop the flattening: docs/qor.md).
    const std::string lenet =
        std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx --disable-pass hoist-invariants";
    auto before = pipelined_loops(compile(dir, lenet, "default", ""));
    std::string schedule = test::read_file(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/schedule.json");
    auto after = pipelined_loops(compile(dir, lenet, "reordered", schedule));
    // Every conv's and gemm's accumulation: II above 1 by default (fadd recurrence), 1 with the
    // schedule; the other loops keep II 1.
    int recurrences = 0;
    for (const auto &kv : before) {
        if (!has(kv.second.second, "recurrence")) continue;
        recurrences++;
        EXPECT_GT(kv.second.first, 1) << kv.first;
    }
    EXPECT_EQ(recurrences, 5);
    for (const auto &kv : after) EXPECT_EQ(kv.second.first, 1) << kv.first << ": " << kv.second.second;
    // The reduction nests are flattened: conv2's (ci, ky, kx, co, ox) is one pipeline.
    nlohmann::json j = nlohmann::json::parse(test::read_file(dir / "reordered/report.json"));
    bool flat = false;
    for (const auto &f : j["filters"]) {
        for (const auto &l : f["loops"]) {
            flat |= f["name"] == "conv2" && l["pipelined"].get<bool>() && l["trip"].get<int64_t>() == 6 * 5 * 5 * 16 * 5;
        }
    }
    EXPECT_TRUE(flat) << j["filters"].dump();
}

}  // namespace
}  // namespace flowhls
