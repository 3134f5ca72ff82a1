// Tests of the design-space exploration: Pareto dominance and the search (determinism, budget,
// choice) on a model evaluator.
#include "dse/Budget.h"
#include "dse/FrontierPlot.h"
#include "dse/Pareto.h"
#include "dse/Search.h"
#include "dse/Space.h"
#include "dse/Trim.h"
#include "driver/CompileGraph.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/ProgramCopy.h"
#include "graph/ExtractFilters.h"
#include "transforms/PlaceWeights.h"
#include "SpaceTestSupport.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace flowhls::dse {
namespace {

TEST(Pareto, DominanceNeedsNoWorseEverywhereAndBetterSomewhere) {
    Objectives a{100, 10, 5, 1000}, b{200, 10, 5, 1000}, c{50, 20, 5, 1000};
    EXPECT_TRUE(dominates(a, b));
    EXPECT_FALSE(dominates(b, a));
    EXPECT_FALSE(dominates(a, a));
    EXPECT_FALSE(dominates(a, c));  // slower but fewer DSPs: a trade-off
    EXPECT_FALSE(dominates(c, a));
    Objectives d{100, 10, 6, 1000};  // one more BRAM18K
    EXPECT_TRUE(dominates(a, d));
    EXPECT_EQ(pareto_front({a, b, c, d, a}), (std::vector<size_t>{0, 2, 4}));
    EXPECT_TRUE(pareto_front({}).empty());
}

SearchOptions toy_options(uint64_t seed, int64_t dsp);

// Runs the search on pb_gemm MEDIUM with a toy estimator (5 DSPs a copy, the interval in
// inverse proportion to the copies) at `dsp`, checking that every point keeps unroll x jam
// within the limit of its step: kMaxUnroll, twice that at the fill's points, kMaxCopies once
// the jam series found kMaxUnroll copies within the budget (`raised`: such a point was seen).
SearchResult gemm_toy_search(int64_t dsp, bool &raised) {
    DesignSpace s = space_of(build_example("pb_gemm", "", "medium"));
    EXPECT_EQ(s.nodes.size(), 1u);
    int evaluated = 0;
    Evaluator count = [&](const HlsSchedule &schedule) {
        evaluated++;
        DesignEstimate e;
        // Copies: the splits' factors (jam, and the unroll's split form, whose directive on j
        // then only reaches stage 0), and the partial unrolls of loops not split.
        int64_t copies = 1;
        std::set<std::string> split;
        for (const LoopTransform &t : schedule.transforms()) {
            // A loop split in two stages (the jam of the update and of its initialization)
            // counts once.
            if (t.kind != LoopTransform::Kind::Split || split.count(t.loop)) continue;
            copies *= t.factor;
            split.insert(t.loop);
        }
        for (const Directive &d : schedule.directives()) copies *= d.value > 0 && !split.count(d.loop) ? d.value : 1;
        e.interval = e.latency = 10000000 / copies;
        e.total.dsp = 5 * copies;
        FilterEstimate f;
        f.name = "C_out";
        f.latency = e.interval;
        e.filters.push_back(f);
        return e;
    };
    SearchOptions o = toy_options(1, dsp);
    o.max_points = 60;
    SearchResult r = explore(s, count, o);
    EXPECT_EQ(evaluated, static_cast<int>(r.points.size()));
    bool jammed = false, filled = false;
    raised = false;
    for (const EvaluatedPoint &p : r.points) {
        const bool fill = p.origin.rfind("fill of ", 0) == 0;
        filled = filled || fill;
        for (size_t i = 0; i < s.nodes.size(); i++) {
            const int64_t copies = total_unroll(s.nodes[i], p.choices[i]);
            // The raise happens in the jam series only.
            raised = raised || (copies > kMaxUnroll && p.origin == "jam");
            EXPECT_LE(copies, raised ? kMaxCopies : fill ? 2 * kMaxUnroll : kMaxUnroll)
                << p.origin << ": " << point_text(s, p.choices);
            jammed = jammed || p.choices[i].jam > 0;
        }
    }
    EXPECT_TRUE(jammed) << pareto_csv(s, r);
    EXPECT_TRUE(filled) << pareto_csv(s, r);
    return r;
}

// The search never evaluates a point whose unroll x jam exceeds its step's limit, and every
// factor it uses divides its loop's trip count (gemm's one order has a jam: the space offers no
// non-divisor unroll there). At 1,000 DSPs (200 copies) the jam series' largest point within
// kMaxUnroll (55 copies, 11 x 5 or 55 x 1; 220 = 2^2 x 5 x 11, 200 = 2^3 x 5^2) fits, so the
// series goes on beyond kMaxUnroll (issue 14) and the choice spends the whole budget: 200
// copies (20 x 10, 40 x 5, ...; it was 110 when only the fill went beyond, to twice kMaxUnroll).
TEST(SpaceJam, SearchKeepsUnrollTimesJamWithinTheLimit) {
    bool raised = false;
    SearchResult r = gemm_toy_search(1000, raised);
    EXPECT_TRUE(raised);
    ASSERT_GE(r.chosen, 0);
    EXPECT_EQ(r.points[r.chosen].total.dsp, 5 * 200);
}

// When kMaxUnroll copies do not fit the budget (200 DSPs: 40 copies), no step but the fill goes
// beyond kMaxUnroll (the search's path at HIDA's DSP counts is the one before issue 14's raise).
TEST(SpaceJam, SearchStaysWithinKMaxUnrollWhenTheBudgetBinds) {
    bool raised = false;
    SearchResult r = gemm_toy_search(200, raised);
    EXPECT_FALSE(raised);
    ASSERT_GE(r.chosen, 0);
    EXPECT_EQ(r.points[r.chosen].total.dsp, 5 * 40);
}

// The default order of a toy filter `key` of the search tests: its loop x unrolled by 1, 2, 4, 8.
OrderOption toy_default_order(const std::string &key) {
    OrderOption o;
    o.name = "default";
    o.unroll_loop = "x";
    o.unroll_keys = {key};
    o.factors = {1, 2, 4, 8};
    return o;
}

// Gives a toy order the output-channel jam of loop y (split into yo, yi; yi outermost) by 1, 2, 4, 8.
void add_toy_jam(OrderOption &o) {
    o.jam_key = o.unroll_keys.front();
    o.jam_loop = "y";
    o.jam_outer = "yo";
    o.jam_inner = "yi";
    o.jam_stage = 1;
    o.jam_order = {"yi", "x", "yo"};
    o.jams = {1, 2, 4, 8};
}

// A toy filter's unroll of x and jam of y in `schedule` (1 where it has none).
std::pair<int64_t, int64_t> toy_unroll_and_jam(const HlsSchedule &schedule, const std::string &name) {
    int64_t u = 1, j = 1;
    for (const Directive &d : schedule.directives()) {
        if (d.target == name && d.loop == "x") u = d.value;
    }
    for (const LoopTransform &t : schedule.transforms()) {
        if (t.func == name && t.kind == LoopTransform::Kind::Split) j = t.factor;
    }
    return {u, j};
}

// The per-filter mix of the balanced and the jam points: f0 gains only from a jam (an unroll
// multiplies its reads of a kernel input's one port, as for LeNet-5's conv1), f1 only from an
// unroll (a jam multiplies its weight reads through m_axi, as for ResNet-18's layer4): the
// balanced series leaves f0 slow, the jam series f1; the mix reaches an interval neither did.
TEST(Search, MixTakesEachFiltersFasterParallelism) {
    DesignSpace s;
    for (int i = 0; i < 2; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        OrderOption o = toy_default_order(n.key);
        add_toy_jam(o);
        n.orders.push_back(o);
        s.nodes.push_back(n);
    }
    Evaluator model = [](const HlsSchedule &schedule) {
        DesignEstimate e;
        for (int i = 0; i < 2; i++) {
            std::string name = "f" + std::to_string(i);
            auto [u, j] = toy_unroll_and_jam(schedule, name);
            FilterEstimate f;
            f.name = name;
            f.latency = 64000 / (i == 0 ? j : u);
            e.filters.push_back(f);
            e.interval = std::max(e.interval, f.latency);
            e.total.dsp += 5 * u * j;
        }
        e.latency = e.interval;
        return e;
    };
    SearchOptions o = toy_options(3, 2000);
    o.max_points = 12;
    SearchResult r = explore(s, model, o);
    int64_t best_balanced = 0, best_jam = 0, best_mix = 0;
    for (const EvaluatedPoint &p : r.points) {
        int64_t &best = p.origin == "balanced" ? best_balanced : p.origin == "jam" ? best_jam : best_mix;
        if (p.origin == "balanced" || p.origin == "jam" || p.origin == "mix") {
            best = best == 0 ? p.interval : std::min(best, p.interval);
        }
    }
    ASSERT_GT(best_mix, 0) << pareto_csv(s, r);
    EXPECT_LT(best_mix, std::min(best_balanced, best_jam)) << pareto_csv(s, r);
    ASSERT_GE(r.chosen, 0);
    EXPECT_EQ(r.points[r.chosen].choices[1].jam, 0) << pareto_csv(s, r);
}

// A jam series gives no unroll to a filter whose unrolls did not pay: f0 (work 28,000) gains
// only from a jam and offers the unroll 7 (as ResNet-18 224x224's conv1, its ring read at II 7
// when unrolled), f1 (work 64,000) gains from both. At the jam target 4,000 f0 needs 7 copies:
// `u7` would be the least parallelism reaching it (interval 28,000, the series would stop);
// the balanced series showed that its unroll does not pay, so it takes `j8` (interval 4,000
// or below).
TEST(Search, JamSeriesSkipsAnUnrollThatDidNotPay) {
    DesignSpace s;
    for (int i = 0; i < 2; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        OrderOption o = toy_default_order(n.key);
        if (i == 0) o.factors = {1, 7};
        add_toy_jam(o);
        n.orders.push_back(o);
        s.nodes.push_back(n);
    }
    Evaluator model = [](const HlsSchedule &schedule) {
        DesignEstimate e;
        for (int i = 0; i < 2; i++) {
            std::string name = "f" + std::to_string(i);
            auto [u, j] = toy_unroll_and_jam(schedule, name);
            FilterEstimate f;
            f.name = name;
            f.latency = i == 0 ? 28000 / j : 64000 / (u * j);
            e.filters.push_back(f);
            e.interval = std::max(e.interval, f.latency);
            e.total.dsp += 5 * u * j;
        }
        e.latency = e.interval;
        return e;
    };
    SearchOptions o = toy_options(1, 2000);
    o.max_points = 16;
    SearchResult r = explore(s, model, o);
    bool unrolled = false;
    int64_t best_jam = 0;
    for (const EvaluatedPoint &p : r.points) {
        if (p.origin != "jam") continue;
        unrolled = unrolled || p.choices[0].unroll > 0;
        best_jam = best_jam == 0 ? p.interval : std::min(best_jam, p.interval);
    }
    EXPECT_FALSE(unrolled) << pareto_csv(s, r);
    EXPECT_LE(best_jam, 4000) << pareto_csv(s, r);
}

// The streaming-layout series: two filters whose maps need 1,000 BRAM18K each as ping-pong
// buffers and 100 in the "hwc" layout (the order's reorder marks it in the schedule). With a
// BRAM budget of 1,500 no point without the layout fits: the series starts from the point
// where both take "hwc" and the chosen point has the layout on both; as the naive point does
// not fit, the series without the layout are skipped: the layout's point comes right after it.
// With a budget of 5,000 the budget does not bind and the layout is not explored.
TEST(Search, HwcSeriesRunsWhenTheBudgetBinds) {
    DesignSpace s;
    for (int i = 0; i < 2; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        OrderOption o = toy_default_order(n.key);
        n.orders.push_back(o);
        o.name = "hwc";
        o.hwc = true;
        o.unroll_loop = "c";
        LoopTransform layout;
        layout.kind = LoopTransform::Kind::Reorder;
        layout.func = n.key;
        layout.loops = {"c", "x", "y", "n"};
        o.transforms = {layout};
        n.orders.push_back(o);
        s.nodes.push_back(n);
    }
    ASSERT_EQ(hwc_order(s.nodes[0]), 1);
    Evaluator model = [](const HlsSchedule &schedule) {
        DesignEstimate e;
        for (int i = 0; i < 2; i++) {
            std::string name = "f" + std::to_string(i);
            int64_t u = 1;
            bool hwc = false;
            for (const Directive &d : schedule.directives()) {
                if (d.target == name) u = d.value;
            }
            for (const LoopTransform &t : schedule.transforms()) hwc = hwc || t.func == name;
            FilterEstimate f;
            f.name = name;
            f.latency = 64000 / u;
            e.filters.push_back(f);
            e.interval = std::max(e.interval, f.latency);
            e.total.dsp += 5 * u;
            e.total.bram18k += hwc ? 100 : 1000;
        }
        e.latency = e.interval;
        return e;
    };
    SearchOptions o = toy_options(1, 2000);
    o.max_points = 12;
    o.budget.bram18k = 1500;
    SearchResult r = explore(s, model, o);
    bool series = false;
    for (const EvaluatedPoint &p : r.points) series = series || p.origin == "hwc";
    EXPECT_TRUE(series) << pareto_csv(s, r);
    ASSERT_GE(r.points.size(), 2u);
    EXPECT_EQ(r.points[1].origin, "hwc") << pareto_csv(s, r);
    for (const EvaluatedPoint &p : r.points) {
        EXPECT_TRUE(p.origin != "balanced" && p.origin != "jam" && p.origin != "mix") << pareto_csv(s, r);
    }
    ASSERT_GE(r.chosen, 0) << pareto_csv(s, r);
    EXPECT_EQ(r.points[r.chosen].choices[0].order, 1) << pareto_csv(s, r);
    EXPECT_EQ(r.points[r.chosen].choices[1].order, 1) << pareto_csv(s, r);
    EXPECT_LT(r.points[r.chosen].interval, 64000) << pareto_csv(s, r);  // unrolled in the layout
    o.budget.bram18k = 5000;
    r = explore(s, model, o);
    for (const EvaluatedPoint &p : r.points) {
        EXPECT_EQ(p.choices[0].order + p.choices[1].order, 0) << pareto_csv(s, r);
    }
}

// The step "map of N" (Search.cpp per_map): from the chosen point, the jammed nodes that
// offer the helper per map (OrderOption::map_at) and bind take it in one point, chosen when it
// fits and is faster; no such point when another filter binds, none chosen when the whole
// maps it buffers exceed the block RAM budget.
TEST(Search, PerMapStepTakesTheHelperPerMapWhereItBindsAndFits) {
    DesignSpace s;
    for (int i = 0; i < 2; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        OrderOption o;
        o.name = "hwc";
        o.hwc = true;
        o.unroll_loop = "x";
        o.unroll_keys = {n.key};
        o.factors = {1};
        if (i == 0) {
            o.jam_key = "f0#acc";
            o.jam_loop = "co";
            o.jam_outer = "coo";
            o.jam_inner = "coi";
            o.jam_order = {"coi", "x", "coo", "y", "n"};
            o.jams = {1, 2, 4};
            o.jam_copy_inputs = {"w"};
            o.map_at = "n";
            o.map_row = "y";
            LoopTransform at;
            at.kind = LoopTransform::Kind::ComputeAt;
            at.func = o.jam_key;
            at.at_func = n.key;
            at.at_loop = "y";
            o.transforms = {at};
        }
        n.orders.push_back(o);
        s.nodes.push_back(n);
    }
    auto run = [&](int64_t other, int64_t bram) {
        Evaluator model = [other](const HlsSchedule &schedule) {
            int64_t jam = 1;
            bool map = false;
            for (const LoopTransform &t : schedule.transforms()) {
                if (t.kind == LoopTransform::Kind::Split && t.func == "f0#acc") jam = t.factor;
                if (t.kind == LoopTransform::Kind::ComputeAt && t.func == "f0#acc") map = t.at_loop == "n";
                if (t.kind == LoopTransform::Kind::Reorder && t.func == "f0#acc" && map) {
                    EXPECT_EQ(t.loops, (std::vector<std::string>{"coi", "x", "y", "coo", "n"}));
                }
            }
            DesignEstimate e;
            FilterEstimate f0, f1;
            f0.name = "f0";
            f0.latency = (map ? 40000 : 60000) / jam;
            f1.name = "f1";
            f1.latency = other;
            e.filters = {f0, f1};
            e.interval = std::max(f0.latency, f1.latency);
            e.latency = e.interval;
            e.total.dsp = 5 * jam;
            e.total.bram18k = map ? 1500 : 100;
            return e;
        };
        SearchOptions o = toy_options(1, 2000);
        o.max_points = 20;
        o.budget.bram18k = bram;
        return explore(s, model, o);
    };
    auto has_map_point = [](const SearchResult &r) {
        return std::any_of(r.points.begin(), r.points.end(),
                           [](const EvaluatedPoint &p) { return p.origin.rfind("map of ", 0) == 0; });
    };
    SearchResult r = run(12000, 2000);
    ASSERT_GE(r.chosen, 0) << pareto_csv(s, r);
    EXPECT_TRUE(has_map_point(r)) << pareto_csv(s, r);
    EXPECT_TRUE(r.points[r.chosen].choices[0].map) << pareto_csv(s, r);
    EXPECT_EQ(r.points[r.chosen].interval, 12000) << pareto_csv(s, r);
    EXPECT_NE(pareto_csv(s, r).find("f0:hwc/u1/j4/map"), std::string::npos) << pareto_csv(s, r);
    r = run(12000, 1000);  // the maps do not fit
    ASSERT_GE(r.chosen, 0) << pareto_csv(s, r);
    EXPECT_TRUE(has_map_point(r)) << pareto_csv(s, r);
    EXPECT_FALSE(r.points[r.chosen].choices[0].map) << pareto_csv(s, r);
    EXPECT_EQ(r.points[r.chosen].interval, 15000) << pareto_csv(s, r);
    r = run(20000, 2000);  // f1 binds: per map would gain nothing
    EXPECT_FALSE(has_map_point(r)) << pareto_csv(s, r);
}

// A space of three nodes and an evaluator in closed form: each node's latency is its work
// over its unroll factor (x4 in the default order: the recurrence), 5 DSP per unit of unroll.
DesignSpace toy_space() {
    DesignSpace s;
    const int64_t trips[] = {64, 32, 16};
    for (int i = 0; i < 3; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        for (const char *name : {"default", "reduction outside"}) {
            OrderOption o;
            o.name = name;
            o.unroll_loop = "x";
            o.unroll_keys = {n.key};
            for (int64_t f = 1; f <= trips[i]; f *= 2) o.factors.push_back(f);
            if (o.name != "default") {
                LoopTransform t;
                t.kind = LoopTransform::Kind::Reorder;
                t.func = n.key;
                t.stage = 1;
                t.loops = {"x", "r"};
                o.transforms.push_back(t);
            }
            n.orders.push_back(o);
        }
        s.nodes.push_back(n);
    }
    return s;
}

DesignEstimate toy_estimate(const HlsSchedule &schedule) {
    const int64_t work[] = {64000, 32000, 4000};
    DesignEstimate e;
    for (int i = 0; i < 3; i++) {
        std::string name = "f" + std::to_string(i);
        int64_t u = 1, ii = 4;
        for (const Directive &d : schedule.directives()) {
            if (d.target == name) u = d.value;
        }
        for (const LoopTransform &t : schedule.transforms()) {
            if (t.func == name) ii = 1;
        }
        FilterEstimate f;
        f.name = name;
        f.latency = work[i] * ii / u;
        e.filters.push_back(f);
        e.interval = std::max(e.interval, f.latency);
        e.total.dsp += 5 * u;
        e.total.lut += 100 * u;
    }
    e.latency = e.interval;
    e.throughput = 1e8 / static_cast<double>(e.interval);
    return e;
}

SearchOptions toy_options(uint64_t seed, int64_t dsp) {
    SearchOptions o;
    o.seed = seed;
    o.max_points = 25;
    o.budget = default_budget(load_device("xcvu9p", 200));
    o.budget.dsp = dsp;
    return o;
}

TEST(Search, SameSeedSameCsvBytes) {
    DesignSpace s = toy_space();
    std::string a = pareto_csv(s, explore(s, toy_estimate, toy_options(7, 200)));
    std::string b = pareto_csv(s, explore(s, toy_estimate, toy_options(7, 200)));
    EXPECT_EQ(a, b);
    // header + max_points rows but the trim's reserve, plus the fill's half of it (3 points
    // raising the chosen point's filters): the toy's filters report no DSPs of their own, so
    // the trim has no step to try.
    EXPECT_EQ(trim_reserve(toy_options(7, 200)), 6);
    EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 23);
    EXPECT_NE(a.find(",fill of "), std::string::npos);
    EXPECT_EQ(a.substr(0, a.find('\n')),
              "point,origin,status,interval,latency,samples_per_s,dsp,bram18k,uram,lut,ff,dsp_efficiency,fits,pareto,knobs");
}

TEST(Search, ChoosesTheFastestPointThatFitsAndMarksTheFrontier) {
    DesignSpace s = toy_space();
    SearchResult r = explore(s, toy_estimate, toy_options(3, 200));
    ASSERT_GE(r.chosen, 0);
    const EvaluatedPoint &c = r.points[r.chosen];
    EXPECT_TRUE(c.fits);
    EXPECT_LE(c.total.dsp, 200);
    EXPECT_EQ(r.points[0].origin, "naive");
    EXPECT_EQ(r.points[0].interval, 256000);
    // 40 units of unroll at most: the work-proportional split 64:32:4 gives 16 + 8 + 1 (or
    // 16 + 16 + 1), interval 4,000: 64x better than the naive point.
    EXPECT_LE(c.interval, 4000);
    for (const EvaluatedPoint &p : r.points) {
        if (p.fits) {
            EXPECT_GE(p.interval, c.interval);
        }
        for (const EvaluatedPoint &q : r.points) {
            if (p.pareto) {
                EXPECT_FALSE(dominates(q.objectives(), p.objectives()));
            }
        }
    }
}

TEST(Search, NoPointFitsATinyBudget) {
    DesignSpace s = toy_space();
    SearchResult r = explore(s, toy_estimate, toy_options(1, 10));  // the naive point needs 15 DSP
    EXPECT_EQ(r.chosen, -1);
    EXPECT_FALSE(r.points.empty());
}

TEST(Search, FailedPointsAreRecordedNotChosen) {
    DesignSpace s = toy_space();
    Evaluator picky = [](const HlsSchedule &schedule) {
        if (!schedule.transforms().empty()) throw Error("no reorder here");
        return toy_estimate(schedule);
    };
    SearchResult r = explore(s, picky, toy_options(1, 200));
    ASSERT_GE(r.chosen, 0);
    EXPECT_FALSE(r.points[1].ok);
    EXPECT_EQ(r.points[1].error, "no reorder here");
    EXPECT_TRUE(point_schedule(s, r.points[r.chosen].choices).transforms().empty());
    EXPECT_NE(pareto_csv(s, r).find("error: no reorder here"), std::string::npos);
}

// The trim tests' three toy filters f0, f1, f2 (f2 with no unroll) and their model: f0 needs
// its unrolls (64,000 cycles of work), f1's latency collapses at any unroll (70,000 cycles at
// 1, 1,000 from 2), f2 is a short loop of 12 multipliers (60 DSPs) at II 1 whose operators an
// II of N shares (100 N cycles).
DesignSpace trim_toy_space() {
    DesignSpace s;
    for (int i = 0; i < 3; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        n.orders.push_back(toy_default_order(n.key));
        if (i == 2) n.orders[0].factors = {1};
        s.nodes.push_back(n);
    }
    return s;
}

DesignEstimate trim_toy_model(const HlsSchedule &schedule) {
    DesignEstimate e;
    for (int i = 0; i < 3; i++) {
        std::string name = "f" + std::to_string(i);
        int64_t u = 1, ii = 1;
        for (const Directive &d : schedule.directives()) {
            if (d.target != name) continue;
            (d.kind == Directive::Kind::Pipeline ? ii : u) = d.value;
        }
        FilterEstimate f;
        f.name = name;
        f.latency = i == 0 ? 64000 / u : i == 1 ? (u == 1 ? 70000 : 1000) : 100 * ii;
        f.resources.dsp = i == 2 ? 5 * ((12 + ii - 1) / ii) : 5 * u;  // f2: 12 fmul per iteration
        if (i == 2) f.operations["fmul"] = 12;
        e.filters.push_back(f);
        e.interval = std::max(e.interval, f.latency);
        e.total.dsp += f.resources.dsp;
    }
    e.latency = e.interval;
    return e;
}

// The trim: f0 needs its unrolls (64,000 cycles of work), f1's latency collapses at any unroll
// (70,000 cycles at 1, 1,000 from 2: the balanced series, which scales its work, gives it as
// much as f0), and f2 is a short loop of 12 multipliers (60 DSPs) at II 1 (as the MLP's
// softmax) whose operators an II of N shares. The trim lowers f1's unroll and raises f2's II: fewer DSPs
// than any point the search reached before it, at the interval the choice had.
TEST(Search, TrimLowersDspsAtEqualInterval) {
    DesignSpace s = trim_toy_space();
    Evaluator model = trim_toy_model;
    SearchOptions o = toy_options(1, 2000);
    o.max_points = 8;  // 2 reserved for the trim
    ASSERT_EQ(trim_reserve(o), 2);
    SearchResult r = explore(s, model, o);
    ASSERT_GE(r.chosen, 0);
    const EvaluatedPoint &c = r.points[r.chosen];
    int64_t untrimmed = -1, interval = 0;
    for (const EvaluatedPoint &p : r.points) {
        if (p.origin.rfind("trim of ", 0) == 0 || !p.ok || !p.fits || p.interval > 8000) continue;
        if (untrimmed < 0 || p.total.dsp < untrimmed) {
            untrimmed = p.total.dsp;
            interval = p.interval;
        }
    }
    ASSERT_EQ(interval, 8000) << pareto_csv(s, r);  // f0 at u8
    EXPECT_EQ(c.origin.rfind("trim of ", 0), 0u) << pareto_csv(s, r);
    EXPECT_EQ(c.interval, 8000) << pareto_csv(s, r);
    EXPECT_LT(c.total.dsp, untrimmed) << pareto_csv(s, r);
    EXPECT_EQ(c.choices[2].ii, 64) << pareto_csv(s, r);  // 6,400 cycles, within the interval
    EXPECT_NE(pareto_csv(s, r).find("f2:default/u1/ii64"), std::string::npos) << pareto_csv(s, r);
    // The trim's point budget: none reserved, no trim (the search before it unchanged).
    o.trim_points = 0;
    SearchResult none = explore(s, model, o);
    EXPECT_EQ(none.points.size(), 8u);
    for (const EvaluatedPoint &p : none.points) EXPECT_EQ(p.origin.rfind("trim of ", 0), std::string::npos);
}

// When every node's step at once runs over the interval (here f2's II past 32 makes it 20,000
// cycles, not the 6,400 predicted), the trim retries the steps whose filter stayed within the
// interval at once (f1's lower unroll) and rejects the others: with the two points reserved,
// the chosen point is that retry. Without the retry the second point would be one node's step.
TEST(Search, TrimRetriesTheStepsThatHeldWhenAllAtOnceFails) {
    DesignSpace s = trim_toy_space();
    Evaluator model = [](const HlsSchedule &schedule) {
        DesignEstimate e = trim_toy_model(schedule);
        for (const Directive &d : schedule.directives()) {
            if (d.target != "f2" || d.kind != Directive::Kind::Pipeline || d.value <= 32) continue;
            e.filters[2].latency = 20000;
            e.interval = std::max(e.interval, e.filters[2].latency);
            e.latency = e.interval;
        }
        return e;
    };
    SearchOptions o = toy_options(1, 2000);
    o.max_points = 8;  // 2 reserved for the trim
    SearchResult r = explore(s, model, o);
    ASSERT_GE(r.chosen, 0);
    ASSERT_EQ(r.points.size(), 8u) << pareto_csv(s, r);
    const EvaluatedPoint &all = r.points[6], &retry = r.points[7];
    EXPECT_EQ(all.interval, 20000) << pareto_csv(s, r);  // every step at once: f2 over
    EXPECT_EQ(retry.origin.rfind("trim of ", 0), 0u) << pareto_csv(s, r);
    EXPECT_EQ(retry.interval, 8000) << pareto_csv(s, r);
    EXPECT_EQ(retry.choices[2].ii, 0) << pareto_csv(s, r);  // f2's step left out
    EXPECT_EQ(retry.choices[1], all.choices[1]) << pareto_csv(s, r);  // f1's step kept
    EXPECT_EQ(r.chosen, 7) << pareto_csv(s, r);
}

// The trim's rounds: f0 needs its unrolls (64,000 cycles of work) and f1..f5 collapse at any
// unroll (70,000 cycles at 1, 1,000 from 2), so the balanced series gives them u8 as f0; every
// step down holds until u1. With 3 points reserved, every node's step at once, again from the
// point kept (u8 -> u4 -> u2: 2 points), lowers all five to u2; one step at a time after the
// first round (2 points, one node each) left some at u4.
TEST(Search, TrimRepeatsEveryNodesStepAtOnce) {
    DesignSpace s;
    for (int i = 0; i < 6; i++) {
        NodeKnobs n;
        n.filter = n.key = "f" + std::to_string(i);
        n.orders.push_back(toy_default_order(n.key));
        s.nodes.push_back(n);
    }
    Evaluator model = [](const HlsSchedule &schedule) {
        DesignEstimate e;
        for (int i = 0; i < 6; i++) {
            FilterEstimate f;
            f.name = "f" + std::to_string(i);
            int64_t u = 1;
            for (const Directive &d : schedule.directives()) {
                if (d.target == f.name && d.kind != Directive::Kind::Pipeline) u = d.value;
            }
            f.latency = i == 0 ? 64000 / u : (u == 1 ? 70000 : 1000);
            f.resources.dsp = 5 * u;
            e.filters.push_back(f);
            e.interval = std::max(e.interval, f.latency);
            e.total.dsp += f.resources.dsp;
        }
        e.latency = e.interval;
        return e;
    };
    SearchOptions o = toy_options(1, 2000);
    o.max_points = 12;  // 3 reserved for the trim
    ASSERT_EQ(trim_reserve(o), 3);
    SearchResult r = explore(s, model, o);
    ASSERT_GE(r.chosen, 0) << pareto_csv(s, r);
    const EvaluatedPoint &c = r.points[r.chosen];
    EXPECT_EQ(c.origin.rfind("trim of ", 0), 0u) << pareto_csv(s, r);
    EXPECT_EQ(c.interval, 8000) << pareto_csv(s, r);
    for (size_t i = 1; i < 6; i++) EXPECT_EQ(c.choices[i].unroll, 1) << i << "\n" << pareto_csv(s, r);  // u2
    EXPECT_EQ(c.total.dsp, 40 + 5 * 10) << pareto_csv(s, r);
}

// The trim of the fastest point over the budget: with 60 DSPs no point of the search fits (f2
// alone takes 60 at II 1), but the fastest one it reaches (f0 u4, f1 u2: 16,000 cycles, 90
// DSP) trims f2 to II 64 (5 DSP, 6,400 cycles) and fits: it is chosen. Without the trim's
// points the budget is too small for every point.
TEST(Search, TrimBringsTheFastestPointOverTheBudgetWithinIt) {
    DesignSpace s = trim_toy_space();
    Evaluator model = trim_toy_model;
    SearchOptions o = toy_options(1, 60);
    o.max_points = 8;
    SearchResult r = explore(s, model, o);
    ASSERT_GE(r.chosen, 0) << pareto_csv(s, r);
    const EvaluatedPoint &c = r.points[r.chosen];
    EXPECT_EQ(c.origin.rfind("trim of ", 0), 0u) << pareto_csv(s, r);
    EXPECT_TRUE(c.fits);
    EXPECT_LE(c.total.dsp, 60);
    int64_t fastest = 0;
    for (const EvaluatedPoint &p : r.points) {
        if (p.ok && p.origin.rfind("trim of ", 0) != 0 && (fastest == 0 || p.interval < fastest)) fastest = p.interval;
    }
    EXPECT_EQ(c.interval, fastest) << pareto_csv(s, r);
    EXPECT_EQ(c.choices[2].ii, 64) << pareto_csv(s, r);
    o.trim_points = 0;
    EXPECT_LT(explore(s, model, o).chosen, 0);
}

// The frontier plot: every compiled point drawn once, the chosen one starred, failed points
// left out, the budget line drawn, and nothing at all when no point compiled.
TEST(FrontierPlot, DrawsCompiledPointsAndStarsTheChosenOne) {
    SearchResult r;
    auto point = [](int64_t interval, int64_t dsp, bool ok, bool pareto, bool fits) {
        EvaluatedPoint p;
        p.origin = "test";
        p.ok = ok;
        p.interval = interval;
        p.total.dsp = dsp;
        p.pareto = pareto;
        p.fits = fits;
        return p;
    };
    Resources budget;
    budget.dsp = 400;
    EXPECT_EQ(frontier_svg(r, budget), "");
    r.points = {point(100000, 5, true, true, true), point(20000, 60, true, true, true), point(30000, 90, true, false, true),
                point(0, 0, false, false, false), point(5000, 900, true, true, false)};
    r.chosen = 1;
    std::string svg = frontier_svg(r, budget);
    auto count = [&](const std::string &what) {
        size_t n = 0;
        for (size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) n++;
        return n;
    };
    EXPECT_EQ(count("<circle"), 4u) << svg;
    EXPECT_EQ(count("<polygon"), 1u);
    EXPECT_EQ(count("<polyline"), 1u);
    EXPECT_NE(svg.find("chosen: point 1"), std::string::npos);
    EXPECT_NE(svg.find("DSP budget 400"), std::string::npos);
    EXPECT_NE(svg.find("point 4 (test): interval 5000 cycles, DSP 900, BRAM18K 0, LUT 0, over budget"),
              std::string::npos);
    EXPECT_NE(svg.find("(estimate)"), std::string::npos);
    EXPECT_EQ(svg, frontier_svg(r, budget));
    r.chosen = -1;
    EXPECT_EQ(frontier_svg(r, budget).find("<polygon"), std::string::npos);
}

}  // namespace
}  // namespace flowhls::dse
