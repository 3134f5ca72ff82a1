/* flowhls_math.h: Halide semantics of integer division, modulo, min/max, shifts and
 * bit casts for generated HLS code. Plain C99 and C++, synthesizable, no dependencies
 * beyond <stdint.h> and <math.h>. */
#ifndef FLOWHLS_MATH_H
#define FLOWHLS_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* Euclidean division and modulo of signed integers (the remainder is never negative), as
 * in Halide, and total like Halide's: x / 0 == 0, x % 0 == 0, and the most negative value
 * divided by -1 wraps to itself (remainder 0), so no division traps. */
#define FLOWHLS_SIGNED_OPS(S, T, UT, W)                                                 \
    static inline T flowhls_div_##S(T a, T b) {                                        \
        if (b == 0) return 0;                                                          \
        if (b == -1) return (T)(0 - (UT)a);                                            \
        T q = (T)(a / b);                                                              \
        T r = (T)(a - q * b);                                                          \
        if (r < 0) q = (T)(b > 0 ? q - 1 : q + 1);                                     \
        return q;                                                                      \
    }                                                                                  \
    static inline T flowhls_mod_##S(T a, T b) {                                        \
        if (b == 0 || b == -1) return 0;                                               \
        T r = (T)(a % b);                                                              \
        if (r < 0) r = (T)(b > 0 ? r + b : r - b);                                     \
        return r;                                                                      \
    }                                                                                  \
    static inline UT flowhls_abs_##S(T a) { return a < 0 ? (UT)(0 - (UT)a) : (UT)a; }  \
    static inline UT flowhls_absd_##S(T a, T b) {                                      \
        return a < b ? (UT)((UT)b - (UT)a) : (UT)((UT)a - (UT)b);                      \
    }                                                                                  \
    static inline T flowhls_shl_##S(T a, T b) {                                        \
        if (b < 0) return (T)(a >> (-b));                                              \
        return (T)((W)(UT)a << b);                                                        \
    }                                                                                  \
    static inline T flowhls_shr_##S(T a, T b) {                                        \
        if (b < 0) return (T)((W)(UT)a << (-b));                                          \
        return (T)(a >> b);                                                            \
    }

#define FLOWHLS_UNSIGNED_OPS(S, T, W)                                                   \
    static inline T flowhls_div_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); }    \
    static inline T flowhls_mod_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }    \
    static inline T flowhls_absd_##S(T a, T b) { return a < b ? (T)(b - a) : (T)(a - b); } \
    static inline T flowhls_shl_##S(T a, T b) { return (T)((W)a << b); }                  \
    static inline T flowhls_shr_##S(T a, T b) { return (T)(a >> b); }

/* min and max in Halide's form: min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b. */
#define FLOWHLS_MINMAX(S, T)                                                           \
    static inline T flowhls_min_##S(T a, T b) { return a < b ? a : b; }                \
    static inline T flowhls_max_##S(T a, T b) { return a > b ? a : b; }

FLOWHLS_SIGNED_OPS(i8, int8_t, uint8_t, uint32_t)
FLOWHLS_SIGNED_OPS(i16, int16_t, uint16_t, uint32_t)
FLOWHLS_SIGNED_OPS(i32, int32_t, uint32_t, uint32_t)
FLOWHLS_SIGNED_OPS(i64, int64_t, uint64_t, uint64_t)
FLOWHLS_UNSIGNED_OPS(u8, uint8_t, uint32_t)
FLOWHLS_UNSIGNED_OPS(u16, uint16_t, uint32_t)
FLOWHLS_UNSIGNED_OPS(u32, uint32_t, uint32_t)
FLOWHLS_UNSIGNED_OPS(u64, uint64_t, uint64_t)
FLOWHLS_MINMAX(i8, int8_t)
FLOWHLS_MINMAX(i16, int16_t)
FLOWHLS_MINMAX(i32, int32_t)
FLOWHLS_MINMAX(i64, int64_t)
FLOWHLS_MINMAX(u8, uint8_t)
FLOWHLS_MINMAX(u16, uint16_t)
FLOWHLS_MINMAX(u32, uint32_t)
FLOWHLS_MINMAX(u64, uint64_t)
FLOWHLS_MINMAX(f32, float)
FLOWHLS_MINMAX(f64, double)

/* Floating-point modulo as Halide defines it: a - b * floor(a / b). */
static inline float flowhls_mod_f32(float a, float b) { return a - b * floorf(a / b); }
static inline double flowhls_mod_f64(double a, double b) { return a - b * floor(a / b); }

/* Bit casts between floating-point and integer types of the same width. */
static inline uint32_t flowhls_bits_f32(float x) { uint32_t r; memcpy(&r, &x, sizeof r); return r; }
static inline float flowhls_f32_from_bits(uint32_t x) { float r; memcpy(&r, &x, sizeof r); return r; }
static inline uint64_t flowhls_bits_f64(double x) { uint64_t r; memcpy(&r, &x, sizeof r); return r; }
static inline double flowhls_f64_from_bits(uint64_t x) { double r; memcpy(&r, &x, sizeof r); return r; }

#undef FLOWHLS_SIGNED_OPS
#undef FLOWHLS_UNSIGNED_OPS
#undef FLOWHLS_MINMAX

#endif /* FLOWHLS_MATH_H */
