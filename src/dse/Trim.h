// The trim steps of the exploration: lowering a filter's parallelism, or sharing its operators
// through a larger II, where its latency stays within the design's interval.
#pragma once

#include "dse/Space.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace flowhls::dse {

/// What the trim knows of one node at the point it starts from (figures are estimates).
struct TrimNode {
    int64_t latency = 0;  ///< its filter's latency (cycles)
    int64_t dsp = 0;      ///< its filter's DSPs
    /// The most operations of one kind that takes DSPs in its filter's code: the operator
    /// units of that kind its pipelined loop needs at II 1, at least 1.
    int64_t copies = 1;
};

/// One proposed step: the whole point after it, on which node, and what it is predicted to do.
struct TrimStep {
    PointChoices choices;
    size_t node = 0;
    /// 0: unroll one step down; 1: jam one step down; 2: reshape (parallelism kept or raised,
    /// the II raised so that the operators are shared: fewer units per cycle).
    int kind = 0;
    int64_t saving = 0;     ///< DSPs predicted saved
    int64_t predicted = 0;  ///< the filter's predicted latency after the step
};

/// The latency an evaluated point measured for node `node` at choice `c` (0: none known).
using KnownLatency = std::function<int64_t(size_t node, const Choice &c)>;

/// Contract: the step of kind `kind` (TrimStep::kind) on node `node` of `space` from point
/// `from`, where the node's filter has the figures `at`; false when there is none worth an
/// evaluation: no DSPs, a step below 1, a predicted latency over `limit` (cycles), a predicted
/// saving under 2 DSPs. Predictions: a lower parallelism `p' < p` multiplies the latency by
/// p / p' (or takes `known` when an evaluated point had the node at that choice) and saves the
/// filter's DSPs in proportion; a reshape takes, among the node's unroll x jam combinations of
/// parallelism p' >= p (at most kMaxReshapeUnroll), with the largest II k' (2..kMaxII) keeping
/// latency x (p / p') x (k' / k) within `limit`, the one needing the fewest operator units
/// ceil(copies x p' / (p x k')) (ties: the smaller p', then the earlier combination), when
/// that is fewer than ceil(copies / k); it predicts the DSPs in proportion to the units. A
/// node without an unrolled loop (Choice::ii has nothing to apply to) has no reshape. Pure.
bool trim_step(const DesignSpace &space, const PointChoices &from, size_t node, int kind, const TrimNode &at,
               double limit, const KnownLatency &known, TrimStep &out);

/// The largest II a reshape gives.
constexpr int kMaxII = 64;

/// The largest parallelism a reshape gives: the fill's (twice kMaxUnroll, infer-partitions'
/// row banks), as its II shares the copies' operators (LeNet-5's conv2 at `u8/j16/ii5`: 26
/// units where `u2/j16` needs 32 at the same interval).
constexpr int64_t kMaxReshapeUnroll = 4 * kMaxUnroll;

}  // namespace flowhls::dse
