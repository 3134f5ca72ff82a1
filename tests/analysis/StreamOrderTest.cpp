// Tests of stream detection: which channels are proven FIFOs, and why the others are not.
#include "PreparedGraph.h"
#include "graph/GraphText.h"
#include "TestSupport.h"
#include "analysis/StreamOrder.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "transforms/Pipeline.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

FilterGraph prepared(const HalideProgram &p, bool fifo = true, std::vector<std::string> disabled = {}) {
    return test::prepared_graph(p, fifo, std::move(disabled));
}

// in -> a = in * 2 -> b = a + 1 -> out = b * 3 (or a consumer reading a transposed).
HalideProgram chain(bool transposed_consumer) {
    Halide::ImageParam in(Halide::Float(32), 2, "in");
    Halide::Var x("x"), y("y");
    Halide::Func a("a"), b("b"), out("out");
    a(x, y) = in(x, y) * 2.0f;
    b(x, y) = transposed_consumer ? a(y, x) + 1.0f : a(x, y) + 1.0f;
    out(x, y) = b(x, y) * 3.0f;
    a.compute_root();
    b.compute_root();
    return HalideProgram{"chain", {{in, {16, 16}, 0.0, 1.0}}, {{out, {16, 16}}}};
}

TEST(StreamOrder, ElementwiseChainBecomesStreams) {
    FilterGraph g = prepared(chain(false));
    ASSERT_TRUE(g.dataflow.legal) << g.dataflow.reason;
    for (const char *name : {"a", "b"}) {
        EXPECT_TRUE(g.buffer(name).is_stream()) << name << ": " << g.buffer(name).channel_reason;
        EXPECT_NE(g.buffer(name).channel_reason.find("written once and read once in the same order"),
                  std::string::npos);
    }
    EXPECT_NE(print_graph(g).find("channel: stream depth 2 \"written once and read once in the same order (a -> b)\""),
              std::string::npos)
        << print_graph(g);
}

TEST(StreamOrder, TransposedConsumerIsNotAStream) {
    FilterGraph g = prepared(chain(true));
    const Buffer &a = g.buffer("a");
    EXPECT_FALSE(a.is_stream());
    EXPECT_NE(a.channel_reason.find("ping-pong: the read in b is out of order"), std::string::npos) << a.channel_reason;
    EXPECT_TRUE(g.buffer("b").is_stream()) << g.buffer("b").channel_reason;
}

TEST(StreamOrder, StencilWindowIsNotAStream) {
    FilterGraph g = prepared(test::small_program());  // scaled reads blur once per point: a stream
    EXPECT_TRUE(g.buffer("blur").is_stream()) << g.buffer("blur").channel_reason;
    HalideProgram p = build_example("gaussian", "root");
    FilterGraph gauss = prepared(p, true, {"line-buffers", "window-buffers"});  // (both make them streams)
    bool window = false;
    for (const Buffer &b : gauss.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar()) continue;
        EXPECT_FALSE(b.is_stream()) << b.name;
        window |= b.channel_reason.find("places (a window)") != std::string::npos;
    }
    EXPECT_TRUE(window) << print_graph(gauss);
}

TEST(StreamOrder, NoStreamsWithoutFifosOrDataflow) {
    FilterGraph g = prepared(chain(false), false);
    EXPECT_FALSE(g.buffer("a").is_stream());
    EXPECT_NE(g.buffer("a").channel_reason.find("this target has none"), std::string::npos);
}

TEST(StreamOrder, ConvReluOfAModelIsAStreamAndSimulates) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "p";
    CompileResult r = compile(p, o);
    EXPECT_NE(r.graph_dump.find("buffer conv1:"), std::string::npos);
    EXPECT_NE(r.graph_dump.find("channel: stream depth 2 \"written once and read once in the same order (conv1 -> Relu)\""),
              std::string::npos)
        << r.graph_dump;
    EXPECT_NE(test::read_file(dir / "p/kernel.cpp").find("hls::stream<float> conv1(\"conv1\");"),
              std::string::npos);
    EXPECT_NE(r.qor_report.find("stream"), std::string::npos);
    CsimOptions co;
    co.sanitize = true;
    CsimResult c = run_csim(r.output_dir, co);
    EXPECT_TRUE(c.passed) << c.log;
}

}  // namespace
}  // namespace flowhls
