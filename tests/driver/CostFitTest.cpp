// The non-negative least squares fit of the LUT/FF costs and its cross-validation.
#include "driver/CostFit.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

TEST(CostFit, NnlsSolvesAnExactSystem) {
    // y = 2 a + 3 b on four rows: the unconstrained solution is non-negative.
    std::vector<std::vector<double>> a = {{1, 0}, {0, 1}, {1, 1}, {2, 1}};
    std::vector<double> b = {2, 3, 5, 7};
    std::vector<double> x = nnls(a, b);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_NEAR(x[0], 2.0, 1e-9);
    EXPECT_NEAR(x[1], 3.0, 1e-9);
}

TEST(CostFit, NnlsKeepsCostsNonNegative) {
    // Unconstrained: x = (3, -1); with x >= 0 the second is 0 and the first fits alone.
    std::vector<std::vector<double>> a = {{1, 1}, {1, 2}, {1, 3}};
    std::vector<double> b = {2, 1, 0};
    std::vector<double> x = nnls(a, b);
    EXPECT_NEAR(x[1], 0.0, 1e-12);
    EXPECT_NEAR(x[0], 1.0, 1e-9);  // mean of (2, 1, 0) over the column of ones
    // A column that is zero everywhere gets 0.
    x = nnls({{1, 0}, {2, 0}}, {1, 2});
    EXPECT_NEAR(x[0], 1.0, 1e-9);
    EXPECT_EQ(x[1], 0.0);
}

CostSample sample(const std::string &family, int64_t fixed, int64_t count, int64_t vitis) {
    CostSample s;
    s.design = family + "/d" + std::to_string(count);
    s.family = family;
    s.terms = {"function"};
    s.counts = {count};
    s.table_cost_lut = {10};
    s.table_cost_ff = {10};
    s.fixed_lut = s.fixed_ff = fixed;
    s.table_lut = s.table_ff = fixed + 10 * count;
    s.vitis_lut = s.vitis_ff = vitis;
    return s;
}

TEST(CostFit, HeldOutErrorsPredictEachDesignWithoutIt) {
    // Every design costs 100 + 10 per function, except one that costs 20 per function: the
    // fit on all is pulled up by it, and leaving it out predicts it with 10 (half its cost).
    std::vector<CostSample> s = {sample("a", 100, 1, 110), sample("a", 100, 2, 120), sample("b", 100, 3, 130),
                                 sample("b", 100, 4, 140), sample("c", 100, 10, 300)};
    CostFit fit = fit_costs(s, 4);
    EXPECT_NEAR(fit.lut[0], 10.0, 1e-9);
    std::vector<HeldOutError> h = cross_validate(s);
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].metric, "LUT");
    EXPECT_EQ(h[0].designs, 5);
    EXPECT_NEAR(h[0].table_worst, 100.0 / 300.0, 1e-9);
    EXPECT_NEAR(h[0].design_worst, 100.0 / 300.0, 1e-9);
    EXPECT_EQ(h[0].design_worst_name, "c/d10");
    EXPECT_GT(h[0].refit_median, 0.0);  // the outlier pulls the fit off the others
    EXPECT_GE(h[0].family_median, h[0].design_median - 1e-12);
}

}  // namespace
}  // namespace flowhls
