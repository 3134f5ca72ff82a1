// QDQ models rewritten as integer arithmetic (fuse_qdq, QLinearConv's integer requantization),
// simulated against flowhls's float64 reference of the QDQ semantics (qdq_models.py).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "flowhls/Onnx.h"
#include "frontend/onnx/FuseQdq.h"

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const char *const kModels[] = {"qdq_conv", "qdq_conv_relu_per_channel", "qdq_conv_int8_out", "qdq_conv_depthwise",
                               "qdq_gemm", "qdq_gemm_not_transposed",   "qdq_pipeline",
                               "qdq_add",  "qdq_add_relu_broadcast",    "qdq_add_ties",
                               "qlinear_add_contrib", "qdq_concat_same_scale", "qdq_concat_requantized",
                               "qdq_avgpool_same_scale", "qdq_avgpool_include_pad", "qdq_avgpool_border_counts",
                               "qdq_avgpool_2x2", "qdq_global_avgpool", "qlinear_matmul_constant_b",
                               "qlinear_matmul_two_inputs", "qdq_gemm_bias_scale_tie", "qdq_conv_bias_own_scale"};

// The models of qdq_models.py, generated once for the test run.
const std::string &model_dir() { return test::python_models("tests/frontend/onnx/qdq_models.py"); }

onnx::ModelProto read_model(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    onnx::ModelProto m;
    EXPECT_TRUE(m.ParseFromIstream(&in)) << path;
    return m;
}

class QdqModels : public ::testing::TestWithParam<const char *> {};

// Fused into integer arithmetic (no float left when input and output are integers) and equal
// to the float64 reference bit for bit, for both targets, under the sanitizers.
TEST_P(QdqModels, IntegerDesignMatchesFloat64Reference) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    std::string model = model_dir() + "/" + GetParam() + "/model.onnx";
    HalideProgram program = import_onnx(model, OnnxImportOptions());
    for (HlsTarget target : {HlsTarget::Vitis, HlsTarget::Bambu}) {
        test::TempDir out;
        CompileOptions o;
        o.verify_each = true;
        o.target = target;
        o.output_dir = out / "p";
        CompileResult r = compile(program, o);
        std::string kernel = test::read_file(r.output_dir + (target == HlsTarget::Vitis ? "/kernel.cpp" : "/kernel.c"));
        // Integer in, integer out: no float left. The pipeline quantizes a float input once.
        if (std::string(GetParam()) != "qdq_pipeline") {
            EXPECT_EQ(kernel.find("float"), std::string::npos) << "float arithmetic left in " << GetParam();
        } else {
            size_t first = kernel.find("nearbyint");
            EXPECT_NE(first, std::string::npos);
            EXPECT_EQ(kernel.find("nearbyint", first + 1), std::string::npos) << "float requantization left";
        }
        CsimOptions co;
        co.sanitize = true;
        CsimResult c = run_csim(r.output_dir, co);
        EXPECT_TRUE(c.passed) << c.verdict << "\n" << c.log;
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, QdqModels, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

// The bias's own scale in the graph (float32(x_scale * w_scale), or another) is carried by the
// fused QLinearConv as flowhls_bias_scale unless it is exactly the product; a model may not
// carry that attribute itself.
float scalar_of(const onnx::TensorProto &t) {
    float v = 0;
    EXPECT_EQ(t.raw_data().size(), sizeof v);
    std::memcpy(&v, t.raw_data().data(), sizeof v);
    return v;
}

void set_scalar(onnx::ModelProto &m, const std::string &name, float v) {
    for (onnx::TensorProto &t : *m.mutable_graph()->mutable_initializer()) {
        if (t.name() == name) t.set_raw_data(&v, sizeof v);
    }
}

// The bias scales the fused QLinearConv of `m` carries (empty: none).
std::vector<float> fused_bias_scales(onnx::ModelProto m, const std::string &path) {
    EXPECT_EQ(onnx_import::fuse_qdq(m, path), 1);
    std::vector<float> scales;
    int qlinear = 0;
    for (const onnx::NodeProto &n : m.graph().node()) {
        EXPECT_NE(n.op_type(), "DequantizeLinear");
        if (n.op_type() != "QLinearConv") continue;
        qlinear++;
        for (const onnx::AttributeProto &a : n.attribute()) {
            if (a.name() == "flowhls_bias_scale") scales.assign(a.floats().begin(), a.floats().end());
        }
    }
    EXPECT_EQ(qlinear, 1);
    return scales;
}

TEST(QdqFusion, BiasKeepsTheGraphsOwnScale) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    std::string path = model_dir() + "/qdq_conv/model.onnx";
    onnx::ModelProto m = read_model(path);
    float sb = 0, sx = 0, sw = 0;
    for (const onnx::TensorProto &t : m.graph().initializer()) {
        if (t.name() == "b_dq_scale") sb = scalar_of(t);
        if (t.name() == "x_dq_scale") sx = scalar_of(t);
        if (t.name() == "w_dq_scale") sw = scalar_of(t);
    }
    ASSERT_NE(static_cast<double>(sb), static_cast<double>(sx) * sw);  // float32(sx * sw)
    EXPECT_EQ(fused_bias_scales(m, path), std::vector<float>{sb});
    onnx::ModelProto other = m;
    set_scalar(other, "b_dq_scale", sb * 1.0001f);
    EXPECT_EQ(fused_bias_scales(other, path), std::vector<float>{sb * 1.0001f});
    // Exactly the product: QLinearConv's own bias scale, no attribute.
    onnx::ModelProto dyadic = m;
    set_scalar(dyadic, "x_dq_scale", 0.5f);
    set_scalar(dyadic, "w_dq_scale", 0.25f);
    set_scalar(dyadic, "b_dq_scale", 0.125f);
    EXPECT_TRUE(fused_bias_scales(dyadic, path).empty());

    onnx::ModelProto reserved = m;
    onnx::AttributeProto *a = reserved.mutable_graph()->mutable_node(3)->add_attribute();
    a->set_name("flowhls_bias_scale");
    a->set_type(onnx::AttributeProto::FLOATS);
    a->add_floats(1.0f);
    test::TempDir dir;
    std::string copy = dir / "reserved.onnx";
    std::ofstream(copy, std::ios::binary) << reserved.SerializeAsString();
    try {
        import_onnx(copy, OnnxImportOptions());
        ADD_FAILURE() << "a model's flowhls_ attribute was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("reserved for flowhls"), std::string::npos) << e.what();
    }
}

// An average whose factor sx / (sy * count) is 1/6 has reachable ties no integer multiplier
// rounds like the real value: QLinearAveragePool keeps the float path (within one step of the
// float64 reference, which rounds those ties to even).
TEST(QdqFusion, UnprovenAverageKeepsTheFloatPath) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    std::string path = model_dir() + "/qdq_avgpool_tie_float/model.onnx";
    onnx::ModelProto m = read_model(path);
    EXPECT_EQ(onnx_import::fuse_qdq(m, path), 1);
    ASSERT_EQ(m.graph().node_size(), 1);
    EXPECT_EQ(m.graph().node(0).op_type(), "QLinearAveragePool");
    HalideProgram program = import_onnx(path, OnnxImportOptions());
    test::TempDir out;
    CompileOptions o;
    o.output_dir = out / "p";
    CompileResult r = compile(program, o);
    EXPECT_NE(test::read_file(r.output_dir + "/kernel.cpp").find("nearbyintf"), std::string::npos);
    CsimOptions co;
    co.atol = 1.0;
    co.rtol = 0.0;
    CsimResult c = run_csim(r.output_dir, co);
    EXPECT_TRUE(c.passed) << c.verdict << "\n" << c.log;
}

// Without fusion the model keeps the float QDQ path (which agrees on this small model too).
TEST(QdqFusion, WithoutFusionTheFloatPathRuns) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    OnnxImportOptions options;
    options.fuse_qdq = false;
    HalideProgram program = import_onnx(model_dir() + "/qdq_pipeline/model.onnx", options);
    test::TempDir out;
    CompileOptions o;
    o.output_dir = out / "p";
    CompileResult r = compile(program, o);
    EXPECT_NE(test::read_file(r.output_dir + "/kernel.cpp").find("nearbyintf"), std::string::npos);
    CsimResult c = run_csim(r.output_dir, CsimOptions());
    EXPECT_TRUE(c.passed) << c.verdict << "\n" << c.log;
}

}  // namespace
}  // namespace flowhls
