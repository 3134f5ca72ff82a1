// Tests of the design space (src/dse/Space.cpp): the knobs found in real programs (orders,
// unrolls, jams, the streaming layout, int8 filters, block copies) and the point schedules
// they write.
#include "dse/Space.h"
#include "dse/Trim.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "SpaceTestSupport.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace flowhls::dse {
namespace {

TEST(Space, TwoMmOffersTheReductionOutsideAndDivisorUnrolls) {
    DesignSpace s = space_of(build_example("pb_2mm", "", "small"));
    const NodeKnobs *tmp = node(s, "tmp");
    ASSERT_NE(tmp, nullptr);
    ASSERT_EQ(tmp->orders.size(), 2u);
    EXPECT_EQ(tmp->orders[0].unroll_loop, "k");  // default: the reduction innermost (trip 70)
    EXPECT_EQ(tmp->orders[0].factors, (std::vector<int64_t>{1, 2, 5, 7, 10, 14, 35}));
    EXPECT_EQ(tmp->orders[1].unroll_loop, "j");  // j moved inside k (trip 50)
    EXPECT_EQ(tmp->orders[1].factors, (std::vector<int64_t>{1, 2, 5, 10, 25, 50}));
    PointChoices c(s.nodes.size());
    EXPECT_TRUE(point_schedule(s, c).empty());
    EXPECT_EQ(point_text(s, c), "naive");
    c[tmp - s.nodes.data()] = {1, 3};
    HlsSchedule schedule = point_schedule(s, c);
    ASSERT_EQ(schedule.transforms().size(), 1u);
    EXPECT_EQ(schedule.transforms()[0].func, "tmp");
    EXPECT_EQ(schedule.transforms()[0].stage, 1);
    EXPECT_EQ(schedule.transforms()[0].loops, (std::vector<std::string>{"j", "k"}));
    // The baseline's top is sequential: both filters are inlined (they share operators).
    EXPECT_TRUE(s.inline_nodes);
    ASSERT_EQ(schedule.directives().size(), 3u);
    EXPECT_EQ(schedule.directives()[0].kind, Directive::Kind::Inline);
    EXPECT_EQ(schedule.directives()[0].target, "tmp");
    EXPECT_EQ(schedule.directives()[1].kind, Directive::Kind::Inline);
    EXPECT_EQ(schedule.directives()[1].target, "D_out");
    EXPECT_EQ(schedule.directives()[2].loop, "j");
    EXPECT_EQ(schedule.directives()[2].value, 10);
    EXPECT_EQ(parse_directives_json(write_schedule_json(schedule), "point.json"), schedule);
    EXPECT_EQ(point_text(s, c), "tmp:outside/u10");
}

// Non-divisor unrolls (issue 14): between the divisors of a trip, a few factors whose last
// iteration runs guarded copies: the smallest factor for its iteration count, at most 1/20 of
// the trip in idle copies, steps of 20%, no divisor within a step above.
TEST(Space, UnrollFactorsAddFewNonDivisors) {
    EXPECT_EQ(unroll_factors(400), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 31, 40, 50}));
    EXPECT_EQ(unroll_factors(410), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 28, 41, 52}));
    EXPECT_EQ(unroll_factors(28), (std::vector<int64_t>{1, 2, 4, 7, 14, 28}));  // 5 or 6: 2 idle copies of 30
    EXPECT_EQ(unroll_factors(7), (std::vector<int64_t>{1, 7}));
    EXPECT_EQ(unroll_factors(1), (std::vector<int64_t>{1}));
    EXPECT_EQ(unroll_factors(0), (std::vector<int64_t>{1}));
    for (int64_t trip : {24, 65, 128, 250, 390, 1000}) {
        std::vector<int64_t> f = unroll_factors(trip);
        for (size_t i = 1; i < f.size(); i++) {
            EXPECT_LT(f[i - 1], f[i]) << trip;
            EXPECT_LE(f[i], kMaxUnroll) << trip;
            if (trip % f[i] == 0) continue;
            int64_t iterations = (trip + f[i] - 1) / f[i];
            EXPECT_GT((trip + f[i] - 2) / (f[i] - 1), iterations) << trip << " / " << f[i];
            EXPECT_LE((iterations * f[i] - trip) * kNonDivisorWaste, trip) << trip << " / " << f[i];
            EXPECT_GE(f[i] * kNonDivisorStepDen, f[i - 1] * kNonDivisorStepNum) << trip << " / " << f[i];
        }
    }
}

// pb_mvt MEDIUM (trips 400, no jam): the "reduction outside" order offers u31 (13 iterations of
// 31 copies, the last with 3 guarded copies idle) as an HLS partial unroll, never a split; the
// estimator prices 13 iterations of 31 copies. gemm's order has a jam: divisors only there.
TEST(Space, MvtNonDivisorUnrollIsAGuardedHlsUnroll) {
    HalideProgram program = build_example("pb_mvt", "", "medium");
    DesignSpace s = space_of(program);
    const NodeKnobs *x1 = node(s, "x1_out");
    ASSERT_NE(x1, nullptr);
    ASSERT_EQ(x1->orders.size(), 2u);
    const OrderOption &o = x1->orders[1];
    EXPECT_EQ(o.unroll_trip, 400);
    EXPECT_TRUE(o.jams.empty());
    EXPECT_EQ(o.factors, unroll_factors(400));
    auto u31 = std::find(o.factors.begin(), o.factors.end(), 31);
    ASSERT_NE(u31, o.factors.end());
    PointChoices p(s.nodes.size());
    p[x1 - s.nodes.data()] = {1, static_cast<int>(u31 - o.factors.begin())};
    ASSERT_EQ(point_text(s, p), "x1_out:outside/u31");
    HlsSchedule schedule = point_schedule(s, p);
    for (const LoopTransform &t : schedule.transforms()) EXPECT_NE(t.kind, LoopTransform::Kind::Split);
    bool unrolled = false;
    for (const Directive &d : schedule.directives()) unrolled = unrolled || (d.kind == Directive::Kind::Unroll && d.value == 31);
    EXPECT_TRUE(unrolled);
    CompileOptions options;
    options.device = "xcu280";
    options.clock_mhz = 300;
    HalideProgram point = program;
    point.directives.append(schedule);
    DesignEstimate e = estimate_program(point, options);
    // The flattened (j, i) nest: 400 x ceil(400 / 31) iterations at II 1; the guarded copies are
    // if-converted, side by side (chained one after the other its latency was 5,633 cycles).
    const LoopEstimate *nest = nullptr;
    for (const FilterEstimate &f : e.filters) {
        for (const LoopEstimate &l : f.loops) nest = f.name == "x1_out" && l.trip == 400 * 13 ? &l : nest;
    }
    ASSERT_NE(nest, nullptr);
    EXPECT_EQ(nest->ii, 1);
    EXPECT_LT(nest->latency, 400 * 13 + 64);
    DesignSpace gemm_space = space_of(build_example("pb_gemm", "", "medium"));
    const NodeKnobs *gemm = node(gemm_space, "C_out");
    ASSERT_NE(gemm, nullptr);
    for (int64_t f : gemm->orders[0].factors) EXPECT_EQ(220 % f, 0) << f;
}

TEST(Space, LenetKnobsUseOnnxNodeNames) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = space_of(p);
    const NodeKnobs *fc1 = node(s, "fc1");
    ASSERT_NE(fc1, nullptr);
    EXPECT_EQ(fc1->key, "/fc1/Gemm");
    ASSERT_EQ(fc1->orders.size(), 2u);
    EXPECT_EQ(fc1->orders[0].unroll_keys, (std::vector<std::string>{"/fc1/Gemm#acc"}));
    ASSERT_EQ(fc1->orders[1].transforms.size(), 2u);
    EXPECT_EQ(fc1->orders[1].transforms[0].kind, LoopTransform::Kind::ComputeAt);
    EXPECT_EQ(fc1->orders[1].transforms[0].at_loop, "i");
    EXPECT_EQ(fc1->orders[1].transforms[1].loops, (std::vector<std::string>{"j", "k"}));
    EXPECT_EQ(fc1->orders[1].unroll_keys, (std::vector<std::string>{"/fc1/Gemm#acc", "/fc1/Gemm"}));
    EXPECT_EQ(fc1->orders[1].factors.back(), 60);  // divisors of 120 up to 64
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    ASSERT_EQ(conv2->orders.size(), 3u);  // default, reduction outside, hwc
    EXPECT_EQ(conv2->orders[1].transforms[1].loops, (std::vector<std::string>{"ox", "kx", "ky", "ci"}));
    const NodeKnobs *relu = node(s, "Relu");
    ASSERT_NE(relu, nullptr);
    ASSERT_EQ(relu->orders.size(), 2u);  // default, hwc
    EXPECT_EQ(relu->orders[0].unroll_loop, "ox");
    EXPECT_TRUE(relu->orders[1].hwc);
    EXPECT_EQ(relu->orders[1].unroll_loop, "co");  // the channels, innermost in HWC
}

// Halide names the Funcs of a program built a second time in one process `tmp$1`, `D$1`, ...:
// the space, its schedules and their application must not depend on what the process built
// before (a schedule written by one process is read by another).
TEST(Space, SameKnobsWhenTheProcessBuiltTheProgramBefore) {
    HalideProgram first = build_example("pb_2mm", "", "small");
    HalideProgram second = build_example("pb_2mm", "", "small");
    ASSERT_NE(second.outputs[0].func.name(), first.outputs[0].func.name());  // the renaming happens
    DesignSpace a = space_of(first), b = space_of(second);
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    ASSERT_NE(node(b, "tmp"), nullptr);
    PointChoices c(a.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); i++) {
        EXPECT_EQ(a.nodes[i].key, b.nodes[i].key);
        ASSERT_EQ(a.nodes[i].orders.size(), b.nodes[i].orders.size());
        int order = static_cast<int>(a.nodes[i].orders.size()) - 1;
        c[i] = {order, a.nodes[i].orders[order].factors.size() > 1 ? 1 : 0};
    }
    std::string json = write_schedule_json(point_schedule(a, c));
    EXPECT_EQ(write_schedule_json(point_schedule(b, c)), json);
    // The first build's schedule applies to the second build and gives the same design.
    CompileOptions options;
    HalideProgram p1 = first, p2 = second;
    p1.directives.append(parse_directives_json(json, "point.json"));
    p2.directives.append(parse_directives_json(json, "point.json"));
    DesignEstimate e1 = estimate_program(p1, options), e2 = estimate_program(p2, options);
    EXPECT_EQ(e1.interval, e2.interval);
    EXPECT_EQ(e1.total.dsp, e2.total.dsp);
    EXPECT_LT(e1.interval, estimate_program(first, options).interval);
}

// pb_gemm (MEDIUM: i 200, j 220, k 240) has one order, j pipelined inside k: the jam splits i
// (the pure loop around it), moves the point loop innermost and unrolls it completely; the
// initialization C = beta C (stage 0, its j keeping the HLS partial unroll) takes the same jam.
TEST(SpaceJam, GemmOffersTheJamOfTheRowLoop) {
    DesignSpace s = space_of(build_example("pb_gemm", "", "medium"));
    const NodeKnobs *c = node(s, "C_out");
    ASSERT_NE(c, nullptr);
    ASSERT_EQ(c->orders.size(), 1u);
    const OrderOption &o = c->orders[0];
    EXPECT_EQ(o.unroll_loop, "j");
    EXPECT_EQ(o.jam_loop, "i");
    EXPECT_EQ(o.jam_stage, 1);
    EXPECT_EQ(o.jams, (std::vector<int64_t>{1, 2, 4, 5, 8, 10, 20, 25, 40, 50}));  // divisors of 200 up to 64
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"ii", "j", "k", "io"}));
    PointChoices p(s.nodes.size());
    size_t n = c - s.nodes.data();
    p[n].unroll = 6;  // 20 (factors 1, 2, 4, 5, 10, 11, 20, ...)
    p[n].jam = 1;     // 2
    EXPECT_EQ(total_unroll(*c, p[n]), 40);
    EXPECT_EQ(point_text(s, p), "C_out:default/u20/j2");
    EXPECT_EQ(write_schedule_json(point_schedule(s, p)),
              "{\n"
              "  \"C_out\": {\n"
              "    \"schedule\": [\n"
              "      {\"split\":{\"factor\":20,\"inner\":\"ji\",\"loop\":\"j\",\"outer\":\"jo\"},\"stage\":1},\n"
              "      {\"split\":{\"factor\":2,\"inner\":\"ii\",\"loop\":\"i\",\"outer\":\"io\"},\"stage\":1},\n"
              "      {\"reorder\":[\"ji\",\"ii\",\"jo\",\"k\",\"io\"],\"stage\":1},\n"
              "      {\"split\":{\"factor\":2,\"inner\":\"ii\",\"loop\":\"i\",\"outer\":\"io\"}},\n"
              "      {\"reorder\":[\"ii\",\"j\",\"io\"]}\n"
              "    ],\n"
              "    \"unroll\": [\n"
              "      {\"factor\":0,\"loop\":\"ji\"},\n"
              "      {\"factor\":0,\"loop\":\"ii\"},\n"
              "      {\"factor\":20,\"loop\":\"j\"}\n"
              "    ]\n"
              "  }\n"
              "}\n");
    HlsSchedule schedule = point_schedule(s, p);
    EXPECT_EQ(parse_directives_json(write_schedule_json(schedule), "point.json"), schedule);
    // Without the jam the unroll stays the HLS partial unroll of j (stage 0's j keeps it too).
    p[n].jam = 0;
    EXPECT_EQ(write_schedule_json(point_schedule(s, p)),
              "{\n"
              "  \"C_out\": {\n"
              "    \"unroll\": [\n"
              "      {\"factor\":20,\"loop\":\"j\"}\n"
              "    ]\n"
              "  }\n"
              "}\n");
}

// With the jam, gemm's unroll of j is split with the copies innermost: alpha*A[i][k] of each
// jammed row is computed once per iteration (hoist-invariants takes it out of ji), not once per
// unrolled copy of the whole body as under an HLS partial unroll of the pipelined loop. At
// u11/j5 (estimates, xcu280 at 300 MHz): 442 DSP before (55 MACs of 5 DSP and 55 alpha
// products of 3), 291 with the split (5 alpha products), the interval unchanged (196,031; since
// the initialization takes the jam too, 192,831: C = beta C at 55 elements a cycle, its fmuls
// shared with the accumulation's).
TEST(SpaceJam, GemmSplitUnrollComputesAlphaAOncePerRow) {
    HalideProgram program = build_example("pb_gemm", "", "medium");
    DesignSpace s = space_of(program);
    const NodeKnobs *c = node(s, "C_out");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->orders[0].unroll_outer, "jo");
    EXPECT_EQ(c->orders[0].unroll_inner, "ji");
    PointChoices p(s.nodes.size());
    size_t n = c - s.nodes.data();
    p[n].unroll = 5;  // 11
    p[n].jam = 3;     // 5
    ASSERT_EQ(point_text(s, p), "C_out:default/u11/j5");
    CompileOptions options;
    options.device = "xcu280";
    options.clock_mhz = 300;
    HalideProgram point = program;
    point.directives.append(point_schedule(s, p));
    DesignEstimate e = estimate_program(point, options);
    EXPECT_EQ(e.interval, 192831);
    EXPECT_EQ(e.total.dsp, 291);
}

// pb_bicg's sq (s[j] over the rows, q[i] over the columns, one update without a pure loop)
// offers the reduction jam: of its reduction loops k (j, 390) and k$y (i, 410) the jam takes
// k$y (82 divides 410; 78 is the largest divisor of 390 within 128), split by J with the
// point loop innermost, k staying pipelined; sq banked cyclic by the smallest divisor of its
// 410 columns that is at least J, and completely on s/q; the zero initialization unrolled by
// the same factor. Jams go to 128 (the fill's limit); the pipelined loop takes no unroll.
// atax's y (whose left-hand side does not index by its row loop) gets none.
TEST(SpaceJam, BicgOffersTheReductionJam) {
    HalideProgram program = build_example("pb_bicg", "", "medium");
    DesignSpace s = space_of(program);
    const NodeKnobs *sq = node(s, "sq");
    ASSERT_NE(sq, nullptr);
    ASSERT_EQ(sq->orders.size(), 1u);
    const OrderOption &o = sq->orders[0];
    EXPECT_TRUE(o.reduction_jam);
    EXPECT_EQ(o.unroll_loop, "k");
    EXPECT_EQ(o.factors, (std::vector<int64_t>{1}));
    EXPECT_EQ(o.jam_loop, "k$y");
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"k$yi", "c", "k", "k$yo"}));
    EXPECT_EQ(o.jams, (std::vector<int64_t>{1, 2, 5, 10, 41, 82, 205, 410}));  // divisors of 410 up to kMaxCopies
    EXPECT_EQ(o.jam_init_unroll, "x");
    PointChoices p(s.nodes.size());
    size_t n = sq - s.nodes.data();
    p[n].jam = 4;  // 41
    EXPECT_EQ(point_text(s, p), "sq:default/u1/j41");
    EXPECT_EQ(write_schedule_json(point_schedule(s, p)),
              "{\n"
              "  \"sq\": {\n"
              "    \"partition\": [\n"
              "      {\"dim\":0,\"factor\":41,\"type\":\"cyclic\"},\n"
              "      {\"dim\":1,\"type\":\"complete\"}\n"
              "    ],\n"
              "    \"schedule\": [\n"
              "      {\"split\":{\"factor\":41,\"inner\":\"k$yi\",\"loop\":\"k$y\",\"outer\":\"k$yo\"},\"stage\":1},\n"
              "      {\"reorder\":[\"k$yi\",\"c\",\"k\",\"k$yo\"],\"stage\":1}\n"
              "    ],\n"
              "    \"unroll\": [\n"
              "      {\"factor\":0,\"loop\":\"k$yi\"},\n"
              "      {\"factor\":41,\"loop\":\"x\"}\n"
              "    ]\n"
              "  }\n"
              "}\n");
    HlsSchedule schedule = point_schedule(s, p);
    EXPECT_EQ(parse_directives_json(write_schedule_json(schedule), "point.json"), schedule);
    // Estimates (xcu280, 300 MHz): the J rows' terms in one iteration of the column loop, at
    // the recurrence of q[i] through sq's port (II 8; 31,233 cycles), against 296,843 naive.
    CompileOptions options;
    options.device = "xcu280";
    options.clock_mhz = 300;
    HalideProgram point = program;
    point.directives.append(schedule);
    DesignEstimate e = estimate_program(point, options);
    EXPECT_LT(e.interval, 40000);
    DesignSpace atax = space_of(build_example("pb_atax", "", "medium"));
    const NodeKnobs *y = node(atax, "y");
    ASSERT_NE(y, nullptr);
    for (const OrderOption &a : y->orders) EXPECT_FALSE(a.reduction_jam) << a.name;
}

// The trim reshapes a reduction jam only into a jammed point (its pipelined loop takes no
// unroll, and an II is a pipeline directive on that loop), from a jammed point or not.
TEST(SpaceJam, BicgTrimReshapesOnlyJammedPoints) {
    DesignSpace s = space_of(build_example("pb_bicg", "", "medium"));
    const NodeKnobs *sq = node(s, "sq");
    ASSERT_NE(sq, nullptr);
    size_t n = sq - s.nodes.data();
    TrimNode at;
    at.latency = 1000;
    at.dsp = 100;
    at.copies = 41;
    PointChoices p(s.nodes.size());
    for (int jam : {4, 0}) {  // 41, none
        p[n].jam = jam;
        TrimStep step;
        ASSERT_TRUE(trim_step(s, p, n, 2, at, 100000.0, KnownLatency(), step)) << jam;
        EXPECT_GT(step.choices[n].jam, 0) << jam;
        EXPECT_GT(step.choices[n].ii, 1) << jam;
    }
}

// In "reduction outside" the jam loop is the pure loop outside the moved one (pb_2mm's tmp:
// j inside k, i jammed); its reorder follows the order's.
TEST(SpaceJam, TwoMmJamFollowsTheOrder) {
    DesignSpace s = space_of(build_example("pb_2mm", "", "small"));
    const NodeKnobs *tmp = node(s, "tmp");
    ASSERT_NE(tmp, nullptr);
    ASSERT_EQ(tmp->orders.size(), 2u);
    EXPECT_EQ(tmp->orders[0].jam_loop, "j");  // default: k pipelined, j around it
    EXPECT_EQ(tmp->orders[0].jam_order, (std::vector<std::string>{"ji", "k", "jo", "i"}));
    EXPECT_EQ(tmp->orders[1].jam_loop, "i");
    EXPECT_EQ(tmp->orders[1].jam_order, (std::vector<std::string>{"ii", "j", "k", "io"}));
    EXPECT_EQ(tmp->orders[1].jams, (std::vector<int64_t>{1, 2, 4, 5, 8, 10, 20, 40}));  // divisors of 40
    // tmp's zero initialization takes the same jam (and D_out's beta * D, below).
    EXPECT_EQ(tmp->orders[0].jam_init_order, (std::vector<std::string>{"ji", "jo", "i"}));
    EXPECT_EQ(tmp->orders[1].jam_init_order, (std::vector<std::string>{"ii", "j", "io"}));
    // The default order's unroll loop is the reduction k: no split form (its copies would
    // chain the accumulation); "reduction outside" unrolls the pure j.
    EXPECT_TRUE(tmp->orders[0].unroll_inner.empty());
    EXPECT_EQ(tmp->orders[1].unroll_inner, "ji");
    // tmp is written by its filter and read by D_out's: they are connected.
    size_t t = tmp - s.nodes.data();
    const NodeKnobs *d = node(s, "D_out");
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->orders.size(), 2u);
    EXPECT_EQ(d->orders[0].jam_init_order, (std::vector<std::string>{"ji", "jo", "i"}));
    EXPECT_EQ(d->orders[1].jam_init_order, (std::vector<std::string>{"ii", "j", "io"}));
    EXPECT_EQ(s.connected.at(t), (std::vector<int>{static_cast<int>(d - s.nodes.data())}));
    // tmp(j, i) written by tmp's stage 1, read as tmp(l, i) by D_out's: both jam i on dimension 1.
    ASSERT_EQ(s.links.size(), 1u);
    EXPECT_EQ(s.links[0].writer_vars, (std::vector<std::string>{"j", "i"}));
    EXPECT_EQ(s.links[0].reader_vars, (std::vector<std::string>{"l", "i"}));
}

// LeNet-5's convs accumulate in a helper Func (`NODE#acc`) computed per output row: in the
// "reduction outside" order their jam is over the output channels. The filter's co is split
// (coo, coi) with coi innermost, so the helper, computed at the filter's oy, covers one block
// of channels; in the helper co is moved inside the reduction loops and both are unrolled
// completely (its initialization gets the same order). The Gemms have no pure loop outside
// their compute_at loop (i): no jam. The helper is then computed per block (at coo, not oy:
// OrderOption::block_at), its row loop inside, so its pipelines fill once per block.
TEST(SpaceJam, LenetConvsOfferTheOutputChannelJam) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = space_of(p);
    const NodeKnobs *conv1 = node(s, "conv1");
    ASSERT_NE(conv1, nullptr);
    ASSERT_EQ(conv1->orders.size(), 3u);
    EXPECT_TRUE(conv1->orders[0].jams.empty());  // default order: the helper per pixel
    const OrderOption &o = conv1->orders[1];
    EXPECT_EQ(o.jam_key, "/conv1/Conv");
    EXPECT_EQ(o.jam_loop, "co");
    EXPECT_EQ(o.jam_stage, 0);
    EXPECT_EQ(o.jams, (std::vector<int64_t>{1, 2, 3, 6}));  // divisors of 6 output channels
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"coi", "ox", "oy", "coo", "n"}));
    EXPECT_EQ(o.jam_helper_key, "/conv1/Conv#acc");
    EXPECT_EQ(o.jam_helper_stage, 1);
    EXPECT_EQ(o.jam_helper_order, (std::vector<std::string>{"co", "ox", "kx", "ky", "ci", "oy", "n"}));
    EXPECT_EQ(o.jam_helper_init_order, (std::vector<std::string>{"co", "ox", "oy", "n"}));  // its init too
    // Per block of rows: a block row of conv1 (28 x 28 words) is within kMaxBlockWords, so the
    // helper is computed at co (at a jam, at coo: below) and covers the block's rows.
    EXPECT_EQ(o.block_at, "co");
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    EXPECT_EQ(conv2->orders[1].jams, (std::vector<int64_t>{1, 2, 4, 8, 16}));
    const NodeKnobs *fc1 = node(s, "fc1");
    ASSERT_NE(fc1, nullptr);
    EXPECT_TRUE(fc1->orders[1].jams.empty());
    PointChoices c(s.nodes.size());
    size_t n = conv1 - s.nodes.data();
    c[n] = {1, 0, 2};  // outside, ox not unrolled, 3 channels
    EXPECT_EQ(total_unroll(*conv1, c[n]), 3);
    EXPECT_EQ(point_text(s, c), "conv1:outside/u1/j3");
    HlsSchedule schedule = point_schedule(s, c);
    EXPECT_EQ(write_schedule_json(schedule),
              "{\n"
              "  \"/conv1/Conv\": {\n"
              "    \"schedule\": [\n"
              "      {\"split\":{\"factor\":3,\"inner\":\"coi\",\"loop\":\"co\",\"outer\":\"coo\"}},\n"
              "      {\"reorder\":[\"coi\",\"ox\",\"oy\",\"coo\",\"n\"]}\n"
              "    ],\n"
              "    \"unroll\": [\n"
              "      {\"factor\":0,\"loop\":\"coi\"}\n"
              "    ]\n"
              "  },\n"
              "  \"/conv1/Conv#acc\": {\n"
              "    \"compute_at\": {\"func\":\"/conv1/Conv\",\"loop\":\"coo\"},\n"
              "    \"schedule\": [\n"
              "      {\"reorder\":[\"ox\",\"kx\",\"ky\",\"ci\"],\"stage\":1},\n"
              "      {\"reorder\":[\"co\",\"ox\",\"kx\",\"ky\",\"ci\",\"oy\",\"n\"],\"stage\":1},\n"
              "      {\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}\n"
              "    ],\n"
              "    \"unroll\": [\n"
              "      {\"factor\":0,\"loop\":\"co\"}\n"
              "    ]\n"
              "  }\n"
              "}\n");
    EXPECT_EQ(parse_directives_json(write_schedule_json(schedule), "point.json"), schedule);
    // The design: conv1 computes 3 channels per pipelined iteration at II 1 (the accumulator
    // and the weights partitioned by infer-partitions), in half the naive order's time.
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    HalideProgram jammed = p, unjammed = p;
    jammed.directives.append(schedule);
    c[n].jam = 0;
    unjammed.directives.append(point_schedule(s, c));
    auto conv1_latency = [](const DesignEstimate &e) {
        for (const FilterEstimate &f : e.filters) {
            if (f.name == "conv1") return f.latency;
        }
        return int64_t(0);
    };
    int64_t with = conv1_latency(estimate_program(jammed, options));
    int64_t without = conv1_latency(estimate_program(unjammed, options));
    EXPECT_GT(with, 0);
    EXPECT_LT(with * 5, without * 2) << with << " vs " << without;  // measured 139,453 -> 46,597
    // Per row instead (block_at cleared: the helper at oy), the pipelines fill once per row.
    DesignSpace rows = s;
    rows.nodes[n].orders[1].block_at.clear();
    c[n].jam = 2;
    HalideProgram per_row = p;
    per_row.directives.append(point_schedule(rows, c));
    EXPECT_NE(write_schedule_json(point_schedule(rows, c)).find("\"loop\":\"oy\""), std::string::npos);
    int64_t row_latency = conv1_latency(estimate_program(per_row, options));
    EXPECT_LT(with, row_latency) << with << " vs " << row_latency;
}

// With its weights in external memory (place-weights Axi), a conv's output-channel jam copies
// the block's weights on chip at the block loop (`in` at `coo`), so the J jammed weight reads
// hit J banks instead of one m_axi port; with the weights in ROMs it does not.
TEST(SpaceJam, LenetJamCopiesOffChipWeightsPerBlock) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    EXPECT_TRUE(space_of(p).nodes[0].orders[1].jam_copy_inputs.empty());  // ROMs: nothing to copy
    DesignSpace s = axi_weight_space(p);
    const NodeKnobs *conv1 = node(s, "conv1");
    ASSERT_NE(conv1, nullptr);
    EXPECT_EQ(conv1->orders[1].jam_copy_inputs, (std::vector<std::string>{"w_conv1_bias", "w_conv1_weight"}));
    PointChoices c(s.nodes.size());
    c[static_cast<size_t>(conv1 - s.nodes.data())] = {1, 0, 2};  // 3 channels
    std::string json = write_schedule_json(point_schedule(s, c));
    EXPECT_NE(json.find("    \"in\": [\n"
                        "      {\"func\":\"/conv1/Conv\",\"input\":\"w_conv1_bias\",\"loop\":\"coo\"},\n"
                        "      {\"func\":\"/conv1/Conv\",\"input\":\"w_conv1_weight\",\"loop\":\"coo\"}\n"
                        "    ],\n"),
              std::string::npos)
        << json;
    EXPECT_EQ(parse_directives_json(json, "point.json"), point_schedule(s, c));
    c[static_cast<size_t>(conv1 - s.nodes.data())].jam = 0;  // no jam: no copy
    EXPECT_EQ(write_schedule_json(point_schedule(s, c)).find("\"in\""), std::string::npos);
}

// With its weights in external memory, the "hwc" jam of conv2 moves its block loop `coo` outside
// the reductions and copies the block's weights on chip per block and row (`in` at the helper's
// own `coo`; the bias, read by the initialization, is not copied): the schedule reads
// back from its JSON form (`in` applied after the helper's split) and C-sim passes
// (tests/driver/DseFlowTest.cpp, `DseFlow.LenetHwcJamWithWeightBlockCopyPassesCsim`).
TEST(SpaceHwc, LenetHwcJamCopiesOffChipWeightsPerBlockAndRow) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = axi_weight_space(p);
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    const OrderOption &o = conv2->orders[hwc_order(*conv2)];
    EXPECT_EQ(o.jam_copy_inputs, (std::vector<std::string>{"w_conv2_weight"}));
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"coi", "ox", "kx", "ky", "ci", "coo", "oy", "n"}));
    PointChoices c(s.nodes.size());
    for (size_t i = 0; i < s.nodes.size(); i++) c[i].order = std::max(0, hwc_order(s.nodes[i]));
    c[static_cast<size_t>(conv2 - s.nodes.data())].jam = 2;  // 4 channels
    std::string json = write_schedule_json(point_schedule(s, c));
    EXPECT_NE(json.find("{\"func\":\"/conv2/Conv#acc\",\"input\":\"w_conv2_weight\",\"loop\":\"coo\"}"),
              std::string::npos)
        << json;
    EXPECT_EQ(parse_directives_json(json, "point.json"), point_schedule(s, c));
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    options.weights = WeightPlacement::Axi;
    HalideProgram jammed = p;
    jammed.directives.append(parse_directives_json(json, "point.json"));
    EXPECT_GT(estimate_program(jammed, options).interval, 0);  // the copy at coo applies
}

// "Helper per map" (Choice::map): the hwc jam that copies off-chip weights per block offers
// computing its helper at n with the block loop outside the rows, so each block's weights are
// copied once per map; the estimate's copies (and the filter's latency) drop.
TEST(SpaceHwc, LenetHwcJamHelperPerMapCopiesWeightsOncePerMap) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = axi_weight_space(p);
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    const OrderOption &o = conv2->orders[hwc_order(*conv2)];
    EXPECT_EQ(o.map_at, "n");
    EXPECT_EQ(o.map_row, "oy");
    for (const NodeKnobs &n : s.nodes) {
        for (const OrderOption &k : n.orders) EXPECT_EQ(k.map_at.empty(), k.jam_copy_inputs.empty() || !k.hwc) << n.key;
    }
    PointChoices c(s.nodes.size());
    for (size_t i = 0; i < s.nodes.size(); i++) c[i].order = std::max(0, hwc_order(s.nodes[i]));
    const size_t n2 = static_cast<size_t>(conv2 - s.nodes.data());
    c[n2].jam = 2;  // 4 channels
    PointChoices m = c;
    m[n2].map = true;
    EXPECT_NE(point_text(s, m).find("conv2:hwc/u1/j4/map"), std::string::npos) << point_text(s, m);
    EXPECT_EQ(point_text(s, c).find("/map"), std::string::npos) << point_text(s, c);
    std::string json = write_schedule_json(point_schedule(s, m));
    EXPECT_NE(json.find("\"compute_at\": {\"func\":\"/conv2/Conv\",\"loop\":\"n\"}"), std::string::npos) << json;
    EXPECT_NE(json.find("{\"reorder\":[\"coi\",\"ox\",\"kx\",\"ky\",\"ci\",\"oy\",\"coo\",\"n\"],\"stage\":1}"),
              std::string::npos) << json;
    EXPECT_EQ(parse_directives_json(json, "point.json"), point_schedule(s, m));
    // Without a jam the knob changes nothing.
    PointChoices nojam = m;
    nojam[n2].jam = 0;
    PointChoices plain = c;
    plain[n2].jam = 0;
    EXPECT_EQ(point_schedule(s, nojam), point_schedule(s, plain));
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    options.weights = WeightPlacement::Axi;
    auto conv2_latency = [&](const PointChoices &at) {
        HalideProgram q = p;
        q.directives.append(point_schedule(s, at));
        for (const FilterEstimate &f : estimate_program(q, options).filters) {
            if (f.name == "conv2") return f.latency;
        }
        return int64_t{0};
    };
    const int64_t per_row = conv2_latency(c), per_map = conv2_latency(m);
    EXPECT_GT(per_map, 0);
    EXPECT_LT(per_map, per_row);
}

// With its weights in external memory, a Gemm's "reduction outside" order (no jam: its helper
// is computed at `i`) copies a block of 4 x U rows of weights on chip per block (`in` at `jo`),
// the block loop outside the reduction: a block's rows are contiguous in the transB layout, so
// the copy is one burst through the widened port and the accumulation reads banks at II 1
// instead of one strided m_axi read a cycle. Only unrolls U with 4U dividing j's trip and U
// <= 16 are offered; with the weights in ROMs, no copy.
TEST(SpaceBlockCopy, LenetGemmCopiesOffChipWeightRowsPerBlock) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    const NodeKnobs *rom_fc1 = node(space_of(p), "fc1");
    ASSERT_NE(rom_fc1, nullptr);
    EXPECT_EQ(rom_fc1->orders.at(1).block_copy_rows, 0);
    DesignSpace s = axi_weight_space(p);
    const NodeKnobs *fc1 = node(s, "fc1");
    ASSERT_NE(fc1, nullptr);
    const OrderOption &o = fc1->orders.at(1);
    EXPECT_EQ(o.block_copy_rows, 4);
    EXPECT_EQ(o.jam_copy_inputs, (std::vector<std::string>{"w_fc1_weight"}));
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"ji", "k", "jo", "i"}));
    EXPECT_EQ(o.factors, (std::vector<int64_t>{1, 2, 3, 5, 6, 10, 15}));  // 4U divides 120, U <= 16
    EXPECT_TRUE(o.jams.empty());
    PointChoices c(s.nodes.size());
    c[static_cast<size_t>(fc1 - s.nodes.data())] = {1, 1, 0};  // u2: blocks of 8 rows
    HlsSchedule sched = point_schedule(s, c);
    std::string json = write_schedule_json(sched);
    EXPECT_NE(json.find("{\"func\":\"/fc1/Gemm#acc\",\"input\":\"w_fc1_weight\",\"loop\":\"jo\"}"), std::string::npos)
        << json;
    EXPECT_NE(json.find("{\"split\":{\"factor\":8,\"inner\":\"ji\",\"loop\":\"j\",\"outer\":\"jo\"},\"stage\":1}"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("{\"factor\":2,\"loop\":\"ji\"}"), std::string::npos) << json;
    EXPECT_EQ(point_text(s, c), "fc1:outside/u2/b8");
    EXPECT_EQ(parse_directives_json(json, "point.json"), sched);
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    options.weights = WeightPlacement::Axi;
    HalideProgram copied = p, strided = p;
    copied.directives.append(sched);
    c[static_cast<size_t>(fc1 - s.nodes.data())].unroll = 0;
    DesignSpace no_copy = s;
    no_copy.nodes[static_cast<size_t>(fc1 - s.nodes.data())].orders[1].block_copy_rows = 0;
    strided.directives.append(point_schedule(no_copy, c));  // the strided reads, u1
    auto fc1_latency = [](const DesignEstimate &e) {
        for (const FilterEstimate &f : e.filters) {
            if (f.name == "fc1") return f.latency;
        }
        return int64_t{0};
    };
    int64_t a = fc1_latency(estimate_program(copied, options)), b = fc1_latency(estimate_program(strided, options));
    ASSERT_GT(a, 0);
    // u2 from the copy: 15 blocks x (8 x 400 / 16 + 8 x 400 / 2) cycles, about 51K; u1 strided
    // reads: one per cycle at best, 48,000.
    EXPECT_LT(a, 60000);
    EXPECT_GT(b, a / 2 * 3 / 2) << a << " vs " << b;
}

// The ping-pong block copy (Choice::ping_pong): LeNet-5's fc1 with off-chip weights at u10
// copies blocks of 40 rows (40 x 400 / 16 = 1,000 cycles through the 512-bit port) and
// accumulates each in 400 x 40 / 10 = 1,600; double-buffered, the copy of block b + 1 overlaps
// the accumulation of block b: about 1,000 + 3 x 1,600 cycles instead of 3 x 2,600, and the
// block buffer's block RAM twice. The schedule names the copy's loop in a `dataflow_loop`
// directive; an order without a copy offers nothing.
TEST(SpaceBlockCopy, PingPongOverlapsTheGemmBlockCopyWithItsAccumulation) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = axi_weight_space(p);
    const NodeKnobs *fc1 = node(s, "fc1");
    ASSERT_NE(fc1, nullptr);
    const size_t n = static_cast<size_t>(fc1 - s.nodes.data());
    ASSERT_EQ(fc1->orders.at(1).factors.at(5), 10);
    PointChoices c(s.nodes.size());
    c[n] = {1, 5, 0};  // u10: blocks of 40 rows
    EXPECT_FALSE(offers_ping_pong(fc1->orders.at(0), c[n]));
    EXPECT_TRUE(offers_ping_pong(fc1->orders.at(1), c[n]));
    PointChoices pp = c;
    pp[n].ping_pong = true;
    EXPECT_EQ(point_text(s, c), "fc1:outside/u10/b40");
    EXPECT_EQ(point_text(s, pp), "fc1:outside/u10/b40/pp");
    HlsSchedule sched = point_schedule(s, pp);
    std::string json = write_schedule_json(sched);
    EXPECT_NE(json.find("\"dataflow_loop\": [\n      {\"loop\":\"jo\"}"), std::string::npos) << json;
    EXPECT_EQ(parse_directives_json(json, "point.json"), sched);
    EXPECT_EQ(write_schedule_json(point_schedule(s, c)).find("dataflow_loop"), std::string::npos);
    PointChoices default_pp(s.nodes.size());
    default_pp[n].ping_pong = true;  // the default order copies nothing: no directive, no text
    EXPECT_EQ(write_schedule_json(point_schedule(s, default_pp)).find("dataflow_loop"), std::string::npos);
    EXPECT_EQ(point_text(s, default_pp).find("/pp"), std::string::npos);

    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    options.weights = WeightPlacement::Axi;
    HalideProgram single = p, twice = p;
    single.directives.append(point_schedule(s, c));
    twice.directives.append(sched);
    auto fc1_of = [](const DesignEstimate &e) {
        for (const FilterEstimate &f : e.filters) {
            if (f.name == "fc1") return f;
        }
        return FilterEstimate();
    };
    FilterEstimate a = fc1_of(estimate_program(single, options)), b = fc1_of(estimate_program(twice, options));
    ASSERT_GT(a.latency, 0);
    ASSERT_GT(b.latency, 0);
    // Two of the three copies (about 1,000 cycles each) overlap an accumulation.
    EXPECT_LT(b.latency, a.latency - 1800) << a.latency << " vs " << b.latency;
    EXPECT_GT(b.latency, 3 * 1600 + 1000) << b.latency;  // not below the copy's fill and the MACs
    // The second copy of the 40 x 400 floats' banks (cyclic: at least one BRAM18K each).
    EXPECT_GT(b.resources.bram18k, a.resources.bram18k) << a.resources.bram18k << " vs " << b.resources.bram18k;
}

// The streaming layout "hwc": every 4-D node of LeNet-5 offers it, and the point where all
// take it (no unroll, no jam) is exactly models/reduction_schedule.py's schedule with --hwc
// and one tile per row (`--distance 100000 --min-tile 100000`), its Gemm entries left out
// (the Gemms stay in their default order here). Its jam splits the helper's channel loop
// inside the row, so the filter keeps writing HWC.
TEST(SpaceHwc, LenetHwcPointIsTheScriptsHwcSchedule) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = space_of(p);
    PointChoices c(s.nodes.size());
    int layouts = 0;
    for (size_t i = 0; i < s.nodes.size(); i++) {
        int h = hwc_order(s.nodes[i]);
        if (h < 0) continue;
        EXPECT_EQ(s.nodes[i].orders[h].name, "hwc");
        c[i].order = h;
        layouts++;
    }
    EXPECT_EQ(layouts, 6);  // conv1, relu, pool, conv2, relu, pool
    // models/reduction_schedule.py models/lenet5/model.onnx --hwc --distance 100000
    // --min-tile 100000, without its three "/fcN/Gemm#acc" entries, plus the pools' window
    // helpers computed per row at oy as the convs' (their pixels and channels outside the window).
    const std::string script =
        "{\"/MaxPool\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/MaxPool#acc\": {\"compute_at\": {\"func\":\"/MaxPool\",\"loop\":\"oy\"},\n"
        "   \"schedule\": [{\"reorder\":[\"d3\",\"d1\",\"kx\",\"ky\",\"d2\",\"d0\"],\"stage\":1}]},\n"
        " \"/MaxPool_1\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/MaxPool_1#acc\": {\"compute_at\": {\"func\":\"/MaxPool_1\",\"loop\":\"oy\"},\n"
        "   \"schedule\": [{\"reorder\":[\"d3\",\"d1\",\"kx\",\"ky\",\"d2\",\"d0\"],\"stage\":1}]},\n"
        " \"/Relu\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/Relu_1\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/conv1/Conv\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/conv1/Conv#acc\": {\"compute_at\": {\"func\":\"/conv1/Conv\",\"loop\":\"oy\"},\n"
        "   \"schedule\": [{\"reorder\":[\"ox\",\"co\",\"kx\",\"ky\",\"ci\",\"oy\",\"n\"],\"stage\":1}]},\n"
        " \"/conv2/Conv\": {\"schedule\": [{\"reorder\":[\"co\",\"ox\",\"oy\",\"n\"]}]},\n"
        " \"/conv2/Conv#acc\": {\"compute_at\": {\"func\":\"/conv2/Conv\",\"loop\":\"oy\"},\n"
        "   \"schedule\": [{\"reorder\":[\"ox\",\"co\",\"kx\",\"ky\",\"ci\",\"oy\",\"n\"],\"stage\":1}]}}\n";
    EXPECT_EQ(write_schedule_json(point_schedule(s, c)), write_schedule_json(parse_directives_json(script, "hwc.json")));
    // conv2 in HWC with 4 output channels per pipelined iteration and ox unrolled by 2.
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    const OrderOption &o = conv2->orders[hwc_order(*conv2)];
    EXPECT_EQ(o.unroll_loop, "ox");
    EXPECT_EQ(o.unroll_keys, (std::vector<std::string>{"/conv2/Conv#acc"}));
    EXPECT_EQ(o.jam_key, "/conv2/Conv#acc");
    EXPECT_EQ(o.jam_order, (std::vector<std::string>{"coi", "ox", "coo", "kx", "ky", "ci", "oy", "n"}));
    EXPECT_EQ(o.jams, (std::vector<int64_t>{1, 2, 4, 8, 16}));
    size_t n2 = conv2 - s.nodes.data();
    c[n2].unroll = 1;
    c[n2].jam = 2;
    EXPECT_EQ(point_text(s, c).find("conv2:hwc/u2/j4") != std::string::npos, true) << point_text(s, c);
    std::string json = write_schedule_json(point_schedule(s, c));
    EXPECT_NE(json.find("{\"split\":{\"factor\":4,\"inner\":\"coi\",\"loop\":\"co\",\"outer\":\"coo\"},\"stage\":1}"),
              std::string::npos) << json;
    EXPECT_NE(json.find("{\"reorder\":[\"coi\",\"ox\",\"coo\",\"kx\",\"ky\",\"ci\",\"oy\",\"n\"],\"stage\":1}"),
              std::string::npos) << json;
    // The design compiles; with the layout the maps between the convs and pools go through
    // rings of rows (window-buffers) and the estimate needs fewer BRAM18K than without.
    // No UltraRAM (bind-uram would put the plain design's ping-pong maps there): block RAM alone.
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    options.budget = "uram=0";
    HalideProgram hwc = p, plain = p;
    hwc.directives.append(point_schedule(s, c));
    for (size_t i = 0; i < s.nodes.size(); i++) {
        if (c[i].order > 0) c[i] = {s.nodes[i].orders.size() > 2 ? 1 : 0, 0, 0};  // reduction outside, no layout
    }
    plain.directives.append(point_schedule(s, c));
    DesignEstimate with = estimate_program(hwc, options), without = estimate_program(plain, options);
    EXPECT_LT(with.total.bram18k, without.total.bram18k) << with.total.bram18k << " vs " << without.total.bram18k;
}

// A conv of the zoo (ResNet-18 on 64x64 inputs, ctest fixture zoo_export_dse; skipped
// without it): layer4's convs (2x2 outputs, 512 channels) get jams up to 64 channels, and the
// search's points keep unroll x jam within kMaxUnroll.
TEST(SpaceJam, ZooResnetConvsOfferTheOutputChannelJam) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/resnet18_64/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_dse)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    int jammed = 0;
    for (const NodeKnobs &n : s.nodes) {
        if (n.key.find("Conv") == std::string::npos || n.orders.size() < 2) continue;
        const OrderOption &o = n.orders[1];
        ASSERT_FALSE(o.jams.empty()) << n.key;
        EXPECT_EQ(o.jam_loop, "co") << n.key;
        EXPECT_EQ(o.jam_helper_key, n.key + "#acc");
        EXPECT_LE(o.jams.back(), kMaxUnroll);
        jammed++;
    }
    EXPECT_EQ(jammed, 20);  // every conv
    const NodeKnobs *last = nullptr;
    for (const NodeKnobs &n : s.nodes) {
        if (n.key.find("/layer4/layer4.1/conv2/Conv") != std::string::npos) last = &n;
    }
    ASSERT_NE(last, nullptr);
    EXPECT_EQ(last->orders[1].factors, (std::vector<int64_t>{1, 2}));  // ox: 2x2 outputs
    EXPECT_EQ(last->orders[1].jams.back(), 64);                       // co: 512 channels
}

// ResNet-18's maxpool (64x64 zoo model, fixture zoo_export_dse; skipped without it) has a
// helper for its padded window: the "hwc" order computes it per row at the filter's `oy`, as a
// convolution's, the row's pixels `d3` and channels `d1` outside the window's loops (until
// session 31 it was computed at `ox` with `d1` inside the window, pool_channels_inside, no
// unroll, no jam).
TEST(SpaceHwc, ZooResnetMaxpoolHelperRunsOverTheRowOutsideTheWindow) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/resnet18_64/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_dse)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    const NodeKnobs *pool = nullptr;
    for (const NodeKnobs &n : s.nodes) {
        if (n.key == "/maxpool/MaxPool") pool = &n;
    }
    ASSERT_NE(pool, nullptr);
    int h = hwc_order(*pool);
    ASSERT_GE(h, 0);
    const OrderOption &o = pool->orders[h];
    ASSERT_EQ(o.transforms.size(), 3u);
    EXPECT_EQ(o.transforms[0].kind, LoopTransform::Kind::ComputeAt);
    EXPECT_EQ(o.transforms[0].func, "/maxpool/MaxPool#acc");
    EXPECT_EQ(o.transforms[0].at_func, "/maxpool/MaxPool");
    EXPECT_EQ(o.transforms[0].at_loop, "oy");
    EXPECT_EQ(o.transforms[1].loops, (std::vector<std::string>{"co", "ox", "oy", "n"}));  // the layout
    EXPECT_EQ(o.transforms[2].func, "/maxpool/MaxPool#acc");
    EXPECT_EQ(o.transforms[2].stage, 1);
    // The row's pixels innermost, then the channels, then the window, then the helper's other
    // pure loops (one iteration each at `oy`).
    EXPECT_EQ(o.transforms[2].loops, (std::vector<std::string>{"d3", "d1", "kx", "ky", "d2", "d0"}));
    EXPECT_EQ(o.unroll_loop, "d3");
    EXPECT_GT(o.factors.size(), 1u);
    EXPECT_EQ(o.jam_loop, "d1");
    EXPECT_GT(o.jams.size(), 1u);
}

// The pool's unroll in "hwc" (LeNet-5's second pool, 16 channels, 5x5 outputs): its per-row
// helper's pixel loop `d3` unrolled, so the row's pixels are compared in parallel: the pool's
// estimated latency drops (a little: its ring fill and copy-out, one word a cycle, stay) and the
// schedule unrolls `d3` of the helper.
TEST(SpaceHwc, LenetPoolUnrollsItsRowHelper) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = space_of(p);
    PointChoices c(s.nodes.size());
    size_t pool = s.nodes.size();
    for (size_t i = 0; i < s.nodes.size(); i++) {
        int h = hwc_order(s.nodes[i]);
        if (h >= 0) c[i].order = h;
        if (s.nodes[i].key == "/MaxPool_1") pool = i;
    }
    ASSERT_LT(pool, s.nodes.size());
    const OrderOption &o = s.nodes[pool].orders[c[pool].order];
    EXPECT_EQ(o.unroll_loop, "d3");
    ASSERT_GT(o.factors.size(), 1u);
    CompileOptions options;
    options.device = "xcvu9p";
    options.clock_mhz = 200;
    auto pool_latency = [&](int unroll) {
        c[pool].unroll = unroll;
        HalideProgram q = p;
        HlsSchedule sched = point_schedule(s, c);
        q.directives.append(sched);
        DesignEstimate e = estimate_program(q, options);
        for (const FilterEstimate &f : e.filters) {
            if (f.name.find("MaxPool_1") != std::string::npos) return f.latency;
        }
        return int64_t{0};
    };
    int last = static_cast<int>(o.factors.size()) - 1;
    int64_t one = pool_latency(0), fast = pool_latency(last);
    ASSERT_GT(fast, 0);
    EXPECT_LT(fast, one) << " at u" << o.factors[last];  // 3,821 vs 4,166 at u5: the fill and copy-out stay
    std::string json = write_schedule_json(point_schedule(s, c));
    EXPECT_NE(json.find("{\"factor\":" + std::to_string(o.factors[last]) + ",\"loop\":\"d3\"}"), std::string::npos)
        << json;
}

// The filter of `s` whose name contains `part` (null: none).
const NodeKnobs *node_containing(const DesignSpace &s, const std::string &part) {
    for (const NodeKnobs &n : s.nodes) {
        if (n.filter.find(part) != std::string::npos) return &n;
    }
    return nullptr;
}

// A QDQ Gemm fused into a 1x1 QLinearConv (issue 15): its one-iteration loops (kx, ky, ox, oy)
// are no knobs; the input-channel unroll and the reduction outside over the output channels are.
TEST(SpaceInt8, FusedQdqGemmOffersTheReductionOutside) {
    const std::string &dir = test::python_models("tests/frontend/onnx/qdq_models.py");
    if (dir.empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    DesignSpace s = space_of(import_onnx(dir + "/qdq_gemm/model.onnx", OnnxImportOptions()));
    const NodeKnobs *gemm = node_containing(s, "y4");
    ASSERT_NE(gemm, nullptr);
    ASSERT_EQ(gemm->orders.size(), 3u);  // default, reduction outside, hwc (4 arguments)
    EXPECT_EQ(gemm->orders[0].unroll_loop, "ci");  // 48 input channels
    // The divisors of 48 and the non-divisors 5 and 10 (10 and 5 iterations, 2 guarded copies idle).
    EXPECT_EQ(gemm->orders[0].factors, (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 48}));
    const OrderOption &o = gemm->orders[1];
    EXPECT_EQ(o.name, "reduction outside");
    EXPECT_EQ(o.unroll_loop, "co");  // 20 output channels, inside ci
    EXPECT_EQ(o.factors, (std::vector<int64_t>{1, 2, 3, 4, 5, 7, 10, 20}));  // 3, 7: 7 and 3 iterations of 21
    ASSERT_EQ(o.transforms.size(), 2u);
    EXPECT_EQ(o.transforms[0].at_loop, "n");
    EXPECT_EQ(o.transforms[1].loops, (std::vector<std::string>{"co", "kx", "ky", "ci"}));
}

// QLinearMatMul's accumulation: the reduction loop unrolled or moved outside the column loop.
TEST(SpaceInt8, QLinearMatMulOffersTheReductionOutside) {
    const std::string &dir = test::python_models("tests/frontend/onnx/qdq_models.py");
    if (dir.empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    DesignSpace s = space_of(import_onnx(dir + "/qlinear_matmul_constant_b/model.onnx", OnnxImportOptions()));
    ASSERT_FALSE(s.nodes.empty());
    int outside = 0;
    for (const NodeKnobs &n : s.nodes) {
        for (const OrderOption &o : n.orders) outside += o.name == "reduction outside" && o.factors.size() > 1;
    }
    EXPECT_EQ(outside, 1);
}

// The int8 LeNet-5's fused fc layers have knobs (they had none: issue 15).
TEST(SpaceInt8, ZooLenetInt8FcLayersHaveKnobs) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/lenet5_int8/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_int8)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    for (const char *fc : {"fc1", "fc2", "fc3"}) {
        const NodeKnobs *n = node_containing(s, std::string(fc) + "_Gemm");
        ASSERT_NE(n, nullptr) << fc;
        ASSERT_EQ(n->orders.size(), 3u) << fc;  // default, reduction outside, hwc
        EXPECT_GT(n->orders[0].factors.size(), 1u) << fc;
        EXPECT_GT(n->orders[1].factors.size(), 1u) << fc;
    }
    EXPECT_EQ(node_containing(s, "fc1_Gemm")->orders[1].factors.back(), 60);  // co: 120 channels
}

// The int8 LeNet-5's convs (QLinearConv, fused from QDQ Convs) get the float Conv's "hwc" knobs:
// the row helper, the unroll of its pixel loop and the output-channel jam, whose initialization
// takes the jam too. Before, an int8 conv's "hwc" order had the reorder only,
// and hida_resnet18_int8's stem stayed at u1 in every explored point.
TEST(SpaceInt8, ZooLenetInt8ConvsGetTheHwcUnrollAndJam) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/lenet5_int8/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_int8)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    for (const char *conv : {"model_model_conv1", "model_model_conv2"}) {
        const NodeKnobs *n = node(s, conv);
        ASSERT_NE(n, nullptr) << conv;
        int h = hwc_order(*n);
        ASSERT_GE(h, 0) << conv;
        const OrderOption &o = n->orders[h];
        EXPECT_EQ(o.unroll_loop, "ox") << conv;
        EXPECT_GT(o.factors.size(), 1u) << conv;
        EXPECT_EQ(o.jam_loop, "co") << conv;
        EXPECT_GT(o.jams.size(), 1u) << conv;
        EXPECT_TRUE(o.jam_helper_key.empty()) << conv;  // the jam is inside the helper
        EXPECT_EQ(o.jam_key, n->key + "#acc") << conv;
        ASSERT_FALSE(o.jam_init_order.empty()) << conv;
        EXPECT_EQ(o.jam_init_order.front(), "coi") << conv;
        ASSERT_EQ(o.transforms.size(), 3u) << conv;
        EXPECT_EQ(o.transforms[0].kind, LoopTransform::Kind::ComputeAt) << conv;
        EXPECT_EQ(o.transforms[0].at_loop, "oy") << conv;
    }
    EXPECT_EQ(node(s, "model_model_conv2")->orders[hwc_order(*node(s, "model_model_conv2"))].jams.back(), 16);
}

// The copy-out lanes of an "hwc" jam (OrderOption::lane_loop): conv1 of the int8 LeNet-5 (a
// 5x5 reduction over 1 channel: 25 terms, at most 8 x J from j4 on) splits its own channel
// loop at its jam by the largest divisor of J up to 16 and unrolls it (its output then leaves in
// that many FIFOs); conv2 (150 terms: 6 channels x 5 x 5, above 8 x 16) gets no split.
TEST(SpaceInt8, ZooLenetInt8StemCopyOutGetsLanesAtItsJam) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/lenet5_int8/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_int8)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    auto lanes_at_last_jam = [&](const char *conv, int64_t *taps) {
        const NodeKnobs *n = node(s, conv);
        int h = n ? hwc_order(*n) : -1;
        if (h < 0) return std::string("no hwc order");
        const OrderOption &o = n->orders[h];
        *taps = o.lane_taps;
        PointChoices p(s.nodes.size());
        p[n - s.nodes.data()] = {h, 0, static_cast<int>(o.jams.size()) - 1};
        HlsSchedule schedule = point_schedule(s, p);
        std::string out;
        for (const LoopTransform &t : schedule.transforms()) {
            if (t.kind == LoopTransform::Kind::Split && t.func == n->key && t.loop == o.lane_loop) {
                out += "split " + t.inner + " " + std::to_string(t.factor);
            }
        }
        for (const Directive &d : schedule.directives()) {
            if (d.kind == Directive::Kind::Unroll && d.target == n->key && d.loop == o.lane_inner) out += " unrolled";
        }
        return out;
    };
    int64_t taps = 0;
    EXPECT_EQ(lanes_at_last_jam("model_model_conv1", &taps), "split coli 6 unrolled");  // j6: 6 lanes
    EXPECT_EQ(taps, 25);
    EXPECT_EQ(lanes_at_last_jam("model_model_conv2", &taps), "");
    EXPECT_EQ(taps, 150);
}

// Float copy-out lanes at every jam, and the element-wise nodes after them following: the float
// LeNet-5's conv2 (150 terms a output, above 8 x 16; an int8 conv2 gets no lanes, above) at its
// last jam (16 channels) splits its channel loop by 16 and unrolls it; the Relu reading it, at
// unroll 1, splits its own channel loop by the same 16 lanes (DesignSpace::inputs), so it reads
// and writes all 16 FIFOs in one cycle. Without the jam neither splits.
TEST(SpaceHwc, LenetFloatCopyOutLanesAndTheReluFollowingThem) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    DesignSpace s = space_of(p);
    const NodeKnobs *conv2 = node(s, "conv2");
    ASSERT_NE(conv2, nullptr);
    const NodeKnobs *relu = nullptr;
    for (size_t i = 0; i < s.nodes.size(); i++) {
        const std::vector<int> &in = s.inputs.at(i);
        if (in.size() == 1 && in[0] == conv2 - s.nodes.data()) relu = &s.nodes[i];
    }
    ASSERT_NE(relu, nullptr);
    const int h = hwc_order(*conv2), rh = hwc_order(*relu);
    ASSERT_GE(h, 0);
    ASSERT_GE(rh, 0);
    EXPECT_TRUE(relu->orders[rh].lane_follows) << relu->filter;
    EXPECT_FALSE(conv2->orders[h].lane_requantizes);
    auto splits = [&](const HlsSchedule &schedule, const NodeKnobs &n) {
        const OrderOption &o = n.orders[hwc_order(n)];
        std::string out;
        for (const LoopTransform &t : schedule.transforms()) {
            if (t.kind == LoopTransform::Kind::Split && t.func == n.key && t.loop == o.lane_loop) {
                out += "split " + t.inner + " " + std::to_string(t.factor);
            }
        }
        for (const Directive &d : schedule.directives()) {
            if (d.kind == Directive::Kind::Unroll && d.target == n.key && d.loop == o.lane_inner) out += " unrolled";
        }
        return out;
    };
    PointChoices c(s.nodes.size());
    for (size_t i = 0; i < s.nodes.size(); i++) c[i].order = std::max(0, hwc_order(s.nodes[i]));
    const size_t at = static_cast<size_t>(conv2 - s.nodes.data());
    c[at].jam = static_cast<int>(conv2->orders[h].jams.size()) - 1;
    ASSERT_EQ(conv2->orders[h].jams.back(), 16);
    HlsSchedule jammed = point_schedule(s, c);
    EXPECT_EQ(splits(jammed, *conv2), "split coli 16 unrolled");
    EXPECT_EQ(splits(jammed, *relu), "split coli 16 unrolled");
    c[at].jam = 0;
    HlsSchedule plain = point_schedule(s, c);
    EXPECT_EQ(splits(plain, *conv2), "");
    EXPECT_EQ(splits(plain, *relu), "");
}

// The int8 LeNet-5's max-pools (FuseQdq's MaxPool on the int8 values, its window helper
// `acc(d3, d2, d1, d0)`) in "hwc": the helper computed per row at the filter's `oy` as a
// convolution's, its update `[d3, d1, kx, ky, d2, d0]` (the window's reduction outside the
// row's pixels and channels), the pixel loop `d3` unrolled and the channel loop `d1` jammed,
// the initialization (the window's start value) jammed too.
TEST(SpaceInt8, ZooLenetInt8MaxPoolsGetTheHwcRowHelperAndChannelJam) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/lenet5_int8/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_int8)";
    DesignSpace s = space_of(import_onnx(model, OnnxImportOptions()));
    int pools = 0;
    for (const NodeKnobs &n : s.nodes) {
        if (n.key.find("MaxPool") == std::string::npos) continue;
        pools++;
        int h = hwc_order(n);
        ASSERT_GE(h, 0) << n.key;
        const OrderOption &o = n.orders[h];
        ASSERT_EQ(o.transforms.size(), 3u) << n.key;
        EXPECT_EQ(o.transforms[0].kind, LoopTransform::Kind::ComputeAt) << n.key;
        EXPECT_EQ(o.transforms[0].func, n.key + "#acc");
        EXPECT_EQ(o.transforms[0].at_loop, "oy") << n.key;
        EXPECT_EQ(o.transforms[1].loops, (std::vector<std::string>{"co", "ox", "oy", "n"})) << n.key;
        EXPECT_EQ(o.transforms[2].stage, 1) << n.key;
        EXPECT_EQ(o.transforms[2].loops, (std::vector<std::string>{"d3", "d1", "kx", "ky", "d2", "d0"})) << n.key;
        EXPECT_EQ(o.unroll_loop, "d3") << n.key;
        EXPECT_EQ(o.unroll_keys, (std::vector<std::string>{n.key + "#acc"})) << n.key;
        EXPECT_GT(o.factors.size(), 1u) << n.key;
        EXPECT_EQ(o.jam_key, n.key + "#acc") << n.key;
        EXPECT_EQ(o.jam_loop, "d1") << n.key;
        EXPECT_GT(o.jams.size(), 1u) << n.key;
        EXPECT_EQ(o.jam_order, (std::vector<std::string>{"d1i", "d3", "d1o", "kx", "ky", "d2", "d0"})) << n.key;
        ASSERT_FALSE(o.jam_init_order.empty()) << n.key;
        EXPECT_EQ(o.jam_init_order.front(), "d1i") << n.key;
        EXPECT_TRUE(o.jam_copy_inputs.empty()) << n.key;
    }
    EXPECT_EQ(pools, 2);
}

// With its weights in external memory, the int8 LeNet-5's conv2 copies each block's weights on
// chip as the float one does, through the centering Func its accumulation reads them by
// (`..._op_w`, w - zero point): the `in` copy serves that Func's reads.
TEST(SpaceInt8, ZooLenetInt8JamCopiesOffChipWeightsThroughTheirCenteringFunc) {
    std::string model = std::string(FLOWHLS_ZOO_DIR) + "/lenet5_int8/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model << " (ctest fixture zoo_export_int8)";
    DesignSpace s = axi_weight_space(import_onnx(model, OnnxImportOptions()));
    const NodeKnobs *conv2 = node(s, "model_model_conv2");
    ASSERT_NE(conv2, nullptr);
    for (int order : {1, hwc_order(*conv2)}) {
        ASSERT_GT(order, 0);
        const OrderOption &o = conv2->orders[order];
        // The weights (read through their centering Func); in "reduction outside" also the
        // int32 bias, which the helper reads directly.
        ASSERT_EQ(o.jam_copy_inputs.size(), o.hwc ? 1u : 2u) << o.name;
        ASSERT_EQ(o.jam_copy_readers.size(), o.jam_copy_inputs.size()) << o.name;
        size_t w = 0;
        while (w < o.jam_copy_readers.size() && o.jam_copy_readers[w].empty()) w++;
        ASSERT_LT(w, o.jam_copy_readers.size()) << o.name;
        EXPECT_NE(o.jam_copy_readers[w].find("_op_w"), std::string::npos) << o.jam_copy_readers[w];
        PointChoices c(s.nodes.size());
        c[conv2 - s.nodes.data()] = {order, 0, 2};
        std::string json = write_schedule_json(point_schedule(s, c));
        EXPECT_NE(json.find("\"" + o.jam_copy_readers[w] + "\": {\n    \"in\""), std::string::npos) << json;
    }
}

}  // namespace
}  // namespace flowhls::dse
