// Differential tests: every example x schedule (and random schedules) compiled, simulated
// with g++ (plain and under ASan/UBSan) and compared bit for bit with the Halide JIT.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

struct Case {
    std::string example, schedule;
    HlsTarget target;
};

// How gtest shows a case (instead of its bytes).
void PrintTo(const Case &c, std::ostream *os) {
    *os << c.example << " schedule " << c.schedule << " for " << hls_target_name(c.target);
}

std::string case_name(const testing::TestParamInfo<Case> &info) {
    std::string s = hls_target_name(info.param.target) + "_" + info.param.example + "_" + info.param.schedule;
    for (char &c : s) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return s;
}

// Schedules a target refuses on purpose (tested in CliTest).
bool refused(HlsTarget target, const std::string &schedule) {
    return target == HlsTarget::Vitis && (schedule == "parallel" || schedule == "vectorized");
}

void compile_and_simulate(const HalideProgram &program, bool sanitize, HlsTarget target = HlsTarget::Vitis) {
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.target = target;
    o.output_dir = dir / "out";
    CompileResult r = compile(program, o);
    CsimOptions co;
    co.sanitize = sanitize;
    CsimResult c = run_csim(r.output_dir, co);
    ASSERT_TRUE(c.built) << c.log;
    EXPECT_TRUE(c.passed) << c.log;
    EXPECT_NE(c.log.find("bit-exact"), std::string::npos) << c.log;
    EXPECT_EQ(c.log.find("differ in bits"), std::string::npos) << c.log;
}

class NamedSchedule : public testing::TestWithParam<Case> {};

TEST_P(NamedSchedule, MatchesHalideJit) {
    compile_and_simulate(build_example(GetParam().example, GetParam().schedule), false, GetParam().target);
}

TEST_P(NamedSchedule, MatchesHalideJitUnderSanitizers) {
    compile_and_simulate(build_example(GetParam().example, GetParam().schedule), true, GetParam().target);
}

std::vector<Case> named_cases() {
    std::vector<Case> out;
    for (HlsTarget t : {HlsTarget::Vitis, HlsTarget::Bambu}) {
        for (const ExampleInfo &e : list_examples()) {
            for (const std::string &s : e.schedules) {
                if (!refused(t, s)) out.push_back({e.name, s, t});
            }
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Examples, NamedSchedule, testing::ValuesIn(named_cases()), case_name);

// The examples reproducing calibration-corpus designs: PolyBench kernels (pb_*, starting with
// `baseline`, tests/examples/PolybenchTest.cpp) and Stream-HLS blocks (shls_*: opt1, opt2).
bool polybench(const std::string &example) {
    return example.rfind("pb_", 0) == 0 || example.rfind("shls_", 0) == 0;
}

// The other examples start with `root` and `linebuffer`.
TEST(Examples, EveryExampleHasRootAndLineBufferSchedules) {
    std::vector<ExampleInfo> all = list_examples();
    EXPECT_EQ(all.size(), 32u);
    for (const ExampleInfo &e : all) {
        if (polybench(e.name)) continue;
        EXPECT_GE(e.schedules.size(), 2u) << e.name;
        EXPECT_EQ(e.schedules[0], "root") << e.name;
        EXPECT_EQ(e.schedules[1], "linebuffer") << e.name;
    }
}

// 20 random legal schedules per example, drawn from fixed seeds (the PolyBench kernels: 5, at
// their mini size).
class RandomSchedule : public testing::TestWithParam<std::string> {};

TEST_P(RandomSchedule, TwentySeedsMatchHalideJit) {
    bool pb = polybench(GetParam());
    for (int seed = 1; seed <= (pb ? 5 : 20); seed++) {
        SCOPED_TRACE("schedule random:" + std::to_string(seed));
        bool sized = GetParam().rfind("pb_", 0) == 0;
        HalideProgram p = build_example(GetParam(), "random:" + std::to_string(seed), sized ? "mini" : "");
        // Alternate targets; every fourth seed also runs under the sanitizers.
        compile_and_simulate(p, seed % 4 == 0, seed % 2 ? HlsTarget::Bambu : HlsTarget::Vitis);
        if (HasFatalFailure()) return;
    }
}

TEST(RandomSchedule, SameSeedGivesSameCode) {
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "a";
    compile(build_example("harris", "random:5"), o);
    o.output_dir = dir / "b";
    compile(build_example("harris", "random:5"), o);
    o.output_dir = dir / "c";
    compile(build_example("harris", "random:6"), o);
    std::string a = test::read_file(dir / "a/kernel.cpp");
    EXPECT_EQ(a, test::read_file(dir / "b/kernel.cpp"));
    EXPECT_NE(a, test::read_file(dir / "c/kernel.cpp"));
}

// The Stream-HLS examples (shls_*) are left out: their algorithm functions carry the corpus
// design's structure (FIFO directives on chosen Funcs, accumulators computed inside their node),
// which a random placement contradicts ("stream applies to buffers between filters"); their
// named schedules are tested.
std::vector<std::string> example_names() {
    std::vector<std::string> out;
    for (const ExampleInfo &e : list_examples()) {
        if (e.name.rfind("shls_", 0) != 0) out.push_back(e.name);
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Examples, RandomSchedule, testing::ValuesIn(example_names()),
                         [](const testing::TestParamInfo<std::string> &i) {
                             return i.param == "2mm" ? std::string("mm2") : i.param;
                         });

// A reduction to one element: the accumulator becomes a scalar and the producer returns it.
TEST(Semantics, ScalarIntermediateIsReturnedByItsFilter) {
    for (HlsTarget t : {HlsTarget::Vitis, HlsTarget::Bambu}) {
        compile_and_simulate(test::normalize_program(), true, t);
    }
}

// Each optional pass alone (the others disabled), and none of them, on every example with
// its root and line-buffer schedules, for both targets (PolyBench: baseline at the mini size,
// for Vitis).
class PassAlone : public testing::TestWithParam<std::string> {};

TEST_P(PassAlone, KeepsEveryExampleEqualToTheJit) {
    std::vector<std::string> optional = {"three-address", "hoist-invariants", "scalar-replacement", "trivial-buffers",
                                         "dead-code"};
    std::vector<std::string> disabled;
    for (const std::string &p : optional) {
        if (p != GetParam()) disabled.push_back(p);
    }
    for (const ExampleInfo &e : list_examples()) {
        bool pb = polybench(e.name);
        std::vector<std::string> schedules = pb ? std::vector<std::string>{e.schedules.front()}
                                                : std::vector<std::string>{"root", "linebuffer"};
        for (const std::string &schedule : schedules) {
            for (HlsTarget t : {HlsTarget::Vitis, HlsTarget::Bambu}) {
                if (pb && t == HlsTarget::Bambu) continue;
                SCOPED_TRACE(e.name + " " + schedule + " " + hls_target_name(t));
                test::TempDir dir;
                CompileOptions o;
                o.verify_each = true;
                o.target = t;
                o.output_dir = dir / "out";
                o.disabled_passes = disabled;
                try {
                    compile(build_example(e.name, schedule, e.sizes.empty() ? "" : "mini"), o);
                } catch (const Error &err) {
                    // A FIFO a Stream-HLS schedule asks for can need three-address (which reads
                    // one element once for all its uses): without it the stream directive is
                    // refused, as it must be.
                    bool needs_three_address = std::string(err.what()).find("cannot be a FIFO") != std::string::npos;
                    if (GetParam() != "three-address" && e.name.rfind("shls_", 0) == 0 && needs_three_address) continue;
                    throw;
                }
                CsimResult c = run_csim(dir / "out", CsimOptions());
                ASSERT_TRUE(c.passed) << c.log;
                EXPECT_NE(c.log.find("bit-exact"), std::string::npos) << c.log;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Passes, PassAlone,
                         testing::Values("none", "three-address", "hoist-invariants", "scalar-replacement",
                                         "trivial-buffers", "dead-code"),
                         [](const testing::TestParamInfo<std::string> &i) {
                             std::string s = i.param;
                             for (char &c : s) {
                                 if (c == '-') c = '_';
                             }
                             return s;
                         });

// Integer and floating-point semantics the C printer must reproduce exactly: Euclidean
// division and modulo of negative numbers, narrow wrap-around, shifts, min/max, selects,
// casts and math functions.
TEST(Semantics, OperatorsMatchHalideJit) {
    using namespace Halide;
    ImageParam a(Int(32), 1, "a"), b(Int(32), 1, "b"), f(Float(32), 1, "f"), u(UInt(8), 1, "u");
    Var x("x");
    Func ints("ints"), floats("floats"), trig("trig"), bytes("bytes");
    Expr ai = a(x), bi = b(x);
    ints(x) = ai / bi + (ai % bi) * 3 + ai / 4 - ai % 7 + min(ai, bi) * max(ai, -bi) + select(ai > bi, ai, bi) +
              (ai >> 2) + (bi << 3) + abs(ai) + cast<int32_t>(cast<int16_t>(ai * 1000));
    Expr fi = f(x);
    floats(x) = fi / 3.0f + floor(fi * 7.0f) + sqrt(abs(fi)) + exp(fi) - log(abs(fi) + 1.0f) + min(fi, 0.25f) +
                max(fi, -0.25f) + pow(abs(fi), 1.5f) + sin(fi) * cos(fi) + tanh(fi) + fi % 0.3f +
                cast<float>(cast<int32_t>(fi * 100.0f)) + round(fi * 10.0f);
    Expr h = fi * 0.2f;  // in [-0.8, 0.8]
    trig(x) = tan(h) + asin(h) + acos(h) + atan(fi) + atan2(fi, h + 1.0f) + sinh(h) + cosh(h) + asinh(fi) +
              acosh(abs(fi) + 1.0f) + atanh(h) + ceil(fi * 3.0f) + trunc(fi * 3.0f) + pow(fi, 2.0f) + pow(fi, 3.0f) +
              pow(fi, 0.0f) + select(is_nan(sqrt(fi)), 1.0f, 0.0f) + exp(-fi * fi) + log(abs(fi) + 0.5f);
    Expr ui = u(x);
    bytes(x) = ui * cast<uint8_t>(3) + cast<uint8_t>(ui / cast<uint8_t>(7)) - (ui >> 1) + (ui ^ cast<uint8_t>(0x5a)) +
               cast<uint8_t>(cast<int32_t>(ui) - 300);

    HalideProgram p{"semantics",
                    {{a, {512}, -1000, 1000}, {b, {512}, -9, 9}, {f, {512}, -4.0, 4.0}, {u, {512}, 0, 255}},
                    {{ints, {512}}, {floats, {512}}, {trig, {512}}, {bytes, {512}}}};
    compile_and_simulate(p, true);
    compile_and_simulate(p, true, HlsTarget::Bambu);
}

}  // namespace
}  // namespace flowhls
