// Integer widths (analysis/IntegerWidths), DSP packing (emit/vitis/PackDsp) and the width-aware
// operator costs: on hand-made filters, and end to end on the QDQ models of qdq_models.py
// compiled for an UltraScale+ part (packing on) and simulated bit for bit against flowhls's
// float64 reference, with the ap_int stand-in under the sanitizers and with AMD's headers.
#include "IrBuilder.h"
#include "TestSupport.h"
#include "analysis/IntegerWidths.h"
#include "analysis/OperatorModel.h"
#include "emit/vitis/PackDsp.h"
#include "flowhls/Compiler.h"
#include "flowhls/Csim.h"
#include "flowhls/Onnx.h"
#include "support/Process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace flowhls {
namespace {

using namespace Halide::Internal;
using Halide::Expr;
namespace fs = std::filesystem;

Expr load_of(Halide::Type t, const std::string &buf, Expr index) {
    return Load::make(t, buf, std::move(index), Halide::Buffer<>(), Parameter(), const_true(), ModulusRemainder());
}

// out[v] = 10 + sum_r w[v * 4 + r] * x[r] for v in [0, 4): int8 weights in a ROM, uint8 x.
FilterGraph mac_graph(const std::vector<int8_t> &weights) {
    FilterGraph g;
    g.name = "k";
    Buffer x("x", Halide::UInt(8), {4}, BufferKind::Input);
    Buffer w("w", Halide::Int(8), {int64_t(weights.size())}, BufferKind::Constant);
    Halide::Buffer<int8_t> data(int(weights.size()));
    for (size_t i = 0; i < weights.size(); i++) data(int(i)) = weights[i];
    w.contents = data;
    Buffer out("out", Halide::Int(32), {4}, BufferKind::Output);
    g.buffers = {x, w, out};
    g.args = {"x", "out"};
    Filter f;
    f.name = f.function_name = "mac";
    LocalBuffer acc;
    acc.name = "acc";
    acc.type = Halide::Int(32);
    acc.size = 1;
    acc.scalar = true;
    f.locals = {acc};
    Expr v = test::var("v"), r = test::var("r");
    Expr term = Cast::make(Halide::Int(32), load_of(Halide::Int(8), "w", v * 4 + r)) *
                Cast::make(Halide::Int(32), load_of(Halide::UInt(8), "x", r));
    Stmt update = test::store("acc", load_of(Halide::Int(32), "acc", 0) + term, 0);
    Stmt body = Block::make({test::store("acc", Expr(10), 0), test::loop("r", 4, update)});
    Stmt consume = ProducerConsumer::make("acc", false, test::store("out", load_of(Halide::Int(32), "acc", 0), v));
    f.body = test::loop("v", 4, Block::make(ProducerConsumer::make("acc", true, body), consume));
    g.filters = {f};
    return g;
}

TEST(IntegerWidths, AccumulatorBoundIsTheSumOfWeightMagnitudesTimesMaxInput) {
    // Per output: 10 + 255 * (sum of the positive weights) at most, 10 + 255 * (sum of the
    // negative ones) at least. Output 1 has the extremes: [10 - 255 * 5, 10 + 255 * 10].
    FilterGraph g = mac_graph({1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2});
    std::map<std::string, IntegerWidth> w = integer_widths(g, g.filters[0]);
    ASSERT_TRUE(w.count("acc"));
    EXPECT_TRUE(w["acc"].accumulator);
    EXPECT_EQ(w["acc"].lo, 10 - 255 * 5);
    EXPECT_EQ(w["acc"].hi, 10 + 255 * 10);
    EXPECT_EQ(w["acc"].bits, 13);  // [-1265, 2560]; the interval bound 4 * 255 * 7 would need 14
    EXPECT_TRUE(w["acc"].is_signed);
    EXPECT_EQ(w["acc"].bound, "sum |w| * max|x| + bias");
}

TEST(IntegerWidths, WidthOfRange) {
    EXPECT_EQ(width_of_range(0, 255).bits, 8);
    EXPECT_FALSE(width_of_range(0, 255).is_signed);
    EXPECT_EQ(width_of_range(-128, 127).bits, 8);
    EXPECT_EQ(width_of_range(-129, 0).bits, 9);
    EXPECT_EQ(width_of_range(-173, 82).bits, 9);
    EXPECT_EQ(width_of_range(0, 0).bits, 1);
}

TEST(DspPacking, PairsAdjacentOutputsSharingTheInput) {
    FilterGraph g = mac_graph({1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2});
    std::vector<PackedLoop> packed;
    FilterGraph p = pack_dsp_pairs(g, &packed);
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_EQ(packed[0].loop, "v");
    EXPECT_EQ(packed[0].accumulator, "acc");
    EXPECT_TRUE(uses_dsp_packing(p));
    EXPECT_FALSE(uses_dsp_packing(g));
    ASSERT_EQ(p.filters[0].locals.size(), 2u);
    EXPECT_EQ(p.filters[0].locals[1].name, "acc_odd");
    // Both accumulators keep the per-output bound through the packed products.
    std::map<std::string, IntegerWidth> w = integer_widths(p, p.filters[0]);
    ASSERT_TRUE(w.count("acc") && w.count("acc_odd"));
    EXPECT_EQ(w["acc"].bound, "sum |w| * max|x| + bias");
    EXPECT_EQ(std::min(w["acc"].lo, w["acc_odd"].lo), 10 - 255 * 5);
    EXPECT_EQ(std::max(w["acc"].hi, w["acc_odd"].hi), 10 + 255 * 10);
    // Packing twice changes nothing more.
    std::vector<PackedLoop> again;
    pack_dsp_pairs(p, &again);
    EXPECT_TRUE(again.empty());
}

TEST(DspPacking, RefusedForOddTripCountsAndWideOperands) {
    FilterGraph g = mac_graph({1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2});
    // Three outputs: no pair for the last one.
    Filter &f = g.filters[0];
    const For *outer = f.body.as<For>();
    f.body = For::make("v", 0, 3, ForType::Serial, Halide::DeviceAPI::None, outer->body);
    std::vector<PackedLoop> packed;
    pack_dsp_pairs(g, &packed);
    EXPECT_TRUE(packed.empty());
}

// The same MACs with the reduction outside the outputs (DSE's "reduction outside" order and
// jams): acc[v] an array, the update's loop v unrolled `unroll` times inside the loop r.
FilterGraph unrolled_mac_graph(const std::vector<int8_t> &weights, int64_t unroll) {
    FilterGraph g = mac_graph(weights);
    Filter &f = g.filters[0];
    f.locals[0].scalar = false;
    f.locals[0].size = 4;
    Expr v = test::var("v"), r = test::var("r");
    Expr term = Cast::make(Halide::Int(32), load_of(Halide::Int(8), "w", v * 4 + r)) *
                Cast::make(Halide::Int(32), load_of(Halide::UInt(8), "x", r));
    Stmt update = test::store("acc", load_of(Halide::Int(32), "acc", v) + term, v);
    Stmt init = test::loop("v", 4, test::store("acc", Expr(10), v));
    Stmt body = Block::make({init, test::loop("r", 4, test::loop("v", 4, update))});
    Stmt consume = ProducerConsumer::make(
        "acc", false, test::loop("v", 4, test::store("out", load_of(Halide::Int(32), "acc", v), v)));
    f.body = Block::make(ProducerConsumer::make("acc", true, body), consume);
    f.directives["v"].unroll = unroll;
    return g;
}

TEST(DspPacking, PairsUnrolledOutputsOfAnArrayAccumulator) {
    const std::vector<int8_t> weights = {1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2};
    for (int64_t unroll : {kUnrollComplete, int64_t(4)}) {
        FilterGraph g = unrolled_mac_graph(weights, unroll);
        std::vector<PackedLoop> packed;
        FilterGraph p = pack_dsp_pairs(g, &packed);
        ASSERT_EQ(packed.size(), 1u);
        EXPECT_EQ(packed[0].loop, "v");
        EXPECT_TRUE(uses_dsp_packing(p));
        const Filter &f = p.filters[0];
        EXPECT_EQ(f.locals.size(), 1u);  // the array holds both elements of a pair
        ASSERT_TRUE(f.directives.count("v_pair"));
        EXPECT_EQ(f.directives.at("v_pair").unroll, unroll == kUnrollComplete ? kUnrollComplete : 2);
        EXPECT_FALSE(f.directives.count("v"));
        // One multiply per pair: 2 packed products in the unrolled loop of 2 pairs.
        std::ostringstream text;
        text << f.body;
        EXPECT_NE(text.str().find("flowhls_pack_mul"), std::string::npos) << text.str();
        EXPECT_NE(text.str().find("for (v_pair, 0, 2)"), std::string::npos) << text.str();
        std::vector<PackedLoop> again;
        pack_dsp_pairs(p, &again);
        EXPECT_TRUE(again.empty());
    }
}

TEST(DspPacking, OnePairOfAnArrayAccumulatorIsNoLoop) {
    // Two outputs (a jam of 2): no loop of one iteration is left in the pipelined body (the
    // estimate's unroll keeps such a loop, which broke the flattening of the nest around it),
    // and the odd element's index is simplified to a constant offset.
    FilterGraph g = unrolled_mac_graph({1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2}, kUnrollComplete);
    Filter &f = g.filters[0];
    Expr v = test::var("v"), r = test::var("r");
    Expr term = Cast::make(Halide::Int(32), load_of(Halide::Int(8), "w", v * 4 + r)) *
                Cast::make(Halide::Int(32), load_of(Halide::UInt(8), "x", r));
    Stmt update = test::store("acc", load_of(Halide::Int(32), "acc", v * 2) + term, v * 2);
    Stmt init = test::loop("v", 2, test::store("acc", Expr(10), v * 2));
    f.body = Block::make(init, test::loop("r", 4, test::loop("v", 2, update)));
    std::vector<PackedLoop> packed;
    FilterGraph p = pack_dsp_pairs(g, &packed);
    ASSERT_EQ(packed.size(), 1u);
    std::ostringstream text;
    text << p.filters[0].body;
    EXPECT_EQ(text.str().find("v_pair"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("acc[2]"), std::string::npos) << text.str();
    EXPECT_FALSE(p.filters[0].directives.count("v_pair"));
}

TEST(DspPacking, ArrayAccumulatorsNeedAnUnrolledLoopOfEvenFactor) {
    const std::vector<int8_t> weights = {1, 0, 0, 0, 3, -5, 7, 0, -1, -1, 1, 1, 0, 0, 0, 2};
    // Not unrolled: a pipelined loop would read both weights of a pair in one iteration.
    for (int64_t unroll : {int64_t(0), int64_t(3)}) {
        std::vector<PackedLoop> packed;
        pack_dsp_pairs(unrolled_mac_graph(weights, unroll), &packed);
        EXPECT_TRUE(packed.empty()) << unroll;
    }
}

TEST(OperatorCosts, MultipliersAreCostedByOperandWidth) {
    std::map<std::string, Expr> lets;
    Expr x8 = Cast::make(Halide::Int(32), load_of(Halide::UInt(8), "x", 0));
    Expr w8 = Cast::make(Halide::Int(32), load_of(Halide::Int(8), "w", 0));
    EXPECT_EQ(operator_of(x8 * w8, lets), "imul8");
    EXPECT_EQ(operator_of(test::var("a") * test::var("b"), lets), "imul32");  // unknown widths: as before
    lets["a"] = x8 - 173;  // a zero point: 9 bits
    EXPECT_EQ(operator_of(test::var("a") * w8, lets), "imul16");
    std::map<std::string, int> bits = {{"a", 4}, {"b", 3}};
    EXPECT_EQ(operator_of(test::var("a") * test::var("b"), lets, &bits), "imul4");
    Expr packed = Call::make(Halide::Int(64), "flowhls_pack_mul", {w8, w8, x8}, Call::PureExtern);
    EXPECT_EQ(operator_of(packed, lets), "imul8x2");
}

TEST(OperatorCosts, ProductsTakeTheDspsOfTheir27x18Tiling) {
    std::map<std::string, Expr> lets;
    std::map<std::string, int> bits = {{"acc", 20}, {"x24", 24}, {"s27", 27}};
    Expr acc = Cast::make(Halide::Int(64), test::var("acc"));
    Expr w8 = Cast::make(Halide::Int(32), load_of(Halide::Int(8), "w", 0));
    Expr m32 = Cast::make(Halide::Int(64), load_of(Halide::Int(32), "m", 0));
    // 24 x 8 bits fits one 27 x 18 multiplier (was costed as a 32-bit product, 3 DSPs).
    EXPECT_EQ(operator_of(test::var("x24") * w8, lets, &bits), "imul16");
    // 27 x 9 (uint8 with its sign bit) still fits; 27 x 27 does not.
    Expr x8 = Cast::make(Halide::Int(32), load_of(Halide::UInt(8), "x", 0));
    EXPECT_EQ(operator_of(test::var("s27") * x8, lets, &bits), "imul16");
    // A requantization product: 20-bit accumulator x 32-bit multiplier ROM into int64 is two
    // DSPs (the multiplier cut in 17 + 15 bits, the accumulator in one 27-bit piece).
    EXPECT_EQ(operator_of(acc * m32, lets, &bits), "imul24");
    // 32 x 32 keeping 32 bits: the top partial product falls above the result, 3 DSPs.
    Halide::Type i32 = Halide::Int(32);
    EXPECT_EQ(operator_of(Variable::make(i32, "a") * Variable::make(i32, "b"), lets, &bits), "imul32");
    // Adders by the width of the sum: an accumulator of 20 bits plus an 8 x 9-bit product.
    Expr acc_load = load_of(Halide::Int(32), "acc", 0);
    EXPECT_EQ(operator_of(acc_load + w8 * x8, lets, &bits), "iadd24");
    EXPECT_EQ(operator_of(acc_load + w8 * x8, lets), "iadd32");  // width unknown: its type's
    EXPECT_EQ(operator_of(Variable::make(i32, "i") + 1, lets, &bits), "iadd32");  // index arithmetic
    Expr wide = Cast::make(Halide::Int(64), test::var("x24")) + Cast::make(Halide::Int(64), test::var("acc"));
    EXPECT_EQ(operator_of(wide, lets, &bits), "iadd32");  // 25 bits
    // The requantization by a literal multiplier: 20 x 32 bits, two DSPs; by a constant of two
    // set bits shifts and adds; index arithmetic by a constant as before.
    Halide::Type i64 = Halide::Int(64);
    Expr product = acc * Halide::Internal::make_const(i64, 1559548008);
    EXPECT_EQ(operator_of(product, lets, &bits), "imul24");
    EXPECT_EQ(operator_of(acc * Halide::Internal::make_const(i64, 65 << 20), lets, &bits), "iadd64");
    EXPECT_EQ(operator_of(Variable::make(i32, "i") * 37, lets, &bits), "iadd32");
    // Its rounding shift (a Euclidean division by 2^41) and parity (mod 2) are wires; the same
    // on index arithmetic keeps its divider.
    EXPECT_EQ(operator_of(Div::make(product, Halide::Internal::make_const(i64, int64_t(1) << 41)), lets, &bits), "");
    EXPECT_EQ(operator_of(Mod::make(product, Halide::Internal::make_const(i64, 2)), lets, &bits), "");
    EXPECT_EQ(operator_of(Div::make(product, Halide::Internal::make_const(i64, 3)), lets, &bits), "idiv64");
    EXPECT_EQ(operator_of(Div::make(Variable::make(i32, "i"), 2), lets, &bits), "idiv32");
}

// The QDQ models with a Conv or Gemm (qdq_models.py), generated once.
const std::string &model_dir() {
    static test::TempDir dir;
    static bool made = [] {
        std::string cmd = "/usr/bin/python3 " + std::string(FLOWHLS_SOURCE_DIR) +
                          "/tests/frontend/onnx/qdq_models.py " + dir.path() + " > " + dir.path() + "/log.txt 2>&1";
        return std::system(cmd.c_str()) == 0;
    }();
    static const std::string empty;
    return made ? dir.path() : empty;
}

class PackedQdqModels : public ::testing::TestWithParam<const char *> {};

// ap_int types and packed MACs (xczu9eg) or not (--no-dsp-packing), bit-exact against the
// float64 reference under the sanitizers, and with AMD's ap_int/hls_stream (C++14).
TEST_P(PackedQdqModels, NarrowTypesAndPackedMacsAreBitExact) {
    if (model_dir().empty()) GTEST_SKIP() << "/usr/bin/python3 with numpy and onnx is needed";
    HalideProgram program = import_onnx(model_dir() + "/" + GetParam() + "/model.onnx", OnnxImportOptions());
    for (bool packing : {true, false}) {
        test::TempDir out;
        CompileOptions o;
        o.verify_each = true;
        o.device = "xczu9eg";
        o.dsp_packing = packing;
        o.output_dir = out / "p";
        CompileResult r = compile(program, o);
        std::string kernel = test::read_file(r.output_dir + "/kernel.cpp");
        EXPECT_NE(kernel.find("ap_int<"), std::string::npos) << GetParam();
        EXPECT_NE(kernel.find("// Accumulator "), std::string::npos) << GetParam();
        // qdq_conv and qdq_conv_depthwise have 9x9 outputs: odd trip counts, nothing to pair.
        bool packable = std::string(GetParam()) != "qdq_conv" && std::string(GetParam()) != "qdq_conv_depthwise";
        EXPECT_EQ(kernel.find("flowhls_pack_mul(") != std::string::npos, packing && packable) << GetParam();
        CsimOptions co;
        co.sanitize = true;
        CsimResult c = run_csim(r.output_dir, co);
        EXPECT_TRUE(c.passed) << GetParam() << (packing ? " packed: " : ": ") << c.verdict << "\n" << c.log;
        if (!fs::exists(std::string(FLOWHLS_TEST_XILINX_HLS) + "/ap_int.h")) {
            if (std::getenv("FLOWHLS_CI")) ADD_FAILURE() << "AMD's HLS headers not found (CI runs these tests)";
            continue;
        }
        ProcessResult amd = run_process({std::string(FLOWHLS_SOURCE_DIR) + "/tests/emit/vendor-csim.sh", r.output_dir,
                                         "c++14", FLOWHLS_TEST_XILINX_HLS},
                                        r.output_dir, nullptr);
        EXPECT_EQ(amd.status, 0) << GetParam() << " with AMD's headers:\n" << amd.output;
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, PackedQdqModels,
                         ::testing::Values("qdq_conv", "qdq_conv_relu_per_channel", "qdq_conv_depthwise", "qdq_gemm",
                                           "qdq_gemm_not_transposed", "qdq_pipeline"),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

}  // namespace
}  // namespace flowhls
