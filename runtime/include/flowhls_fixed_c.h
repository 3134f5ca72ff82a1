/* flowhls_fixed_c.h: the fixed-point arithmetic of the C99 code flowhls generates for PandA-Bambu
 * with --precision fixed<W,I> (docs/quantization.md, "Fixed point on PandA-Bambu").
 *
 * A value of fixed<W,I> is a signed integer `raw` of W bits (an intN_t) standing for
 * raw * 2^-F, F = W - I fraction bits. Sums, differences and products are exact integer
 * arithmetic in int64_t (flowhls checks the widths: a product too wide for 64 bits goes through
 * flowhls_fx_mul_rnd_sat); a value is quantized where it is stored, with the modes of the Vitis
 * code's ap_fixed types: round half to even (AP_RND_CONV) and saturation (AP_SAT). So both
 * targets compute the same bits.
 *
 * Plain C99 (also valid C++), synthesizable: shifts, masks, additions and comparisons only.
 * Right shifts of negative integers are arithmetic (implementation-defined in C99; GCC, Clang
 * and Bambu's front ends, which are GCC and Clang, shift arithmetically). Left shifts go through
 * uint64_t, so no shift is undefined. The shift counts and widths are constants in the
 * generated code: after inlining, a conversion is a few adders and multiplexers. */
#ifndef FLOWHLS_FIXED_C_H
#define FLOWHLS_FIXED_C_H

#include "flowhls_math.h" /* stdint.h, flowhls_bits_f32, flowhls_f32_from_bits, flowhls_max_i64 */

/* The largest signed w-bit integer, 2^(w-1) - 1 (1 <= w <= 64). */
static inline int64_t flowhls_fx_top(int w) { return (int64_t)((UINT64_C(1) << (w - 1)) - 1); }

/* x * 2^s (0 <= s <= 63) where the caller knows it fits int64_t: a value moved, exactly, to a
 * format with s more fraction bits. */
static inline int64_t flowhls_fx_shl(int64_t x, int s) { return (int64_t)((uint64_t)x << s); }

/* x clamped to the range of a signed w-bit integer (AP_SAT). */
static inline int64_t flowhls_fx_sat(int64_t x, int w) {
    int64_t top = flowhls_fx_top(w), bottom = -top - 1;
    return x > top ? top : (x < bottom ? bottom : x);
}

/* x * 2^-s rounded to the nearest integer, ties to even (AP_RND_CONV), s >= 1: a value moved to
 * a format with s fewer fraction bits. The remainder is the low s bits (a mask); it is compared
 * with half a step. */
static inline int64_t flowhls_fx_rnd(int64_t x, int s) {
    uint64_t mask, half, rem;
    int64_t q;
    if (s >= 64) return 0; /* |x| <= 2^63 <= 2^(s-1): at most half a step, and 0 is even */
    mask = (UINT64_C(1) << s) - 1;
    half = UINT64_C(1) << (s - 1);
    q = x >> s; /* floor */
    rem = (uint64_t)x & mask;
    if (rem > half || (rem == half && (q & 1) != 0)) q += 1;
    return q;
}

/* flowhls_fx_rnd(x, s) saturated to w bits: a value stored into a narrower format. */
static inline int64_t flowhls_fx_rnd_sat(int64_t x, int s, int w) { return flowhls_fx_sat(flowhls_fx_rnd(x, s), w); }

/* x * 2^s (s >= 0) saturated to w bits, without overflowing int64_t: a value stored into a
 * format with more fraction bits that may not hold it. */
static inline int64_t flowhls_fx_shl_sat(int64_t x, int s, int w) {
    int64_t top = flowhls_fx_top(w), bottom = -top - 1;
    if (s >= 63) return x > 0 ? top : (x < 0 ? bottom : 0);
    if (x > (top >> s)) return top;
    if (x < (int64_t)(0 - ((UINT64_C(1) << (w - 1)) >> s))) return bottom; /* x * 2^s < -2^(w-1) */
    return flowhls_fx_shl(x, s);
}

/* The raw integer of float x in fixed<w, w-f>: x * 2^f rounded half to even and saturated;
 * infinities saturate and NaN becomes the largest value, as AMD's ap_fixed. Computed on the
 * float's bits: |x| = m * 2^(e - 150) with the 24-bit significand m, so x * 2^f is m shifted
 * left (saturating) or right (rounding) by e - 150 + f; then the sign. */
static inline int64_t flowhls_fx_from_f32(float x, int f, int w) {
    uint32_t bits = flowhls_bits_f32(x);
    uint32_t e = (bits >> 23) & 0xFFu, m = bits & 0x7FFFFFu;
    int neg = (int)(bits >> 31), s;
    int64_t top = flowhls_fx_top(w);
    uint64_t mag;
    if (e == 0xFFu) return m != 0 ? top : (neg ? -top - 1 : top); /* NaN, infinities */
    if (e != 0) m |= 0x800000u;                                     /* the implicit bit */
    s = (int)(e != 0 ? e : 1) - 150 + f;                           /* |x| * 2^f = m * 2^s */
    if (s >= 0) {
        if (m != 0 && (s >= 63 || (uint64_t)m > ((uint64_t)top >> s))) return neg ? -top - 1 : top;
        mag = (uint64_t)m << s;
    } else {
        mag = (uint64_t)flowhls_fx_rnd((int64_t)m, -s); /* rounding the magnitude: ties to even is symmetric */
    }
    if (mag > (uint64_t)top) return neg ? -top - 1 : top;
    return neg ? -(int64_t)mag : (int64_t)mag;
}

/* raw * 2^-f as a float (0 <= f <= 64): the integer rounded to the nearest float (ties to
 * even), then scaled exactly by subtracting f from the exponent bits (|raw| >= 1 gives an
 * exponent field >= 127 > f: the result is a normal float). */
static inline float flowhls_fx_to_f32(int64_t x, int f) {
    float v = (float)x;
    if (x == 0 || f == 0) return v;
    return flowhls_f32_from_bits(flowhls_bits_f32(v) - ((uint32_t)f << 23));
}

/* The exact product a * b (up to 128 bits, as hi * 2^64 + lo from 32-bit halves) times 2^-s,
 * rounded half to even and saturated to w bits (0 <= s <= 127): a product of two values too
 * wide for int64_t stored into a format. */
static inline int64_t flowhls_fx_mul_rnd_sat(int64_t a, int64_t b, int s, int w) {
    const uint64_t low32 = UINT64_C(0xFFFFFFFF);
    int neg = (a < 0) != (b < 0);
    uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t a0 = ua & low32, a1 = ua >> 32, b0 = ub & low32, b1 = ub >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & low32) + (p10 & low32);
    uint64_t lo = (mid << 32) | (p00 & low32), hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    uint64_t qlo = lo, qhi = hi, round = 0, sticky = 0, top = (uint64_t)flowhls_fx_top(w);
    if (s > 0 && s < 64) { /* q = floor(|a b| / 2^s); round: the bit below it; sticky: any lower bit */
        qlo = (lo >> s) | (hi << (64 - s));
        qhi = hi >> s;
        round = (lo >> (s - 1)) & 1;
        sticky = (lo & ((UINT64_C(1) << (s - 1)) - 1)) != 0;
    } else if (s == 64) {
        qlo = hi;
        qhi = 0;
        round = lo >> 63;
        sticky = (lo << 1) != 0;
    } else if (s > 64) {
        qlo = hi >> (s - 64);
        qhi = 0;
        round = (hi >> (s - 65)) & 1;
        sticky = lo != 0 || (hi & ((UINT64_C(1) << (s - 65)) - 1)) != 0;
    }
    if (round && (sticky || (qlo & 1))) { /* ties to even, on the magnitude: symmetric */
        qlo += 1;
        if (qlo == 0) qhi += 1;
    }
    if (qhi != 0 || qlo > top) return neg ? -(int64_t)top - 1 : (int64_t)top;
    return neg ? -(int64_t)qlo : (int64_t)qlo;
}

#endif /* FLOWHLS_FIXED_C_H */
