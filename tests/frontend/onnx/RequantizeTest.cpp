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

// An average's count as an integer divisor: m = sa * sb / (sc * count), every sum of `count`
// zero-point-relative uint8 values checked against the exact value.
TEST(Requantize, DivisorOfAnAverageIsExact) {
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> scale(1e-3f, 5e-2f);
    for (int64_t count : {1, 4, 6, 9, 49, 3136}) {
        float sa = scale(rng), sc = scale(rng);
        QuantRange out{7, 0, 255};
        int64_t lo = count * -128, hi = count * 127;
        IntegerRequant r;
        std::string why;
        ASSERT_TRUE(integer_requantization(sa, 1.0f, sc, lo, hi, out, &r, &why, 0, count)) << why;
        for (int64_t acc = lo; acc <= hi; acc++) {
            bool ok = false;
            int64_t exact = exact_requant(acc, sa, 1.0f, sc, &ok, count);
            ASSERT_TRUE(ok);
            ASSERT_EQ(clamp_out(apply_requant(acc, r), out), clamp_out(exact, out)) << "count " << count << " acc " << acc;
        }
    }
    bool ok = false;
    EXPECT_EQ(exact_requant(18, 1.0f, 1.0f, 1.0f, &ok, 12), 2);  // 1.5 -> 2
    EXPECT_EQ(exact_requant(30, 1.0f, 1.0f, 1.0f, &ok, 12), 2);  // 2.5 -> 2
    // sa / sc = 1.5 over 9 positions is 1/6: a sum of 3 lies on a tie no multiplier rounds to even.
    IntegerRequant r;
    std::string why;
    EXPECT_FALSE(integer_requantization(3.0f / 128, 1.0f, 1.0f / 64, -9 * 128, 9 * 127, {0, -128, 127}, &r, &why, 0, 9));
    EXPECT_NE(why.find("tie"), std::string::npos) << why;
    EXPECT_FALSE(integer_requantization(1.0f, 1.0f, 1.0f, -10, 10, {}, &r, &why, 0, 0));
    EXPECT_FALSE(integer_requantization(1.0f, 1.0f, 1.0f, -10, 10, {}, &r, &why, 0, (int64_t(1) << 20) + 1));
}

// The graph's bias scale sb = float32(sx * sw) is not the product: an accumulator acc that
// includes an int32 bias B is worth (acc - B) * sx * sw / sy + B * sb / sy, and here that rounds
// differently from acc * sx * sw / sy (QLinearConv's bias scale): -773.49999629 against
// -773.50000167 output steps. The integer requantization with the bias's own offset equals the
// graph's value for every accumulator of the range.
TEST(Requantize, BiasAtTheGraphsOwnScaleChangesAResult) {
    const float sx = 0.0123f, sw = 0.00456f, sy = 0.1f, sb = sx * sw;
    ASSERT_NE(static_cast<double>(sb), static_cast<double>(sx) * sw);
    const BiasScale bias{1000000, sb};
    bool ok = false;
    EXPECT_EQ(exact_requant(-1379083, sx, sw, sy, &ok, 1, &bias), -773);
    EXPECT_TRUE(ok);
    EXPECT_EQ(exact_requant(-1379083, sx, sw, sy, &ok), -774);
    const QuantRange out{800, 0, 1023};
    const int64_t lo = -1500000, hi = 1500000;
    IntegerRequant with_bias, product;
    std::string why;
    // At its own shift (41) accumulator 316,467, 3.1e-8 steps from a tie, is off by more than
    // that (refused); one more bit of shift proves every accumulator (M then passes 2^31).
    EXPECT_FALSE(integer_requantization(sx, sw, sy, lo, hi, out, &with_bias, &why, 0, 1, &bias));
    EXPECT_NE(why.find("316467"), std::string::npos) << why;
    // The smallest shift from 41 on that proves the range (QLinearConv's converter searches so).
    auto prove = [&](const BiasScale *b, IntegerRequant *r) {
        for (int n = 41; n <= 62; n++) {
            if (integer_requantization(sx, sw, sy, lo, hi, out, r, &why, n, 1, b)) return true;
        }
        return false;
    };
    ASSERT_TRUE(prove(&bias, &with_bias)) << why;
    ASSERT_TRUE(prove(nullptr, &product)) << why;
    EXPECT_GT(with_bias.shift, 41);
    EXPECT_GE(with_bias.multiplier, int64_t(1) << 31);
    EXPECT_NE(with_bias.offset, 0);
    EXPECT_EQ(product.offset, 0);
    EXPECT_EQ(clamp_out(apply_requant(-1379083, with_bias), out), 27);
    EXPECT_EQ(clamp_out(apply_requant(-1379083, product), out), 26);
    int differ = 0;
    for (int64_t acc = lo; acc <= hi; acc++) {
        int64_t exact = exact_requant(acc, sx, sw, sy, &ok, 1, &bias);
        ASSERT_TRUE(ok);
        ASSERT_EQ(clamp_out(apply_requant(acc, with_bias), out), clamp_out(exact, out)) << "acc " << acc;
        differ += clamp_out(apply_requant(acc, product), out) != clamp_out(exact, out);
    }
    EXPECT_EQ(differ, 10);  // the unsaturated accumulators within |B| * 2^-24 output steps of a tie
}

// Random scales, biases and bias scales (float32 of the product, and one far from it): proven
// and equal to the exact value for every accumulator of the range, with one shift shared.
TEST(Requantize, BiasScalesAreProvenAndExhaustivelyEqual) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> scale(1e-3f, 5e-2f);
    std::uniform_int_distribution<int64_t> biases(-2000000, 2000000);
    for (int i = 0; i < 20; i++) {
        float sx = scale(rng), sw = scale(rng), sy = scale(rng);
        BiasScale bias{biases(rng), i % 4 == 3 ? sx * sw * 1.37f : sx * sw};
        QuantRange out = i % 2 ? QuantRange{3, 0, 255} : QuantRange{-5, -128, 127};
        int64_t lo = bias.bias - 70000, hi = bias.bias + 70000;
        IntegerRequant r;
        std::string why;
        ASSERT_TRUE(integer_requantization(sx, sw, sy, lo, hi, out, &r, &why, 0, 1, &bias)) << why;
        IntegerRequant shared;
        ASSERT_TRUE(integer_requantization(sx, sw, sy, lo, hi, out, &shared, &why, r.shift - 3, 1, &bias)) << why;
        for (int64_t acc = lo; acc <= hi; acc++) {
            bool ok = false;
            int64_t exact = clamp_out(exact_requant(acc, sx, sw, sy, &ok, 1, &bias), out);
            ASSERT_TRUE(ok);
            ASSERT_EQ(clamp_out(apply_requant(acc, r), out), exact) << "case " << i << " acc " << acc;
            ASSERT_EQ(clamp_out(apply_requant(acc, shared), out), exact) << "case " << i << " acc " << acc;
        }
    }
    // A bias scale 2^70 times the product cannot be evaluated in 128 bits: refused, not wrong.
    IntegerRequant r;
    std::string why;
    BiasScale far{1000, std::ldexp(0.01f * 0.02f, 70)};
    EXPECT_FALSE(integer_requantization(0.01f, 0.02f, 0.1f, -1000, 1000, {}, &r, &why, 0, 1, &far));
    EXPECT_NE(why.find("bias scale"), std::string::npos) << why;
}

TEST(Requantize, BadScalesAndRangesAreRefused) {
    IntegerRequant r;
    std::string why;
    EXPECT_FALSE(integer_requantization(0.0f, 1.0f, 1.0f, -10, 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(NAN, 1.0f, 1.0f, -10, 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(1.0f, 1.0f, 1.0f, -(int64_t(1) << 32), 10, {}, &r, &why));
    EXPECT_FALSE(integer_requantization(1e30f, 1e30f, 1e-30f, -10, 10, {}, &r, &why));
}

// The integer Add against a long double evaluation of (a - za) * sa / sy + (b - zb) * sb / sy
// for every operand pair: exact for power-of-two scales (ties rounded to even), and away from
// ties for random scales.
void expect_add_equal(float sa, int64_t za, float sb, int64_t zb, float sy, const QuantRange &out, bool dyadic) {
    const QuantRange u8{0, 0, 255}, i8{0, -128, 127};
    IntegerAdd r;
    std::string why;
    ASSERT_TRUE(integer_add_requantization(sa, za, u8, sb, zb, i8, sy, out, &r, &why)) << why;
    EXPECT_GE(std::max(r.multiplier_a, r.multiplier_b), int64_t(1) << 30);
    int checked = 0;
    for (int64_t a = 0; a <= 255; a++) {
        for (int64_t b = -128; b <= 127; b++) {
            long double v = (a - za) * static_cast<long double>(sa) / sy + (b - zb) * static_cast<long double>(sb) / sy;
            long double frac = v - std::floor(v);
            if (!dyadic && std::fabs(frac - 0.5L) < 1e-9L) continue;
            int64_t acc = (a - za) * r.multiplier_a + (b - zb) * r.multiplier_b;
            ASSERT_EQ(clamp_out(apply_requant(acc, IntegerRequant{1, r.shift}), out),
                      clamp_out(static_cast<int64_t>(std::nearbyint(v)), out))
                << "a " << a << " b " << b << " scales " << sa << " " << sb << " " << sy;
            checked++;
        }
    }
    EXPECT_GT(checked, 65000);
}

TEST(Requantize, AddOfTwoOperandsEqualsTheRealSum) {
    expect_add_equal(0.03125f, 128, 0.0078125f, 3, 0.0625f, QuantRange{10, 0, 255}, true);
    expect_add_equal(1.0f, 0, 3.0f, 0, 2.0f, QuantRange{0, -128, 127}, true);
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> scale(1e-3f, 5e-2f);
    for (int i = 0; i < 20; i++) {
        expect_add_equal(scale(gen), 100 + i, scale(gen), -i, scale(gen), QuantRange{int64_t(i), 0, 255}, false);
    }
}

}  // namespace
}  // namespace flowhls::onnx_import
