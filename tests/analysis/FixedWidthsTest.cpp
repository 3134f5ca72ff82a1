// The proven integer bits of fixed-point sums (analysis/FixedWidths) on a hand-made graph whose
// bounds are computed by hand below.
#include "IrBuilder.h"
#include "analysis/FixedWidths.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;
using Halide::Expr;

Buffer float_rom(const std::string &name, const std::vector<float> &values) {
    Buffer b(name, Halide::Float(32), {int64_t(values.size())}, BufferKind::Constant);
    Halide::Buffer<float> data(int(values.size()));
    for (size_t i = 0; i < values.size(); i++) data(int(i)) = values[i];
    b.contents = data;
    return b;
}

// p: x[i] = in[i] (fixed<8,3>: x in [-4, 3.96875]); mac (fixed<8,2>, F = 6):
// out[v] = b[v] + sum_r w[v * 3 + r] * x[r] for v in [0, 4), the sum in a scalar local.
FilterGraph mac_graph() {
    FilterGraph g;
    g.name = "k";
    Buffer in("in", Halide::Float(32), {3}, BufferKind::Input);
    Buffer x("x", Halide::Float(32), {3}, BufferKind::Intermediate);
    // fixed<8,2> holds [-2, 1.984375] on a grid of 1/64: 0.3 is 0.296875, 3.0 saturates to 1.984375.
    Buffer w = float_rom("w", {0.5f, -0.25f, 1.0f, 1.5f, 1.0f, -1.0f, 0.3f, 0.0f, 3.0f, -2.0f, 0.0f, 0.0f});
    Buffer b = float_rom("b", {0.25f, -0.5f, 0.0f, 1.0f});
    Buffer out("out", Halide::Float(32), {4}, BufferKind::Output);
    g.buffers = {in, x, w, b, out};
    g.args = {"in", "out"};
    Filter p;
    p.name = p.function_name = "p";
    p.reads = {"in"};
    p.writes = {"x"};
    p.fixed = {8, 3};
    p.body = test::loop("i", 3, test::store("x", test::load("in", test::var("i")), test::var("i")));
    Filter f;
    f.name = f.function_name = "mac";
    f.reads = {"x", "w", "b"};
    f.writes = {"out"};
    f.fixed = {8, 2};
    LocalBuffer acc;
    acc.name = "acc";
    acc.type = Halide::Float(32);
    acc.size = 1;
    acc.scalar = true;
    f.locals = {acc};
    Expr v = test::var("v"), r = test::var("r");
    Stmt update = test::store("acc", test::load("acc", 0) + test::load("w", v * 3 + r) * test::load("x", r), 0);
    Stmt body = Block::make({test::store("acc", test::load("b", v), 0), test::loop("r", 3, update)});
    Stmt consume = ProducerConsumer::make("acc", false, test::store("out", test::load("acc", 0), v));
    f.body = test::loop("v", 4, Block::make(ProducerConsumer::make("acc", true, body), consume));
    g.filters = {p, f};
    return g;
}

TEST(FixedWidths, SumsBoundedPerOutputByTheQuantizedWeightsAndTheProducersFormat) {
    // x in [-4, 3.96875]. Per output, bias + the larger (smaller) of w * x_lo, w * x_hi:
    //   v=0: 0.25 + (0.5 + 1.0) * 3.96875 + 0.25 * 4 = 7.203125;  0.25 - 1.5 * 4 - 0.25 * 3.96875 = -6.7421875
    //   v=1: -0.5 + 2.5 * 3.96875 + 4 = 13.421875;               -0.5 - 2.5 * 4 - 3.96875 = -14.46875
    //   v=2: (0.296875 + 1.984375) * 3.96875 = 9.0537...;        -2.28125 * 4 = -9.125
    //   v=3: 1 + 2 * 4 = 9;                                      1 - 2 * 3.96875 = -6.9375
    // The extremes -14.46875 and 13.421875 (a product: at most 8) need 5 integer bits:
    // fixed<17,5> (2F = 12 fraction bits); the trip count times the term's interval (1 + 3 * 8
    // = 25) would need 6, the rule fixed<24,12>.
    FilterGraph g = mac_graph();
    std::string why;
    std::optional<FixedSumBound> bound = fixed_sum_bound(g, g.filters[1], &why);
    ASSERT_TRUE(bound) << why;
    EXPECT_DOUBLE_EQ(bound->lo, -14.46875);
    EXPECT_DOUBLE_EQ(bound->hi, 13.421875);
    EXPECT_EQ(bound->integer, 5);
    EXPECT_EQ(bound->how, "sum |w| * max|x| + bias");

    // The float kernel input of p is not bounded: p keeps the rule.
    EXPECT_FALSE(fixed_sum_bound(g, g.filters[0], &why));
    EXPECT_NE(why.find("not fixed point"), std::string::npos) << why;

    prove_fixed_accumulators(g);
    EXPECT_EQ(g.filters[1].fixed.sum_integer, 5);
    EXPECT_DOUBLE_EQ(g.filters[1].fixed.sum_max, 14.46875);
    EXPECT_EQ(g.filters[1].fixed.accumulator(), (FixedFormat{17, 5}));
    EXPECT_EQ(g.filters[0].fixed.sum_integer, 0);
    EXPECT_EQ(g.filters[0].fixed.accumulator(), (FixedFormat{23, 13}));  // the rule: 2F + I + 10
}

TEST(FixedWidths, AProducersProvenRangeBoundsItsConsumer) {
    // p becomes a ReLU of the kernel input, read through a let in its own format:
    // t in [-4, 3.96875], x = max(t, 0) in [0, 3.96875]. mac's sums per output then:
    //   v=0: 0.25 + 1.5 * 3.96875 = 6.203125;   0.25 - 0.25 * 3.96875 = -0.7421875
    //   v=1: -0.5 + 2.5 * 3.96875 = 9.421875;   -0.5 - 3.96875 = -4.46875
    //   v=2: 2.28125 * 3.96875 = 9.0537109375;  0
    //   v=3: 1;                                 1 - 2 * 3.96875 = -6.9375
    // A single product w * x lies in [-2, 1.984375] * [0, 3.96875] = [-7.9375, 7.875], so the
    // values span [-7.9375, 9.421875]; mac's output is stored saturated into fixed<8,2>: [-2, 1.984375].
    FilterGraph g = mac_graph();
    Expr i = test::var("i");
    Expr t = Variable::make(Halide::Float(32), "t");
    g.filters[0].body = test::loop(
        "i", 3, LetStmt::make("t", test::load("in", i), test::store("x", Max::make(t, Halide::Expr(0.0f)), i)));
    std::string why;
    std::optional<FixedSumBound> p = fixed_sum_bound(g, g.filters[0], &why);
    ASSERT_TRUE(p) << why;
    ASSERT_EQ(p->stored.count("x"), 1u);
    EXPECT_DOUBLE_EQ(p->stored.at("x").first, 0.0);
    EXPECT_DOUBLE_EQ(p->stored.at("x").second, 3.96875);

    std::optional<FixedSumBound> alone = fixed_sum_bound(g, g.filters[1], &why);  // x by its format
    ASSERT_TRUE(alone) << why;
    EXPECT_DOUBLE_EQ(alone->lo, -14.46875);
    std::optional<FixedSumBound> mac = fixed_sum_bound(g, g.filters[1], &why, p->stored);
    ASSERT_TRUE(mac) << why;
    EXPECT_DOUBLE_EQ(mac->lo, -7.9375);
    EXPECT_DOUBLE_EQ(mac->hi, 9.421875);
    EXPECT_EQ(mac->integer, 5);
    EXPECT_DOUBLE_EQ(mac->stored.at("out").first, -2.0);
    EXPECT_DOUBLE_EQ(mac->stored.at("out").second, 1.984375);

    prove_fixed_accumulators(g);  // takes p's range to mac
    EXPECT_DOUBLE_EQ(g.filters[1].fixed.sum_max, 9.421875);
    // A second writer of x without a proof leaves x to its format.
    FilterGraph two = mac_graph();
    two.filters[0].body = g.filters[0].body;
    Filter other = mac_graph().filters[0];  // reads the float input outside a let: no proof
    other.name = other.function_name = "p2";
    two.filters.insert(two.filters.begin() + 1, other);
    prove_fixed_accumulators(two);
    EXPECT_DOUBLE_EQ(two.filters[2].fixed.sum_max, 14.46875);
}

TEST(FixedWidths, AnUnboundedUpdateKeepsTheRule) {
    // acc = acc * x: not a sum, a max or a min.
    FilterGraph g = mac_graph();
    Filter &f = g.filters[1];
    Expr v = test::var("v"), r = test::var("r");
    Stmt update = test::store("acc", test::load("acc", 0) * test::load("x", r), 0);
    Stmt body = Block::make({test::store("acc", test::load("b", v), 0), test::loop("r", 3, update)});
    Stmt consume = ProducerConsumer::make("acc", false, test::store("out", test::load("acc", 0), v));
    f.body = test::loop("v", 4, Block::make(ProducerConsumer::make("acc", true, body), consume));
    std::string why;
    EXPECT_FALSE(fixed_sum_bound(g, f, &why));
    EXPECT_NE(why.find("an update other than"), std::string::npos) << why;
    prove_fixed_accumulators(g);
    EXPECT_EQ(g.filters[1].fixed.accumulator(), (FixedFormat{24, 12}));  // the rule: 2F + I + 10
}

}  // namespace
}  // namespace flowhls
