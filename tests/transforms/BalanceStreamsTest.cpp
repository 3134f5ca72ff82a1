// balance-streams with a BalanceMemo: the stored result is the computed one, byte for byte.
#include "TestSupport.h"
#include "graph/GraphText.h"
#include "transforms/BalanceStreams.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

FilterGraph pass_test_graph(const std::string &name) {
    std::string path = std::string(FLOWHLS_PASS_TEST_DIR) + "/balance-streams/" + name;
    return parse_graph(test::read_file(path), path);
}

class BalanceMemoGraphs : public ::testing::TestWithParam<std::string> {};

TEST_P(BalanceMemoGraphs, AHitGivesTheComputedGraphAndChangedFlag) {
    FilterGraph computed = pass_test_graph(GetParam());
    PassResult plain = balance_streams(computed);

    BalanceMemo memo;
    FilterGraph first = pass_test_graph(GetParam()), second = pass_test_graph(GetParam());
    PassResult miss = balance_streams(first, &memo);
    PassResult hit = balance_streams(second, &memo);
    EXPECT_EQ(memo.size(), 1u);
    EXPECT_EQ(memo.hits(), 1);
    EXPECT_EQ(print_graph(first), print_graph(computed));
    EXPECT_EQ(print_graph(second), print_graph(computed));
    EXPECT_EQ(miss.changed, plain.changed);
    EXPECT_EQ(hit.changed, plain.changed);
    // Run again on its own output: unchanged, from the memo as without it.
    EXPECT_EQ(balance_streams(second, &memo).changed, balance_streams(computed).changed);
}

INSTANTIATE_TEST_SUITE_P(PassTests, BalanceMemoGraphs,
                         ::testing::Values("chain.graph", "reconvergent.graph", "window-ring.graph"));

TEST(BalanceMemo, KeyCoversWhatTheSimulationReads) {
    FilterGraph g = pass_test_graph("reconvergent.graph");
    const std::string base = balance_streams_key(g);
    auto changed = [&](auto edit) {
        FilterGraph copy = g;
        edit(copy);
        return balance_streams_key(copy) != base;
    };
    EXPECT_EQ(balance_streams_key(g), base);
    for (size_t i = 0; i < g.buffers.size(); i++) {
        EXPECT_TRUE(changed([&](FilterGraph &c) { c.buffers[i].shape.push_back(2); }));
        EXPECT_TRUE(changed([&](FilterGraph &c) { c.buffers[i].requested_depth += 1; }));
        EXPECT_TRUE(changed([&](FilterGraph &c) { c.buffers[i].line_buffer.first_col += 1; }));
        EXPECT_TRUE(changed([&](FilterGraph &c) { c.buffers[i].window_buffer.last_row += 1; }));
        EXPECT_TRUE(changed([&](FilterGraph &c) { c.buffers[i].consumers.push_back(0); }));
    }
    EXPECT_TRUE(changed([](FilterGraph &c) { c.filters[0].name += "x"; }));
}

}  // namespace
}  // namespace flowhls
