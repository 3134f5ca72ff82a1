// Tests of the C printer and the Vitis emitter (golden kernel of a small pipeline).
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "emit/CPrinter.h"
#include "emit/PrepareEmission.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"
#include "graph/ExtractFilters.h"
#include "transforms/Pipeline.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide;
using namespace Halide::Internal;

std::string print(const Expr &e) { return CPrinter(CDialect{}).expr(e); }

Expr var(Type t, const std::string &n) { return Variable::make(t, n); }

TEST(CPrinter, LiteralsKeepTheirTypeAndExactValue) {
    EXPECT_EQ(c_literal(Expr(0.1f)), "0.1f");
    EXPECT_EQ(c_literal(Expr(-2.5f)), "(-2.5f)");
    EXPECT_EQ(c_literal(Expr(100.0f)), "100.0f");
    EXPECT_EQ(c_literal(Expr(0.1)), "0.1");
    EXPECT_EQ(c_literal(Expr(-0.0f)), "(-0.0f)");
    EXPECT_EQ(c_literal(Expr(0.1f), FloatLiteralForm::Hex), "0x1.99999ap-4f");
    EXPECT_EQ(c_literal(Expr(-2.5f), FloatLiteralForm::Hex), "(-0x1.4p+1f)");
    EXPECT_EQ(c_literal(Expr(0.1), FloatLiteralForm::Hex), "0x1.999999999999ap-4");
    EXPECT_EQ(c_literal(Expr(7)), "7");
    EXPECT_EQ(c_literal(Expr(-7)), "(-7)");
    EXPECT_EQ(c_literal(make_const(Int(32), INT32_MIN)), "(-2147483647 - 1)");
    EXPECT_EQ(c_literal(make_const(UInt(8), 200)), "((uint8_t)200u)");
    EXPECT_EQ(c_literal(make_const(UInt(32), 5)), "5u");
    EXPECT_EQ(c_literal(make_const(Int(64), -3)), "INT64_C(-3)");
    EXPECT_EQ(c_literal(const_true()), "true");
    EXPECT_EQ(c_literal(make_const(Float(32), INFINITY)), "((float)INFINITY)");
}

TEST(CPrinter, NarrowIntegerArithmeticWrapsBack) {
    Expr a = var(UInt(16), "a"), b = var(UInt(16), "b");
    EXPECT_EQ(print(Mul::make(a, b)), "((uint16_t)((uint32_t)a * (uint32_t)b))");
    Expr c = var(Int(8), "c"), d = var(Int(8), "d");
    EXPECT_EQ(print(Add::make(c, d)), "((int8_t)(c + d))");
    Expr i = var(Int(32), "i"), j = var(Int(32), "j");
    EXPECT_EQ(print(Add::make(i, j)), "(i + j)");
}

TEST(CPrinter, HalideDivisionModuloMinMaxUseHelpers) {
    Expr i = var(Int(32), "i"), j = var(Int(32), "j");
    EXPECT_EQ(print(Div::make(i, j)), "flowhls_div_i32(i, j)");
    EXPECT_EQ(print(Mod::make(i, j)), "flowhls_mod_i32(i, j)");
    EXPECT_EQ(print(Min::make(i, j)), "flowhls_min_i32(i, j)");
    Expr f = var(Float(32), "f"), g = var(Float(32), "g");
    EXPECT_EQ(print(Div::make(f, g)), "(f / g)");
    EXPECT_EQ(print(Max::make(f, g)), "flowhls_max_f32(f, g)");
    EXPECT_EQ(print(Mod::make(f, g)), "flowhls_mod_f32(f, g)");
}

TEST(CPrinter, SelectsCastsLoadsAndMath) {
    Expr f = var(Float(32), "f");
    EXPECT_EQ(print(Select::make(f < 0.0f, -f, f)), "((f < 0.0f) ? (0.0f - f) : f)");
    EXPECT_EQ(print(Cast::make(Int(32), f)), "((int32_t)f)");
    EXPECT_EQ(print(Load::make(Float(32), "buf", var(Int(32), "i"), Halide::Buffer<>(), Parameter(), const_true(),
                               ModulusRemainder())),
              "buf[i]");
    EXPECT_EQ(print(sqrt(f)), "sqrtf(f)");
    EXPECT_EQ(print(exp(var(Float(64), "d"))), "exp(d)");
    EXPECT_EQ(print(abs(var(Int(16), "s"))), "flowhls_abs_i16(s)");
}

// check_printable refuses them before printing (a user error); the printer only asserts.
TEST(CPrinter, UnsupportedConstructsAreErrors) {
    Expr v = Ramp::make(0, 1, 4);
    EXPECT_THROW(check_printable(v, CDialect{}), flowhls::Error);
    EXPECT_THROW(print(v), std::logic_error);
    Expr ext = Call::make(Int(32), "my_extern", {Expr(1)}, Call::Extern);
    EXPECT_THROW(check_printable(ext, CDialect{}), flowhls::Error);
    EXPECT_THROW(print(ext), std::logic_error);
}

TEST(CPrinter, LoopsAreLabelled) {
    Stmt s = For::make("x", 0, 4, ForType::Serial, DeviceAPI::None,
                       Store::make("o", Cast::make(Float(32), var(Int(32), "x")), var(Int(32), "x"), Parameter(),
                                   const_true(), ModulusRemainder()));
    std::ostringstream os;
    CPrinter(CDialect{}).stmt(s, os, 0);
    EXPECT_EQ(os.str(),
              "L_x: for (int32_t x = 0; x < 4; x++) {\n"
              "    o[x] = ((float)x);\n"
              "}\n");
}

// The small program after the pass pipeline, with FIFO channels for Vitis as compile() does.
FilterGraph prepared_small_graph(HlsTarget target = HlsTarget::Vitis) {
    return test::prepared_graph(test::small_program(), target == HlsTarget::Vitis, {}, target);
}

TEST(VitisEmitter, KernelGolden) {
    std::vector<EmittedFile> files = emit_vitis_files(prepared_small_graph(), ProjectSettings());
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[1].path, "kernel.cpp");
    EXPECT_EQ(test::check_golden("small_kernel.h", files[0].contents), "");
    EXPECT_EQ(test::check_golden("small_kernel.cpp", files[1].contents), "");
}

TEST(VitisEmitter, TestbenchGolden) {
    std::vector<EmittedFile> files = emit_project_files(prepared_small_graph(), ProjectSettings());
    ASSERT_EQ(files[0].path, "tb.cpp");
    EXPECT_EQ(test::check_golden("small_tb.c", files[0].contents), "");
}

TEST(BambuEmitter, KernelGolden) {
    ProjectSettings settings;
    settings.target = HlsTarget::Bambu;
    std::vector<EmittedFile> files = emit_bambu_files(prepared_small_graph(HlsTarget::Bambu), settings);
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[1].path, "kernel.c");
    EXPECT_EQ(test::check_golden("small_kernel.c", files[1].contents), "");
    EXPECT_EQ(files[2].path, "run_bambu.sh");
    EXPECT_NE(files[2].contents.find("\"$BAMBU\" ../kernel.c --top-fname=small"), std::string::npos);
    // The testbench is the Vitis one plus the array sizes Bambu's co-simulation needs.
    std::vector<EmittedFile> project = emit_project_files(prepared_small_graph(HlsTarget::Bambu), settings);
    EXPECT_EQ(project[0].path, "tb.c");
    EXPECT_EQ(test::check_golden("small_tb_bambu.c", project[0].contents), "");
}

TEST(BambuEmitter, ParallelLoopsBecomeOmpFor) {
    Stmt s = For::make("c", 0, 4, ForType::Parallel, DeviceAPI::None,
                       Store::make("o", 1.0f, var(Int(32), "c"), Parameter(), const_true(), ModulusRemainder()));
    std::ostringstream os;
    CDialect c99;
    c99.cplusplus = false;
    c99.loop_labels = false;
    c99.openmp_parallel = true;
    CPrinter(c99).stmt(s, os, 1);
    EXPECT_EQ(os.str(),
              "#pragma omp for\n"
              "    for (int32_t c = 0; c < 4; c++) {\n"
              "        o[c] = 1.0f;\n"
              "    }\n");
    EXPECT_NO_THROW(check_printable(s, c99));
    EXPECT_THROW(check_printable(s, CDialect{}), flowhls::Error);
}

TEST(VitisEmitter, SequentialTopWhenDataflowIsIllegal) {
    FilterGraph g = prepared_small_graph();
    g.dataflow.legal = false;
    g.dataflow.reason = "testing";
    std::string k = emit_vitis_files(g, ProjectSettings())[1].contents;
    EXPECT_EQ(k.find("#pragma HLS DATAFLOW"), std::string::npos);
    EXPECT_NE(k.find("// Sequential (no dataflow): testing."), std::string::npos);
}

}  // namespace
}  // namespace flowhls
