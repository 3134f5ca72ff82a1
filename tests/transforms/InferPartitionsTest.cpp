// Tests of infer-partitions: partitions from the constant offsets of one pipeline iteration.
#include "TestSupport.h"
#include "graph/GraphText.h"
#include "transforms/InferPartitions.h"

#include "IrBuilder.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;
using Halide::Expr;

using test::load;
using test::loop;
using test::store;
using test::var;

LoopDirective pipelined(int64_t unroll = 0) {
    LoopDirective d;
    d.pipeline_ii = 1;
    d.unroll = unroll;
    d.inferred = true;
    return d;
}

// One filter `f` with `body` over float arrays `in` (shape given) and `out` (32 elements).
FilterGraph graph_of(Stmt body, std::vector<int64_t> in_shape, BufferKind in_kind = BufferKind::Intermediate) {
    FilterGraph g;
    g.name = "k";
    g.buffers = {Buffer{"A", Halide::Float(32), std::move(in_shape), in_kind},
                 Buffer{"out", Halide::Float(32), {32}, BufferKind::Output}};
    g.args = {"out"};
    if (in_kind != BufferKind::Intermediate) g.args.insert(g.args.begin(), "A");
    // A kernel argument has banks only behind a bram port (m_axi is off-chip memory).
    if (in_kind != BufferKind::Intermediate) {
        g.buffers[0].interface.mode = InterfaceMode::Bram;
        g.buffers[0].channel = ChannelKind::Port;
    }
    g.filters.push_back(Filter{"f", "compute_f", std::move(body), {}, {}, {}, "", {}});
    recompute_edges(g);
    return g;
}

// out[i] += A[i*32 + k], k pipelined and unrolled by 4 in HLS.
FilterGraph unrolled_reduction() {
    Stmt body = store("out", load("out", var("i")) + load("A", var("i") * 32 + var("k")), var("i"));
    FilterGraph g = graph_of(loop("i", 32, loop("k", 32, body)), {32, 32}, BufferKind::Input);
    g.filters[0].directives["k"] = pipelined(4);
    return g;
}

TEST(InferPartitions, UnrolledReductionPartitionsTheReadArrayCyclically) {
    FilterGraph g = unrolled_reduction();
    EXPECT_TRUE(infer_partitions(g).changed);
    const ArrayPartition &a = g.buffer("A").partition;
    EXPECT_TRUE(a.enabled);
    EXPECT_TRUE(a.inferred);
    EXPECT_EQ(a.kind, PartitionKind::Cyclic);
    EXPECT_EQ(a.factor, 4);
    EXPECT_EQ(a.reason, "inferred: loop k unrolled by 4 reads A at offsets 0,1,2,3 per iteration");
    // out[i] is one element read and written 4 times: no partition separates those.
    EXPECT_FALSE(g.buffer("out").partition.enabled);
    // A pure function of the graph: a second run changes nothing.
    EXPECT_FALSE(infer_partitions(g).changed);
    EXPECT_NE(print_graph(g).find("    partition: cyclic factor 4 inferred \"inferred: loop k unrolled by 4 reads A"),
              std::string::npos)
        << print_graph(g);
}

TEST(InferPartitions, InnerLoopOfAPipelinedLoopIsUnrolledCompletely) {
    // The user pipelines i; Vitis unrolls k (4 iterations) inside it.
    Stmt body = store("out", load("out", var("i")) + load("A", var("i") * 4 + var("k")), var("i"));
    FilterGraph g = graph_of(loop("i", 32, loop("k", 4, body)), {128});
    g.filters[0].directives["i"] = pipelined();
    infer_partitions(g);
    const ArrayPartition &a = g.buffer("A").partition;
    EXPECT_EQ(a.kind, PartitionKind::Cyclic);
    EXPECT_EQ(a.factor, 4);
    EXPECT_EQ(a.reason, "inferred: loop i (inner loop k unrolled) reads A at offsets 0,1,2,3 per iteration");
}

TEST(InferPartitions, HalideUnrolledCopiesNeedTheSmallestConflictFreeFactor) {
    // out[x] = A[x] + A[x+1] + A[x+2] (three copies in one body): cyclic 3, not 4.
    Stmt body = store("out", load("A", var("x")) + load("A", var("x") + 1) + load("A", var("x") + 2), var("x"));
    FilterGraph g = graph_of(loop("x", 30, body), {128});
    g.filters[0].directives["x"] = pipelined();
    infer_partitions(g);
    EXPECT_EQ(g.buffer("A").partition.kind, PartitionKind::Cyclic);
    EXPECT_EQ(g.buffer("A").partition.factor, 3);
}

TEST(InferPartitions, ArgumentsBehindMaxiPortsAreNotPartitioned) {
    FilterGraph g = unrolled_reduction();
    g.buffer("A").interface.mode = InterfaceMode::MAxi;
    g.buffer("A").channel = ChannelKind::OffChip;
    infer_partitions(g);
    EXPECT_FALSE(g.buffer("A").partition.enabled);
}

TEST(InferPartitions, RowsOfAFlattenedArrayArePartitionedInBlocks) {
    // A is 3 rows of 32: out[j] = A[j] + A[32 + j] + A[64 + j]; every access stays in its row.
    Stmt body = store("out", load("A", var("j")) + load("A", var("j") + 32) + load("A", var("j") + 64), var("j"));
    FilterGraph g = graph_of(loop("j", 32, body), {32, 3}, BufferKind::Input);
    g.filters[0].directives["j"] = pipelined();
    infer_partitions(g);
    const ArrayPartition &a = g.buffer("A").partition;
    EXPECT_TRUE(a.enabled);
    EXPECT_EQ(a.kind, PartitionKind::Block);
    EXPECT_EQ(a.factor, 3);
    EXPECT_EQ(a.reason, "inferred: loop j reads A at offsets 0,32,64 per iteration");
}

TEST(InferPartitions, SmallArrayAccessedEverywhereIsPartitionedCompletely) {
    // A has 4 elements, all read every iteration.
    Expr sum = load("A", 0) + load("A", 1) + load("A", 2) + load("A", 3);
    FilterGraph g = graph_of(loop("i", 32, store("out", sum * var("i"), var("i"))), {4});
    g.filters[0].directives["i"] = pipelined();
    infer_partitions(g);
    EXPECT_TRUE(g.buffer("A").partition.enabled);
    EXPECT_EQ(g.buffer("A").partition.kind, PartitionKind::Complete);
    EXPECT_NE(print_graph(g).find("partition: complete inferred \"inferred: "), std::string::npos) << print_graph(g);
}

TEST(InferPartitions, OneAccessPerIterationNeedsNoPartition) {
    Stmt body = store("out", load("A", var("i")) * 2.0f, var("i"));
    FilterGraph g = graph_of(loop("i", 32, body), {32});
    g.filters[0].directives["i"] = pipelined();
    EXPECT_FALSE(infer_partitions(g).changed);
    EXPECT_FALSE(g.buffer("A").partition.enabled);
    EXPECT_EQ(print_graph(g).find("partition:"), std::string::npos);
}

TEST(InferPartitions, IndicesNotAConstantApartGetNoPartitionAndAReason) {
    // A[i] and A[2*i] in a 256-element array: no partition is proved to separate them.
    Stmt body = store("out", load("A", var("i")) + load("A", var("i") * 2), var("i"));
    FilterGraph g = graph_of(loop("i", 32, body), {256});
    g.filters[0].directives["i"] = pipelined();
    EXPECT_TRUE(infer_partitions(g).changed);
    const ArrayPartition &a = g.buffer("A").partition;
    EXPECT_FALSE(a.enabled);
    EXPECT_NE(a.reason.find("not partitioned: loop i reads A at offsets 0 and 0 (2 index groups"), std::string::npos)
        << a.reason;
    EXPECT_NE(print_graph(g).find("partition: none inferred \"not partitioned: "), std::string::npos);
}

TEST(InferPartitions, UserPartitionIsKept) {
    FilterGraph g = unrolled_reduction();
    ArrayPartition user;
    user.enabled = true;
    user.kind = PartitionKind::Cyclic;
    user.factor = 2;
    user.reason = "C++ API";
    g.buffer("A").partition = user;
    EXPECT_FALSE(infer_partitions(g).changed);
    EXPECT_EQ(g.buffer("A").partition.factor, 2);
    EXPECT_FALSE(g.buffer("A").partition.inferred);
    EXPECT_EQ(g.buffer("A").partition.reason, "C++ API");
}

TEST(InferPartitions, LocalsStreamsAndScalars) {
    Stmt body = store("out", load("t", var("i") * 2) + load("t", var("i") * 2 + 1), var("i"));
    FilterGraph g = graph_of(loop("i", 32, body), {32});
    g.filters[0].locals = {LocalBuffer{"t", Halide::Float(32), 64}};
    g.filters[0].directives["i"] = pipelined();
    infer_partitions(g);
    EXPECT_EQ(g.filters[0].locals[0].partition.kind, PartitionKind::Cyclic);
    EXPECT_EQ(g.filters[0].locals[0].partition.factor, 2);
    EXPECT_NE(print_graph(g).find("  local t: float32[64]\n    partition: cyclic factor 2"), std::string::npos)
        << print_graph(g);
    // A stream is read in order by construction: never partitioned.
    Stmt stream_body = store("out", load("A", var("i") * 2) + load("A", var("i") * 2 + 1), var("i"));
    FilterGraph s = graph_of(loop("i", 32, stream_body), {64});
    s.buffer("A").channel = ChannelKind::Stream;
    s.filters[0].directives["i"] = pipelined();
    EXPECT_FALSE(infer_partitions(s).changed);
}

TEST(InferPartitions, GemmUnrolledByHalideShowsItsPartitionsInTheDump) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example gemm --schedule unrolled --dump-graph -o " + dir.path(), &out), 0)
        << out;
    std::string final_graph = out.substr(out.find("// ---- final"));
    EXPECT_NE(final_graph.find("  buffer A: input float32[32, 32]  producers: -  consumers: prod\n"
                               "    channel: port\n"
                               "    interface: bram (directive)\n"
                               "    partition: cyclic factor 4 inferred \"inferred: loop k_x_ko reads A at offsets "
                               "0,1,2,3 per iteration\"\n"),
              std::string::npos)
        << final_graph;
    EXPECT_NE(final_graph.find("    partition: block factor 32 inferred \"inferred: loop k_x_ko reads B at offsets "
                               "0,32,64,96 per iteration\"\n"),
              std::string::npos)
        << final_graph;
}

// Eight rows of A 784 apart read in one iteration: a cyclic factor serves them when 784 mod f
// leaves the eight rows in eight banks (9, 11, 13 and 15 below 16; not 8, 10, 12 or 14: 784 =
// 2^4 x 7^2, so 2 x 784 is a multiple of 8 and 14, 5 x 784 of 10, 3 x 784 of 12).
TEST(InferPartitions, ServingCyclicFactorsSkipFactorsThatMergeRows) {
    Expr sum = load("A", var("i"));
    for (int k = 1; k < 8; k++) sum = sum + load("A", var("i") + 784 * k);
    FilterGraph g = graph_of(loop("i", 784, store("out", sum, var("i") % 32)), {8 * 784});
    g.filters[0].directives["i"] = pipelined();
    const Filter &f = g.filters[0];
    std::vector<int64_t> all;
    for (int64_t x = 1; x < 16; x++) all.push_back(x);
    EXPECT_EQ(serving_cyclic_factors(f, "A", 8 * 784, all), (std::vector<int64_t>{9, 11, 13, 15}));
    EXPECT_EQ(serving_cyclic_factors(f, "A", 8 * 784, {15, 14, 9}), (std::vector<int64_t>{15, 9}));  // order kept
    // An array the pipelined loop does not access: every factor of at least 2.
    EXPECT_EQ(serving_cyclic_factors(f, "B", 100, {1, 3, 128}), (std::vector<int64_t>{3, 128}));
}

}  // namespace
}  // namespace flowhls
