// The trace testbench (flowhls csim --trace): written only for graphs whose filters hold ONNX
// values, listing them in trace.txt; the kernel is the same either way.
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "emit/vitis/VitisEmitter.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

const EmittedFile *find_file(const std::vector<EmittedFile> &files, const std::string &path) {
    for (const EmittedFile &f : files) {
        if (f.path == path) return &f;
    }
    return nullptr;
}

TEST(TraceTestbench, OnlyForGraphsWithOnnxValues) {
    FilterGraph g = test::prepared_graph(test::small_program());
    std::vector<EmittedFile> plain = emit_project_files(g, ProjectSettings());
    EXPECT_EQ(find_file(plain, "tb_trace.cpp"), nullptr);
    EXPECT_EQ(find_file(plain, "trace.txt"), nullptr);
    EXPECT_EQ(find_file(plain, "Makefile")->contents.find("csim-trace"), std::string::npos);

    std::string kernel = emit_vitis_files(g, ProjectSettings())[1].contents;
    g.filters.back().onnx.values = {"/fc/Gemm output", "100%"};
    std::vector<EmittedFile> traced = emit_project_files(g, ProjectSettings());
    EXPECT_EQ(emit_vitis_files(g, ProjectSettings())[1].contents, kernel);
    const EmittedFile *tb = find_file(traced, "tb_trace.cpp");
    const EmittedFile *manifest = find_file(traced, "trace.txt");
    ASSERT_NE(tb, nullptr);
    ASSERT_NE(manifest, nullptr);
    // Names escaped (space and '%'), one line per buffer the filter writes.
    EXPECT_NE(manifest->contents.find("\t/fc/Gemm%20output 100%25\t"), std::string::npos) << manifest->contents;
    EXPECT_NE(tb->contents.find("#include \"kernel.cpp\""), std::string::npos);
    EXPECT_NE(tb->contents.find("void " + g.name + "_trace("), std::string::npos);
    EXPECT_NE(tb->contents.find("flowhls_save_npy(FLOWHLS_TRACE_DIR, \"" + g.filters.back().writes.at(0) + ".npy\""),
              std::string::npos)
        << tb->contents;
    EXPECT_NE(find_file(traced, "Makefile")->contents.find("build/csim-trace: tb_trace.cpp"), std::string::npos);
}

}  // namespace
}  // namespace flowhls
