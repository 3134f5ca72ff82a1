// ap_int.h: C-simulation stand-in for Vitis HLS's ap_int<W> / ap_uint<W> (widths 1..63), for
// the code flowhls generates. A value is kept sign- (ap_int) or zero-extended (ap_uint) in a
// long long, wrapped to W bits on construction and assignment, and takes part in arithmetic
// as that long long: exact, like AMD's ap_int operators, whenever the result fits in 64 bits
// (flowhls declares values with proven ranges and products of at most 2 x 32 bits). Replaced by
// AMD's own header when the project is built against it (tests/emit/vendor-csim.sh).
#ifndef FLOWHLS_CSIM_AP_INT_H
#define FLOWHLS_CSIM_AP_INT_H

template <int W, bool S>
class flowhls_ap_int_base {
    static_assert(W >= 1 && W <= 63, "the ap_int stand-in holds 1..63 bits");

public:
    flowhls_ap_int_base() : v_(0) {}
    template <typename T>
    flowhls_ap_int_base(T x) : v_(wrap(static_cast<long long>(x))) {}  // NOLINT: implicit, as AMD's
    operator long long() const { return v_; }
    /// The value as an integer (AMD's to_int64()).
    long long to_int64() const { return v_; }

private:
    long long v_;
    static long long wrap(long long x) {
        unsigned long long mask = (1ULL << W) - 1, u = static_cast<unsigned long long>(x) & mask;
        if (S && (u >> (W - 1)) != 0) u |= ~mask;  // sign extension
        return static_cast<long long>(u);
    }
};

/// Signed integer of W bits (two's complement, wraps).
template <int W>
class ap_int : public flowhls_ap_int_base<W, true> {
public:
    ap_int() {}
    template <typename T>
    ap_int(T x) : flowhls_ap_int_base<W, true>(x) {}  // NOLINT: implicit, as AMD's
};

/// Unsigned integer of W bits (wraps).
template <int W>
class ap_uint : public flowhls_ap_int_base<W, false> {
public:
    ap_uint() {}
    template <typename T>
    ap_uint(T x) : flowhls_ap_int_base<W, false>(x) {}  // NOLINT: implicit, as AMD's
};

#endif  // FLOWHLS_CSIM_AP_INT_H
