// integer_requantization: the integer multiply and shift against the exact real result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "frontend/onnx/Requantize.h"

namespace flowhls::onnx_import {
namespace {

int64_t clamp_out(int64_t v, const QuantRange &r) {
    return std::min(std::max(v + r.zero_point, r.qmin), r.qmax);
}

// Every accumulator of [lo, hi]: the proven integer requantization equals the exact one.
void expect_exhaustively_equal(float sa, float sb, float sc, int64_t lo, int64_t hi, const QuantRange &out) {
    IntegerRequant r;
    std::string why;
    ASSERT_TRUE(integer_requantization(sa, sb, sc, lo, hi, out, &r, &why)) << why;
    EXPECT_GE(r.multiplier, int64_t(1) << 30);
    EXPECT_LT(r.multiplier, int64_t(1) << 31);
    for (int64_t acc = lo; acc <= hi; acc++) {
        bool ok = false;
        int64_t exact = exact_requant(acc, sa, sb, sc, &ok);
        ASSERT_TRUE(ok);
        ASSERT_EQ(clamp_out(apply_requant(acc, r), out), clamp_out(exact, out))
            << "acc " << acc << " scales " << sa << " " << sb << " " << sc;
    }
}

TEST(Requantize, ExactValuesAgreeWithDoubleAwayFromTies) {
    bool ok = false;
    EXPECT_EQ(exact_requant(1000, 0.5f, 0.25f, 1.0f, &ok), 125);
    EXPECT_TRUE(ok);
    EXPECT_EQ(exact_requant(4, 0.5f, 0.25f, 1.0f, &ok), 0);     // 0.5 -> 0 (even)
    EXPECT_EQ(exact_requant(12, 0.5f, 0.25f, 1.0f, &ok), 2);    // 1.5 -> 2
    EXPECT_EQ(exact_requant(-12, 0.5f, 0.25f, 1.0f, &ok), -2);  // -1.5 -> -2
    EXPECT_EQ(exact_requant(-20, 0.5f, 0.25f, 1.0f, &ok), -2);  // -2.5 -> -2
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> scale(1e-3f, 1e-1f);
    std::uniform_int_distribution<int64_t> acc(-1000000, 1000000);
    for (int i = 0; i < 2000; i++) {
        float a = scale(rng), b = scale(rng), c = scale(rng);
        int64_t x = acc(rng);
        double t = static_cast<double>(x) * a * b / c;
        if (std::abs(t - std::floor(t) - 0.5) < 1e-6) continue;
        EXPECT_EQ(exact_requant(x, a, b, c, &ok), static_cast<int64_t>(std::nearbyint(t)));
    }
}

TEST(Requantize, RandomScalesAreProvenAndExhaustivelyEqual) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> scale(1e-3f, 5e-2f);
    for (int i = 0; i < 20; i++) {
        QuantRange out = i % 2 ? QuantRange{3, 0, 255} : QuantRange{-5, -128, 127};
        expect_exhaustively_equal(scale(rng), scale(rng), scale(rng), -70000, 70000, out);
    }
}

TEST(Requantize, DyadicFactorRoundsTiesToEven) {
    // m = 1/8: accumulators 4, 12, -20 fall on ties; the multiplier is exact.
    expect_exhaustively_equal(0.5f, 0.25f, 1.0f, -3000, 3000, {0, -128, 127});
    expect_exhaustively_equal(0.5f, 0.25f, 1.0f, -3000, 3000, {128, 0, 255});
}

TEST(Requantize, ReachableTiesOfAnInexactFactorAreRefused) {
    // m = 1/6: acc = 3 gives exactly 0.5, acc = 9 gives 1.5; 1/6 has no exact multiplier.
    IntegerRequant r;
    std::string why;
    EXPECT_FALSE(integer_requantization(1.0f, 1.0f, 6.0f, -100, 100, {0, -128, 127}, &r, &why));
    EXPECT_NE(why.find("tie"), std::string::npos) << why;
    // m = 1/3 never lands on a half-integer: proven.
    EXPECT_TRUE(integer_requantization(1.0f, 1.0f, 3.0f, -100, 100, {0, -128, 127}, &r, &why)) << why;
}

TEST(Requantize, BadScalesAndRangesAreRefused) {
    IntegerRequant r;
    std::string why;
    EXPECT_FALSE(integer_requantization(0.0f, 1.0f, 1.0f, -10, 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(NAN, 1.0f, 1.0f, -10, 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(1.0f, 1.0f, 1.0f, -(int64_t(1) << 32), 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(1e30f, 1e30f, 1e-30f, -10, 10, {}, &r, &why));
}

}  // namespace
}  // namespace flowhls::onnx_import
