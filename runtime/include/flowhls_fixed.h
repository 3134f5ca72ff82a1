// flowhls_fixed.h: helpers of the fixed-point code flowhls generates for Vitis HLS with
// --precision (docs/quantization.md, "Fixed point for float models"); valid with AMD's
// ap_fixed.h and with flowhls's C-simulation stand-in (include/csim/ap_fixed.h).
#ifndef FLOWHLS_FIXED_H
#define FLOWHLS_FIXED_H

#include <ap_fixed.h>

/// A fixed-point value (an ap_fixed or the exact result of an operator) as a float: where the
/// design leaves fixed point (math functions, division, float outputs). Floats pass through.
template <typename T>
inline float flowhls_f32(const T &x) { return x.to_float(); }
inline float flowhls_f32(float x) { return x; }
inline float flowhls_f32(double x) { return static_cast<float>(x); }

/// The fixed-point value of type T whose integer (value * 2^F) is `raw` (ap_int<W>): how the
/// ROMs of weights, which hold those integers, are read.
#ifdef FLOWHLS_CSIM_AP_FIXED_H
template <typename T, typename R>
inline T flowhls_fx_raw(const R &raw) { return T::from_raw(static_cast<long long>(raw)); }
#else
template <typename T, typename R>
inline T flowhls_fx_raw(const R &raw) {
    T x;
    x.range(T::width - 1, 0) = raw;
    return x;
}
#endif

/// max and min of two fixed-point values, in type T (exact when T holds both).
template <typename T, typename A, typename B>
inline T flowhls_fx_max(const A &a, const B &b) {
    T x = a, y = b;
    return x < y ? y : x;
}
template <typename T, typename A, typename B>
inline T flowhls_fx_min(const A &a, const B &b) {
    T x = a, y = b;
    return y < x ? y : x;
}

#endif  // FLOWHLS_FIXED_H
