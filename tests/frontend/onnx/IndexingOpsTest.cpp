// ONNX backend node cases of the indexing and data-movement ops (Slice, Split, Gather, Pad,
// Tile, Expand, Range, DepthToSpace, SpaceToDepth, Trilu, OneHot), imported, compiled and
// checked by C simulation against the ONNX expected outputs.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const char *const kNodeCases = "/usr/share/libonnx-testdata/data/node";

// A node case and how many of its graph inputs stay run-time inputs: the backend tests feed
// starts, pads, repeats... as graph inputs; flowhls needs them constant, so the inputs after
// the first `runtime_inputs` become initializers holding the test data's values.
struct NodeCase {
    std::string name;
    int runtime_inputs;
};

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

// Writes the case's model with its trailing inputs frozen into `dir`; fills the test data files.
std::string prepare_model(const NodeCase &c, const test::TempDir &dir, OnnxImportOptions *options) {
    fs::path src = fs::path(kNodeCases) / c.name;
    onnx::ModelProto model;
    EXPECT_TRUE(model.ParseFromString(slurp((src / "model.onnx").string())));
    onnx::GraphProto &g = *model.mutable_graph();
    fs::path data = src / "test_data_set_0";
    std::vector<onnx::ValueInfoProto> kept;
    for (int i = 0; i < g.input_size(); i++) {
        std::string file = (data / ("input_" + std::to_string(i) + ".pb")).string();
        if (i < c.runtime_inputs) {
            kept.push_back(g.input(i));
            options->input_files.push_back(file);
            continue;
        }
        onnx::TensorProto t;
        EXPECT_TRUE(t.ParseFromString(slurp(file))) << file;
        t.set_name(g.input(i).name());
        *g.add_initializer() = t;
    }
    g.clear_input();
    for (const onnx::ValueInfoProto &v : kept) *g.add_input() = v;
    for (int i = 0; i < g.output_size(); i++) {
        options->expected_files.push_back((data / ("output_" + std::to_string(i) + ".pb")).string());
    }
    std::string path = dir / (c.name + ".onnx");
    std::ofstream out(path, std::ios::binary);
    out << model.SerializeAsString();
    return path;
}

class IndexingOpsTest : public ::testing::TestWithParam<NodeCase> {};

TEST_P(IndexingOpsTest, MatchesOnnxExpectedOutput) {
    const NodeCase &c = GetParam();
    if (!fs::exists(fs::path(kNodeCases) / c.name / "model.onnx")) {
        GTEST_SKIP() << "ONNX backend test data not installed (" << kNodeCases << ")";
    }
    test::TempDir dir;
    OnnxImportOptions import_options;
    std::string model = prepare_model(c, dir, &import_options);
    HalideProgram program = import_onnx(model, import_options);
    CompileOptions options;
    options.verify_each = true;
    options.output_dir = dir / "project";
    compile(program, options);
    CsimResult result = run_csim(options.output_dir, CsimOptions());
    EXPECT_TRUE(result.built) << result.log;
    EXPECT_TRUE(result.passed) << result.verdict << "\n" << result.log;
}

INSTANTIATE_TEST_SUITE_P(NodeCases, IndexingOpsTest,
                         ::testing::Values(NodeCase{"test_slice", 1}, NodeCase{"test_slice_neg_steps", 1},
                                           NodeCase{"test_slice_negative_axes", 1},
                                           NodeCase{"test_slice_end_out_of_bounds", 1},
                                           NodeCase{"test_slice_default_axes", 1},
                                           NodeCase{"test_split_equal_parts_2d", 1},
                                           NodeCase{"test_split_variable_parts_1d", 1},
                                           NodeCase{"test_gather_1", 2}, NodeCase{"test_gather_2d_indices", 2},
                                           NodeCase{"test_gather_negative_indices", 2},
                                           NodeCase{"test_gather_elements_1", 2},
                                           NodeCase{"test_gather_elements_negative_indices", 2},
                                           NodeCase{"test_constant_pad", 1}, NodeCase{"test_edge_pad", 1},
                                           NodeCase{"test_reflect_pad", 1}, NodeCase{"test_tile", 1},
                                           NodeCase{"test_expand_dim_changed", 1},
                                           NodeCase{"test_range_int32_type_negative_delta", 0},
                                           NodeCase{"test_range_float_type_positive_delta", 0},
                                           NodeCase{"test_depthtospace_dcr_mode", 1},
                                           NodeCase{"test_depthtospace_crd_mode", 1},
                                           NodeCase{"test_spacetodepth", 1}, NodeCase{"test_tril_neg", 2},
                                           NodeCase{"test_triu_pos", 1}, NodeCase{"test_onehot_with_negative_axis", 1}),
                         [](const ::testing::TestParamInfo<NodeCase> &info) { return info.param.name; });

}  // namespace
}  // namespace flowhls
