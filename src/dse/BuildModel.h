// The design model of a compiled program: one node per filter (its dominant loop nest with
// trip counts and reduction flags, its affine accesses to buffers) and the closed-form costs
// the ablation (driver/Ablation) prices unroll factors with.
#pragma once

#include "analysis/Device.h"
#include "dse/DesignModel.h"
#include "flowhls/HalideProgram.h"
#include "flowhls/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// What one node costs under the closed-form model, per copy of its loop body.
struct NodeCost {
    /// Iterations of the nest (product of the trips).
    int64_t iterations = 1;
    /// Operators of the body (device-library operators: fadd, fmul, imul8, ...).
    int64_t ops = 1;
    /// DSPs of one copy of the body.
    int64_t dsp = 0;
    /// Pipeline depth of one iteration (sum of the operators' latencies, plus a load and a
    /// store), in cycles.
    int64_t depth = 1;
    /// Cycles of the accumulation's loop-carried recurrence when the innermost loop is a
    /// reduction loop accumulating into the node's output (the II at factor 1); 0 when the
    /// innermost loop carries no recurrence (II 1).
    int64_t recurrence = 0;
};

/// A design model and, per node, its costs.
struct BuiltModel {
    DesignModel model;
    std::vector<NodeCost> costs;
};

/// Contract: the design model of `program` as `compile` would lower it for `target` (its
/// loop schedule applied, lowered, filters extracted; the program itself is not changed).
/// Per filter (in filter order) one node: its nest is the stage (of the filter's Func or of a
/// helper Func computed inside it, an ONNX node's accumulation) with the most iterations,
/// loops outermost first with their constant trips (loops of other forms are left out), the
/// stage's reduction variables flagged `reduction`. Its accesses are the stage's store (to the
/// filter's buffer, also when the stage is a helper's) and its loads of other Funcs and of the
/// inputs; loads of inlined Funcs are followed into their definitions. Access coefficients are
/// the exact coefficients of each loop variable in each index where the index is a sum of
/// constant multiples of loop variables (clamps by constants are looked through); 0 where it
/// is not (a division, a data-dependent index). `intensity` = iterations x operators.
/// Costs use `device`'s operator table. Throws flowhls::Error when the program cannot be
/// lowered. Deterministic.
BuiltModel build_model(const HalideProgram &program, HlsTarget target, const Device &device);

/// The node's latency in cycles under the closed-form model with unroll factors `unroll`
/// (one per loop; empty: all 1): iterations / copies x II + depth, where II is 1, or the
/// recurrence times the unrolling of the reduction loops (the accumulation chain of one
/// iteration lengthens by each copy) when the innermost loop is a reduction; the depth grows
/// by the same chain. Pure.
int64_t node_latency(const DseNode &node, const NodeCost &cost, const std::vector<int64_t> &unroll);

} // namespace flowhls::dse
