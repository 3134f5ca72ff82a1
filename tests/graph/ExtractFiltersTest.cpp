// Tests of filter extraction and of the graph dump (golden).
#include "TestSupport.h"
#include "graph/GraphText.h"
#include "flowhls/Examples.h"
#include "graph/ExtractFilters.h"
#include "support/Names.h"
#include "transforms/Pipeline.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

// The graph with Halide's "$N" suffixes removed from buffer names, as users named them.
FilterGraph extract(const HalideProgram &p) {
    FilterGraph g = extract_filters(lower_for_hls(p, HlsTarget::Vitis));
    for (Buffer &b : g.buffers) b.name = halide_base_name(b.name);
    for (std::string &a : g.args) a = halide_base_name(a);
    for (Filter &f : g.filters) {
        for (LocalBuffer &l : f.locals) l.name = halide_base_name(l.name);
    }
    return g;
}

TEST(ExtractFilters, RootStagesBecomeFiltersConnectedByBuffers) {
    FilterGraph g = extract(build_example("brighten_blur", "root"));
    ASSERT_EQ(g.filters.size(), 2u);
    EXPECT_EQ(g.filters[0].name, "brighten");
    EXPECT_EQ(g.filters[1].name, "blur");
    EXPECT_EQ(g.args, (std::vector<std::string>{"input", "blur"}));
    const Buffer &b = g.buffer("brighten");
    EXPECT_EQ(b.kind, BufferKind::Intermediate);
    EXPECT_EQ(b.size(), 65 * 65);
    EXPECT_EQ(b.producers, (std::vector<int>{0}));
    EXPECT_EQ(b.consumers, (std::vector<int>{1}));
    EXPECT_EQ(g.buffer("input").consumers, (std::vector<int>{0}));
    EXPECT_EQ(g.buffer("blur").producers, (std::vector<int>{1}));
}

TEST(ExtractFilters, LineBufferedStageIsLocalToItsConsumer) {
    FilterGraph g = extract(build_example("brighten_blur", "linebuffer"));
    ASSERT_EQ(g.filters.size(), 1u);
    EXPECT_FALSE(g.has_buffer("brighten"));
    ASSERT_EQ(g.filters[0].locals.size(), 1u);
    EXPECT_EQ(g.filters[0].locals[0].name, "brighten");
    // Storage folding keeps two rows of 65 pixels instead of the whole image.
    EXPECT_LT(g.filters[0].locals[0].size, 65 * 65);
}

TEST(ExtractFilters, ComputeAtAllocationsAreHoistedWithConstantSize) {
    FilterGraph g = extract(build_example("gemm", "linebuffer"));
    ASSERT_EQ(g.filters.size(), 1u);
    ASSERT_EQ(g.filters[0].locals.size(), 1u);
    EXPECT_EQ(g.filters[0].locals[0].size, 32);
    std::ostringstream os;
    os << g.filters[0].body;
    EXPECT_EQ(os.str().find("allocate"), std::string::npos) << os.str();
}

TEST(ExtractFilters, GraphDumpGolden) {
    FilterGraph g = extract_filters(lower_for_hls(test::small_program(), HlsTarget::Vitis));
    PipelineOptions po;
    po.verify_each = true;
    run_pipeline(g, po);
    std::string diff = test::check_golden("small_graph.txt", print_graph(g));
    EXPECT_EQ(diff, "");
}

}  // namespace
}  // namespace flowhls
