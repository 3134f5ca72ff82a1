// ONNX backend node cases of the reduction and normalization converters, compiled and
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

const char *const kNodeCaseDir = "/usr/share/libonnx-testdata/data/node/";

template <typename Proto>
Proto read_proto(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    Proto p;
    EXPECT_TRUE(p.ParseFromString(os.str())) << path;
    return p;
}

void write_proto(const google::protobuf::MessageLite &p, const std::string &path) {
    std::ofstream out(path, std::ios::binary);
    out << p.SerializeAsString();
}

// Copies node case `name` to `dir` with every graph input but the first (ReduceSum's axes,
// CumSum's axis) made an initializer holding its test value; an empty axes tensor becomes an
// omitted input, which means the same. Returns the new model's path.
std::string with_constant_inputs(const std::string &name, const std::string &dir) {
    std::string src = std::string(kNodeCaseDir) + name;
    auto model = read_proto<onnx::ModelProto>(src + "/model.onnx");
    onnx::GraphProto &g = *model.mutable_graph();
    onnx::NodeProto &node = *g.mutable_node(0);
    for (int k = g.input_size() - 1; k >= 1; k--) {
        auto value = read_proto<onnx::TensorProto>(src + "/test_data_set_0/input_" + std::to_string(k) + ".pb");
        std::string input = g.input(k).name();
        value.set_name(input);
        bool empty = value.dims_size() == 1 && value.dims(0) == 0;
        for (int i = 0; i < node.input_size(); i++) {
            if (node.input(i) == input && empty) node.set_input(i, "");
        }
        while (node.input_size() > 0 && node.input(node.input_size() - 1).empty()) node.mutable_input()->RemoveLast();
        if (!empty) *g.add_initializer() = value;
        g.mutable_input()->DeleteSubrange(k, 1);
    }
    fs::create_directories(dir + "/test_data_set_0");
    write_proto(model, dir + "/model.onnx");
    fs::copy_file(src + "/test_data_set_0/input_0.pb", dir + "/test_data_set_0/input_0.pb");
    fs::copy_file(src + "/test_data_set_0/output_0.pb", dir + "/test_data_set_0/output_0.pb");
    return dir + "/model.onnx";
}

// Compiles the model and runs the C simulation against its test data.
CsimResult compile_and_simulate(const std::string &model, const test::TempDir &tmp) {
    HalideProgram program = import_onnx(model, OnnxImportOptions());
    CompileOptions options;
    options.verify_each = true;
    options.output_dir = tmp / "out";
    CompileResult compiled = compile(program, options);
    return run_csim(compiled.output_dir, CsimOptions());
}

class ReductionOpsTest : public ::testing::TestWithParam<const char *> {};

TEST_P(ReductionOpsTest, MatchesOnnxExpectedOutput) {
    std::string model = std::string(kNodeCaseDir) + GetParam() + "/model.onnx";
    if (!std::filesystem::exists(model)) GTEST_SKIP() << "ONNX test data not installed (" << model << ")";
    test::TempDir tmp;
    CsimResult result = compile_and_simulate(model, tmp);
    EXPECT_TRUE(result.passed) << result.verdict << "\n" << result.log;
}

// The ReduceSum and CumSum cases give axes as graph inputs; the converters need constants.
class ReductionConstantAxesTest : public ::testing::TestWithParam<const char *> {};

TEST_P(ReductionConstantAxesTest, MatchesOnnxExpectedOutput) {
    if (!fs::exists(std::string(kNodeCaseDir) + GetParam())) GTEST_SKIP() << "ONNX test data not installed";
    test::TempDir tmp;
    std::string model = with_constant_inputs(GetParam(), tmp / "case");
    CsimResult result = compile_and_simulate(model, tmp);
    EXPECT_TRUE(result.passed) << result.verdict << "\n" << result.log;
}

INSTANTIATE_TEST_SUITE_P(
    NodeCases, ReductionOpsTest,
    ::testing::Values("test_reduce_log_sum_default", "test_reduce_max_default_axes_keepdims_random",
                      "test_reduce_log_sum_exp_do_not_keepdims_example", "test_reduce_mean_do_not_keepdims_random",
                      "test_reduce_mean_negative_axes_keepdims_random", "test_reduce_max_keepdims_random",
                      "test_reduce_min_do_not_keepdims_random", "test_reduce_prod_default_axes_keepdims_random",
                      "test_reduce_l1_keep_dims_random", "test_reduce_l2_do_not_keepdims_random",
                      "test_reduce_sum_square_negative_axes_keepdims_random", "test_reduce_log_sum_asc_axes",
                      "test_reduce_log_sum_exp_keepdims_random", "test_argmax_no_keepdims_random",
                      "test_argmax_keepdims_random_select_last_index", "test_argmin_negative_axis_keepdims_random",
                      "test_argmin_default_axis_example_select_last_index", "test_layer_normalization_default_axis",
                      "test_argmax_default_axis_random", "test_batchnorm_epsilon", "test_instancenorm_epsilon",
                      "test_layer_normalization_3d_axis1_epsilon", "test_layer_normalization_4d_axis_negative_2",
                      "test_lrn", "test_mvn"),
    [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param).substr(5); });

INSTANTIATE_TEST_SUITE_P(
    NodeCases, ReductionConstantAxesTest,
    ::testing::Values("test_reduce_sum_keepdims_random", "test_reduce_sum_do_not_keepdims_random",
                      "test_reduce_sum_negative_axes_keepdims_random", "test_reduce_sum_default_axes_keepdims_random",
                      "test_reduce_sum_empty_axes_input_noop_random", "test_cumsum_1d", "test_cumsum_1d_exclusive",
                      "test_cumsum_1d_reverse", "test_cumsum_1d_reverse_exclusive", "test_cumsum_2d_axis_0",
                      "test_cumsum_2d_axis_1", "test_cumsum_2d_negative_axis"),
    [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param).substr(5); });

}  // namespace
}  // namespace flowhls
