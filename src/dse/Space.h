// The design space of a program: per filter, the knobs the exploration turns; a point's schedule.
#pragma once

#include "flowhls/Directives.h"
#include "flowhls/HalideProgram.h"
#include "graph/FilterGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// One loop order a filter can take, and the HLS unroll factors of its pipelined loop in it.
struct OrderOption {
    /// "default" (the program's own order) or "reduction outside" (the reduction loops moved
    /// outside the innermost pure loop, which removes the accumulation's recurrence).
    std::string name;
    /// The loop transformations making this order (none for "default").
    std::vector<LoopTransform> transforms;
    /// The loop unrolled (by variable name) and the Funcs (schedule keys) it is unrolled in.
    std::string unroll_loop;
    std::vector<std::string> unroll_keys;
    /// Unroll factors, 1 first, then the divisors of the loop's trip count up to kMaxUnroll.
    std::vector<int64_t> factors;
};

/// The knobs of one filter.
struct NodeKnobs {
    std::string filter;  ///< the filter's name (its Func) in the graph and the estimate
    std::string key;     ///< how the schedule names it (the ONNX node name, or the Func name)
    std::vector<OrderOption> orders;  ///< at least one; orders[0] is "default"
};

/// The knobs of every filter that has some, in filter order.
struct DesignSpace {
    std::vector<NodeKnobs> nodes;
};

/// A point of the space: per node, the order index and the index of the unroll factor.
struct Choice {
    int order = 0, unroll = 0;
    bool operator==(const Choice &o) const { return order == o.order && unroll == o.unroll; }
};
using PointChoices = std::vector<Choice>;

/// The largest HLS unroll factor the space offers (infer-partitions' bank limit).
constexpr int64_t kMaxUnroll = 64;

/// Contract: the knobs of `program` read from `extracted`, the filter graph extracted from the
/// program's default lowering (loops named `FUNC.sN.VAR`, constant trips). For each filter F:
/// when F (or a helper Func computed inside it, an ONNX node's accumulation) has an update
/// whose innermost loops are reduction loops and an innermost pure loop p, the order
/// "reduction outside" (reorder p inside the reduction loops; a helper is computed at F's loop
/// enclosing p so it covers p's whole range) and, per order, the HLS unroll of its innermost
/// loop (p, or the innermost reduction loop in the default order) by the divisors of the trip
/// count up to kMaxUnroll; other filters: the unroll of their innermost loop. Schedule keys use
/// the ONNX node names (`NODE`, `NODE#acc`) where the program has those aliases. Pure.
DesignSpace build_space(const HalideProgram &program, const FilterGraph &extracted);

/// Contract: the schedule of point `choices` of `space` (one Choice per node, indices in
/// range): each node's order transforms and, for a factor > 1, its unroll directives. The
/// all-zero point is the empty schedule (the default design). Pure.
HlsSchedule point_schedule(const DesignSpace &space, const PointChoices &choices);

/// A short text of a point ("conv1:o1u8 fc1:o0u1 ..."; only nodes off the default), "naive"
/// for the all-zero point.
std::string point_text(const DesignSpace &space, const PointChoices &choices);

}  // namespace flowhls::dse
