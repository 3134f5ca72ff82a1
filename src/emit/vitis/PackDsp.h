// pack_dsp_pairs: two int8 MACs of adjacent loop iterations in one DSP multiply (AMD WP486).
#pragma once

#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// One loop whose iterations were paired.
struct PackedLoop {
    std::string filter, loop, accumulator;
};

/// Contract: `graph` with, in every filter, each reduction `acc = init(v); for r...: acc = acc
/// + F(v, r) * S(r); consume(acc, v)` directly in a loop `v` of constant even extent, where
/// exactly one factor F depends on v, F's loads are ROMs or arrays (not FIFOs), F lies in
/// [-255, 255], S in [-2^17, 2^17) and |F * S| < 2^17 (int8 x int8/uint8 MACs), rewritten so
/// that one iteration of a loop `v_pair` computes v = 2 p and v = 2 p + 1: a second accumulator,
/// one multiply `flowhls_pack_mul(F(2p+1), F(2p), S) = (F(2p+1) * 2^18 + F(2p)) * S` (a 27 x
/// 18-bit product) split by `flowhls_pack_lo` (its low 18 bits, sign-extended: F(2p) * S) and
/// `flowhls_pack_hi` (the rest plus the low part's sign: F(2p+1) * S), then consume(acc, 2p)
/// and consume(acc2, 2p+1) in this order, so FIFOs see the same sequence. The body of the
/// consume is duplicated with its lets and loops renamed; the loop's directives move to v_pair.
/// An array accumulator (the DSE's "reduction outside" order and jams), `for r...: for v: acc[i(v)]
/// = acc[i(v)] + F(v, r) * S(r)` with the update alone (lets aside) in a loop v of constant even
/// extent that an HLS unroll directive unrolls completely or by an even factor, i(v + 1) - i(v)
/// a nonzero constant, is packed in place: v becomes an unrolled loop v_pair of half the extent
/// (its unroll factor halved; no loop for one pair) whose body does one packed multiply and adds
/// its low part to acc[i(2p)], its high part to acc[i(2p + 1)]; init and consumer are unchanged.
/// Pure; `packed` lists the rewritten loops.
FilterGraph pack_dsp_pairs(const FilterGraph &graph, std::vector<PackedLoop> *packed);

/// Whether `graph` calls the flowhls_pack_* helpers (runtime/include/flowhls_pack.h).
bool uses_dsp_packing(const FilterGraph &graph);

}  // namespace flowhls
