// Proven ranges of a fixed-point filter's sums: the integer bits of its accumulator type.
#pragma once

#include "graph/FilterGraph.h"

#include <map>
#include <optional>
#include <string>

namespace flowhls {

/// What fixed_sum_bound proves about a filter's float values.
struct FixedSumBound {
    double lo = 0.0, hi = 0.0;  // every float value (literals ±inf aside) lies in [lo, hi]
    /// The integer bits P of the narrowest fixed<2F + P, P> holding [lo, hi] rounded outward
    /// onto its grid of 2^-2F (a product of two other formats is rounded into the sums).
    int integer = 1;
    /// How the accumulators were bounded: "sum |w| * max|x| + bias" (per output, the weight
    /// ROM's quantized values) or "n * max|term| + init"; "" when the filter has none.
    std::string how;
    /// Per buffer the filter stores to (not its locals): the values stored there, rounded
    /// onto the buffer's grid and saturated into its format (AP_SAT), as [lo, hi].
    std::map<std::string, std::pair<double, double>> stored;
};

/// Proven ranges of fixed-point buffers' values, by buffer name (FixedSumBound::stored).
using StoredRanges = std::map<std::string, std::pair<double, double>>;

/// Contract: the range of every float value filter `f` (Filter::fixed enabled) of `g`
/// computes, with fixed-point semantics: a load from a fixed-point buffer is bounded by its
/// proven range in `produced` when there is one, else by its producer's format, a let loading another float buffer (the kernel's input) by `f`'s own
/// format (the let is declared in it), a load from a float ROM by the ROM's values quantized to its format
/// (fixed_buffers' reader format, fixed_raw), an integer converted to float by value_range, a scalar
/// accumulator `acc = init; for r...: acc = acc + w * x` (one init, one update, w reading a
/// ROM) per value of the loops outside the reduction by init + sum of max(w * x) over the
/// reduction (enumerated up to 2^24 points, else the trip count times the term's interval),
/// `acc = max(acc, x)` / min by the hull of init and x, a local array by the union of the
/// values stored in it. nullopt, with the reason in `*why_not`, when a value is not proven
/// (a float kernel input read outside a let, a division, a math function, another update
/// form, ROM contents unknown): the caller keeps the rule FixedFormat::accumulator. Pure.
std::optional<FixedSumBound> fixed_sum_bound(const FilterGraph &g, const Filter &f, std::string *why_not,
                                             const StoredRanges &produced = {});

/// Contract: sets FixedFormat::sum_integer and sum_max of every fixed filter of `g` whose
/// values fixed_sum_bound proves within the rule's I + 10 integer bits; the others keep
/// sum_integer 0 (the rule; a proof wider than it is not applied). Filters are taken in
/// order, each with the ranges its producers' proofs gave their outputs (a ReLU's output is
/// >= 0, so its consumer's sums need not cover negative inputs); a buffer with a producer
/// not proven, or taken later, is bounded by its format. Deterministic.
void prove_fixed_accumulators(FilterGraph &g);

}  // namespace flowhls
