// Tests of the graph verifier: valid graphs pass, each broken invariant is named.
#include "IrBuilder.h"
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "flowhls/Examples.h"
#include "graph/Verify.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;
using test::load;
using test::loop;
using test::store;
using test::var;

// A two-filter graph by hand: `a` copies the 8-element input into `tmp`, `b` doubles it
// into the output.
FilterGraph hand_graph() {
    FilterGraph g;
    g.name = "k";
    g.args = {"in", "out"};
    g.buffers = {Buffer("in", Halide::Float(32), {8}, BufferKind::Input),
                 Buffer("out", Halide::Float(32), {8}, BufferKind::Output),
                 Buffer("tmp", Halide::Float(32), {8})};
    Filter a, b;
    a.name = "a";
    a.function_name = "compute_a";
    a.body = loop("x", 8, store("tmp", load("in", var("x")), var("x")));
    b.name = "b";
    b.function_name = "compute_b";
    b.body = loop("y", 8, store("out", load("tmp", var("y")) * 2.0f, var("y")));
    g.filters = {a, b};
    recompute_edges(g);
    return g;
}

// The one problem of `g` that contains `text`, or a message listing them all.
::testing::AssertionResult has_problem(const FilterGraph &g, const std::string &text, VerifyOptions o = VerifyOptions()) {
    std::vector<std::string> problems = verify_graph(g, o);
    std::string all;
    for (const std::string &p : problems) {
        if (p.find(text) != std::string::npos) return ::testing::AssertionSuccess();
        all += "\n  " + p;
    }
    return ::testing::AssertionFailure() << "no problem containing '" << text << "' in:" << all;
}

TEST(Verify, HandMadeAndPreparedGraphsAreValid) {
    VerifyOptions names;
    names.c_identifiers = true;
    EXPECT_EQ(verify_graph(hand_graph(), names), std::vector<std::string>());
    for (const char *example : {"harris", "unsharp", "conv_relu"}) {
        FilterGraph g = test::prepared_graph(build_example(example, "linebuffer"));
        EXPECT_EQ(verify_graph(g, names), std::vector<std::string>()) << example;
    }
}

TEST(Verify, EdgesOutOfSyncWithTheBodies) {
    FilterGraph g = hand_graph();
    g.buffers[2].consumers.clear();
    EXPECT_TRUE(has_problem(g, "buffer tmp: producers [a] and consumers [] but the bodies give [a] and [b]"));
    g = hand_graph();
    g.filters[1].reads = {"in"};
    EXPECT_TRUE(has_problem(g, "filter b: reads [in] and writes [out] but its body loads [tmp]"));
}

TEST(Verify, NamesAreUniqueAndLegal) {
    FilterGraph g = hand_graph();
    g.buffers[2].name = "in";
    EXPECT_TRUE(has_problem(g, "buffer in: the name is used twice"));
    g = hand_graph();
    g.filters[1].function_name = "compute_a";
    EXPECT_TRUE(has_problem(g, "function compute_a is used twice"));
    VerifyOptions names;
    names.c_identifiers = true;
    g = hand_graph();
    g.filters[0].body = loop("x.0", 8, store("tmp", load("in", var("x.0")), var("x.0")));
    EXPECT_FALSE(has_problem(g, "not a C identifier"));
    EXPECT_TRUE(has_problem(g, "loop 'x.0' is not a C identifier", names));
    g = hand_graph();
    g.filters[0].body = Block::make(loop("x", 4, store("tmp", load("in", var("x")), var("x"))),
                                    loop("x", 4, store("tmp", load("in", var("x") + 4), var("x") + 4)));
    EXPECT_TRUE(has_problem(g, "loop 'x' is bound twice", names));
}

TEST(Verify, StreamsHaveOneProducerAndOneLaterConsumer) {
    FilterGraph g = hand_graph();
    g.buffers[2].channel = ChannelKind::Stream;
    EXPECT_EQ(verify_graph(g), std::vector<std::string>());
    std::swap(g.filters[0], g.filters[1]);
    recompute_edges(g);
    EXPECT_TRUE(has_problem(g, "buffer tmp: a stream needs one producer and one later consumer, it has [a] and [b]"));
}

TEST(Verify, AccessesStayInsideTheirBuffers) {
    FilterGraph g = hand_graph();
    g.filters[1].body = loop("y", 8, store("out", load("tmp", var("y") + 1), var("y")));
    EXPECT_TRUE(has_problem(g, "filter b: load of 'tmp' at (y + 1) reaches [1, 8], outside its 8 elements"));
    // Guarded, it may be correct: nothing is reported.
    g.filters[1].body =
        loop("y", 8, IfThenElse::make(var("y") < 7, store("out", load("tmp", var("y") + 1), var("y"))));
    EXPECT_EQ(verify_graph(g), std::vector<std::string>());
    // Through lets, and a store.
    g.filters[1].body = loop("y", 8, LetStmt::make("i", var("y") * 2, store("out", load("tmp", var("y")), var("i"))));
    EXPECT_TRUE(has_problem(g, "store to 'out' at i reaches [0, 14], outside its 8 elements"));
}

TEST(Verify, VariablesAreBoundAndTypesMatch) {
    FilterGraph g = hand_graph();
    g.filters[1].body = loop("y", 8, store("out", load("tmp", var("z")), var("y")));
    EXPECT_TRUE(has_problem(g, "variable 'z' is used where it is not bound"));
    g.filters[1].body = loop("y", 8, store("out", Halide::cast<int>(load("tmp", var("y"))), var("y")));
    EXPECT_TRUE(has_problem(g, "store of 'out' as int32 but it holds float32"));
    g.filters[1].body = loop("y", 8, store("in", load("tmp", var("y")), var("y")));
    recompute_edges(g);
    EXPECT_TRUE(has_problem(g, "stores to 'in', an input buffer"));
}

TEST(Verify, DirectivesNameLoopsAndArgumentsAreTheKernelBuffers) {
    FilterGraph g = hand_graph();
    g.filters[0].directives["y"].pipeline_ii = 1;
    EXPECT_TRUE(has_problem(g, "filter a: a directive on loop 'y', which it does not have"));
    g = hand_graph();
    g.args = {"out", "in"};
    EXPECT_TRUE(has_problem(g, "kernel argument 'in': an input after an output"));
    g.args = {"in"};
    EXPECT_TRUE(has_problem(g, "buffer out: an output buffer listed 0 time(s) among the kernel arguments"));
}

TEST(Verify, CheckGraphNamesThePass) {
    FilterGraph g = hand_graph();
    g.buffers[2].consumers.clear();
    try {
        check_graph(g, VerifyOptions(), "dead-code");
        FAIL() << "no error";
    } catch (const std::logic_error &e) {
        EXPECT_EQ(std::string(e.what()).rfind("invalid filter graph after pass 'dead-code':\n  buffer tmp:", 0), 0u)
            << e.what();
    }
    PipelineOptions o;
    o.verify_each = true;
    EXPECT_THROW(run_pipeline(g, o), std::logic_error);
}

}  // namespace
}  // namespace flowhls
