// Tests of the port model of arrays partitioned in several dimensions (port_demand per
// dimension) and of the split of a flat index into one index per dimension.
#include "analysis/MemoryBanks.h"
#include "ir/IRQueries.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using Halide::Expr;
using Halide::Internal::Interval;
using Halide::Internal::Scope;
using Halide::Internal::Variable;

const Expr v = Variable::make(Halide::Int(32), "v"), w = Variable::make(Halide::Int(32), "w");

// A 200 x 220 array (rows outermost) partitioned cyclic `rows` x `cols`.
ArrayPartition two_dimensional(int64_t cols, int64_t rows) {
    ArrayPartition p;
    p.enabled = true;
    p.kind = PartitionKind::Cyclic;
    p.factor = cols * rows;
    p.shape = {220, 200};
    p.dims = {{0, PartitionKind::Cyclic, cols}, {1, PartitionKind::Cyclic, rows}};
    return p;
}

Scope<Interval> loop_ranges() {
    Scope<Interval> s;
    s.push("v", Interval(0, 49));  // rows 4 v + r
    s.push("w", Interval(0, 21));  // columns 10 w + c
    return s;
}

// Reads of one address of an array the iteration never writes share one port access; reads of
// a FIFO (ArrayAccess::pops) do not: sixteen unrolled copies reading a one-lane stream are
// sixteen pops (an element-wise filter unrolled by 16 over a stream that was not split in lanes).
TEST(MemoryBanks, FifoReadsOfOneIndexAreEachAPop) {
    std::vector<ArrayAccess> array(16, ArrayAccess{false, Expr(0)});
    std::vector<ArrayAccess> fifo(16, ArrayAccess{false, Expr(0), true});
    ArrayPartition none;
    EXPECT_EQ(port_demand(array, none, 64, nullptr).reads, 1);
    EXPECT_EQ(port_demand(fifo, none, 64, nullptr).reads, 16);
    // Sixteen lanes, one pop each.
    std::vector<ArrayAccess> lanes;
    for (int k = 0; k < 16; k++) lanes.push_back(ArrayAccess{false, Expr(k), true});
    ArrayPartition cyclic16;
    cyclic16.enabled = true;
    cyclic16.kind = PartitionKind::Cyclic;
    cyclic16.factor = 16;
    EXPECT_EQ(port_demand(lanes, cyclic16, 16, nullptr).reads, 1);
}

// gemm's accumulator: rows 4 v + r (r < 4) over 10 row banks, columns 10 w + c over 10: each
// of the 40 elements read and written in its own bank, though the row bank is chosen at run time.
TEST(MemoryBanks, RunTimeBanksAConstantApartInEachDimensionAreDistinct) {
    std::vector<ArrayAccess> acc;
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 10; c++) {
            Expr flat = (v * 4 + r) * 220 + w * 10 + c;
            acc.push_back({false, flat});
            acc.push_back({true, flat});
        }
    }
    Scope<Interval> ranges = loop_ranges();
    PortDemand d = port_demand(acc, two_dimensional(10, 10), 44000, &ranges);
    EXPECT_EQ(d.reads, 1);
    EXPECT_EQ(d.writes, 1);
    // Rows 2 apart on 2 row banks meet: rows 4 v and 4 v + 2 share a bank.
    d = port_demand(acc, two_dimensional(10, 2), 44000, &ranges);
    EXPECT_EQ(d.reads, 2);
    EXPECT_EQ(d.writes, 2);
    // The flat array cyclic by 100 cannot separate rows 220 apart (220 mod 100 != 0 but the
    // columns overlap): the per-dimension partition is what gives 40 banks.
    ArrayPartition flat;
    flat.enabled = true;
    flat.kind = PartitionKind::Cyclic;
    flat.factor = 10;
    EXPECT_EQ(port_demand(acc, flat, 44000, &ranges).reads, 4);
}

// Indices not a constant apart in a partitioned dimension may meet in any bank.
TEST(MemoryBanks, IndicesNotAConstantApartMayMeet) {
    std::vector<ArrayAccess> acc = {{false, v * 220 + w}, {false, w * 220 + v}};
    Scope<Interval> ranges = loop_ranges();
    EXPECT_EQ(port_demand(acc, two_dimensional(10, 10), 44000, &ranges).reads, 2);
}

TEST(MemoryBanks, FlatIndexSplitPerDimension) {
    Scope<Interval> ranges = loop_ranges();
    std::vector<Expr> idx = dimension_indices((v * 4 + 1) * 220 + w * 10 + 223 - 220, {220, 200}, ranges);
    ASSERT_EQ(idx.size(), 2u);
    EXPECT_TRUE(Halide::Internal::equal(idx[0], Halide::Internal::simplify(w * 10 + 3))) << idx[0];
    EXPECT_TRUE(Halide::Internal::equal(idx[1], Halide::Internal::simplify(v * 4 + 1))) << idx[1];
    // A column that may leave its row (w * 20 up to 420) is not split term by term: floor
    // division and modulus (simplified).
    idx = dimension_indices(v * 220 + w * 20, {220, 200}, ranges);
    EXPECT_TRUE(Halide::Internal::equal(idx[0], Halide::Internal::simplify((w * 20) % 220))) << idx[0];
    EXPECT_FALSE(Halide::Internal::equal(idx[0], Halide::Internal::simplify(w * 20))) << idx[0];
}

}  // namespace
}  // namespace flowhls
