// Tests of the Bambu cycle model: its rules on hand-made bodies, and its error against the
// cycles PandA-Bambu measured (bench/reference/bambu_measured.csv).
#include "IrBuilder.h"
#include "TestSupport.h"
#include "analysis/BambuTiming.h"

#include <gtest/gtest.h>

#include <regex>

namespace flowhls {
namespace {

using namespace Halide::Internal;
using Halide::Expr;
using test::load;
using test::loop;
using test::store;
using test::var;

// One filter with `body` over float arrays in (1024 elements), out (1024) and a local tmp.
FilterGraph graph(Stmt body) {
    FilterGraph g;
    g.name = "k";
    g.buffers.push_back(Buffer{"in", Halide::Float(32), {1024}, BufferKind::Input, {}, {}});
    g.buffers.push_back(Buffer{"out", Halide::Float(32), {1024}, BufferKind::Output, {}, {}});
    g.args = {"in", "out"};
    g.filters.push_back(Filter{"k", "compute_k", std::move(body), {}, {}, {}, "", {}});
    recompute_edges(g);
    return g;
}

int64_t cycles(const Stmt &body, const BambuTimingModel &m) { return estimate_bambu_cycles(graph(body), m).cycles; }

// The model with round numbers, so the expected cycles are easy to see.
BambuTimingModel simple() {
    BambuTimingModel m;
    m.load = 2;
    m.store = 1;
    m.fadd = 4;
    m.fadd_busy = 4;
    m.fmul = 3;
    m.fmul_busy = 3;
    m.entry = 1;
    m.iteration = 0;
    m.unroll_trip = 4;
    return m;
}

TEST(BambuTiming, LoopIsTripTimesItsBodySchedule) {
    BambuTimingModel m = simple();
    // copy: load 2 + store 1 per iteration; the filter call and the top function add 1 + 2.
    Stmt copy = loop("i", 100, store("out", load("in", var("i")), var("i")));
    EXPECT_EQ(cycles(copy, m), 100 * 3 + 1 + 3);
    // x * 2 + 1: load 2, fmul 3, fadd 4, store 1.
    Stmt arith = loop("i", 100, store("out", load("in", var("i")) * 2.0f + 1.0f, var("i")));
    EXPECT_EQ(cycles(arith, m), 100 * 10 + 1 + 3);
    // Two loops: one after the other.
    EXPECT_EQ(cycles(Block::make(copy, arith), m), 100 * 3 + 1 + 100 * 10 + 1 + 3);
    // Integer index arithmetic is chained (no cycles), but for a division by a constant (a
    // multiplication) or by a variable (the divider).
    Stmt shifted = loop("i", 100, store("out", load("in", (var("i") * 3 + 1) / 2), var("i")));
    EXPECT_EQ(cycles(shifted, m), 100 * 3 + 1 + 3);
    Stmt indexed = loop("i", 100, store("out", load("in", (var("i") * 3 + 1) / 3), var("i")));
    EXPECT_EQ(cycles(indexed, m), 100 * (3 + m.imul) + 1 + 3);
    Stmt divided = loop("i", 100, store("out", load("in", var("j") / (var("i") + 1)), var("i")));
    EXPECT_EQ(cycles(divided, m), 100 * (3 + m.idiv) + 1 + 3);
}

TEST(BambuTiming, OneSharedUnitPerFloatOperation) {
    BambuTimingModel m = simple();
    // x * 2 + x * 3: the two products queue on the one multiplier (3 + 3), then the add.
    Expr x = load("in", var("i"));
    Stmt two = loop("i", 10, store("out", x * 2.0f + x * 3.0f, var("i")));
    EXPECT_EQ(cycles(two, m), 10 * (2 + 3 + 3 + 4 + 1) + 1 + 3);
    // With a pipelined multiplier (busy 1) the second product follows one cycle later.
    m.fmul_busy = 1;
    EXPECT_EQ(cycles(two, m), 10 * (2 + 1 + 3 + 4 + 1) + 1 + 3);
}

TEST(BambuTiming, ShortInnermostLoopsAreUnrolled) {
    BambuTimingModel m = simple();
    // acc = in[r] * in[r] summed over r < 3, in a register: unrolled, the loads of the next
    // copies overlap the arithmetic of the previous ones.
    Stmt body = store("acc", load("acc", 0) + load("in", var("r")) * load("in", var("r")), 0);
    FilterGraph g = graph(loop("r", 3, body));
    g.filters[0].locals.push_back(LocalBuffer("acc", Halide::Float(32), 1, true));
    int64_t unrolled = estimate_bambu_cycles(g, m).cycles;
    m.unroll_trip = 2;  // now a loop: 3 x (2 + 3 + 4) + entry
    int64_t looped = estimate_bambu_cycles(g, m).cycles;
    EXPECT_EQ(looped, 3 * 9 + 1 + 1 + 2);
    EXPECT_LT(unrolled, looped);
    EXPECT_EQ(unrolled, 2 + 3 + 4 + 2 * 4 + 1 + 2);  // the adds chain: 3 x 4 after the first product
}

TEST(BambuTiming, VectorLanesFollowEachOther) {
    BambuTimingModel m = simple();
    // An 8-lane vector x * 2 stored: loads on 2 ports, products one after the other on the
    // multiplier, each lane's store as soon as its product is ready.
    Expr index = Ramp::make(var("i") * 8, 1, 8);
    Expr x = Load::make(Halide::Float(32, 8), "in", index, Halide::Buffer<>(), Parameter(), const_true(8),
                        ModulusRemainder());
    Stmt vec = loop("i", 10, Store::make("out", x * Broadcast::make(2.0f, 8), index, Parameter(), const_true(8),
                                         ModulusRemainder()));
    // First load at 0 (ready 2), lanes' products start at 2, 5, ..., 23 (ready 26), stores after.
    EXPECT_EQ(cycles(vec, m), 10 * (2 + 8 * 3 + 1) + 1 + 3);
}

// The calibration: the model's error against every design PandA-Bambu synthesized.
TEST(BambuTiming, CalibratedAgainstWhatBambuMeasured) {
    std::string out;
    ASSERT_EQ(test::run_flowhls(std::string("bench --bambu --reference ") + FLOWHLS_SOURCE_DIR + "/bench/reference", &out),
              0)
        << out;
    EXPECT_NE(out.find("measured by PandA-Bambu 2024.10"), std::string::npos) << out;
    std::smatch mean;
    ASSERT_TRUE(std::regex_search(out, mean, std::regex(R"(mean absolute error ([0-9.]+)% over (\d+) designs)"))) << out;
    EXPECT_LT(std::stod(mean[1]), 15.0) << out;
    EXPECT_GE(std::stoi(mean[2]), 15) << out;
    // No design off by more than a factor of two (upsample, the worst, is +42%).
    std::regex row(R"((\S+)\s+(\d+)\s+(\d+)\s+([+-][0-9.]+)%)");
    int rows = 0;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), row); it != std::sregex_iterator(); ++it) {
        double error = std::stod((*it)[4]);
        EXPECT_LT(std::abs(error), 60.0) << (*it)[0];
        rows++;
    }
    EXPECT_GE(rows, 15);
}

}  // namespace
}  // namespace flowhls
