// Tests of the dataflow legality analysis.
#include "analysis/DataflowLegality.h"
#include "flowhls/Examples.h"
#include "graph/ExtractFilters.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

DataflowVerdict verdict(const std::string &example, const std::string &schedule) {
    return check_dataflow_legality(extract_filters(lower_for_hls(build_example(example, schedule), HlsTarget::Vitis)));
}

TEST(DataflowLegality, ChainIsLegal) {
    DataflowVerdict v = verdict("brighten_blur", "root");
    EXPECT_TRUE(v.legal) << v.reason;
    EXPECT_TRUE(verdict("gaussian", "root").legal);
}

TEST(DataflowLegality, SingleFilterIsNotADataflowRegion) {
    DataflowVerdict v = verdict("gaussian", "linebuffer");
    EXPECT_FALSE(v.legal);
    EXPECT_NE(v.reason.find("single filter"), std::string::npos) << v.reason;
}

TEST(DataflowLegality, BufferWithTwoConsumersIsNamed) {
    DataflowVerdict v = verdict("harris", "root");
    EXPECT_FALSE(v.legal);
    EXPECT_NE(v.reason.find("is read by 2 filters"), std::string::npos) << v.reason;
}

TEST(DataflowLegality, OutputReadBackByAnotherFilterIsIllegal) {
    FilterGraph g;
    g.buffers = {Buffer{"o", Halide::Float(32), {4}, BufferKind::Output, {0}, {0, 1}}};
    g.filters = {Filter{"a", "", {}, {}, {}, {}, "", {}}, Filter{"b", "", {}, {}, {}, {}, "", {}}};
    DataflowVerdict v = check_dataflow_legality(g);
    EXPECT_FALSE(v.legal);
    EXPECT_NE(v.reason.find("output 'o' is read by 'b'"), std::string::npos) << v.reason;
}

}  // namespace
}  // namespace flowhls
