// ap_fixed.h: C-simulation stand-in for Vitis HLS's ap_fixed<W, I, Q, O> (signed), for the code
// flowhls generates with --precision (docs/quantization.md, "Fixed point for float models").
// A value is an integer `raw` of W bits standing for raw * 2^-(W-I). Sums, differences and
// products of values are exact (flowhls_fx_value: a 128-bit integer and its fraction bits), as
// AMD's full-precision operators are; a value is quantized only when it is stored into an
// ap_fixed: quantization AP_RND_CONV (round half to even) or AP_TRN (floor), overflow AP_SAT
// (clamp) or AP_WRAP (two's complement). The exact results must fit in 127 bits (flowhls's
// formats, W <= 32, keep them so). There are no conversions to built-in types other than
// to_float() / to_double() and no operators with built-in operands: generated code that mixed
// float and fixed point would not compile here. Replaced by AMD's own header when the project
// is built against it (tests/emit/vendor-csim.sh).
#ifndef FLOWHLS_CSIM_AP_FIXED_H
#define FLOWHLS_CSIM_AP_FIXED_H

#include "ap_int.h"

#include <cmath>
#include <type_traits>

enum ap_q_mode { AP_RND, AP_RND_ZERO, AP_RND_MIN_INF, AP_RND_INF, AP_RND_CONV, AP_TRN, AP_TRN_ZERO };
enum ap_o_mode { AP_SAT, AP_SAT_ZERO, AP_SAT_SYM, AP_WRAP, AP_WRAP_SM };

/// An exact fixed-point value raw * 2^-frac (the result of +, -, * on fixed-point values).
struct flowhls_fx_value {
    __int128 raw;
    int frac;
    flowhls_fx_value exact() const { return *this; }
    double to_double() const { return std::ldexp(static_cast<double>(raw), -frac); }
    float to_float() const { return std::ldexp(static_cast<float>(raw), -frac); }
};

template <int W, int I, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>
class ap_fixed;

template <typename T>
struct flowhls_is_fx : std::false_type {};
template <>
struct flowhls_is_fx<flowhls_fx_value> : std::true_type {};
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct flowhls_is_fx<ap_fixed<W, I, Q, O, N> > : std::true_type {};

/// `v` with its fraction bits raised to `frac` (>= v.frac).
inline __int128 flowhls_fx_align(const flowhls_fx_value &v, int frac) { return v.raw * (static_cast<__int128>(1) << (frac - v.frac)); }

template <typename A, typename B>
struct flowhls_fx_enable : std::enable_if<flowhls_is_fx<A>::value && flowhls_is_fx<B>::value, flowhls_fx_value> {};

template <typename A, typename B>
typename flowhls_fx_enable<A, B>::type operator+(const A &a, const B &b) {
    flowhls_fx_value x = a.exact(), y = b.exact();
    int f = x.frac > y.frac ? x.frac : y.frac;
    return flowhls_fx_value{flowhls_fx_align(x, f) + flowhls_fx_align(y, f), f};
}
template <typename A, typename B>
typename flowhls_fx_enable<A, B>::type operator-(const A &a, const B &b) {
    flowhls_fx_value x = a.exact(), y = b.exact();
    int f = x.frac > y.frac ? x.frac : y.frac;
    return flowhls_fx_value{flowhls_fx_align(x, f) - flowhls_fx_align(y, f), f};
}
template <typename A, typename B>
typename flowhls_fx_enable<A, B>::type operator*(const A &a, const B &b) {
    flowhls_fx_value x = a.exact(), y = b.exact();
    return flowhls_fx_value{x.raw * y.raw, x.frac + y.frac};
}
template <typename A>
typename flowhls_fx_enable<A, A>::type operator-(const A &a) {
    flowhls_fx_value x = a.exact();
    return flowhls_fx_value{-x.raw, x.frac};
}

/// -1, 0 or 1 as a < b, a == b, a > b (exactly).
template <typename A, typename B>
int flowhls_fx_compare(const A &a, const B &b) {
    flowhls_fx_value x = a.exact(), y = b.exact();
    int f = x.frac > y.frac ? x.frac : y.frac;
    __int128 p = flowhls_fx_align(x, f), q = flowhls_fx_align(y, f);
    return p < q ? -1 : (p > q ? 1 : 0);
}
#define FLOWHLS_FX_COMPARE(op)                                                    \
    template <typename A, typename B>                                             \
    typename std::enable_if<flowhls_is_fx<A>::value && flowhls_is_fx<B>::value, bool>::type operator op(const A &a, const B &b) { \
        return flowhls_fx_compare(a, b) op 0;                                     \
    }
FLOWHLS_FX_COMPARE(<)
FLOWHLS_FX_COMPARE(<=)
FLOWHLS_FX_COMPARE(>)
FLOWHLS_FX_COMPARE(>=)
FLOWHLS_FX_COMPARE(==)
FLOWHLS_FX_COMPARE(!=)
#undef FLOWHLS_FX_COMPARE

/// Signed fixed point of W bits, I of them integer bits (0 <= I <= W), quantized on construction
/// and assignment with Q (AP_RND_CONV or AP_TRN) and O (AP_SAT or AP_WRAP).
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
class ap_fixed {
    static_assert(W >= 1 && W <= 120 && I >= 0 && I <= W, "the ap_fixed stand-in holds 1..120 bits, 0 <= I <= W");
    static_assert(Q == AP_RND_CONV || Q == AP_TRN, "the ap_fixed stand-in rounds AP_RND_CONV or AP_TRN");
    static_assert(O == AP_SAT || O == AP_WRAP, "the ap_fixed stand-in overflows AP_SAT or AP_WRAP");
    static_assert(N == 0, "the ap_fixed stand-in has no saturation bits");

public:
    enum { F = W - I, width = W };
    /// The value whose integer (value * 2^F) is `raw` (its low W bits).
    static ap_fixed from_raw(long long raw) {
        ap_fixed x;
        x.raw_ = overflow_wrap(raw);
        return x;
    }
    ap_fixed() : raw_(0) {}
    template <typename T>
    ap_fixed(const T &x) : raw_(from(x)) {}  // NOLINT: implicit, as AMD's
    flowhls_fx_value exact() const { return flowhls_fx_value{raw_, F}; }
    double to_double() const { return exact().to_double(); }
    float to_float() const { return exact().to_float(); }

private:
    __int128 raw_;

    static __int128 top() { return (static_cast<__int128>(1) << (W - 1)) - 1; }
    static __int128 bottom() { return -top() - 1; }
    // The overflow mode applied to an integer number of 2^-F steps.
    static __int128 overflow(__int128 q) {
        if (O == AP_SAT) return q > top() ? top() : (q < bottom() ? bottom() : q);
        unsigned __int128 mask = (static_cast<unsigned __int128>(1) << W) - 1, u = static_cast<unsigned __int128>(q) & mask;
        if ((u >> (W - 1)) != 0) u |= ~mask;
        return static_cast<__int128>(u);
    }
    static __int128 overflow_wrap(__int128 q) {
        unsigned __int128 mask = (static_cast<unsigned __int128>(1) << W) - 1, u = static_cast<unsigned __int128>(q) & mask;
        if ((u >> (W - 1)) != 0) u |= ~mask;
        return static_cast<__int128>(u);
    }
    static __int128 quantize(const flowhls_fx_value &v) {
        if (v.frac <= F) return overflow(v.raw * (static_cast<__int128>(1) << (F - v.frac)));
        int s = v.frac - F;
        __int128 q = v.raw >> s;  // floor
        if (Q == AP_RND_CONV) {
            __int128 rem = v.raw - q * (static_cast<__int128>(1) << s), half = static_cast<__int128>(1) << (s - 1);
            if (rem > half || (rem == half && (q & 1) != 0)) q += 1;
        }
        return overflow(q);
    }
    static __int128 from_double(double d) {
        if (std::isnan(d)) return top();  // as AMD's (which also warns)
        double scaled = std::ldexp(d, F);
        // Beyond 2^(W+1) steps every mode but wrapping saturates; wrapping keeps the low bits.
        if (O == AP_SAT && std::fabs(scaled) >= std::ldexp(1.0, W + 1)) return scaled < 0 ? bottom() : top();
        if (std::fabs(scaled) >= std::ldexp(1.0, 120)) return scaled < 0 ? bottom() : top();
        double fl = std::floor(scaled), rest = scaled - fl;
        __int128 q = static_cast<__int128>(fl);
        if (Q == AP_RND_CONV && (rest > 0.5 || (rest == 0.5 && (q & 1) != 0))) q += 1;
        return overflow(q);
    }
    template <typename T>
    static typename std::enable_if<flowhls_is_fx<T>::value, __int128>::type from(const T &x) {
        return quantize(x.exact());
    }
    template <typename T>
    static typename std::enable_if<std::is_floating_point<T>::value, __int128>::type from(const T &x) {
        return from_double(static_cast<double>(x));
    }
    template <typename T>
    static typename std::enable_if<std::is_integral<T>::value, __int128>::type from(const T &x) {
        return quantize(flowhls_fx_value{static_cast<__int128>(x), 0});
    }
};

#endif  // FLOWHLS_CSIM_AP_FIXED_H
