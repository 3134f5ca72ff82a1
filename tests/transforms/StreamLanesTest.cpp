// Tests of the lanes of a stream (detect-streams' stream_lanes_of and drop_stream_index).
#include "ir/IRBuild.h"
#include "ir/IRQueries.h"
#include "transforms/DetectStreams.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;

// Finds the index of the first store to / load from `name`.
struct AccessIndex : public IRVisitor {
    std::string name;
    Halide::Expr store, load;
    using IRVisitor::visit;
    void visit(const Store *op) override {
        if (op->name == name && !store.defined()) store = op->index;
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        if (op->name == name && !load.defined()) load = op->index;
        IRVisitor::visit(op);
    }
};

// A copy-out in "hwc" order: for y, x, co = coo * 4 + coi (coi unrolled when `unrolled`),
// out[co * 64 + y * 8 + x] (channels outermost in storage), the index through a let.
Filter copy_out(bool unrolled) {
    Filter f;
    f.name = "producer";
    Halide::Expr co = int_var("coo") * 4 + int_var("coi");
    Halide::Expr index = co * int_const(64) + int_var("y") * 8 + int_var("x");
    Stmt s = LetStmt::make("at", index, store("out", load(Halide::Int(32), "acc", int_var("at")), int_var("at")));
    s = serial_for("coi", int_const(0), int_const(4), s);
    s = serial_for("coo", int_const(0), int_const(4), s);
    s = serial_for("x", int_const(0), int_const(8), s);
    s = serial_for("y", int_const(0), int_const(8), s);
    f.body = s;
    if (unrolled) f.directives["coi"].unroll = kUnrollComplete;
    return f;
}

TEST(StreamLanes, UnrolledStoreGetsOneFifoPerCopyAndItsLaneIsTheUnrolledVariable) {
    Filter f = copy_out(true);
    StreamLanes lanes = stream_lanes_of(f, "out");
    EXPECT_EQ(lanes.lanes, 4);
    EXPECT_EQ(lanes.stride, 64);
    AccessIndex a;
    a.name = "out";
    drop_stream_index(f.body, "out", lanes).accept(&a);
    ASSERT_TRUE(a.store.defined());
    // (co * 64 + y * 8 + x) / 64 mod 4 = coi with the loops' bounds: a constant in each copy.
    EXPECT_TRUE(equal(a.store, int_var("coi"))) << a.store;
}

TEST(StreamLanes, StoreOutsideAnUnrolledLoopIsOneFifoWithoutAddress) {
    Filter f = copy_out(false);
    StreamLanes lanes = stream_lanes_of(f, "out");
    EXPECT_EQ(lanes.lanes, 1);
    AccessIndex a;
    a.name = "out";
    drop_stream_index(f.body, "out", lanes).accept(&a);
    ASSERT_TRUE(a.store.defined());
    EXPECT_TRUE(is_const_zero(a.store)) << a.store;
}

TEST(StreamLanes, ReaderNotUnrolledComputesTheSameLaneOfEachElement) {
    // A consumer reading out[...] in the same order, one element per iteration (co not split):
    // its lane is (index / 64) mod 4 = co mod 4, the FIFO the producer wrote the element to.
    Halide::Expr index = int_var("co") * 64 + int_var("y") * 8 + int_var("x");
    Stmt s = store("sink", load(Halide::Int(32), "out", index), int_const(0));
    s = serial_for("co", int_const(0), int_const(16), s);
    s = serial_for("x", int_const(0), int_const(8), s);
    s = serial_for("y", int_const(0), int_const(8), s);
    AccessIndex a;
    a.name = "out";
    drop_stream_index(s, "out", StreamLanes{4, 64}).accept(&a);
    ASSERT_TRUE(a.load.defined());
    EXPECT_TRUE(equal(simplify(a.load - int_var("co") % 4), int_const(0))) << a.load;
}

// A ring fill as window-buffers writes it (docs/dataflow.md): per output row oy the rows
// row = select(oy == 0, 0, oy + 1) + fill, guarded by row <= min(oy, 54) + 1, of a 56 x 56 map
// of 64 channels (channels outermost in storage) from a stream of 16 lanes of stride 3,136 (a
// plane), the channel loop split 4 x 16 with the inner loop unrolled. The row's value alone
// reaches row 57 (past the map); with the guard's bound its terms stay within one plane, so
// each copy reads lane c2, a constant.
TEST(StreamLanes, RingFillGuardBoundsTheRowSoEachCopyReadsOneLane) {
    Halide::Expr row = int_var("row");
    Halide::Expr index = (row * 56 + int_var("c0")) + int_var("c1") * (16 * 3136) + int_var("c2") * 3136;
    Stmt s = store("ring", load(Halide::Float(32), "relu", index), int_var("c2"));
    s = serial_for("c2", int_const(0), int_const(16), s);
    s = serial_for("c1", int_const(0), int_const(4), s);
    s = serial_for("c0", int_const(0), int_const(56), s);
    Halide::Expr oy = int_var("oy");
    Stmt guarded = IfThenElse::make(row <= Halide::min(oy, 54) + 1, s);
    Halide::Expr value = Halide::select(oy == 0, 0, oy + 1) + int_var("fill");
    Stmt fill = serial_for("fill", int_const(0), int_const(2), LetStmt::make("row", value, guarded));
    fill = serial_for("oy", int_const(0), int_const(56), fill);
    AccessIndex a;
    a.name = "relu";
    drop_stream_index(fill, "relu", StreamLanes{16, 3136}).accept(&a);
    ASSERT_TRUE(a.load.defined());
    EXPECT_TRUE(equal(a.load, int_var("c2"))) << a.load;
    // Without the guard the general form: (index / 3136) mod 16, computed per element.
    AccessIndex b;
    b.name = "relu";
    Stmt unguarded = serial_for("fill", int_const(0), int_const(2), LetStmt::make("row", value, s));
    drop_stream_index(serial_for("oy", int_const(0), int_const(56), unguarded), "relu", StreamLanes{16, 3136}).accept(&b);
    ASSERT_TRUE(b.load.defined());
    EXPECT_FALSE(equal(b.load, int_var("c2"))) << b.load;
}

// Channels innermost (stride 1): a row offset that is not affine in the loops (a select of
// rows) but a multiple of 16 lanes moves no lane; each copy reads lane c2.
TEST(StreamLanes, RestKnownModuloTheLanesMovesNoLane) {
    Halide::Expr oy = int_var("oy");
    Halide::Expr index = Halide::select(oy == 0, 0, Halide::min(oy, 55) + 1) * 3584 + int_var("c0") * 64 +
                         int_var("c1") * 16 + int_var("c2");
    Stmt s = store("ring", load(Halide::Float(32), "relu", index), int_var("c2"));
    s = serial_for("c2", int_const(0), int_const(16), s);
    s = serial_for("c1", int_const(0), int_const(4), s);
    s = serial_for("c0", int_const(0), int_const(56), s);
    s = serial_for("oy", int_const(0), int_const(56), s);
    AccessIndex a;
    a.name = "relu";
    drop_stream_index(s, "relu", StreamLanes{16, 1}).accept(&a);
    ASSERT_TRUE(a.load.defined());
    EXPECT_TRUE(equal(a.load, int_var("c2"))) << a.load;
}

}  // namespace
}  // namespace flowhls
