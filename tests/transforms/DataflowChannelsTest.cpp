// Tests of dataflow legalization (fork filters) and stream balancing (token simulation).
#include "OnnxModelBuilder.h"
#include "graph/GraphText.h"
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "analysis/TokenSim.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "transforms/Pipeline.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

// x -> conv -> relu -> conv -> add(x) -> relu: a residual block.
std::string residual_model(const std::string &path) {
    test::OnnxModelBuilder b("residual");
    b.input("x", {1, 4, 8, 8});
    std::string y = b.op("Relu", {b.conv(b.op("Relu", {b.conv("x", 4, 4)}), 4, 4)});
    b.rename_output(b.op("Relu", {b.op("Add", {y, "x"})}), "y");
    b.output("y", {1, 4, 8, 8});
    return b.write(path);
}

// x -> conv -> relu (skip) -> maxpool -> conv -> upsample, joined with the skip connection by
// a sum and by a concatenation, then conv: U-Net style.
std::string unet_model(const std::string &path) {
    test::OnnxModelBuilder b("unet");
    b.input("x", {1, 2, 8, 8});
    std::string skip = b.op("Relu", {b.conv("x", 2, 4)});
    std::string up = b.upsample2(b.op("Relu", {b.conv(b.maxpool(skip), 4, 4)}));
    std::string summed = b.op("Add", {skip, up});
    std::string joined = b.concat({skip, summed});
    b.rename_output(b.conv(joined, 8, 2), "y");
    b.output("y", {1, 2, 8, 8});
    return b.write(path);
}

FilterGraph prepared(const HalideProgram &p) { return test::prepared_graph(p); }

class Reconvergent : public ::testing::TestWithParam<std::string> {};

TEST_P(Reconvergent, ComputedDepthsPassTheTokenCheckAndDepthOneDeadlocks) {
    test::TempDir dir;
    std::string model = GetParam() == "residual" ? residual_model(dir / "m.onnx") : unet_model(dir / "m.onnx");
    HalideProgram p = import_onnx(model, OnnxImportOptions());
    FilterGraph g = prepared(p);
    ASSERT_TRUE(g.dataflow.legal) << g.dataflow.reason << "\n" << print_graph(g);
    bool forked = false, deepened = false;
    std::map<std::string, int64_t> ones;
    for (const Buffer &b : g.buffers) {
        forked |= b.name.find("_fork") != std::string::npos || b.name.find("_to_") != std::string::npos;
        if (!b.is_stream()) continue;
        deepened |= b.stream_depth > kStreamDepth;
        ones[b.name] = 1;
    }
    EXPECT_TRUE(forked) << print_graph(g);
    EXPECT_TRUE(deepened) << print_graph(g);
    EXPECT_NE(g.token_check.find("no deadlock"), std::string::npos) << g.token_check;
    EXPECT_FALSE(simulate_tokens(g).deadlock);
    TokenSimResult stuck = simulate_tokens(g, ones);
    EXPECT_TRUE(stuck.deadlock);
    ASSERT_FALSE(stuck.blocked.empty());
    EXPECT_NE(stuck.blocked[0].find("waits for"), std::string::npos);

    // The design simulates against the JIT, streams and forks included, under sanitizers.
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "p";
    CompileResult r = compile(p, o);
    EXPECT_TRUE(r.dataflow) << r.dataflow_reason;
    EXPECT_NE(test::read_file(dir / "p/kernel.cpp").find("#pragma HLS DATAFLOW"), std::string::npos);
    CsimOptions co;
    co.sanitize = true;
    CsimResult c = run_csim(r.output_dir, co);
    EXPECT_TRUE(c.passed) << c.log;
}

INSTANTIATE_TEST_SUITE_P(Graphs, Reconvergent, ::testing::Values("residual", "unet"));

TEST(LegalizeDataflow, InputReadTwiceGetsAFork) {
    Halide::ImageParam in(Halide::Float(32), 1, "in");
    Halide::Var x("x");
    Halide::Func a("a"), b("b"), out("out");
    a(x) = in(x) * 2.0f;
    b(x) = in(x) + 1.0f;
    out(x) = a(x) + b(x);
    a.compute_root();
    b.compute_root();
    FilterGraph g = prepared(HalideProgram{"twice", {{in, {32}, 0.0, 1.0}}, {{out, {32}}}});
    EXPECT_TRUE(g.dataflow.legal) << g.dataflow.reason;
    EXPECT_TRUE(g.has_buffer("in_to_a")) << print_graph(g);
    EXPECT_EQ(g.filters.front().name, "in_fork");
}

}  // namespace
}  // namespace flowhls

namespace flowhls {
namespace {

TEST(InferDirectives, InnermostLoopsPipelinedForVitisAndReportedNotAppliedForBambu) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "vitis";
    compile(p, o);
    std::string kernel = test::read_file(dir / "vitis/kernel.cpp");
    EXPECT_NE(kernel.find("#pragma HLS PIPELINE II=1"), std::string::npos);
    EXPECT_NE(test::read_file(dir / "vitis/report.txt").find("pipelined with target II 1 (inferred)"), std::string::npos);
    o.target = HlsTarget::Bambu;
    o.output_dir = dir / "bambu";
    compile(p, o);
    EXPECT_EQ(test::read_file(dir / "bambu/kernel.c").find("#pragma HLS"), std::string::npos);
    EXPECT_NE(test::read_file(dir / "bambu/report.txt").find("not applied: PandA-Bambu"), std::string::npos);
}

}  // namespace
}  // namespace flowhls
