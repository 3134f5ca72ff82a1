// Pass widen-copies: on-chip copies of widened m_axi inputs read by aligned beats of consecutive elements.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: in every filter, a perfect loop nest (only index LetStmts between its loops; no
/// directive on any of them; constant trips from 0) whose innermost body is one store
/// `L[iL] = A[iA]` of a filter local L (not a scalar) from a kernel input A on a widened m_axi
/// port (ArgInterface::width_bits wider than A's elements), where both indices are the dense
/// linearization of the nest (the innermost loop's coefficient 1, each outer one the product of
/// the trips inside it) plus a base free of the nest's loops -- the co-language's `in` copy of a
/// block of weights, in storage order -- becomes one loop over N / W chunks of W consecutive
/// elements (N the nest's iterations) around a loop of W iterations, `L[bL + c*W + k] =
/// A[bA + c*W + k]`; the chunk loop gets `pipeline II=1` and the inner loop a complete unroll
/// (both marked inferred), so the pipeline reads W consecutive elements per iteration, which
/// Vitis fetches as one beat of the widened port when A's address is aligned. W is the largest
/// power of two at most width_bits / element bits that divides N; with W < 2 the nest is left
/// as it is. Names of the new loops are fresh in the filter. Other code is unchanged.
PassResult widen_copies(FilterGraph &graph);

}  // namespace flowhls
