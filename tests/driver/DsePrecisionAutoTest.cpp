// `flowhls dse --precision auto` and `compile --dse --precision auto` (docs/quantization.md,
// "Exploration"): the ranges are measured once, before the search (the float64 reference runs
// once per command, counted through $FLOWHLS_PYTHON), every point is costed with the chosen
// widths (auto<24>'s products take two DSP48E2s, auto<16>'s one), and the chosen design passes
// C simulation.
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const std::string kLenet = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
const std::string kSpace = " --device xcvu9p --clock 200 --max-points 12";

// pareto.csv's rows: knobs -> DSP (estimates).
std::map<std::string, int64_t> dsp_by_knobs(const std::string &csv) {
    std::map<std::string, int64_t> out;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);  // header: point,origin,status,interval,latency,samples_per_s,dsp,...,knobs
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream s(line);
        for (std::string x; std::getline(s, x, ',');) f.push_back(x);
        if (f.size() < 15 || f[2] != "ok") continue;
        out[f[14]] = std::stoll(f[6]);
    }
    return out;
}

// Lines of the file `path` (0 when it does not exist).
int line_count(const fs::path &path) {
    std::string s = fs::exists(path) ? test::read_file(path.string()) : "";
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

TEST(DsePrecisionAuto, CalibratesOnceCostsWidthsAndTheChoicePassesCsim) {
    test::TempDir dir;
    // A python that counts its runs: the float64 reference is the only Python flowhls runs here.
    const fs::path counter = dir / "runs.txt", wrapper = dir / "python";
    {
        std::ofstream w(wrapper);
        w << "#!/bin/sh\necho run >> '" << counter.string() << "'\nexec /usr/bin/python3 \"$@\"\n";
    }
    fs::permissions(wrapper, fs::perms::owner_all);
    ASSERT_EQ(setenv("FLOWHLS_PYTHON", wrapper.c_str(), 1), 0);
    ASSERT_EQ(setenv("OPT", "-O0", 1), 0);  // the ap_fixed stand-in builds in 13 s at -O0

    std::string out;
    ASSERT_EQ(test::run_flowhls("dse " + kLenet + kSpace + " --precision auto -o " + (dir / "d16"), &out), 0) << out;
    EXPECT_EQ(line_count(counter), 1) << "the ranges are measured once, not per point";
    ASSERT_EQ(test::run_flowhls("dse " + kLenet + kSpace + " --precision 'auto<24>' -o " + (dir / "d24"), &out), 0)
        << out;
    EXPECT_EQ(line_count(counter), 2);
    // The same space; every point's products at 24 bits take two DSP48E2s (imul24), at 16 one.
    // The searches follow their own estimates (the trim's steps differ), so they need not visit
    // the same points: the points both visited are compared.
    std::map<std::string, int64_t> d16 = dsp_by_knobs(test::read_file(dir / "d16/pareto.csv")),
                                   d24 = dsp_by_knobs(test::read_file(dir / "d24/pareto.csv"));
    int common = 0;
    for (const auto &[knobs, dsp] : d16) {
        if (!d24.count(knobs)) continue;
        common++;
        EXPECT_GT(d24[knobs], dsp) << knobs;
    }
    EXPECT_GE(common, 5);
    EXPECT_EQ(d16["naive"], 5);  // measured (estimates): 5 at auto<16>, 10 at auto<24>
    EXPECT_EQ(d24["naive"], 10);

    // compile --dse explores the same way (one measurement) and its design passes C-sim.
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + kSpace + " --precision auto --dse --csim --atol 0.0002 --rtol 0 -o " +
                                    (dir / "c"),
                                &out),
              0)
        << out;
    EXPECT_EQ(line_count(counter), 3);
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    nlohmann::json r = nlohmann::json::parse(test::read_file(dir / "c/report.json"));
    char name[64];
    std::snprintf(name, sizeof name, "d16/points/%03d.schedule.json", r["dse"]["chosen_point"].get<int>());
    EXPECT_EQ(test::read_file(dir / "c/schedule.json"), test::read_file(dir / name));
    ASSERT_FALSE(r["precision"].empty());
    for (const auto &row : r["precision"]) EXPECT_TRUE(row["auto"].get<bool>()) << row;
    unsetenv("FLOWHLS_PYTHON");
    unsetenv("OPT");
}

}  // namespace
}  // namespace flowhls
