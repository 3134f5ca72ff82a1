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

}  // namespace
}  // namespace flowhls
