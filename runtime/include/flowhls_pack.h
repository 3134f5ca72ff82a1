// flowhls_pack.h: two products sharing an operand in one DSP multiply (AMD white paper WP486),
// for the Vitis kernels flowhls writes with DSP packing (C++; needs ap_int.h).
//
// With lo and hi in [-255, 255], x in [-2^17, 2^17) and |lo * x| < 2^17 (int8/uint8 operands):
//   p = (hi * 2^18 + lo) * x                 one 27 x 18-bit multiply (one DSP48E2)
//   lo * x = the low 18 bits of p, sign-extended
//   hi * x = (p >> 18) + bit 17 of p         (the low product's sign, borrowed from the high part)
#ifndef FLOWHLS_PACK_H
#define FLOWHLS_PACK_H

#include <ap_int.h>
#include <stdint.h>

/// (hi * 2^18 + lo) * x: both products in one multiply of a 27-bit by an 18-bit operand.
static inline int64_t flowhls_pack_mul(int32_t hi, int32_t lo, int32_t x) {
    const ap_int<27> packed = hi * 262144 + lo;
    const ap_int<18> shared = x;
    const ap_int<45> p = packed * shared;
    return p.to_int64();
}

/// lo * x from flowhls_pack_mul's result: its low 18 bits, sign-extended.
static inline int32_t flowhls_pack_lo(int64_t p) {
    const ap_int<18> low = p;
    return (int32_t)low.to_int64();
}

/// hi * x from flowhls_pack_mul's result: the bits above the low 18 plus the low part's sign.
static inline int32_t flowhls_pack_hi(int64_t p) {
    return (int32_t)((p >> 18) + ((p >> 17) & 1));
}

#endif  // FLOWHLS_PACK_H
