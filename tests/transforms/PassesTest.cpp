// Tests of the passes (legalize-names, inline-expr-lets) and of the pass pipeline.
#include "TestSupport.h"
#include "analysis/PrintAnalyses.h"
#include "flowhls/Error.h"
#include "graph/ExtractFilters.h"
#include "transforms/DeadCode.h"
#include "transforms/HoistInvariants.h"
#include "transforms/InlineExprLets.h"
#include "transforms/LegalizeNames.h"
#include "transforms/Pipeline.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;

FilterGraph small_graph() { return extract_filters(lower_for_hls(test::small_program(), HlsTarget::Vitis)); }

TEST(LegalizeNames, CIdentifier) {
    EXPECT_EQ(c_identifier("blur.s0.y.$n.rebased"), "blur_s0_y_n_rebased");
    EXPECT_EQ(c_identifier("2mm"), "v2mm");
    EXPECT_EQ(c_identifier("a..b__c."), "a_b_c");
    EXPECT_EQ(c_identifier("$"), "v");
}

TEST(LegalizeNames, KeywordsCollisionsAndScopes) {
    FilterGraph g;
    g.name = "float";
    Buffer in{"int", Halide::Float(32), {4}, BufferKind::Input, {}, {}};
    Buffer out{"float", Halide::Float(32), {4}, BufferKind::Output, {}, {}};
    g.buffers = {in, out};
    g.args = {"int", "float"};
    // Two sibling loops binding the same Halide name must get distinct C names.
    Stmt store = Store::make("float", Load::make(Halide::Float(32), "int", Variable::make(Halide::Int(32), "x.v"),
                                                 Halide::Buffer<>(), Halide::Internal::Parameter(),
                                                 Halide::Internal::const_true(), ModulusRemainder()),
                             Variable::make(Halide::Int(32), "x.v"), Halide::Internal::Parameter(),
                             Halide::Internal::const_true(), ModulusRemainder());
    Stmt loop = For::make("x.v", 0, 4, ForType::Serial, Halide::DeviceAPI::None, store);
    g.filters.push_back(Filter{"float", "", Block::make(loop, loop), {}, {}, {}, "", {}});
    recompute_edges(g);
    PassResult r = legalize_names(g);
    EXPECT_TRUE(r.changed);
    EXPECT_EQ(g.name, "float_2");
    EXPECT_EQ(g.buffers[0].name, "int_2");
    EXPECT_EQ(g.buffers[1].name, "float_3");
    EXPECT_EQ(g.filters[0].function_name, "compute_float");
    std::ostringstream os;
    os << g.filters[0].body;
    EXPECT_NE(os.str().find("for (x_v, "), std::string::npos) << os.str();
    EXPECT_NE(os.str().find("for (x_v_2, "), std::string::npos) << os.str();
    EXPECT_NE(os.str().find("float_3[x_v_2] = (float32)int_2[x_v_2]"), std::string::npos) << os.str();
    // Running it again changes nothing: names are stable.
    EXPECT_FALSE(legalize_names(g).changed);
}

TEST(InlineExprLets, RemovesLetExpressions) {
    FilterGraph g = small_graph();
    Halide::Expr v = Variable::make(Halide::Int(32), "t");
    Halide::Expr let = Let::make("t", 3, v * v);
    g.filters[0].body = Store::make("blur", Halide::cast<float>(let), 0, Halide::Internal::Parameter(),
                                    Halide::Internal::const_true(), ModulusRemainder());
    EXPECT_TRUE(inline_expr_lets(g).changed);
    std::ostringstream os;
    os << g.filters[0].body;
    EXPECT_EQ(os.str().find("let"), std::string::npos) << os.str();
    EXPECT_FALSE(inline_expr_lets(g).changed);
}

TEST(Pipeline, DumpsAfterANamedPassAndTimesPasses) {
    FilterGraph g = small_graph();
    std::ostringstream dump, log;
    PipelineOptions o;
    o.verify_each = true;
    o.dump_after = {"legalize-names"};
    o.time_passes = true;
    o.dump = &dump;
    o.log = &log;
    run_pipeline(g, o);
    EXPECT_NE(dump.str().find("// ---- after legalize-names"), std::string::npos);
    EXPECT_EQ(dump.str().find("after inline-expr-lets"), std::string::npos);
    for (const PassDescription &p : pipeline_passes()) EXPECT_NE(log.str().find("pass " + p.name), std::string::npos);
}

TEST(Pipeline, DisabledPassDoesNotRun) {
    FilterGraph g = small_graph();
    PipelineOptions o;
    o.verify_each = true;
    o.disabled = {"three-address"};
    o.dump_after = {"three-address"};
    std::ostringstream dump;
    o.dump = &dump;
    run_pipeline(g, o);
    EXPECT_EQ(dump.str(), "");
    std::ostringstream os;
    os << g.filters[0].body;
    EXPECT_EQ(os.str().find("_0"), std::string::npos) << os.str();
}

TEST(Pipeline, RequiredPassesCannotBeDisabled) {
    FilterGraph g = small_graph();
    PipelineOptions o;
    o.verify_each = true;
    o.disabled = {"legalize-names"};
    EXPECT_THROW(run_pipeline(g, o), flowhls::Error);
}

TEST(Pipeline, UnknownPassNameIsAnError) {
    FilterGraph g = small_graph();
    PipelineOptions o;
    o.verify_each = true;
    o.dump_after = {"no-such-pass"};
    EXPECT_THROW(run_pipeline(g, o), flowhls::Error);
}

}  // namespace
}  // namespace flowhls

namespace flowhls {
namespace {

// The graph printed after `pass` with every pass of the pipeline enabled.
std::string dump_after(const HalideProgram &p, const std::string &pass) {
    FilterGraph g = extract_filters(lower_for_hls(p, HlsTarget::Vitis));
    std::ostringstream dump;
    PipelineOptions o;
    o.verify_each = true;
    o.dump_after = {pass};
    o.dump = &dump;
    run_pipeline(g, o);
    return dump.str();
}

TEST(PassGolden, ThreeAddress) {
    EXPECT_EQ(test::check_golden("pass_three-address.txt", dump_after(test::small_program(), "three-address")), "");
}

TEST(PassGolden, HoistInvariants) {
    EXPECT_EQ(test::check_golden("pass_hoist-invariants.txt", dump_after(test::small_program(), "hoist-invariants")),
              "");
}

TEST(PassGolden, ScalarReplacement) {
    EXPECT_EQ(test::check_golden("pass_scalar-replacement.txt", dump_after(test::normalize_program(), "scalar-replacement")),
              "");
}

TEST(PassGolden, TrivialBuffers) {
    EXPECT_EQ(test::check_golden("pass_trivial-buffers.txt", dump_after(test::normalize_program(), "trivial-buffers")), "");
}

TEST(PassGolden, DeadCode) {
    EXPECT_EQ(test::check_golden("pass_dead-code.txt", dump_after(test::normalize_program(), "dead-code")), "");
}

TEST(HoistInvariants, LoadsStayInLoopsThatStoreTheirBuffer) {
    using namespace Halide::Internal;
    FilterGraph g;
    g.buffers = {Buffer{"a", Halide::Float(32), {4}, BufferKind::Output, {}, {}}};
    g.args = {"a"};
    Halide::Expr load = Load::make(Halide::Float(32), "a", 0, Halide::Buffer<>(), Parameter(), const_true(),
                                   ModulusRemainder());
    Halide::Expr i = Variable::make(Halide::Int(32), "i");
    // for i: t = a[0] (a is stored in the loop: stays); u = 2 * 3 (invariant: leaves); a[i] = t + u
    Stmt body = LetStmt::make(
        "t", load,
        LetStmt::make("u", Halide::Expr(2) * 3,
                      Store::make("a", Variable::make(Halide::Float(32), "t") +
                                           Halide::cast<float>(Variable::make(Halide::Int(32), "u")),
                                  i, Parameter(), const_true(), ModulusRemainder())));
    g.filters.push_back(Filter{"a", "compute_a", For::make("i", 0, 4, ForType::Serial, Halide::DeviceAPI::None, body),
                               {}, {}, {}, "", {}});
    EXPECT_TRUE(hoist_invariants(g).changed);
    const LetStmt *outer = g.filters[0].body.as<LetStmt>();
    ASSERT_NE(outer, nullptr);
    EXPECT_EQ(outer->name, "u");
    const For *loop = outer->body.as<For>();
    ASSERT_NE(loop, nullptr);
    ASSERT_NE(loop->body.as<LetStmt>(), nullptr);
    EXPECT_EQ(loop->body.as<LetStmt>()->name, "t");
}

TEST(DeadCode, RemovesUnreadBuffersFiltersAndUnusedLets) {
    using namespace Halide::Internal;
    FilterGraph g;
    g.buffers = {Buffer{"in", Halide::Float(32), {4}, BufferKind::Input, {}, {}},
                 Buffer{"out", Halide::Float(32), {4}, BufferKind::Output, {}, {}},
                 Buffer{"unused", Halide::Float(32), {4}, BufferKind::Intermediate, {}, {}}};
    g.args = {"in", "out"};
    Halide::Expr i = Variable::make(Halide::Int(32), "i");
    Halide::Expr in_i = Load::make(Halide::Float(32), "in", i, Halide::Buffer<>(), Parameter(), const_true(),
                                   ModulusRemainder());
    auto loop = [&](const std::string &buffer, Stmt extra) {
        Stmt store = Store::make(buffer, in_i, i, Parameter(), const_true(), ModulusRemainder());
        return For::make("i", 0, 4, ForType::Serial, Halide::DeviceAPI::None, LetStmt::make("dead", 1, store));
    };
    g.filters.push_back(Filter{"unused", "compute_unused", loop("unused", Stmt()), {}, {}, {}, "", {}});
    g.filters.push_back(Filter{"out", "compute_out", loop("out", Stmt()), {}, {}, {}, "", {}});
    recompute_edges(g);
    EXPECT_TRUE(dead_code(g).changed);
    ASSERT_EQ(g.filters.size(), 1u);
    EXPECT_EQ(g.filters[0].name, "out");
    EXPECT_FALSE(g.has_buffer("unused"));
    std::ostringstream os;
    os << g.filters[0].body;
    EXPECT_EQ(os.str().find("dead"), std::string::npos) << os.str();
    EXPECT_FALSE(dead_code(g).changed);
}

}  // namespace
}  // namespace flowhls

namespace flowhls {
namespace {

// Every pass of the pipeline and every analysis of `flowhls opt` has file tests under
// tests/passes/NAME/ (run by ctest as pass/NAME/FILE).
TEST(PassFileTests, EveryPassAndAnalysisHasSome) {
    std::vector<std::string> names = analysis_names();
    for (const PassDescription &p : pipeline_passes()) names.push_back(p.name);
    for (const std::string &n : names) {
        std::filesystem::path dir = std::filesystem::path(FLOWHLS_PASS_TEST_DIR) / n;
        int files = 0;
        if (std::filesystem::is_directory(dir)) {
            for (const auto &e : std::filesystem::directory_iterator(dir)) files += e.path().extension() == ".graph";
        }
        EXPECT_GT(files, 0) << "no tests/passes/" << n << "/*.graph";
    }
}

// The checker fails on text that is not there (a pass test can fail).
TEST(PassFileTests, FileCheckReportsWhatIsMissing) {
    test::TempDir dir;
    std::ofstream(dir / "t.graph") << "// CHECK: alpha\n// CHECK-NEXT: beta\n// CHECK-NOT: gamma\n";
    std::ofstream(dir / "good.txt") << "x alpha\nbeta y\n";
    std::ofstream(dir / "bad.txt") << "alpha\ndelta\nbeta\n";
    std::ofstream(dir / "not.txt") << "alpha\nbeta\ngamma\n";
    std::string checker = std::string(FLOWHLS_FILECHECK) + " " + (dir / "t.graph") + " < ";
    EXPECT_EQ(std::system((checker + (dir / "good.txt") + " 2>/dev/null").c_str()), 0);
    EXPECT_NE(std::system((checker + (dir / "bad.txt") + " 2>/dev/null").c_str()), 0);
    EXPECT_NE(std::system((checker + (dir / "not.txt") + " 2>/dev/null").c_str()), 0);
}

}  // namespace
}  // namespace flowhls
