// Tests of the Halide intake: validation, static shapes, lowering cleanup, JIT reference.
#include "TestSupport.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/Reference.h"
#include "support/Names.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide;

std::string error_of(const HalideProgram &p) {
    try {
        lower_for_hls(p, HlsTarget::Vitis);
    } catch (const flowhls::Error &e) {
        return e.what();
    }
    return "";
}

HalideProgram two_stage(Func *first, Func *second) {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = in(x, y) * 2.0f;
    g(x, y) = f(x, y) + 1.0f;
    *first = f;
    *second = g;
    return HalideProgram{"k", {{in, {16, 8}, 0, 1}}, {{g, {16, 8}}}};
}

TEST(Intake, LoweredBodyHasNoCpuSpecificIr) {
    LoweredProgram l = lower_for_hls(test::small_program(), HlsTarget::Vitis);
    std::ostringstream os;
    os << l.body;
    std::string text = os.str();
    EXPECT_EQ(text.find("assert"), std::string::npos) << text;
    EXPECT_EQ(text.find("_halide_buffer"), std::string::npos) << text;
    EXPECT_EQ(text.find(".stride."), std::string::npos) << text;
    EXPECT_EQ(text.find(".min."), std::string::npos) << text;
    ASSERT_EQ(l.args.size(), 2u);
    EXPECT_EQ(l.args[0].name, "input");
    EXPECT_FALSE(l.args[0].is_output);
    EXPECT_EQ(l.args[0].shape, (std::vector<int64_t>{8, 4}));
    EXPECT_EQ(halide_base_name(l.args[1].name), "scaled");
    EXPECT_TRUE(l.args[1].is_output);
}

TEST(Intake, RejectsMissingShapeAsDynamic) {
    HalideProgram p = test::small_program();
    p.inputs[0].shape.clear();
    EXPECT_NE(error_of(p).find("input 'input' has a dynamic shape"), std::string::npos) << error_of(p);
}

TEST(Intake, RejectsNonPositiveExtent) {
    HalideProgram p = test::small_program();
    p.outputs[0].shape = {6, 0};
    EXPECT_NE(error_of(p).find("output 'scaled' dimension 1 has extent 0"), std::string::npos) << error_of(p);
}

TEST(Intake, RejectsVectorizeNamingTheFunc) {
    Func f, g;
    HalideProgram p = two_stage(&f, &g);
    f.compute_root().vectorize(f.args()[0], 4);
    std::string e = error_of(p);
    EXPECT_NE(e.find("Func 'f'"), std::string::npos) << e;
    EXPECT_NE(e.find("vectorize"), std::string::npos) << e;
}

TEST(Intake, RejectsParallel) {
    Func f, g;
    HalideProgram p = two_stage(&f, &g);
    g.parallel(g.args()[1]);
    std::string e = error_of(p);
    EXPECT_NE(e.find("Func 'g'"), std::string::npos) << e;
    EXPECT_NE(e.find("parallel"), std::string::npos) << e;
}

TEST(Intake, RejectsGpuSchedule) {
    Func f, g;
    HalideProgram p = two_stage(&f, &g);
    Var bx("bx"), tx("tx");
    g.gpu_tile(g.args()[0], bx, tx, 4);
    std::string e = error_of(p);
    EXPECT_NE(e.find("Func 'g'"), std::string::npos) << e;
    EXPECT_NE(e.find("gpu"), std::string::npos) << e;
}

TEST(Intake, RejectsExternStage) {
    ImageParam in(Float(32), 2, "in");
    Func ext("ext"), g("g");
    ext.define_extern("some_c_function", {in}, Float(32), 2);
    Var x("x"), y("y");
    g(x, y) = ext(x, y);
    HalideProgram p{"k", {{in, {4, 4}, 0, 1}}, {{g, {4, 4}}}};
    std::string e = error_of(p);
    EXPECT_NE(e.find("Func 'ext' is an extern stage"), std::string::npos) << e;
}

TEST(Intake, RejectsUnsupportedType) {
    ImageParam in(Float(16), 2, "in");
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = in(x, y);
    HalideProgram p{"k", {{in, {4, 4}, 0, 1}}, {{g, {4, 4}}}};
    std::string e = error_of(p);
    EXPECT_NE(e.find("input 'in' has type float16"), std::string::npos) << e;
}

TEST(Intake, RejectsScalarParam) {
    ImageParam in(Float(32), 2, "in");
    Param<float> gain("gain");
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = in(x, y) * gain;
    HalideProgram p{"k", {{in, {4, 4}, 0, 1}}, {{g, {4, 4}}}};
    std::string e = error_of(p);
    EXPECT_NE(e.find("scalar parameter 'gain'"), std::string::npos) << e;
}

TEST(Intake, RejectsNonIdentifierKernelName) {
    HalideProgram p = test::small_program();
    p.name = "2bad name";
    EXPECT_NE(error_of(p).find("not a C identifier"), std::string::npos);
}

TEST(Reference, JitComputesTheAlgorithm) {
    HalideProgram p = test::small_program();
    std::vector<Buffer<>> inputs = random_inputs(p, 7);
    ReferenceData d = run_reference(p, inputs);
    Buffer<float> in(inputs[0]), out(d.outputs[0]);
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 6; x++) {
            float expect = ((in(x, y) + in(x + 1, y)) + in(x + 2, y)) * 0.5f;
            EXPECT_EQ(out(x, y), expect) << x << "," << y;
        }
    }
}

TEST(Reference, RandomInputsAreDeterministicAndInRange) {
    HalideProgram p = test::small_program();
    p.inputs[0].low = -2.0;
    p.inputs[0].high = 3.0;
    Buffer<float> a(random_inputs(p, 3)[0]), b(random_inputs(p, 3)[0]), c(random_inputs(p, 4)[0]);
    bool differs = false;
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 8; x++) {
            EXPECT_EQ(a(x, y), b(x, y));
            EXPECT_GE(a(x, y), -2.0f);
            EXPECT_LE(a(x, y), 3.0f);
            differs |= a(x, y) != c(x, y);
        }
    }
    EXPECT_TRUE(differs);
}

TEST(Reference, OutOfBoundsReadIsReported) {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = in(x + 1, y);  // needs 5 columns, the input has 4
    HalideProgram p{"k", {{in, {4, 4}, 0, 1}}, {{g, {4, 4}}}};
    try {
        run_reference(p, random_inputs(p, 1));
        FAIL() << "expected an error";
    } catch (const flowhls::Error &e) {
        EXPECT_NE(std::string(e.what()).find("in"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace flowhls
