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

// The exact factor m = numerator * 2^exponent / denominator.
struct Factor {
    int64_t numerator = 0, denominator = 1;
    int exponent = 0;
};

// m = sa * sb / (sc * divisor) exactly; false (with the reason) when it leaves the range that
// exact_round and multiplier_for evaluate in 128 bits.
bool exact_factor(float sa, float sb, float sc, int64_t divisor, Factor *f, std::string *why) {
    for (float s : {sa, sb, sc}) {
        if (!(s > 0.0f) || !std::isfinite(s)) {
            *why = "a scale is not a positive finite number";
            return false;
        }
    }
    Dyadic a = dyadic(sa), b = dyadic(sb), c = dyadic(sc);
    f->numerator = a.mantissa * b.mantissa;  // < 2^48
    if (divisor < 1 || divisor > (int64_t(1) << 20)) {
        *why = "the divisor " + std::to_string(divisor) + " is outside [1, 2^20]";
        return false;
    }
    f->denominator = c.mantissa * divisor;   // < 2^44
    f->exponent = a.exponent + b.exponent - c.exponent;
    int den_bits = 0;
    while ((f->denominator >> den_bits) != 0) den_bits++;
    if (f->exponent < den_bits - 114 || f->exponent > 40) {  // den << -exponent < 2^114
        *why = "the scale ratio is outside the range checked exactly";
        return false;
    }
    return true;
}

// rhe(acc * m), exactly (|acc| < 2^31 and the exponent range of exact_factor keep it in 128 bits).
int64_t exact_round(int64_t acc, const Factor &f) {
    i128 num = static_cast<i128>(acc) * f.numerator, den = f.denominator;
    if (f.exponent >= 0)
        num <<= f.exponent;
    else
        den <<= -f.exponent;
    return static_cast<int64_t>(rhe_div(num, den));
}

// M = rhe(m * 2^n).
int64_t multiplier_for(const Factor &f, int n) {
    i128 num = f.numerator, den = f.denominator;
    int shift = f.exponent + n;
    if (shift >= 0)
        num <<= shift;
    else
        den <<= -shift;
    return static_cast<int64_t>(rhe_div(num, den));
}

int64_t saturate(int64_t v, const QuantRange &out) {
    return std::min(std::max(v + out.zero_point, out.qmin), out.qmax);
}

}  // namespace

int64_t apply_requant(int64_t acc, const IntegerRequant &r) {
    return static_cast<int64_t>(rhe_div(static_cast<i128>(acc) * r.multiplier, static_cast<i128>(1) << r.shift));
}

int64_t exact_requant(int64_t acc, float sa, float sb, float sc, bool *ok, int64_t divisor) {
    Factor f;
    std::string why;
    *ok = exact_factor(sa, sb, sc, divisor, &f, &why) && std::llabs(acc) < (int64_t(1) << 31);
    return *ok ? exact_round(acc, f) : 0;
}

bool integer_requantization(float sa, float sb, float sc, int64_t lo, int64_t hi, const QuantRange &out,
                            IntegerRequant *result, std::string *why_not, int fixed_shift, int64_t divisor) {
    const int64_t limit = int64_t(1) << 31;
    if (lo > hi || lo <= -limit || hi >= limit) {
        *why_not = "the accumulator range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] does not fit int32";
        return false;
    }
    Factor f;
    if (!exact_factor(sa, sb, sc, divisor, &f, why_not)) return false;
    long double m = std::ldexp(static_cast<long double>(f.numerator) / f.denominator, f.exponent);
    // n such that M = rhe(m * 2^n) lies in [2^30, 2^31).
    int n = 30 - static_cast<int>(std::floor(std::log2(m)));
    IntegerRequant r;
    for (int k = n - 2; k <= n + 2; k++) {
        if (k < 1 || k > 62) continue;
        int64_t mult = multiplier_for(f, k);
        if (mult >= (int64_t(1) << 30) && mult < limit) r = {mult, k};
    }
    if (fixed_shift >= 1 && fixed_shift <= 62) {
        int64_t mult = multiplier_for(f, fixed_shift);
        r = mult > 0 && mult < limit ? IntegerRequant{mult, fixed_shift} : IntegerRequant{};
    }
    if (r.multiplier == 0) {
        *why_not = "the scale ratio needs a shift outside [1, 62]";
        return false;
    }
    // |acc * (M / 2^n - m)| <= delta for every acc of the range.
    long double amax = static_cast<long double>(std::max(std::llabs(lo), std::llabs(hi)));
    long double delta = amax * std::ldexp(1.0L, -(r.shift + 1));
    for (int64_t k = out.qmin - out.zero_point; k < out.qmax - out.zero_point; k++) {
        long double h = static_cast<long double>(k) + 0.5L;
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
    Factor fa{a.mantissa, y.mantissa, a.exponent - y.exponent}, fb{b.mantissa, y.mantissa, b.exponent - y.exponent};
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
