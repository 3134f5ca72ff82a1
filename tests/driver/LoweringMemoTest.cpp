// The exploration's lowering memo (src/driver/LoweringMemo.h): its key tells every loop
// schedule apart, a changed schedule is lowered again, and an exploration with the memo gives
// the same points, byte for byte, as one that lowers every point.
#include "analysis/Device.h"
#include "driver/CompileGraph.h"
#include "driver/LoweringMemo.h"
#include "dse/Budget.h"
#include "dse/Search.h"
#include "dse/Space.h"
#include "flowhls/Examples.h"
#include "emit/QorReport.h"
#include "graph/GraphText.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

namespace flowhls {
namespace {

LoopTransform a_split() {
    LoopTransform t;
    t.kind = LoopTransform::Kind::Split;
    t.func = "f";
    t.loop = "x";
    t.outer = "xo";
    t.inner = "xi";
    t.factor = 2;
    t.origin = "dse: f";
    return t;
}

// A key that left out a field would give two of these changes (or a change and the original)
// the same key: the memo would then hand one schedule's graph to another.
TEST(LoweringMemo, KeyTellsEveryFieldApart) {
    using K = LoopTransform::Kind;
    const std::vector<std::function<void(LoopTransform &)>> changes = {
        [](LoopTransform &t) { t.kind = K::Reorder; },
        [](LoopTransform &t) { t.func = "g"; },
        [](LoopTransform &t) { t.stage = 1; },
        [](LoopTransform &t) { t.loops = {"x"}; },
        [](LoopTransform &t) { t.loop = "y"; },
        [](LoopTransform &t) { t.outer = "yo"; },
        [](LoopTransform &t) { t.inner = "yi"; },
        [](LoopTransform &t) { t.fused = "xy"; },
        [](LoopTransform &t) { t.at_func = "h"; },
        [](LoopTransform &t) { t.at_loop = "z"; },
        [](LoopTransform &t) { t.input = "in"; },
        [](LoopTransform &t) { t.factor = 4; },
        [](LoopTransform &t) { t.tail = Halide::TailStrategy::GuardWithIf; },
        [](LoopTransform &t) { t.origin = "dse: g"; },
        // Field boundaries: the same characters split differently between fields or list items.
        [](LoopTransform &t) { t.outer = "x"; t.inner = "oxi"; },
        [](LoopTransform &t) { t.loops = {"a", "b"}; },
        [](LoopTransform &t) { t.loops = {"a,b"}; },
        [](LoopTransform &t) { t.loops = {"ab"}; },
    };
    const LoopTransform base = a_split();
    std::set<std::string> keys = {lowering_key({base}, HlsTarget::Vitis)};
    for (size_t i = 0; i < changes.size(); i++) {
        LoopTransform t = base;
        changes[i](t);
        EXPECT_TRUE(keys.insert(lowering_key({t}, HlsTarget::Vitis)).second) << "change " << i;
    }
    // The list: its length and order, and the target.
    LoopTransform other = base;
    other.kind = LoopTransform::Kind::Unroll;
    EXPECT_TRUE(keys.insert(lowering_key({}, HlsTarget::Vitis)).second);
    EXPECT_TRUE(keys.insert(lowering_key({base, other}, HlsTarget::Vitis)).second);
    EXPECT_TRUE(keys.insert(lowering_key({other, base}, HlsTarget::Vitis)).second);
    EXPECT_TRUE(keys.insert(lowering_key({base, base}, HlsTarget::Vitis)).second);
    EXPECT_TRUE(keys.insert(lowering_key({base}, HlsTarget::Bambu)).second);
    // Equal lists, equal keys (the memo's hits).
    EXPECT_EQ(lowering_key({base, other}, HlsTarget::Vitis), lowering_key({base, other}, HlsTarget::Vitis));
}

// The first node of `space` whose order 1 ("reduction outside") has loop transformations.
int reordered_node(const dse::DesignSpace &space) {
    for (size_t i = 0; i < space.nodes.size(); i++) {
        if (space.nodes[i].orders.size() > 1 && !space.nodes[i].orders[1].transforms.empty()) return static_cast<int>(i);
    }
    return -1;
}

// pb_2mm: D reads tmp. A changed schedule of tmp (the dependency) is a new key, so the memo
// lowers it; the same schedule again is a hit and gives the same graph.
TEST(LoweringMemo, AChangedScheduleIsLoweredAgain) {
    HalideProgram program = build_example("pb_2mm", "", "mini");
    LoweringMemo memo;
    const dse::DesignSpace space = dse::build_space(program, memo.extract(program, HlsTarget::Vitis));
    const std::string naive = print_graph(memo.extract(program, HlsTarget::Vitis));
    EXPECT_EQ(memo.hits(), 1);
    int node = reordered_node(space);
    ASSERT_GE(node, 0);
    dse::PointChoices choices(space.nodes.size());
    choices[node].order = 1;
    HalideProgram changed = program;
    changed.directives.append(dse::point_schedule(space, choices));
    const std::string reordered = print_graph(memo.extract(changed, HlsTarget::Vitis));
    EXPECT_EQ(memo.size(), 2u);
    EXPECT_EQ(memo.hits(), 1);
    EXPECT_NE(reordered, naive);
    EXPECT_EQ(print_graph(memo.extract(changed, HlsTarget::Vitis)), reordered);
    EXPECT_EQ(memo.hits(), 2);
    // An unroll is a directive, not a loop transformation: the same lowering.
    dse::PointChoices unrolled(space.nodes.size());
    unrolled[node].unroll = 1;
    HalideProgram directive_only = program;
    directive_only.directives.append(dse::point_schedule(space, unrolled));
    EXPECT_EQ(print_graph(memo.extract(directive_only, HlsTarget::Vitis)), naive);
    EXPECT_EQ(memo.hits(), 3);
}

// The exploration's key property: with the memo, every point's figures and the choice are the
// ones lowering every point gives (pareto.csv byte for byte), and the memo was used.
TEST(LoweringMemo, ExplorationWithTheMemoGivesTheSamePoints) {
    HalideProgram program = build_example("pb_2mm", "", "small");
    CompileOptions options;
    LoweringMemo memo;
    const dse::DesignSpace space = dse::build_space(program, extract_program(program, options.target));
    dse::SearchOptions so;
    so.max_points = 24;
    so.budget = dse::default_budget(load_device(options.device, options.clock_mhz));
    auto explore = [&](LoweringMemo *m) {
        dse::Evaluator evaluate = [&](const HlsSchedule &schedule) {
            HalideProgram p = program;
            p.directives.append(schedule);
            return estimate_program(p, options, m);
        };
        return dse::pareto_csv(space, dse::explore(space, evaluate, so));
    };
    const std::string lowered = explore(nullptr), memoized = explore(&memo);
    EXPECT_EQ(memoized, lowered);
    EXPECT_GT(memo.hits(), 0);
    EXPECT_GT(memo.size(), 1u);  // points with other loop transformations were lowered
}

// Filters estimated on several threads give the estimate one thread gives: every figure of
// every filter, in the same order (qor_json byte for byte), at the naive point and at a point
// with unrolls and a reordered filter.
TEST(LoweringMemo, FiltersEstimatedOnThreadsGiveTheSameEstimate) {
    HalideProgram program = build_example("pb_2mm", "", "small");
    CompileOptions options;
    const Device device = load_device(options.device, options.clock_mhz);
    const dse::DesignSpace space = dse::build_space(program, extract_program(program, options.target));
    int node = reordered_node(space);
    ASSERT_GE(node, 0);
    dse::PointChoices changed(space.nodes.size());
    changed[node].order = 1;
    for (dse::Choice &c : changed) c.unroll = 1;
    for (const dse::PointChoices &choices : {dse::PointChoices(space.nodes.size()), changed}) {
        HalideProgram p = program;
        p.directives.append(dse::point_schedule(space, choices));
        options.estimate_threads = 1;
        DesignEstimate one = estimate_program(p, options);
        ASSERT_GT(one.filters.size(), 1u);
        for (int threads : {2, 3, 16}) {
            options.estimate_threads = threads;
            EXPECT_EQ(qor_json(estimate_program(p, options), device), qor_json(one, device)) << threads << " threads";
        }
    }
}

// The exploration with the lowering of the series' next point started ahead (prefetch, on a
// thread of its own) and the filters estimated on two threads: the points and the choice
// lowering every point on one thread gives (pareto.csv byte for byte), and prefetches ran and
// were used: points found their graph lowered ahead (more hits than the memo alone gives).
TEST(LoweringMemo, ExplorationWithPrefetchesAndThreadsGivesTheSamePoints) {
    HalideProgram program = build_example("pb_2mm", "", "small");
    CompileOptions options;
    const dse::DesignSpace space = dse::build_space(program, extract_program(program, options.target));
    dse::SearchOptions so;
    so.max_points = 24;
    so.budget = dse::default_budget(load_device(options.device, options.clock_mhz));
    auto explore = [&](LoweringMemo *m, const CompileOptions &o, const dse::SearchOptions &s) {
        dse::Evaluator evaluate = [&](const HlsSchedule &schedule) {
            HalideProgram p = program;
            p.directives.append(schedule);
            return estimate_program(p, o, m);
        };
        return dse::pareto_csv(space, dse::explore(space, evaluate, s));
    };
    const std::string lowered = explore(nullptr, options, so);
    LoweringMemo alone;
    EXPECT_EQ(explore(&alone, options, so), lowered);
    LoweringMemo memo;
    CompileOptions threaded = options;
    threaded.estimate_threads = 2;
    dse::SearchOptions prefetching = so;
    int hinted = 0;
    prefetching.prefetch = [&](const HlsSchedule &schedule) {
        hinted++;
        HalideProgram p = program;
        p.directives.append(schedule);
        memo.prefetch(p, options.target);
    };
    EXPECT_EQ(explore(&memo, threaded, prefetching), lowered);
    memo.wait();
    EXPECT_GT(hinted, 0);
    EXPECT_GT(memo.prefetched(), 0);
    EXPECT_GT(memo.hits(), alone.hits());
}

}  // namespace
}  // namespace flowhls
