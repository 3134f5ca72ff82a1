// QONNX Quant and Trunc (qonnx_models.py): C simulation against a numpy reference written from
// the QONNX operator documents, bit for bit, both targets, under the sanitizers; refusals.
#include <gtest/gtest.h>

#include <cstdlib>

#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"

namespace flowhls {
namespace {

// The models of qonnx_models.py, generated once for the test run.
const std::string &model_dir() { return test::python_models("tests/frontend/onnx/qonnx_models.py"); }

class QonnxModels : public ::testing::TestWithParam<const char *> {};

TEST_P(QonnxModels, MatchesTheReferenceBitForBit) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    HalideProgram program = import_onnx(model_dir() + "/" + GetParam() + "/model.onnx", OnnxImportOptions());
    for (HlsTarget target : {HlsTarget::Vitis, HlsTarget::Bambu}) {
        test::TempDir out;
        CompileOptions o;
        o.verify_each = true;
        o.target = target;
        o.output_dir = out / "p";
        CompileResult r = compile(program, o);
        CsimOptions co;
        co.sanitize = true;
        co.atol = 0.0;
        co.rtol = 0.0;
        CsimResult c = run_csim(r.output_dir, co);
        EXPECT_TRUE(c.passed) << GetParam() << ": " << c.verdict << "\n" << c.log;
    }
}

const char *const kModels[] = {"qonnx_modes", "qonnx_brevitas_cnn"};

INSTANTIATE_TEST_SUITE_P(Reference, QonnxModels, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

// Each refused model names the node and the reason.
TEST(Qonnx, UnsupportedFormsAreRefusedPrecisely) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    const std::pair<const char *, const char *> cases[] = {
        {"qonnx_bad_bits9", "bit width 9 (only 2 to 8)"},
        {"qonnx_bad_bits1", "bit width 1 (binary / bipolar quantization"},
        {"qonnx_bad_rounding", "rounding_mode 'STOCHASTIC'"},
        {"qonnx_bad_runtime_bits", "computed at run time"},
        {"qonnx_bad_trunc7", "Trunc with 7 inputs"},
        {"qonnx_bad_domain", "domain 'my.domain' is not supported"},
    };
    for (const auto &[name, reason] : cases) {
        try {
            import_onnx(model_dir() + "/" + name + "/model.onnx", OnnxImportOptions());
            ADD_FAILURE() << name << " was accepted";
        } catch (const UnsupportedModelError &e) {
            EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << name << ": " << e.what();
        }
    }
    try {
        import_onnx(model_dir() + "/qonnx_bad_bits_fraction/model.onnx", OnnxImportOptions());
        ADD_FAILURE() << "a bit width of 4.5 was accepted";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("4.5"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace flowhls
