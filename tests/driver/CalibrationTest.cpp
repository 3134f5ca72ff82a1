// The calibration against Vitis HLS 2023.2 as a regression guard: the targets of issue 13 must
// hold on every reproduced corpus design (docs/calibration.md), also for the fitted LUT/FF costs
// held out, and every corpus design is either reproduced or explained. ctest runs each test in
// its own process: one test compiles every reproduced design (about a minute on one core), the
// others a single design or none.
#include "driver/Calibration.h"
#include "driver/CorpusDesigns.h"
#include "driver/PublishedFigures.h"

#include <gtest/gtest.h>

#include <set>

namespace flowhls {
namespace {

const MetricSummary &metric(const std::vector<MetricSummary> &s, const std::string &name) {
    for (const MetricSummary &m : s) {
        if (m.metric == name) return m;
    }
    throw std::logic_error("no metric " + name);
}

TEST(Calibration, TargetsHoldOnEveryReproducedDesign) {
    const std::vector<DesignCalibration> results = calibrate(CalibrationOptions());
    std::vector<MetricSummary> s = summarize(results);
    const MetricSummary &lat = metric(s, "latency");
    ASSERT_GE(lat.designs, 40);  // issue 13: at least 40 reproduced designs
    EXPECT_GE(lat.within_10 * 5, lat.designs * 4) << "latency within 10% on fewer than 80% of the designs";
    EXPECT_EQ(lat.within_1_5x, lat.designs) << "a latency off by more than 1.5x: " << lat.worst_design;
    EXPECT_LE(metric(s, "DSP").median, 0.15);
    EXPECT_LE(metric(s, "BRAM18K").median, 0.25);
    EXPECT_LE(metric(s, "LUT").median, 0.35);
    EXPECT_LE(metric(s, "FF").median, 0.35);

    // The LUT/FF control costs are fitted on these same designs: the held-out errors (each
    // design predicted by costs fitted without it, or without its whole family) must meet the
    // targets too, and the device table holds the fit (so the table is reproducible).
    std::vector<CostSample> samples = cost_fit_samples(results);
    ASSERT_GE(samples.size(), 25u);
    for (const HeldOutError &h : cross_validate(samples)) {
        EXPECT_LE(h.design_median, 0.35) << h.metric;
        EXPECT_LE(h.family_median, 0.35) << h.metric;
    }
    CostFit all = fit_costs(samples);
    const CostSample &first = samples.at(0);
    for (size_t j = 0; j < first.terms.size(); j++) {
        EXPECT_NEAR(first.table_cost_lut[j], all.lut[j], 1.0) << first.terms[j] << " LUT";
        EXPECT_NEAR(first.table_cost_ff[j], all.ff[j], 1.0) << first.terms[j] << " FF";
    }
}

TEST(Calibration, EveryCorpusDesignIsReproducedOrExplained) {
    std::set<std::string> covered;
    for (const CorpusReproduction &r : corpus_reproductions()) EXPECT_TRUE(covered.insert(r.design).second) << r.design;
    for (const CorpusGap &g : corpus_gaps()) {
        EXPECT_TRUE(covered.insert(g.design).second) << g.design;
        EXPECT_FALSE(g.reason.empty()) << g.design;
    }
    CsvTable designs = published_table("vitis_hls_2023_2/designs.csv");
    ASSERT_EQ(designs.size(), 67u);  // header + 66 designs
    for (size_t i = 1; i < designs.size(); i++) EXPECT_TRUE(covered.count(designs[i][0])) << designs[i][0];
    EXPECT_EQ(covered.size(), 66u);
}

TEST(Calibration, LoopsArePairedByTripCount) {
    CalibrationOptions o;
    o.designs = {"polybench/vitis/default/2mm"};
    for (const DesignCalibration &d : calibrate(o)) {
        if (d.design != "polybench/vitis/default/2mm") continue;
        ASSERT_EQ(d.loops.size(), 2u);
        EXPECT_EQ(d.loops[0].vitis_name, "VITIS_LOOP_31_1_VITIS_LOOP_32_2_VITIS_LOOP_35_3");
        EXPECT_EQ(d.loops[0].trip.flowhls, 7182000);
        EXPECT_EQ(d.loops[0].ii.vitis, 8);
        EXPECT_EQ(d.loops[0].ii.flowhls, 8);  // the recurrence through an ap_memory port
        return;
    }
    FAIL() << "polybench/vitis/default/2mm is not calibrated";
}

TEST(Calibration, ErrorOfAZeroFigure) {
    EXPECT_EQ((FigurePair{0, 0}).error(), 0.0);
    EXPECT_TRUE(std::isinf((FigurePair{0, 3}).error()));
    EXPECT_DOUBLE_EQ((FigurePair{100, 110}).error(), 0.1);
}

}  // namespace
}  // namespace flowhls
