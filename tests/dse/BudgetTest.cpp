// Tests of resource budgets: parsing (counts, percentages, errors) and the fit check, also
// through `flowhls compile --budget` (a design over budget is refused and nothing written).
#include "dse/Budget.h"
#include "flowhls/Error.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace flowhls::dse {
namespace {

Device vu9p() { return load_device("xcvu9p", 200); }

TEST(Budget, DefaultIsEightyPercentOfThePart) {
    Resources r = default_budget(vu9p());
    EXPECT_EQ(r.dsp, 5472);
    EXPECT_EQ(r.bram18k, 3456);
    EXPECT_EQ(r.uram, 768);
    EXPECT_EQ(r.lut, 945792);
    EXPECT_EQ(r.ff, 1891584);
}

TEST(Budget, CountsAndPercentages) {
    Resources r = parse_budget("dsp=2000,bram=60%,uram=0", vu9p());
    EXPECT_EQ(r.dsp, 2000);
    EXPECT_EQ(r.bram18k, 2592);
    EXPECT_EQ(r.uram, 0);
    EXPECT_EQ(r.lut, 945792);  // not named: 80%
    Resources half = parse_budget("50%", vu9p());
    EXPECT_EQ(half.dsp, 3420);
    EXPECT_EQ(half.ff, 1182240);
    EXPECT_EQ(parse_budget("lut=12.5%", vu9p()).lut, 147780);
    EXPECT_EQ(parse_budget("dsp=100%", vu9p()).dsp, 6840);
}

TEST(Budget, BadEntriesAreRefusedByName) {
    auto message = [](const std::string &text) {
        try {
            parse_budget(text, vu9p());
        } catch (const Error &e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(message("").find("empty"), std::string::npos);
    EXPECT_NE(message("dsp=1,dsps=2").find("unknown resource 'dsps'"), std::string::npos);
    EXPECT_NE(message("dsp=1,dsp=2").find("'dsp' given twice"), std::string::npos);
    EXPECT_NE(message("dsp").find("has no '='"), std::string::npos);
    EXPECT_NE(message("dsp=-3").find("neither a count nor a percentage"), std::string::npos);
    EXPECT_NE(message("bram=101%").find("neither a count nor a percentage"), std::string::npos);
    EXPECT_NE(message("dsp=1e3").find("neither a count"), std::string::npos);
    EXPECT_NE(message("dsp=99999999999999999999").find("neither a count"), std::string::npos);
    EXPECT_NE(message("dsp=7000").find("more than xcvu9p has (6840)"), std::string::npos);
    EXPECT_NE(message("dsp=.5%").find("neither"), std::string::npos);
}

TEST(Budget, OverBudgetNamesEachResource) {
    Resources budget = parse_budget("dsp=100,bram=10", vu9p()), used;
    used.dsp = 100;
    used.bram18k = 11;
    used.lut = 2000000;
    EXPECT_EQ(over_budget(used, budget), (std::vector<std::string>{"BRAM18K 11 > 10", "LUT 2000000 > 945792"}));
    used.bram18k = 10;
    used.lut = 1;
    EXPECT_TRUE(over_budget(used, budget).empty());
    EXPECT_EQ(budget_text(budget), "DSP 100, BRAM18K 10, URAM 768, LUT 945792, FF 1891584");
}

TEST(Budget, CompileRefusesADesignOverBudgetAndWritesNothing) {
    test::TempDir dir;
    std::string out;
    // gemm's default design uses DSPs (fmul, fadd) on xcvu9p.
    EXPECT_EQ(test::run_flowhls("compile -e gemm --device xcvu9p --budget dsp=1 -o " + (dir / "g"), &out), 2) << out;
    EXPECT_NE(out.find("flowhls: error: the design does not fit the budget on xcvu9p (estimated DSP "), std::string::npos)
        << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "g"));
    EXPECT_EQ(test::run_flowhls("compile -e gemm --device xcvu9p --budget dsp=10%,bram=5% -o " + (dir / "g"), &out), 0)
        << out;
    EXPECT_TRUE(std::filesystem::exists(dir / "g/kernel.cpp"));
    EXPECT_EQ(test::run_flowhls("compile -e gemm --device xcvu9p --budget dsp=lots -o " + (dir / "h"), &out), 2) << out;
    EXPECT_NE(out.find("flowhls: error: budget 'dsp=lots': 'lots' for dsp"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "h"));
}

} // namespace
} // namespace flowhls::dse
