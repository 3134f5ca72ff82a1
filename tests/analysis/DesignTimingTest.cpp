// compose_design: the synthesis report's dataflow rules (docs/qor.md, design composition).
#include "analysis/DesignTiming.h"
#include "IrBuilder.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using test::load;
using test::store;

// pad -(ping-pong a)-> conv -(FIFO f)-> repad -(ping-pong b)-> conv2, the shape of the corpus's
// Stream-HLS ResidualBlock: the report starts conv2 when repad's own latency has passed after
// repad's start (with conv), not when repad's FIFO producer ends.
TEST(DesignTiming, PingPongConsumerStartsAtItsProducersOwnEnd) {
    FilterGraph g;
    for (const char *b : {"a", "f", "b", "out"}) g.buffers.push_back(Buffer{b, Halide::Float(32), {16}});
    g.buffer("f").channel = ChannelKind::Stream;
    auto filter = [](const std::string &name, const std::string &in, const std::string &out) {
        Halide::Internal::Stmt body = in.empty() ? store(out, 0.0f, 0) : store(out, load(in, 0), 0);
        return Filter{name, "compute_" + name, body, {}, {}, {}, "", {}};
    };
    g.filters = {filter("pad", "", "a"), filter("conv", "a", "f"), filter("repad", "f", "b"),
                 filter("conv2", "b", "out")};
    recompute_edges(g);
    g.dataflow.checked = g.dataflow.legal = true;
    std::vector<ProcessTiming> p(4);
    p[0].latency = 100;
    p[1].latency = 1000;
    p[2].latency = 100;
    p[3].latency = 1000;
    for (ProcessTiming &t : p) t.tail = 5;
    DesignTiming t = compose_design(g, p);
    EXPECT_EQ(t.start[1], 100);                // after the ping-pong producer
    EXPECT_EQ(t.start[2], 100);                // with its FIFO producer
    EXPECT_EQ(t.finish[2], 100 + 1000 + 5);    // no earlier than its FIFO producer's end + tail
    EXPECT_EQ(t.start[3], 100 + 100);          // repad's own end
    EXPECT_EQ(t.latency, 200 + 1000);
    EXPECT_EQ(t.interval, 1000);
    EXPECT_GE(t.stalled_latency, t.latency);
}

}  // namespace
}  // namespace flowhls
