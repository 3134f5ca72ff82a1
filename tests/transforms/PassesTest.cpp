// Tests of the passes (legalize-names, inline-expr-lets) and of the pass pipeline.
#include "TestSupport.h"
#include "flowhls/Error.h"
#include "graph/ExtractFilters.h"
#include "transforms/InlineExprLets.h"
#include "transforms/LegalizeNames.h"
#include "transforms/Pipeline.h"

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
    g.filters.push_back(Filter{"float", "", Block::make(loop, loop), {}, {}, {}});
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
    o.dump_after = {"legalize-names"};
    o.time_passes = true;
    o.dump = &dump;
    o.log = &log;
    run_pipeline(g, o);
    EXPECT_NE(dump.str().find("// ---- after legalize-names"), std::string::npos);
    EXPECT_EQ(dump.str().find("after inline-expr-lets"), std::string::npos);
    for (const PassInfo &p : pipeline_passes()) EXPECT_NE(log.str().find("pass " + p.name), std::string::npos);
}

TEST(Pipeline, DisabledPassDoesNotRun) {
    FilterGraph g = small_graph();
    PipelineOptions o;
    o.disabled = {"check-dataflow"};
    run_pipeline(g, o);
    EXPECT_FALSE(g.dataflow.checked);
}

TEST(Pipeline, UnknownPassNameIsAnError) {
    FilterGraph g = small_graph();
    PipelineOptions o;
    o.dump_after = {"no-such-pass"};
    EXPECT_THROW(run_pipeline(g, o), flowhls::Error);
}

}  // namespace
}  // namespace flowhls
