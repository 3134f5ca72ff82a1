// integer_requantization: an int32 accumulator scaled by sa*sb/sc as an integer multiply and
// one round-half-to-even shift, proven equal to the exact real-number result.
#include "frontend/onnx/Requantize.h"

#include <algorithm>
#include <cmath>

namespace flowhls::onnx_import {

namespace {

using i128 = __int128;

// f = mantissa * 2^exponent with an odd mantissa (f > 0, finite).
struct Dyadic {
    int64_t mantissa = 0;
    int exponent = 0;
};

Dyadic dyadic(float f) {
    int e = 0;
    double frac = std::frexp(static_cast<double>(f), &e);
    Dyadic d{static_cast<int64_t>(std::ldexp(frac, 24)), e - 24};
    while (d.mantissa != 0 && (d.mantissa & 1) == 0) {
        d.mantissa >>= 1;
        d.exponent++;
    }
    return d;
}

// num / den rounded to nearest, ties to even (den > 0).
i128 rhe_div(i128 num, i128 den) {
    i128 q = num / den, r = num % den;
    if (r < 0) {
        r += den;
        q -= 1;
    }
    if (2 * r > den || (2 * r == den && (q & 1) != 0)) q += 1;
    return q;
}

// The exact value of an accumulator: (acc * numerator + offset) * 2^exponent / denominator,
// i.e. acc * m + c with m = numerator * 2^exponent / denominator (the scale factor) and c =
// offset * 2^exponent / denominator (a bias's correction for its own scale).
struct Factor {
    i128 numerator = 0, offset = 0, denominator = 1;
    int exponent = 0;
};

int bit_length(i128 v) {
    if (v < 0) v = -v;
    int b = 0;
    while (b < 127 && (v >> b) != 0) b++;
    return b;
}

// The headroom of the 128-bit evaluation: every operand of a shift or division stays below 2^125.
constexpr int kBits = 125;

// rhe(num * 2^shift / den) into *out (den > 0); false when an operand or the result does not fit.
bool scaled_rhe(i128 num, i128 den, int shift, int64_t *out) {
    if (shift >= 0) {
        if (bit_length(num) + shift > kBits) return false;
        num <<= shift;
    } else {
        if (bit_length(den) - shift > kBits) return false;
        den <<= -shift;
    }
    i128 q = rhe_div(num, den);
    if (bit_length(q) > 62) return false;
    *out = static_cast<int64_t>(q);
    return true;
}

// The factor of sa * sb / (sc * divisor), with the constant of `bias` (its own scale), exact for
// every accumulator up to `amax` in magnitude; false (with the reason) when it leaves the range
// that exact_round evaluates in 128 bits.
bool exact_factor(float sa, float sb, float sc, int64_t divisor, const BiasScale *bias, int64_t amax, Factor *f,
                  std::string *why) {
    for (float s : {sa, sb, sc, bias ? bias->scale : 1.0f}) {
        if (!(s > 0.0f) || !std::isfinite(s)) {
            *why = "a scale is not a positive finite number";
            return false;
        }
    }
    if (divisor < 1 || divisor > (int64_t(1) << 20)) {
        *why = "the divisor " + std::to_string(divisor) + " is outside [1, 2^20]";
        return false;
    }
    Dyadic a = dyadic(sa), b = dyadic(sb), c = dyadic(sc);
    i128 product = static_cast<i128>(a.mantissa) * b.mantissa;  // < 2^48
    int ep = a.exponent + b.exponent;
    f->numerator = product;
    f->offset = 0;
    f->denominator = static_cast<i128>(c.mantissa) * divisor;  // < 2^44
    f->exponent = ep - c.exponent;
    if (bias && bias->bias != 0) {
        // bias * (scale - sa * sb) over the common exponent e0 of the two.
        Dyadic s = dyadic(bias->scale);
        int e0 = std::min(ep, s.exponent);
        if (ep - e0 > 60 || s.exponent - e0 > 60) {
            *why = "the bias scale lies too far from the product of the scales to evaluate exactly";
            return false;
        }
        f->numerator = product << (ep - e0);
        i128 diff = (static_cast<i128>(s.mantissa) << (s.exponent - e0)) - f->numerator;
        if (bit_length(diff) + bit_length(bias->bias) > kBits - 2) {
            *why = "the bias scale lies too far from the product of the scales to evaluate exactly";
            return false;
        }
        f->offset = diff * bias->bias;
        f->exponent = e0 - c.exponent;
    }
    int num_bits = std::max(bit_length(static_cast<i128>(amax)) + bit_length(f->numerator), bit_length(f->offset)) + 1;
    if (num_bits + std::max(f->exponent, 0) > kBits || bit_length(f->denominator) + std::max(-f->exponent, 0) > kBits) {
        *why = "the scale ratio is outside the range checked exactly";
        return false;
    }
    return true;
}

// rhe(acc * m + c), exactly (|acc| within the amax exact_factor checked).
int64_t exact_round(int64_t acc, const Factor &f) {
    i128 num = static_cast<i128>(acc) * f.numerator + f.offset, den = f.denominator;
    if (f.exponent >= 0)
        num <<= f.exponent;
    else
        den <<= -f.exponent;
    return static_cast<int64_t>(rhe_div(num, den));
}

// M = rhe(m * 2^n); 0 when it does not fit.
int64_t multiplier_for(const Factor &f, int n) {
    int64_t m = 0;
    return scaled_rhe(f.numerator, f.denominator, f.exponent + n, &m) ? m : 0;
}

int64_t saturate(int64_t v, const QuantRange &out) {
    return std::min(std::max(v + out.zero_point, out.qmin), out.qmax);
}

long double real_value(i128 num, const Factor &f) {
    return std::ldexp(static_cast<long double>(num) / static_cast<long double>(f.denominator), f.exponent);
}

}  // namespace

int64_t apply_requant(int64_t acc, const IntegerRequant &r) {
    i128 p = static_cast<i128>(acc) * r.multiplier + r.offset;
    return static_cast<int64_t>(rhe_div(p, static_cast<i128>(1) << r.shift));
}

int64_t exact_requant(int64_t acc, float sa, float sb, float sc, bool *ok, int64_t divisor, const BiasScale *bias) {
    Factor f;
    std::string why;
    *ok = std::llabs(acc) < (int64_t(1) << 31) && exact_factor(sa, sb, sc, divisor, bias, std::llabs(acc), &f, &why);
    return *ok ? exact_round(acc, f) : 0;
}

bool integer_requantization(float sa, float sb, float sc, int64_t lo, int64_t hi, const QuantRange &out,
                            IntegerRequant *result, std::string *why_not, int fixed_shift, int64_t divisor,
                            const BiasScale *bias) {
    const int64_t limit = int64_t(1) << 31;
    if (lo > hi || lo <= -limit || hi >= limit) {
        *why_not = "the accumulator range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] does not fit int32";
        return false;
    }
    int64_t amax = std::max(std::llabs(lo), std::llabs(hi));
    Factor f;
    if (!exact_factor(sa, sb, sc, divisor, bias, amax, &f, why_not)) return false;
    long double m = real_value(f.numerator, f), c = real_value(f.offset, f);
    // n such that M = rhe(m * 2^n) lies in [2^30, 2^31).
    int n = 30 - static_cast<int>(std::floor(std::log2(m)));
    IntegerRequant r;
    for (int k = n - 2; k <= n + 2; k++) {
        if (k < 1 || k > 62) continue;
        int64_t mult = multiplier_for(f, k);
        if (mult >= (int64_t(1) << 30) && mult < limit) r = {mult, k, 0};
    }
    if (fixed_shift >= 1 && fixed_shift <= 62) {
        int64_t mult = multiplier_for(f, fixed_shift);
        r = mult > 0 && mult < (int64_t(1) << 62) ? IntegerRequant{mult, fixed_shift, 0} : IntegerRequant{};
    }
    if (r.multiplier == 0) {
        *why_not = "the scale ratio needs a shift outside [1, 62]";
        return false;
    }
    if (f.offset != 0 && !scaled_rhe(f.offset, f.denominator, f.exponent + r.shift, &r.offset)) {
        *why_not = "the bias's correction for its own scale does not fit 62 bits";
        return false;
    }
    // The generated code's int64: |acc * M + D| plus the rounding constant.
    if (static_cast<long double>(amax) * r.multiplier + std::fabs(static_cast<long double>(r.offset)) +
            std::ldexp(1.0L, r.shift) >= std::ldexp(1.0L, 63)) {
        *why_not = "the requantization product does not fit int64";
        return false;
    }
    // |acc * (M - m 2^n) + (D - c 2^n)| <= delta * 2^n for every acc of the range.
    long double delta = static_cast<long double>(amax + (f.offset != 0 ? 1 : 0)) * std::ldexp(1.0L, -(r.shift + 1));
    for (int64_t k = out.qmin - out.zero_point; k < out.qmax - out.zero_point; k++) {
        long double h = static_cast<long double>(k) + 0.5L - c;
        long double first = std::floor((h - delta) / m) - 2, last = std::ceil((h + delta) / m) + 2;
        if (last < static_cast<long double>(lo) || first > static_cast<long double>(hi)) continue;
        int64_t a0 = std::max(lo, static_cast<int64_t>(std::max(first, static_cast<long double>(lo))));
        int64_t a1 = std::min(hi, static_cast<int64_t>(std::min(last, static_cast<long double>(hi))));
        if (a1 - a0 > 64) {
            *why_not = "too many accumulator values near a rounding boundary to check";
            return false;
        }
        for (int64_t acc = a0; acc <= a1; acc++) {
            if (saturate(apply_requant(acc, r), out) != saturate(exact_round(acc, f), out)) {
                *why_not = "accumulator " + std::to_string(acc) +
                           " lies on a rounding tie the integer shift cannot round like the real value";
                return false;
            }
        }
    }
    *result = r;
    return true;
}

bool integer_add_requantization(float sa, int64_t za, const QuantRange &ra, float sb, int64_t zb, const QuantRange &rb,
                                float sy, const QuantRange &out, IntegerAdd *result, std::string *why_not) {
    for (float s : {sa, sb, sy}) {
        if (!(s > 0.0f) || !std::isfinite(s)) {
            *why_not = "a scale is not a positive finite number";
            return false;
        }
    }
    // Exactly: v = (da * ma * 2^(ea - e0) + db * mb * 2^(eb - e0)) / (my * 2^(ey - e0)), e0 = min(ea, eb).
    Dyadic a = dyadic(sa), b = dyadic(sb), y = dyadic(sy);
    int e0 = std::min(a.exponent, b.exponent), ey = y.exponent - e0;
    if (a.exponent - e0 > 60 || b.exponent - e0 > 60 || ey < -60 || ey > 60) {
        *why_not = "the scales' exponents lie too far apart to evaluate exactly";
        return false;
    }
    int up = std::max(-ey, 0);  // the numerator's extra factor 2^up when sy's exponent is the smaller
    if (std::max(a.exponent, b.exponent) - e0 + up > 90) {  // |num| < 2^(9 + 24 + 90 + 1)
        *why_not = "the scales' exponents lie too far apart to evaluate exactly";
        return false;
    }
    i128 ka = static_cast<i128>(a.mantissa) << (a.exponent - e0), kb = static_cast<i128>(b.mantissa) << (b.exponent - e0);
    i128 den = static_cast<i128>(y.mantissa) << std::max(ey, 0);
    Factor fa{a.mantissa, 0, y.mantissa, a.exponent - y.exponent}, fb{b.mantissa, 0, y.mantissa, b.exponent - y.exponent};
    long double larger = std::max(std::ldexp(static_cast<long double>(a.mantissa) / y.mantissa, fa.exponent),
                                  std::ldexp(static_cast<long double>(b.mantissa) / y.mantissa, fb.exponent));
    int first = std::max(1, 30 - static_cast<int>(std::floor(std::log2(larger))));
    const int64_t span = 256;
    for (int n = first; n <= 62; n++) {
        IntegerAdd r{multiplier_for(fa, n), multiplier_for(fb, n), n};
        if (std::max(r.multiplier_a, r.multiplier_b) >= (int64_t(1) << 32) ||
            static_cast<long double>(std::max(r.multiplier_a, r.multiplier_b)) * 2 * span >= std::ldexp(1.0L, 62)) {
            break;
        }
        bool exact = true;
        for (int64_t qa = ra.qmin; qa <= ra.qmax && exact; qa++) {
            for (int64_t qb = rb.qmin; qb <= rb.qmax && exact; qb++) {
                int64_t acc = (qa - za) * r.multiplier_a + (qb - zb) * r.multiplier_b;
                i128 num = ((qa - za) * ka + (qb - zb) * kb) << up;
                int64_t want = saturate(static_cast<int64_t>(rhe_div(num, den)), out);
                exact = saturate(apply_requant(acc, IntegerRequant{1, n}), out) == want;
            }
        }
        if (exact) {
            *result = r;
            return true;
        }
    }
    *why_not = "no shift up to 62 rounds every operand pair like the real value";
    return false;
}

}  // namespace flowhls::onnx_import
