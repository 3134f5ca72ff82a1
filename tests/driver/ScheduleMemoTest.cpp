// The exploration's filter-schedule memo (src/analysis/ScheduleMemo.h): its key tells every
// scheduling input apart, a point that changes one filter schedules again only the filters
// whose body or context changed, and an exploration with the memo gives the same points, byte
// for byte, as one that schedules every filter of every point.
#include "analysis/Device.h"
#include "analysis/ScheduleMemo.h"
#include "driver/CompileGraph.h"
#include "driver/LoweringMemo.h"
#include "dse/Budget.h"
#include "dse/Search.h"
#include "dse/Space.h"
#include "emit/QorReport.h"
#include "flowhls/Examples.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

namespace flowhls {
namespace {

// A key that left out a field would give two of these contexts the same key: the memo would
// then hand one filter's schedule to another.
TEST(ScheduleMemo, KeyTellsEveryFieldApart) {
    std::map<std::string, LoopDirective> directives = {{"f.s0.x", LoopDirective{1, 0, true, false}}};
    FilterContext base;
    base.arrays["a"] = ArrayInfo();
    base.value_bits["v"] = 8;
    base.directives = &directives;
    std::map<std::string, LoopDirective> d2 = directives;
    d2["f.s0.x"].unroll = 2;
    std::map<std::string, LoopDirective> d3 = directives;
    d3["f.s0.x"].pipeline_inferred = true;
    const std::vector<std::function<void(FilterContext &, QorOptions &)>> changes = {
        [](FilterContext &c, QorOptions &) { c.arrays["a"].kind = MemoryKind::Register; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].size = 7; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].bits = 8; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].axi_width_bits = 512; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.enabled = true; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.factor = 4; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.kind = PartitionKind::Block; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.inferred = true; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.reason = "r"; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.dims = {DimensionPartition{1, PartitionKind::Cyclic, 2}}; },
        [](FilterContext &c, QorOptions &) { c.arrays["a"].partition.shape = {4, 4}; },
        [](FilterContext &c, QorOptions &) { c.arrays["b"] = ArrayInfo(); },
        [](FilterContext &c, QorOptions &) { c.directives = nullptr; },
        [&](FilterContext &c, QorOptions &) { c.directives = &d2; },
        [&](FilterContext &c, QorOptions &) { c.directives = &d3; },
        [](FilterContext &c, QorOptions &) { c.value_bits["v"] = 9; },
        [](FilterContext &c, QorOptions &) { c.value_bits["w"] = 8; },
        [](FilterContext &c, QorOptions &) { c.fixed_data_bits = 16; },
        [](FilterContext &c, QorOptions &) { c.fixed_acc_bits = 32; },
        [](FilterContext &, QorOptions &o) { o.pipeline_innermost = false; },
        [](FilterContext &, QorOptions &o) { o.target_ii = 2; },
        [](FilterContext &, QorOptions &o) { o.flatten = false; },
        // Field boundaries: the same characters split differently between a name and a value.
        [](FilterContext &c, QorOptions &) { c.value_bits.clear(); c.value_bits["v8"] = 0; },
    };
    const std::set<std::string> accessed = {"a", "b"};
    std::set<std::string> keys = {schedule_context_key(base, QorOptions(), accessed)};
    for (size_t i = 0; i < changes.size(); i++) {
        FilterContext c = base;
        QorOptions o;
        changes[i](c, o);
        EXPECT_TRUE(keys.insert(schedule_context_key(c, o, accessed)).second) << "change " << i;
    }
    // Threads do not change a schedule: the same key.
    QorOptions threaded;
    threaded.threads = 4;
    EXPECT_EQ(schedule_context_key(base, threaded, accessed), schedule_context_key(base, QorOptions(), accessed));
    // An array the body does not access is not in the key.
    FilterContext other = base;
    other.arrays["c"].partition.factor = 8;
    EXPECT_EQ(schedule_context_key(other, QorOptions(), accessed), schedule_context_key(base, QorOptions(), accessed));
    EXPECT_NE(schedule_context_key(other, QorOptions(), {"a", "b", "c"}), schedule_context_key(base, QorOptions(), {"a", "b", "c"}));
}

// Seven chained matrix products: a point that unrolls one more filter schedules again only the filters
// whose body or context it changed (fewer than all), takes the others from the memo, and its estimate is
// the one scheduling every filter gives (qor_json byte for byte); the same point again is all
// hits.
TEST(ScheduleMemo, APointChangingOneFilterSchedulesOnlyWhatChanged) {
    HalideProgram program = build_example("shls_k7mmseq_balanced", "", "");
    CompileOptions options;
    const Device device = load_device(options.device, options.clock_mhz);
    const dse::DesignSpace space = dse::build_space(program, extract_program(program, options.target));
    ScheduleMemo memo;
    CompileOptions memoized = options;
    memoized.schedule_memo = &memo;
    auto estimate = [&](const dse::PointChoices &choices, const CompileOptions &o) {
        HalideProgram p = program;
        p.directives.append(dse::point_schedule(space, choices));
        return estimate_program(p, o);
    };
    // The nodes with unroll factors: the first one unrolled at the base point (every point but
    // the naive one may change all filters, e.g. inline them), then the last one too.
    std::vector<int> nodes;
    for (size_t i = 0; i < space.nodes.size(); i++) {
        if (space.nodes[i].orders[0].factors.size() > 1) nodes.push_back(static_cast<int>(i));
    }
    ASSERT_GE(nodes.size(), 3u);
    dse::PointChoices base(space.nodes.size());
    base[nodes.front()].unroll = 1;
    DesignEstimate first = estimate(base, memoized);
    const int64_t filters = static_cast<int64_t>(first.filters.size());
    ASSERT_GT(filters, 2);
    EXPECT_EQ(memo.computed(), filters);
    EXPECT_EQ(memo.hits(), 0);
    EXPECT_EQ(qor_json(first, device), qor_json(estimate(base, options), device));
    dse::PointChoices unrolled = base;
    unrolled[nodes.back()].unroll = 1;
    DesignEstimate changed = estimate(unrolled, memoized);
    const int64_t again = memo.computed() - filters;
    EXPECT_GE(again, 1);
    EXPECT_LT(again, filters);
    EXPECT_EQ(memo.hits(), filters - again);
    EXPECT_EQ(qor_json(changed, device), qor_json(estimate(unrolled, options), device));
    EXPECT_NE(qor_json(changed, device), qor_json(first, device));
    const int64_t computed = memo.computed();
    EXPECT_EQ(qor_json(estimate(unrolled, memoized), device), qor_json(changed, device));
    EXPECT_EQ(memo.computed(), computed);
}

// The exploration's key property: with the schedule memo (and the lowering memo, filters on two
// threads), every point's figures and the choice are the ones scheduling every filter gives
// (pareto.csv byte for byte), and the memo was used.
TEST(ScheduleMemo, ExplorationWithTheMemoGivesTheSamePoints) {
    for (const auto &[name, size] : std::vector<std::pair<std::string, std::string>>{
             {"pb_3mm", "small"}, {"shls_k7mmseq_balanced", ""}}) {
        HalideProgram program = build_example(name, "", size);
        CompileOptions options;
        const dse::DesignSpace space = dse::build_space(program, extract_program(program, options.target));
        dse::SearchOptions so;
        so.max_points = 24;
        so.budget = dse::default_budget(load_device(options.device, options.clock_mhz));
        auto explore = [&](const CompileOptions &o, LoweringMemo *lowering) {
            dse::Evaluator evaluate = [&](const HlsSchedule &schedule) {
                HalideProgram p = program;
                p.directives.append(schedule);
                return estimate_program(p, o, lowering);
            };
            return dse::pareto_csv(space, dse::explore(space, evaluate, so));
        };
        const std::string every = explore(options, nullptr);
        ScheduleMemo memo;
        LoweringMemo lowering;
        CompileOptions memoized = options;
        memoized.schedule_memo = &memo;
        memoized.estimate_threads = 2;
        EXPECT_EQ(explore(memoized, &lowering), every) << name;
        EXPECT_GT(memo.hits(), 0) << name;
        EXPECT_GT(memo.computed(), 0) << name;
    }
}

}  // namespace
}  // namespace flowhls
