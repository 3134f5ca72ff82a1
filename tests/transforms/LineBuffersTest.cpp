// Tests of the line-buffer transformation: windows in registers, rows in line buffers, streams.
#include "PreparedGraph.h"
#include "graph/GraphText.h"
#include "TestSupport.h"
#include "analysis/StreamOrder.h"
#include "analysis/TokenSim.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Examples.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "transforms/Pipeline.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

FilterGraph prepared(const HalideProgram &p, std::vector<std::string> disabled = {}) {
    return test::prepared_graph(p, true, std::move(disabled));
}

// A non-separable 3x3 gaussian (1 2 1 / 2 4 2 / 1 2 1, / 16) of an 18x18 image copied on chip.
HalideProgram gaussian3x3(bool transposed = false) {
    Halide::ImageParam input(Halide::Float(32), 2, "input");
    Halide::Var x("x"), y("y");
    Halide::Func in("hw_input"), out("gauss");
    in(x, y) = input(x, y);
    const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
    Halide::Expr sum = 0.0f;
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 3; i++) sum += w[j][i] * (transposed ? in(y + j, x + i) : in(x + i, y + j));
    }
    out(x, y) = sum * (1.0f / 16.0f);
    in.compute_root();
    return HalideProgram{"gauss3x3", {{input, {18, 18}, 0.0, 1.0}}, {{out, {16, 16}}}};
}

TEST(LineBuffers, Gaussian3x3GetsTwoLineRowsAndA3x3Window) {
    FilterGraph g = prepared(gaussian3x3());
    const Buffer &b = g.buffer("hw_input");
    ASSERT_TRUE(b.channel == ChannelKind::LineBufferedStream) << b.channel_reason << "\n" << print_graph(g);
    EXPECT_TRUE(b.is_stream());
    EXPECT_EQ(b.line_buffer.rows, 3);
    EXPECT_EQ(b.line_buffer.cols, 3);
    EXPECT_EQ(b.line_buffer.width, 18);
    EXPECT_EQ(b.line_buffer_words, 2 * 18 + 9);
    EXPECT_EQ(b.channel_reason,
              "stream through a line buffer in gauss: 2 line(s) of 18 words + 3x3 window registers, one element per "
              "iteration");
    const Filter &f = g.filters.back();
    ASSERT_EQ(f.locals.size(), 2u) << print_graph(g);
    EXPECT_EQ(f.locals[0].name, "hw_input_lines");
    EXPECT_EQ(f.locals[0].size, 36);
    EXPECT_EQ(f.locals[1].name, "hw_input_window");
    EXPECT_EQ(f.locals[1].size, 9);
    EXPECT_EQ(f.locals[1].partition.kind, PartitionKind::Complete);
    // The new innermost loop walks the producer's columns and is the pipelined one.
    ASSERT_TRUE(f.directives.count("hw_input_col")) << print_graph(g);
    EXPECT_EQ(f.directives.at("hw_input_col").pipeline_ii, 1);
    EXPECT_EQ(test::check_golden("linebuffer_gauss3x3_graph.txt", print_graph(g)), "");

    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "p";
    CompileResult r = compile(gaussian3x3(), o);
    EXPECT_EQ(test::check_golden("linebuffer_gauss3x3_kernel.cpp", test::read_file(dir / "p/kernel.cpp")), "");
    CsimOptions co;
    co.sanitize = true;
    CsimResult c = run_csim(r.output_dir, co);
    EXPECT_TRUE(c.passed) << c.log;
}

TEST(LineBuffers, TransposedWindowIsNotLineBuffered) {
    FilterGraph g = prepared(gaussian3x3(true));
    const Buffer &b = g.buffer("hw_input");
    EXPECT_FALSE(b.channel == ChannelKind::LineBufferedStream);
    EXPECT_FALSE(b.is_stream());
    LineBufferAnalysis a = analyze_line_buffer(g, b);
    EXPECT_FALSE(a.found);
    EXPECT_NE(a.reason.find("not along the producer's rows"), std::string::npos) << a.reason;
}

TEST(LineBuffers, DisabledPassKeepsThePingPongBuffer) {
    // (window-buffers would give the image a ring of rows instead)
    FilterGraph g = prepared(gaussian3x3(), {"line-buffers", "window-buffers"});
    const Buffer &b = g.buffer("hw_input");
    EXPECT_FALSE(b.is_stream());
    EXPECT_EQ(b.line_buffer_words, 2 * 18 + 9) << b.channel_reason;
}

// unsharp: the input goes to a 5x5 blur (two line-buffered filters) and, shifted by two rows
// and columns, to the sharpening: the bypass must hold what the blur's latency holds back.
TEST(LineBuffers, BypassOfALineBufferedPathIsDeepenedAndDeadlocksWithoutIt) {
    FilterGraph g = prepared(build_example("unsharp", "root"));
    const Buffer &bypass = g.buffer("hw_input_to_sharpen");
    ASSERT_TRUE(bypass.channel == ChannelKind::LineBufferedStream) << print_graph(g);
    EXPECT_TRUE(g.buffer("hw_input_to_blur_y").channel == ChannelKind::LineBufferedStream);
    EXPECT_TRUE(g.buffer("blur_y").channel == ChannelKind::LineBufferedStream);
    // The blur's first output needs input element 4 * 68 + 4; the sharpening reads element
    // 2 * 68 + 2 with it: 138 elements wait in the bypass.
    EXPECT_GE(bypass.stream_depth, 138);
    EXPECT_LE(bypass.stream_depth, 140);
    EXPECT_NE(g.token_check.find("no deadlock"), std::string::npos) << g.token_check;
    std::map<std::string, int64_t> shallow = {{bypass.name, kStreamDepth}};
    TokenSimResult stuck = simulate_tokens(g, shallow);
    EXPECT_TRUE(stuck.deadlock);
    std::map<std::string, int64_t> one_less = {{bypass.name, bypass.stream_depth - 1}};
    EXPECT_TRUE(simulate_tokens(g, one_less).deadlock);
}

TEST(LineBuffers, EveryImageExampleSimulatesWithItsLineBuffers) {
    test::TempDir dir;
    for (const char *name : {"gaussian", "harris", "unsharp", "brighten_blur"}) {
        CompileOptions o;
        o.verify_each = true;
        o.output_dir = dir / name;
        CompileResult r = compile(build_example(name, "root"), o);
        EXPECT_GT(r.line_buffer_edges, 0) << name;
        std::string kernel = test::read_file(dir / (std::string(name) + "/kernel.cpp"));
        EXPECT_NE(kernel.find("_window["), std::string::npos) << name;
        CsimResult c = run_csim(r.output_dir, CsimOptions());
        EXPECT_TRUE(c.passed) << name << "\n" << c.log;
    }
}

}  // namespace
}  // namespace flowhls
