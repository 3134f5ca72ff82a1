// Tests of the ONNX front end: models end to end, bad input, weights, folding, core ops.
#include "OnnxModelBuilder.h"
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"
#include "support/Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const std::string kLenet = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
const std::string kNodeCases = "/usr/share/libonnx-testdata/data/node/";

CsimResult compile_and_simulate(const HalideProgram &p, HlsTarget target, WeightPlacement w, bool sanitize,
                                CompileResult *out = nullptr) {
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.target = target;
    o.weights = w;
    o.output_dir = dir / "out";
    CompileResult r = compile(p, o);
    if (out) *out = r;
    CsimOptions co;
    co.sanitize = sanitize;
    return run_csim(r.output_dir, co);
}

TEST(OnnxModels, Lenet5MatchesPyTorchForBothTargetsAndWeightPlacements) {
    HalideProgram p = import_onnx(kLenet, OnnxImportOptions());
    ASSERT_EQ(p.expected_outputs.size(), 1u);
    for (HlsTarget t : {HlsTarget::Vitis, HlsTarget::Bambu}) {
        for (WeightPlacement w : {WeightPlacement::Rom, WeightPlacement::Axi}) {
            CompileResult r;
            CsimResult c = compile_and_simulate(p, t, w, false, &r);
            EXPECT_TRUE(c.passed) << c.log;
            EXPECT_TRUE(r.dataflow) << r.dataflow_reason;
            bool has_rom = false;
            for (const std::string &f : r.files) has_rom |= f.rfind("rom/", 0) == 0;
            EXPECT_EQ(has_rom, w == WeightPlacement::Rom);
        }
    }
}

TEST(OnnxModels, Lenet5UnderSanitizers) {
    CsimResult c = compile_and_simulate(import_onnx(kLenet, OnnxImportOptions()), HlsTarget::Vitis,
                                        WeightPlacement::Auto, true);
    EXPECT_TRUE(c.passed) << c.log;
}

TEST(OnnxModels, OutputIsDeterministic) {
    test::TempDir a, b;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " -o " + a.path() + "/p", &out), 0) << out;
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " -o " + b.path() + "/p", &out), 0) << out;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(a.path() + "/p")) {
        if (!e.is_regular_file()) continue;
        std::string rel = fs::relative(e.path(), a.path() + "/p").string();
        EXPECT_EQ(test::read_file(e.path().string()), test::read_file(b.path() + "/p/" + rel)) << rel;
    }
}

TEST(OnnxModels, CliCompilesAndSimulatesLenet5) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile " + kLenet + " -o " + dir.path() + "/p --csim", &out), 0) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("csim " + dir.path() + "/p --atol 0 --rtol 0", &out), 1) << out;  // not bit-exact
    EXPECT_EQ(test::run_flowhls("csim " + dir.path() + "/p", &out), 0) << out;
    // Test data given to csim replaces the project's.
    std::string data = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/test_data_set_0/";
    EXPECT_EQ(test::run_flowhls("csim " + dir.path() + "/p --inputs " + data + "input_0.pb --expected " + data +
                                    "output_0.pb",
                                &out),
              0)
        << out;
    EXPECT_EQ(test::run_flowhls("csim " + dir.path() + "/p --inputs " + data + "output_0.pb", &out), 2) << out;
    EXPECT_NE(out.find("holds 10 values; data/input.npy needs 1024"), std::string::npos) << out;
}

// Bad input: exit 2, a message naming the cause, nothing written.
void expect_rejected(const std::string &args, const std::string &message) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile " + args + " -o " + dir.path() + "/p", &out), 2) << out;
    EXPECT_NE(out.find(message), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir.path() + "/p"));
}

// --weights uram (Vitis): every weight is an m_axi argument its reader copies into a static
// array bound to UltraRAM on the first call; C-sim passes against PyTorch's test data with the
// testbench supplying the weights, and the project is byte-identical when compiled again.
// The copies persist across calls (a second call with zeroed weights still matches). PandA-Bambu
// has no URAM tier: refused, nothing written.
TEST(OnnxModels, Lenet5WithWeightsInUramMatchesPyTorch) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " --device xcvu9p --weights uram --csim -o " + dir.path() + "/a", &out), 0) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    std::string kernel = test::read_file(dir.path() + "/a/kernel.cpp");
    EXPECT_NE(kernel.find("#pragma HLS bind_storage variable=w_conv2_weight type=ram_2p impl=uram"), std::string::npos)
        << kernel.substr(0, 4000);
    EXPECT_NE(kernel.find("static bool w_conv2_weight_loaded = false;"), std::string::npos);
    // fc1's 48,000 floats packed two a 72-bit UltraRAM word (bind-uram: 6 blocks instead of 12),
    // read through the comparison of the halves; the C simulation above checks that layout.
    EXPECT_NE(kernel.find("static float w_fc1_weight[2][24000];\n#pragma HLS bind_storage variable=w_fc1_weight "
                          "type=ram_2p impl=uram\n#pragma HLS ARRAY_RESHAPE variable=w_fc1_weight type=complete dim=1\n"),
              std::string::npos);
    EXPECT_NE(kernel.find("w_fc1_weight[0][j] = w_fc1_weight_axi[j];"), std::string::npos);
    EXPECT_NE(kernel.find("#pragma HLS INTERFACE m_axi port=w_conv2_weight "), std::string::npos);
    EXPECT_FALSE(fs::exists(dir.path() + "/a/rom"));
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " --device xcvu9p --weights uram -o " + dir.path() + "/b", &out), 0) << out;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(dir.path() + "/b")) {
        if (!e.is_regular_file()) continue;
        std::string rel = fs::relative(e.path(), dir.path() + "/b").string();
        EXPECT_EQ(test::read_file(e.path().string()), test::read_file(dir.path() + "/a/" + rel)) << rel;
    }
    // The copies persist: a second call given zeros for every weight still matches the test data
    // (the testbench edited, so built with the project's Makefile; `flowhls csim` refuses edits).
    std::string tb = test::read_file(dir.path() + "/a/tb.cpp");
    size_t call = tb.find("    lenet5(");
    ASSERT_NE(call, std::string::npos);
    std::string line = tb.substr(call, tb.find('\n', call) + 1 - call), zeros;
    for (const char *w : {"conv1", "conv2", "fc1", "fc2", "fc3"}) {
        for (const char *part : {"_weight", "_bias"}) {
            zeros += std::string("    for (auto &v : tb_in_w_") + w + part + ") v = 0.0f;\n";
        }
    }
    tb.insert(call + line.size(), zeros + line);
    std::ofstream(dir.path() + "/a/tb.cpp") << tb;
    ProcessResult twice = run_process({"make", "csim"}, dir.path() + "/a", nullptr);
    EXPECT_EQ(twice.status, 0) << twice.output;
    EXPECT_NE(twice.output.find("PASS: 1 output(s) match the reference"), std::string::npos) << twice.output;
    expect_rejected(kLenet + " -t bambu --device xcu280 --weights uram", "--weights uram: PandA-Bambu designs have no UltraRAM tier");
    expect_rejected(kLenet + " --weights uram", "--weights uram: xc7z020 has no UltraRAM");
}

// y = x W with x [1, 400] and W [400, 500] (800 KB of weights).
std::string write_matmul_model(const std::string &path) {
    test::OnnxModelBuilder b("big");
    b.input("x", {1, 400});
    b.initializer("w", {400, 500}, [](int64_t i) { return static_cast<float>(i % 17) * 0.01f; });
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y", {1, 500});
    return b.write(path);
}

TEST(OnnxErrors, WeightsThatCannotFitOnChip) {
    test::TempDir dir;
    std::string model = write_matmul_model(dir / "big.onnx");
    expect_rejected(model + " --weights rom --device xc7z020", "more than the 645120 bytes of block RAM of xc7z020");
    // auto puts them behind an m_axi port instead; rom fits a larger part.
    for (const char *args : {" --weights auto --device xc7z020", " --weights rom --device xcu250"}) {
        std::string out;
        EXPECT_EQ(test::run_flowhls("compile " + model + args + " -o " + dir.path() + "/p --csim", &out), 0) << out;
        EXPECT_EQ(fs::exists(dir.path() + "/p/rom/w_w.cpp"), std::string(args).find("rom") != std::string::npos);
    }
}

TEST(OnnxErrors, MalformedAndTruncatedFiles) {
    test::TempDir dir;
    std::string model = test::read_file(kLenet);
    std::ofstream(dir / "truncated.onnx", std::ios::binary) << model.substr(0, model.size() / 2);
    std::ofstream(dir / "garbage.onnx") << "this is not a model";
    expect_rejected(dir / "truncated.onnx", "is not a valid ONNX model");
    expect_rejected(dir / "garbage.onnx", "is not a valid ONNX model");
    expect_rejected(dir / "missing.onnx", "no such file");
}

TEST(OnnxErrors, UnsupportedNodesAreAllListed) {
    if (!fs::exists(kNodeCases)) GTEST_SKIP() << "libonnx-testdata is not installed";
    expect_rejected(kNodeCases + "test_lstm_defaults/model.onnx", "(LSTM, opset 14): no converter for this op");
    expect_rejected(kNodeCases + "test_cast_FLOAT_to_FLOAT16/model.onnx", "float16 is not supported");
    expect_rejected(kNodeCases + "test_squeeze/model.onnx",
                    "input 'axes' must be a constant (it is computed at run time); --specialize-shape-inputs");
    try {
        import_onnx(kNodeCases + "test_nonzero_example/model.onnx", OnnxImportOptions());
        FAIL() << "NonZero was accepted";
    } catch (const UnsupportedModelError &e) {
        ASSERT_EQ(e.nodes().size(), 1u);
        EXPECT_EQ(e.nodes()[0].op_type, "NonZero");
        EXPECT_EQ(e.nodes()[0].opset, 13);  // the model's own opset
    }
}

// A model built here: input x [N, 3, H] (symbolic), y = Relu(x).
std::string write_dynamic_model(const std::string &path) {
    test::OnnxModelBuilder b("dyn");
    b.input("x", {"N", 3, "H"});
    b.node("Relu", {"x"}, {"y"});
    b.output("y", {"N", 3, "H"});
    return b.write(path);
}

TEST(OnnxErrors, DynamicShapesNeedShapeOption) {
    test::TempDir dir;
    std::string model = write_dynamic_model(dir / "dyn.onnx");
    expect_rejected(model, "dynamic dimension 2 ('H'); fix it with --shape x=");
    expect_rejected(model + " --shape x=1x3", "the model's input has rank 3");
    expect_rejected(model + " --shape z=1x3x4", "the model has no input of that name");
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile " + model + " --shape x=2x3x5 -o " + dir.path() + "/p --csim", &out), 0)
        << out;
    EXPECT_NE(test::read_file(dir.path() + "/p/data/x.npy").find("'shape': (2, 3, 5)"), std::string::npos);
}

// Conv followed by BatchNormalization, with non-trivial statistics.
std::string write_conv_bn_model(const std::string &path) {
    test::OnnxModelBuilder b("conv_bn");
    auto values = [](float base) {
        return [base](int64_t i) { return base + 0.01f * static_cast<float>((i * 7) % 13); };
    };
    b.initializer("w", {4, 2, 3, 3}, values(-0.05f));
    b.initializer("b", {4}, values(0.1f));
    b.initializer("scale", {4}, values(0.9f));
    b.initializer("shift", {4}, values(-0.2f));
    b.initializer("mean", {4}, values(0.05f));
    b.initializer("var", {4}, values(0.8f));
    test::OnnxModelBuilder::ints(b.node("Conv", {"x", "w", "b"}, {"c"}), "pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"y"});
    b.input("x", {1, 2, 6, 5});
    b.output("y", {1, 4, 6, 5});
    return b.write(path);
}

TEST(OnnxImport, BatchNormalizationIsFoldedIntoConv) {
    test::TempDir dir;
    std::string model = write_conv_bn_model(dir / "conv_bn.onnx");
    HalideProgram p = import_onnx(model, OnnxImportOptions());
    CompileResult r;
    CsimResult c = compile_and_simulate(p, HlsTarget::Vitis, WeightPlacement::Auto, false, &r);
    EXPECT_TRUE(c.passed) << c.log;
    // The Conv alone (filter y) and buffer-inputs' copy of the input, x_load; random inputs, JIT
    // reference (bit-exact).
    EXPECT_EQ(r.filters, (std::vector<std::string>{"compute_x_load", "compute_y"})) << r.filters.size();
}

// Core ops: ONNX backend node cases (model + test_data_set_0) that must pass.
class CoreOps : public ::testing::TestWithParam<const char *> {};

TEST_P(CoreOps, MatchesOnnxTestData) {
    std::string dir = kNodeCases + GetParam();
    if (!fs::exists(dir)) GTEST_SKIP() << dir << " is not installed";
    OnnxImportOptions o;
    o.specialize_shape_inputs = true;
    CsimResult c = compile_and_simulate(import_onnx(dir + "/model.onnx", o), HlsTarget::Vitis, WeightPlacement::Auto,
                                        false);
    EXPECT_TRUE(c.passed) << c.log;
}

INSTANTIATE_TEST_SUITE_P(
    Node, CoreOps,
    ::testing::Values("test_conv_with_strides_and_asymmetric_padding", "test_conv_with_autopad_same",
                      "test_basic_conv_with_padding", "test_conv_with_strides_padding", "test_gemm_all_attributes",
                      "test_gemm_default_scalar_bias", "test_matmul_3d", "test_matmul_4d", "test_maxpool_2d_pads",
                      "test_maxpool_2d_ceil", "test_maxpool_2d_dilations", "test_maxpool_3d_default",
                      "test_averagepool_2d_pads_count_include_pad", "test_averagepool_2d_same_upper",
                      "test_averagepool_2d_ceil", "test_globalaveragepool", "test_globalmaxpool", "test_add_bcast",
                      "test_div_bcast", "test_pow_bcast_array", "test_softmax_axis_1", "test_logsoftmax_axis_0",
                      "test_hardmax_example", "test_relu", "test_leakyrelu", "test_selu", "test_elu",
                      "test_hardswish", "test_sigmoid", "test_tanh", "test_erf", "test_clip", "test_where_example",
                      "test_equal_bcast", "test_cast_FLOAT_to_DOUBLE", "test_mod_mixed_sign_int32",
                      "test_reshape_reordered_all_dims", "test_flatten_axis2", "test_transpose_all_permutations_3",
                      "test_concat_3d_axis_negative_2", "test_unsqueeze_two_axes", "test_squeeze",
                      "test_shape_start_1_end_negative_1", "test_mean_example", "test_sum_example",
                      "test_max_example", "test_min_example", "test_prelu_broadcast", "test_bitshift_left_uint8"),
    [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param).substr(5); });

}  // namespace
}  // namespace flowhls
