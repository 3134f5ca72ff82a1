// Tests of the connectedness analysis and the IA + CA parallelization on HIDA's worked example
// (seed 001, "HIDA design space exploration": three nodes, A[32][16], B[16][16],
// C[i][j] += A[2i][k] x B[k][j], maximum parallel factor 32).
#include "dse/Connectedness.h"
#include "dse/Parallelize.h"

#include <gtest/gtest.h>

namespace flowhls::dse {
namespace {

DesignModel hida_example() {
    DesignModel m;
    m.buffers = {{"A", {32, 16}}, {"B", {16, 16}}, {"C", {16, 16}}};
    DseNode load_a{"Node0", {{"i", 32}, {"k", 16}}, {{"A", true, {{1, 0}, {0, 1}}}}, 32 * 16};
    DseNode load_b{"Node1", {{"k", 16}, {"j", 16}}, {{"B", true, {{1, 0}, {0, 1}}}}, 16 * 16};
    DseNode product{"Node2",
                    {{"i", 16}, {"j", 16}, {"k", 16, true}},
                    {{"A", false, {{2, 0, 0}, {0, 0, 1}}},
                     {"B", false, {{0, 0, 1}, {0, 1, 0}}},
                     {"C", true, {{1, 0, 0}, {0, 1, 0}}}},
                    16 * 16 * 16};
    m.nodes = {load_a, load_b, product};
    return m;
}

std::vector<int64_t> factors(const Parallelization &p, const std::string &buffer) {
    for (const BufferPartition &b : p.partitions) {
        if (b.buffer == buffer) return b.factors;
    }
    return {};
}

Parallelization run(bool ia, bool ca) {
    ParallelizeOptions o;
    o.max_parallel_factor = 32;
    o.intensity_aware = ia;
    o.connectedness_aware = ca;
    return parallelize(hida_example(), o);
}

TEST(Connectedness, PermutationAndScalingMapsOfTheWorkedExample) {
    std::vector<Connection> c = connections(hida_example());
    ASSERT_EQ(c.size(), 2u);
    // A: Node0 writes A[i][k], Node2 reads A[2i][k].
    EXPECT_EQ(c[0].buffer, "A");
    EXPECT_EQ(c[0].source, 0);
    EXPECT_EQ(c[0].target, 2);
    EXPECT_EQ(c[0].source_to_target, (std::vector<int>{0, 2}));
    EXPECT_EQ(c[0].target_to_source, (std::vector<int>{0, -1, 1}));
    EXPECT_EQ(c[0].source_to_target_scale, (std::vector<Ratio>{{1, 2}, {1, 1}}));
    EXPECT_EQ(c[0].target_to_source_scale, (std::vector<Ratio>{{2, 1}, {0, 1}, {1, 1}}));
    // B: Node1 writes B[k][j], Node2 reads B[k][j] with its loops in the order i, j, k.
    EXPECT_EQ(c[1].buffer, "B");
    EXPECT_EQ(c[1].source, 1);
    EXPECT_EQ(c[1].target, 2);
    EXPECT_EQ(c[1].source_to_target, (std::vector<int>{2, 1}));
    EXPECT_EQ(c[1].target_to_source, (std::vector<int>{-1, 1, 0}));
    EXPECT_EQ(c[1].target_to_source_scale, (std::vector<Ratio>{{0, 1}, {1, 1}, {1, 1}}));
    // Node2 is connected to both, the others to Node2 only: order Node2, Node0, Node1.
    EXPECT_EQ(connectedness(hida_example(), c), (std::vector<int>{1, 1, 2}));
    EXPECT_EQ(parallelization_order(hida_example(), c), (std::vector<int>{2, 0, 1}));
    // Node2's factors [4, 8, 1] seen from Node0: x [2, 0, 1], permuted by [0, 2] = [8, 1].
    EXPECT_EQ(map_factors(c[0], true, {4, 8, 1}), (std::vector<int64_t>{8, 1}));
    EXPECT_EQ(map_factors(c[1], true, {4, 8, 1}), (std::vector<int64_t>{1, 8}));
}

TEST(Parallelize, IntensityAndConnectednessAwareMatchesHida) {
    Parallelization p = run(true, true);
    EXPECT_EQ(p.order, (std::vector<int>{2, 0, 1}));
    EXPECT_EQ(p.parallel_factor, (std::vector<int64_t>{4, 2, 32}));
    EXPECT_EQ(p.unroll[2], (std::vector<int64_t>{4, 8, 1}));
    EXPECT_EQ(p.unroll[0], (std::vector<int64_t>{4, 1}));
    EXPECT_EQ(p.unroll[1], (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(factors(p, "A"), (std::vector<int64_t>{8, 1}));
    EXPECT_EQ(factors(p, "B"), (std::vector<int64_t>{1, 8}));
    EXPECT_EQ(factors(p, "C"), (std::vector<int64_t>{4, 8}));
    EXPECT_EQ(p.banks(), 8 + 8 + 32);
}

TEST(Parallelize, AblationColumnsOfTheWorkedExample) {
    // HIDA's table: IA only A [8,2] B [2,8]; CA only A [8,4] B [4,8]; C [4,8] in every column.
    Parallelization ia = run(true, false);
    EXPECT_EQ(factors(ia, "A"), (std::vector<int64_t>{8, 2}));
    EXPECT_EQ(factors(ia, "B"), (std::vector<int64_t>{2, 8}));
    EXPECT_EQ(factors(ia, "C"), (std::vector<int64_t>{4, 8}));
    Parallelization ca = run(false, true);
    EXPECT_EQ(factors(ca, "A"), (std::vector<int64_t>{8, 4}));
    EXPECT_EQ(factors(ca, "B"), (std::vector<int64_t>{4, 8}));
    // Neither: every node alone at factor 32. HIDA's table has A [8,8] (its naive local DSE
    // unrolls Node0 [4, 8]); the tie-break here (larger factors outside) gives Node0 [8, 4].
    Parallelization naive = run(false, false);
    EXPECT_EQ(naive.unroll[0], (std::vector<int64_t>{8, 4}));
    EXPECT_EQ(factors(naive, "B"), (std::vector<int64_t>{8, 8}));
    EXPECT_LT(run(true, true).banks(), ia.banks());
    EXPECT_LT(ia.banks(), ca.banks());
    EXPECT_LT(ca.banks(), naive.banks());
}

TEST(Parallelize, ReductionLoopsAreUnrolledLast) {
    // Without the reduction flag, unrolling k too needs fewer banks ([4, 4, 2]: 40 instead of 48).
    DesignModel m = hida_example();
    m.nodes = {m.nodes[2]};
    ParallelizeOptions o;
    o.max_parallel_factor = 32;
    EXPECT_EQ(parallelize(m, o).unroll[0], (std::vector<int64_t>{4, 8, 1}));
    m.nodes[0].loops[2].reduction = false;
    EXPECT_EQ(parallelize(m, o).unroll[0], (std::vector<int64_t>{4, 4, 2}));
    // Beyond what the pure loops can take (16 x 16), the reduction loop is unrolled as well.
    m.nodes[0].loops[2].reduction = true;
    o.max_parallel_factor = 512;
    EXPECT_EQ(parallelize(m, o).unroll[0], (std::vector<int64_t>{16, 16, 2}));
}

TEST(Parallelize, PureLoopsReachTheFactorBeforeReductionLoops) {
    // LeNet-5's first convolution: pure co 6, oy 28, ox 28, reductions ky 5, kx 5. The smallest
    // product of all loops' divisors reaching 64 is 70 = 2 x 7 x 5, which needs a reduction
    // loop; the pure loops reach 84 alone.
    DesignModel m;
    m.nodes = {{"conv1", {{"co", 6}, {"oy", 28}, {"ox", 28}, {"ky", 5, true}, {"kx", 5, true}}, {}, 1}};
    ParallelizeOptions o;
    o.max_parallel_factor = 64;
    Parallelization p = parallelize(m, o);
    EXPECT_EQ(p.parallel_factor[0], 84);
    EXPECT_EQ(p.unroll[0][3] * p.unroll[0][4], 1);
    EXPECT_EQ(p.unroll[0][0] * p.unroll[0][1] * p.unroll[0][2], 84);
    // Beyond the pure loops (6 x 28 x 28 = 4704): all of them, times the reduction loops.
    o.max_parallel_factor = 5000;
    p = parallelize(m, o);
    EXPECT_EQ(p.parallel_factor[0], 4704 * 5);
    EXPECT_EQ(p.unroll[0], (std::vector<int64_t>{6, 28, 28, 5, 1}));
}

TEST(Parallelize, FeasibleFactorsAreProductsOfDivisors) {
    EXPECT_EQ(feasible_parallel_factor({3, 3, 16}, 5), 6);
    EXPECT_EQ(feasible_parallel_factor({3, 3, 16}, 10), 12);
    EXPECT_EQ(feasible_parallel_factor({3, 3, 16}, 144), 144);
    EXPECT_EQ(feasible_parallel_factor({3, 3, 16}, 1000), 144);
    EXPECT_EQ(feasible_parallel_factor({7, 7}, 8), 49);
    EXPECT_EQ(feasible_parallel_factor({}, 8), 1);
}

TEST(Parallelize, WindowAccessNeedsItsSpan) {
    // in[oy + ky][ci] with oy unrolled 2 and ky 3 touches rows 0..3: cyclic 4, not 6.
    DseAccess window{"in", false, {{1, 1, 0}, {0, 0, 1}}};
    EXPECT_EQ(access_partition(window, {2, 3, 4}, {}), (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(access_partition(window, {2, 3, 4}, {3, 64}), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(access_partition(window, {1, 1, 1}, {}), (std::vector<int64_t>{1, 1}));
}

TEST(Parallelize, FactorsAlwaysDivideTheTrips) {
    DesignModel m = hida_example();
    for (int64_t pf : {1, 3, 5, 7, 31, 100, 1 << 20}) {
        ParallelizeOptions o;
        o.max_parallel_factor = pf;
        Parallelization p = parallelize(m, o);
        for (size_t n = 0; n < m.nodes.size(); ++n) {
            ASSERT_EQ(p.unroll[n].size(), m.nodes[n].loops.size());
            for (size_t l = 0; l < p.unroll[n].size(); ++l) {
                EXPECT_EQ(m.nodes[n].loops[l].trip % p.unroll[n][l], 0) << "pf " << pf << " node " << n;
            }
        }
    }
}

} // namespace
} // namespace flowhls::dse
