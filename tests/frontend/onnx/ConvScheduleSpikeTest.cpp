// Which Halide 14 schedules are legal on an ONNX conv as flowhls imports it (issue 14, WP0 spike):
// each transformed schedule's JIT result against the default schedule's.
#include "OnnxModelBuilder.h"
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/ApplySchedule.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/ProgramCopy.h"
#include "frontend/halide/Reference.h"
#include "support/Names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace flowhls {
namespace {

// x [1, 4, 6, 8] -> Conv 3x3 pad 1 (4 -> 8) "c1" -> Relu "r1" -> Conv 3x3 pad 1 (8 -> 8) "y".
HalideProgram two_convs(const test::TempDir &dir) {
    test::OnnxModelBuilder b("two_convs");
    b.input("x", {1, 4, 6, 8});
    std::string c1 = b.conv("x", 4, 8);
    b.rename_output(c1, "c1");
    b.node("Relu", {"c1"}, {"r1"});
    std::string y = b.conv("r1", 8, 8);
    b.rename_output(y, "y");
    b.output("y", {1, 8, 6, 8});
    OnnxImportOptions o;
    return import_onnx(b.write(dir / "two_convs.onnx"), o);
}

class ConvScheduleSpike : public ::testing::Test {
protected:
    test::TempDir dir;
    HalideProgram program = two_convs(dir);
    std::vector<Halide::Buffer<>> inputs = random_inputs(program, 7);
    ReferenceData expected = run_reference(isolated_copy(program), inputs);

    // The JIT result of the program with `transforms` applied, and its lowering for HLS
    // succeeding; throws what apply_loop_schedule throws.
    ReferenceData with(const HlsSchedule &transforms) {
        HalideProgram p = isolated_copy(program);
        p.directives = transforms;
        apply_loop_schedule(p);
        ReferenceData r = run_reference(p, inputs);
        HalideProgram q = isolated_copy(program);
        q.directives = transforms;
        apply_loop_schedule(q);
        lower_for_hls(q, HlsTarget::Vitis);
        return r;
    }
    Halide::Func func(const std::string &name) {
        std::string real = program.directive_aliases.count(name) ? program.directive_aliases.at(name) : name;
        return Halide::Func(pipeline_functions(program).at(real));
    }
};

TEST_F(ConvScheduleSpike, NodeNamesReachTheAccumulationFunc) {
    // (Halide appends "$N" to a name it has seen before in the process.)
    EXPECT_EQ(halide_base_name(program.directive_aliases.at("y#acc")), "y_op");
    EXPECT_EQ(halide_base_name(program.directive_aliases.at("c1#acc")), "c1_op");
    // The accumulation's pure loops are named like the filter's.
    std::vector<std::string> args = func("y#acc").function().args();
    EXPECT_EQ(args, (std::vector<std::string>{"ox", "oy", "co", "n"}));
}

TEST_F(ConvScheduleSpike, SplitAndReorderOfPureLoopsIsExact) {
    HlsSchedule s;
    Halide::Func y = func("y");
    s.split(y, "co", "coo", "coi", 4).split(y, "ox", "oxo", "oxi", 4).reorder(y, {"coi", "coo", "oxi", "oxo", "oy", "n"});
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, ReorderStorageOfAnIntermediateIsExact) {
    HlsSchedule s;
    s.reorder_storage(func("c1"), {"co", "ox", "oy", "n"});  // HWC: channels innermost
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, AccumulationComputedAtATileIsExact) {
    HlsSchedule s;
    Halide::Func y = func("y"), acc = func("y#acc");
    s.split(y, "ox", "oxo", "oxi", 4).reorder(y, {"co", "oxi", "oxo", "oy", "n"}).compute_at(acc, y, "oxo");
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, PureLoopsMoveInsideTheReductionAndKeepTheSums) {
    // The reduction (ci, ky, kx) outside the pixel and channel loops of a tile: the order of
    // each output's sum is unchanged, so the result is bit-exact.
    HlsSchedule s;
    Halide::Func y = func("y"), acc = func("y#acc");
    s.split(y, "ox", "oxo", "oxi", 4).reorder(y, {"co", "oxi", "oxo", "oy", "n"}).compute_at(acc, y, "oxo");
    s.split(acc, "co", "coo", "coi", 4, 1).reorder(acc, {"coi", "ox", "coo", "kx", "ky", "ci", "oy", "n"}, 1);
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, SplitReductionLoopKeepsTheSums) {
    // ci split into cio, cii with cii where ci was: the same order of summation.
    HlsSchedule s;
    Halide::Func acc = func("y#acc");
    s.split(acc, "ci", "cio", "cii", 4, 1);
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, ReductionLoopMovesInsideAnotherAndTheSumIsReassociated) {
    // The plan's channel-unroll order: RVar cii inside kx and ky. Halide 14 accepts it (it
    // checks races, not the order of a sum), so each output sums its terms in another order:
    // equal within float rounding, not bit for bit.
    HlsSchedule s;
    Halide::Func acc = func("y#acc");
    s.split(acc, "ci", "cio", "cii", 4, 1).reorder(acc, {"cii", "kx", "ky", "cio"}, 1);
    ReferenceData r = with(s);
    EXPECT_FALSE(same_outputs(r, expected));
    Halide::Buffer<float> got(r.outputs[0]), want(expected.outputs[0]);
    double worst = 0;
    for (size_t k = 0; k < got.number_of_elements(); k++) {
        worst = std::max(worst, std::fabs(double(got.data()[k]) - double(want.data()[k])) /
                                    (1.0 + std::fabs(double(want.data()[k]))));
    }
    EXPECT_LT(worst, 1e-5);
}

TEST_F(ConvScheduleSpike, HalideUnrollOfAReductionLoopKeepsTheSums) {
    HlsSchedule s;
    s.halide_unroll(func("y#acc"), "kx", 3, 1);
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, FuseOfPureLoopsIsExact) {
    HlsSchedule s;
    Halide::Func y = func("y");
    s.fuse(y, "ox", "oy", "pixel");
    EXPECT_TRUE(same_outputs(with(s), expected));
}

TEST_F(ConvScheduleSpike, TransformedScheduleSimulates) {
    // The recurrence-free conv end to end: tiles of 4 pixels, the reduction outside them.
    HlsSchedule s;
    Halide::Func y = func("y"), acc = func("y#acc");
    s.split(y, "ox", "oxo", "oxi", 4).reorder(y, {"co", "oxi", "oxo", "oy", "n"}).compute_at(acc, y, "oxo");
    s.reorder(acc, {"ox", "co", "kx", "ky", "ci", "oy", "n"}, 1);
    HalideProgram p = program;
    p.directives = s;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "out";
    CompileResult r = compile(p, o);
    CsimResult c = run_csim(r.output_dir, CsimOptions());
    EXPECT_TRUE(c.passed) << c.log;
}

}  // namespace
}  // namespace flowhls
