// integer_requantization: an int32 accumulator scaled by sa*sb/sc as an integer multiply and
// one round-half-to-even shift, proven equal to the exact real-number result.
#pragma once

#include <cstdint>
#include <string>

namespace flowhls::onnx_import {

/// y = clamp(rhe((acc * multiplier + offset) / 2^shift) + zero_point, qmin, qmax), rhe rounding
/// half to even.
struct IntegerRequant {
    int64_t multiplier = 0;  // in [2^30, 2^31), or below with a shift imposed
    int shift = 0;           // in [1, 62]
    int64_t offset = 0;      // the bias's correction (BiasScale), 0 without one
};

/// The accumulator includes an int32 `bias` whose own scale `scale` (the graph's bias
/// DequantizeLinear scale, e.g. float32(sa * sb)) need not equal sa * sb: the real value is then
/// (acc - bias) * sa * sb / sc + bias * scale / sc = acc * m + bias * (scale - sa * sb) / sc.
struct BiasScale {
    int64_t bias = 0;
    float scale = 0.0f;
};

/// The output range and zero point a requantization saturates to.
struct QuantRange {
    int64_t zero_point = 0;
    int64_t qmin = 0, qmax = 255;
};

/// Contract: for the real factor m = sa * sb / (sc * divisor) of three positive finite floats
/// and an integer divisor in [1, 2^20] (an average's count; exactly,
/// as a rational number, not rounded), the constant c = bias * (scale - sa * sb) / sc of a
/// `bias` with its own scale (0 without one; divisor 1 then), every integer accumulator in
/// [lo, hi] (|lo|, |hi| < 2^31) and the output range `out`, finds M in [2^30, 2^31), n and
/// the offset D = rhe(c * 2^n) such that
///     clamp(rhe((acc * M + D) / 2^n) + zp, qmin, qmax) == clamp(rhe(acc * m + c) + zp, qmin, qmax)
/// for every acc in [lo, hi], with |acc * M + D| + 2^n < 2^63 (the generated int64 product),
/// and proves it: with |acc * (M - m 2^n) + (D - c 2^n)| <= delta 2^n, a result can only
/// differ where acc * m + c lies within delta of a half-integer at which the clamped result
/// changes (k + 1/2 for k + zp in [qmin, qmax - 1]); every acc of the range near one of those
/// is checked with exact 128-bit rational arithmetic. A `fixed_shift` in [1, 62] imposes n
/// (one shift shared by several channels; M may then be below 2^30, or from 2^31 up when n is
/// larger than the factor's own, as long as the int64 bound holds). Returns false with the reason (an
/// accumulator on a tie the shift rounds the other way, scales out of range) when no such M,
/// n is proven; the caller then keeps the floating-point requantization.
bool integer_requantization(float sa, float sb, float sc, int64_t lo, int64_t hi, const QuantRange &out,
                            IntegerRequant *result, std::string *why_not, int fixed_shift = 0,
                            int64_t divisor = 1, const BiasScale *bias = nullptr);

/// The sum of two requantized 8-bit tensors: y = clamp(rhe(((a - za) * Ma + (b - zb) * Mb) / 2^n) + zy).
struct IntegerAdd {
    int64_t multiplier_a = 0, multiplier_b = 0;  // the larger in [2^30, 2^31)
    int shift = 0;                               // in [1, 62]
};

/// Contract: for QuantizeLinear(DequantizeLinear(a) + DequantizeLinear(b)) with per-tensor
/// positive finite float32 scales sa, sb, sy, the zero points za, zb and the 8-bit ranges `ra`,
/// `rb` of the operands (their qmin, qmax; zero_point ignored) and the output range `out`,
/// finds Ma = rhe(sa / sy * 2^n), Mb = rhe(sb / sy * 2^n) such that the integer result equals
/// clamp(rhe((a - za) * sa / sy + (b - zb) * sb / sy) + zy) computed exactly as rational
/// numbers, and proves it by evaluating both for every pair (a, b) of the two ranges (at most
/// 65,536). Tries n from the one that puts the larger multiplier in [2^30, 2^31) up to 62
/// while |acc| stays below 2^62. Returns false with the reason when no n is proven (or the
/// scales' exponents lie too far apart to evaluate exactly); the caller keeps the float path.
bool integer_add_requantization(float sa, int64_t za, const QuantRange &ra, float sb, int64_t zb, const QuantRange &rb,
                                float sy, const QuantRange &out, IntegerAdd *result, std::string *why_not);

/// rhe((acc * M + D) / 2^n), the integer the generated code computes (exact, for tests).
int64_t apply_requant(int64_t acc, const IntegerRequant &r);

/// rhe(acc * sa * sb / (sc * divisor) + c) computed exactly, c the constant of `bias` as in
/// integer_requantization (for tests); `ok` false when it does not fit.
int64_t exact_requant(int64_t acc, float sa, float sb, float sc, bool *ok, int64_t divisor = 1,
                      const BiasScale *bias = nullptr);

}  // namespace flowhls::onnx_import
