// compose_design: the synthesis report's dataflow rules (docs/qor.md, design composition).
#include "analysis/DesignTiming.h"
#include "IrBuilder.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using test::load;
using test::store;

// A chain of filters, each reading the previous one's buffer; `fifo[k]` says whether buffer k
// (written by filter k) is a FIFO. Filter k has latency `latency[k]`, tail 5.
DesignTiming chain(const std::vector<bool> &fifo, const std::vector<int64_t> &latency) {
    FilterGraph g;
    size_t n = latency.size();
    for (size_t k = 0; k < n; k++) {
        g.buffers.push_back(Buffer{"b" + std::to_string(k), Halide::Float(32), {16}});
        if (fifo[k]) g.buffers.back().channel = ChannelKind::Stream;
    }
    for (size_t k = 0; k < n; k++) {
        std::string out = "b" + std::to_string(k), name = "f" + std::to_string(k);
        Halide::Internal::Stmt body = k == 0 ? store(out, 0.0f, 0) : store(out, load("b" + std::to_string(k - 1), 0), 0);
        g.filters.push_back(Filter{name, "compute_" + name, body, {}, {}, {}, "", {}});
    }
    recompute_edges(g);
    g.dataflow.checked = g.dataflow.legal = true;
    std::vector<ProcessTiming> p(n);
    for (size_t k = 0; k < n; k++) {
        p[k].latency = latency[k];
        p[k].tail = 5;
    }
    return compose_design(g, p);
}

// pad -(ping-pong)-> conv -(FIFO)-> bn -(FIFO)-> repad -(ping-pong)-> conv2, the shape of the
// corpus's Stream-HLS ResidualBlock: the report starts conv2 when repad's own latency has passed
// after repad's start (with conv), not when conv ends.
TEST(DesignTiming, PingPongConsumerStartsAtItsProducersOwnEnd) {
    DesignTiming t = chain({false, true, true, false, false}, {100, 1000, 50, 100, 1000});
    EXPECT_EQ(t.start[1], 100);                    // after the ping-pong producer
    EXPECT_EQ(t.start[2], 100);                    // with its FIFO producer
    EXPECT_EQ(t.start[3], 100);
    EXPECT_EQ(t.finish[3], 100 + 1000 + 5 + 5);    // no earlier than its FIFO producer's end + tail
    EXPECT_EQ(t.start[4], 100 + 100);              // repad's own end (bn's own end is earlier)
    EXPECT_EQ(t.latency, 200 + 1000);
    EXPECT_EQ(t.interval, 1000);
    EXPECT_GE(t.stalled_latency, t.latency);
}

// mm -(FIFO)-> bias -(ping-pong)-> next, the shape of the corpus's Stream-HLS
// MultiHeadSelfAttention (a projection, its bias node writing an array): the report starts
// `next` when the bias node's direct FIFO producer's own latency has passed, plus the tail.
TEST(DesignTiming, PingPongConsumerWaitsForTheDirectFifoProducersOwnEnd) {
    DesignTiming t = chain({true, false, false}, {1000, 100, 1000});
    EXPECT_EQ(t.start[1], 0);
    EXPECT_EQ(t.start[2], 1000 + 5);
    EXPECT_EQ(t.latency, 1005 + 1000);
}

}  // namespace
}  // namespace flowhls
