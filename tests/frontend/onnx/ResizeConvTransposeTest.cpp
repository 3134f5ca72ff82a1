// ONNX backend node cases of ConvTranspose, Einsum, Resize and Upsample: import, compile, C simulation.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace flowhls {
namespace {

const char *const kNodeCases = "/usr/share/libonnx-testdata/data/node";

template <class Proto>
bool read_proto(const std::string &path, Proto *proto) {
    std::ifstream in(path, std::ios::binary);
    return in && proto->ParseFromIstream(&in);
}

// The node tests feed Resize's scales / sizes as graph inputs; flowhls needs them constant.
// Writes the model with every graph input but the first turned into an initializer holding
// its test value.
std::string freeze_shape_inputs(const std::string &dir, const std::string &out_path) {
    onnx::ModelProto model;
    if (!read_proto(dir + "/model.onnx", &model)) return "cannot read " + dir + "/model.onnx";
    onnx::GraphProto *g = model.mutable_graph();
    onnx::ValueInfoProto data = g->input(0);
    for (int i = 1; i < g->input_size(); i++) {
        onnx::TensorProto t;
        std::string path = dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb";
        if (!read_proto(path, &t)) return "cannot read " + path;
        t.set_name(g->input(i).name());
        *g->add_initializer() = t;
    }
    g->clear_input();
    *g->add_input() = data;
    if (model.ir_version() < 4) model.set_ir_version(4);  // initializers need not be inputs
    std::ofstream out(out_path, std::ios::binary);
    if (!model.SerializeToOstream(&out)) return "cannot write " + out_path;
    return "";
}

class ResizeConvTransposeCase : public ::testing::TestWithParam<std::string> {};

TEST_P(ResizeConvTransposeCase, MatchesOnnxExpectedOutput) {
    std::string dir = std::string(kNodeCases) + "/test_" + GetParam();
    if (!std::filesystem::exists(dir + "/model.onnx")) GTEST_SKIP() << "no ONNX test data at " << dir;
    test::TempDir tmp;
    std::string model = dir + "/model.onnx";
    OnnxImportOptions import;
    if (GetParam().rfind("resize", 0) == 0 || GetParam().rfind("upsample", 0) == 0) {
        model = tmp / "model.onnx";
        std::string why = freeze_shape_inputs(dir, model);
        ASSERT_EQ(why, "");
        import.input_files = {dir + "/test_data_set_0/input_0.pb"};
        import.expected_files = {dir + "/test_data_set_0/output_0.pb"};
    }
    HalideProgram program = import_onnx(model, import);
    CompileOptions options;
    options.verify_each = true;
    options.output_dir = tmp / "out";
    CompileResult compiled = compile(program, options);
    CsimResult csim = run_csim(compiled.output_dir, CsimOptions());
    EXPECT_TRUE(csim.built) << csim.log;
    EXPECT_TRUE(csim.passed) << csim.verdict << "\n" << csim.log;
}

INSTANTIATE_TEST_SUITE_P(
    OnnxNode, ResizeConvTransposeCase,
    ::testing::Values("convtranspose", "convtranspose_1d", "convtranspose_3d", "convtranspose_autopad_same",
                      "convtranspose_dilations", "convtranspose_output_shape", "convtranspose_pads",
                      "einsum_batch_diagonal", "einsum_batch_matmul", "einsum_inner_prod", "einsum_sum",
                      "einsum_transpose", "resize_downsample_scales_linear_align_corners",
                      "resize_downsample_scales_nearest", "resize_downsample_sizes_linear_pytorch_half_pixel",
                      "resize_upsample_scales_linear", "resize_upsample_sizes_nearest_ceil_half_pixel",
                      "resize_upsample_sizes_nearest_floor_align_corners",
                      "resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric", "upsample_nearest"),
    [](const ::testing::TestParamInfo<std::string> &info) { return info.param; });

TEST(ResizeConvTranspose, CubicResizeIsReportedUnsupported) {
    std::string model = std::string(kNodeCases) + "/test_resize_upsample_scales_cubic/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "no ONNX test data at " << model;
    try {
        import_onnx(model, OnnxImportOptions());
        FAIL() << "cubic Resize was accepted";
    } catch (const UnsupportedModelError &e) {
        ASSERT_EQ(e.nodes().size(), 1u);
        EXPECT_EQ(e.nodes()[0].op_type, "Resize");
        EXPECT_NE(e.nodes()[0].reason.find("mode cubic"), std::string::npos) << e.nodes()[0].reason;
    }
}

}  // namespace
}  // namespace flowhls
