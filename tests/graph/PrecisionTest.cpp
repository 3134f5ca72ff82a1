// --precision: parsing, the hostile inputs refused, lookup by node and op type, and the
// integers ROMs hold (fixed_raw: round half to even, saturation, as AMD's AP_RND_CONV, AP_SAT).
#include "flowhls/Error.h"
#include "graph/Precision.h"

#include <gtest/gtest.h>

#include <cmath>

namespace flowhls {
namespace {

TEST(Precision, ParsesFormats) {
    EXPECT_EQ(parse_fixed_format("fixed<16,6>", "x"), (FixedFormat{16, 6}));
    EXPECT_EQ(parse_fixed_format("fixed<1,0>", "x"), (FixedFormat{1, 0}));
    EXPECT_EQ(parse_fixed_format("fixed<32,32>", "x"), (FixedFormat{32, 32}));
    EXPECT_FALSE(parse_fixed_format("float", "x").enabled());
    EXPECT_EQ((FixedFormat{16, 6}).accumulator(), (FixedFormat{36, 16}));
}

TEST(Precision, RefusesHostileText) {
    for (const char *bad : {"fixed<0,0>", "fixed<33,1>", "fixed<16,17>", "fixed<16,-1>", "fixed<16>", "fixed<16,6",
                            "fixed<a,b>", "fixed< 16,6>", "fixed<1000,1>", "ap_fixed<16,6>", "", "double"}) {
        EXPECT_THROW(parse_fixed_format(bad, "--precision"), Error) << bad;
    }
    PrecisionOptions p;
    EXPECT_THROW(add_precision_argument("=fixed<8,4>", p), Error);
    EXPECT_THROW(add_precision_argument("Conv=fixed<8,9>", p), Error);
}

TEST(Precision, NodeNameBeforeOpType) {
    PrecisionOptions p;
    add_precision_argument("fixed<16,6>", p);
    add_precision_argument("Conv=fixed<18,8>", p);
    add_precision_argument("/conv2/Conv=fixed<12,4>", p);
    add_precision_argument("Softmax=float", p);
    EXPECT_TRUE(p.any());
    EXPECT_EQ(precision_of(p, "/conv1/Conv", "Conv"), (FixedFormat{18, 8}));
    EXPECT_EQ(precision_of(p, "/conv2/Conv", "Conv"), (FixedFormat{12, 4}));
    EXPECT_EQ(precision_of(p, "/fc1/Gemm", "Gemm"), (FixedFormat{16, 6}));
    EXPECT_FALSE(precision_of(p, "/Softmax", "Softmax").enabled());
    EXPECT_EQ(precision_of(p, "", ""), (FixedFormat{16, 6}));
}

TEST(Precision, ParsesAuto) {
    EXPECT_EQ(parse_fixed_format("auto", "x"), (FixedFormat{kAutoFixedWidth, 0, true}));
    EXPECT_EQ(parse_fixed_format("auto<12>", "x"), (FixedFormat{12, 0, true}));
    EXPECT_EQ(parse_fixed_format("auto<12>", "x").text(), "auto<12>");
    for (const char *bad : {"auto<0>", "auto<33>", "auto<>", "auto<12", "auto<-3>", "auto<1,2>", "auto12", "AUTO"}) {
        EXPECT_THROW(parse_fixed_format(bad, "--precision"), Error) << bad;
    }
    PrecisionOptions p;
    add_precision_argument("fixed<16,6>", p);
    EXPECT_FALSE(p.automatic());
    add_precision_argument("Conv=auto<10>", p);
    EXPECT_TRUE(p.automatic());
    EXPECT_EQ(precision_of(p, "/conv1/Conv", "Conv"), (FixedFormat{10, 0, true}));
}

// The integer bits auto<W> chooses: the smallest I with 2^(I-1) > max |value|, plus one bit of
// headroom, clamped to 1..W.
TEST(Precision, AutoFormatFromRange) {
    struct Case {
        double max_abs;
        int width, integer;
    } cases[] = {
        {0.0, 16, 2},       // nothing measured: 1 bit (the sign) + headroom
        {0.25, 16, 2},      // 0.25 < 2^0
        {0.999, 16, 2},     //
        {1.0, 16, 3},       // 1.0 needs I = 2 (fixed<W,1> stops below 1)
        {1.0338, 16, 3},    // LeNet-5's conv1 output
        {1.9999, 16, 3},    //
        {2.0, 16, 4},       //
        {100.0, 16, 9},     // 2^7 > 100: I = 8, + 1
        {1e30, 16, 16},     // clamped to W
        {1e-30, 16, 2},     // clamped to 1 bit before the headroom
        {3.0, 3, 3},        // I = 3 + 1 clamped to W = 3
        {0.5, 1, 1},        // W = 1
    };
    for (const Case &c : cases) {
        FixedFormat f = auto_fixed_format(c.width, c.max_abs);
        EXPECT_EQ(f, (FixedFormat{c.width, c.integer})) << c.max_abs << " W " << c.width << ": " << f.text();
        EXPECT_EQ(f.measured, c.max_abs);
        EXPECT_FALSE(f.automatic);
        // Without the headroom the value fits: 2^(I-1-headroom) > max_abs unless clamped.
        if (c.integer < c.width && c.max_abs > 0 && c.max_abs < 1e20) {
            EXPECT_GT(std::ldexp(1.0, c.integer - 1 - kAutoHeadroomBits), c.max_abs);
        }
    }
    EXPECT_NE(auto_choice_text(auto_fixed_format(16, 1.0338)).find("max |value| 1.0338"), std::string::npos);
    EXPECT_EQ(auto_choice_text(FixedFormat{16, 6}), "");
}

TEST(Precision, RawIntegersRoundHalfToEvenAndSaturate) {
    FixedFormat f{16, 6};  // steps of 2^-10, range [-32, 32 - 2^-10]
    EXPECT_EQ(fixed_raw(f, 0.0), 0);
    EXPECT_EQ(fixed_raw(f, 1.0), 1024);
    EXPECT_EQ(fixed_raw(f, -0.1875), -192);
    EXPECT_EQ(fixed_raw(f, 0.5 / 1024), 0);       // tie: to even
    EXPECT_EQ(fixed_raw(f, 1.5 / 1024), 2);       // tie: to even
    EXPECT_EQ(fixed_raw(f, -1.5 / 1024), -2);
    EXPECT_EQ(fixed_raw(f, -2.5 / 1024), -2);
    EXPECT_EQ(fixed_raw(f, 0.6 / 1024), 1);
    EXPECT_EQ(fixed_raw(f, 40.0), 32767);         // saturates
    EXPECT_EQ(fixed_raw(f, -40.0), -32768);
    EXPECT_EQ(fixed_raw(f, INFINITY), 32767);
    EXPECT_EQ(fixed_raw(f, -INFINITY), -32768);
    EXPECT_EQ(fixed_raw(f, NAN), 32767);          // as AMD's header
    EXPECT_EQ(fixed_raw(f, 32 - 0.4 / 1024), 32767);
}

// A filter of graph `g` computing ONNX value `value` of node `node` from `reads` into `writes`.
Filter onnx_filter(const std::string &name, const std::string &node, const std::string &value,
                   std::vector<std::string> reads, std::vector<std::string> writes) {
    Filter f;
    f.name = name;
    f.reads = std::move(reads);
    f.writes = std::move(writes);
    f.onnx.node = node;
    f.onnx.op = "Conv";
    f.onnx.outputs = {value};
    f.onnx.values = {value};
    return f;
}

// auto: a node reading the graph input directly (PandA-Bambu: no input load filter) converts
// the input to its own format, so its format covers the input's measured range too; a node
// reading another filter's buffer covers only its own values. Measured: inputs 5.0 (I = 4 + 1),
// the values 0.5 (I = 1 + 1).
TEST(Precision, AutoNodeReadingTheInputCoversItsRange) {
    FilterGraph g;
    g.buffers.emplace_back("x", Halide::Float(32), std::vector<int64_t>{4}, BufferKind::Input);
    g.buffers.emplace_back("y", Halide::Float(32), std::vector<int64_t>{4}, BufferKind::Intermediate);
    g.buffers.emplace_back("z", Halide::Float(32), std::vector<int64_t>{4}, BufferKind::Output);
    g.filters.push_back(onnx_filter("first", "/a", "a_out", {"x"}, {"y"}));
    g.filters.push_back(onnx_filter("second", "/b", "b_out", {"y"}, {"z"}));
    PrecisionOptions p;
    add_precision_argument("auto", p);
    p.calibration.samples = 1;
    p.calibration.inputs = 5.0;
    p.calibration.values = {{"a_out", 0.5}, {"b_out", 0.5}};
    assign_precision(g, p);
    EXPECT_EQ(g.filters[0].fixed.text(), "fixed<16,5>");
    EXPECT_DOUBLE_EQ(g.filters[0].fixed.measured, 5.0);
    EXPECT_EQ(g.filters[1].fixed.text(), "fixed<16,2>");
    EXPECT_DOUBLE_EQ(g.filters[1].fixed.measured, 0.5);
}

}  // namespace
}  // namespace flowhls
