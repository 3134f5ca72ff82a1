// QoR estimator: latency, initiation intervals and resources of a FilterGraph on a device.
#pragma once

#include "analysis/Device.h"
#include "graph/FilterGraph.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

class ScheduleMemo;

/// How the estimator assumes the HLS tool treats loops that carry no directives.
struct QorOptions {
    /// Innermost loops are pipelined (what Vitis HLS does by default), with this target II.
    bool pipeline_innermost = true;
    int target_ii = 1;
    /// Perfect nests around a pipelined loop are flattened into it (LetStmts of index
    /// arithmetic between the loops do not break perfection).
    bool flatten = true;
    /// Filters estimate_design schedules at once, each on a thread of its own (1: one after
    /// another). The estimate does not depend on it: every filter's schedule reads only the
    /// graph, and the results are composed in the graph's filter order.
    int threads = 1;
    /// Filter schedules shared by the estimates of one design-space exploration (owned by it;
    /// analysis/ScheduleMemo.h); null: every filter scheduled. The estimate does not depend on it.
    ScheduleMemo *memo = nullptr;
};

/// Estimate of one loop (for a flattened nest: the nest, named by its outermost loop).
struct LoopEstimate {
    std::string name;
    int64_t trip = 0;
    bool pipelined = false;
    int flattened_levels = 1;
    int depth = 0;  ///< pipeline depth or body latency
    int ii = 0;     ///< initiation interval (pipelined loops)
    int ii_resource = 0, ii_recurrence = 0;
    std::string ii_reason;  ///< what sets the II
    int64_t latency = 0;
};

/// Estimate of one filter.
struct FilterEstimate {
    std::string name;
    int64_t latency = 0;
    std::vector<LoopEstimate> loops;
    /// Operator name -> number of operations in the code.
    std::map<std::string, int> operations;
    /// Operator name -> operations executed per run (static count x trip counts).
    std::map<std::string, int64_t> executed;
    Resources resources;
};

/// A buffer between filters and how it is implemented.
struct ChannelEstimate {
    std::string name;
    /// "ping-pong" (double buffer in a dataflow region), "array" (sequential top),
    /// "scalar" (passed by value), "rom" (constant weights on chip), "stream" (FIFO),
    /// "uram-resident" (a weight loaded into UltraRAM on the first call).
    std::string kind;
    int64_t words = 0;  ///< storage in elements (both halves of a ping-pong buffer)
    int64_t bram18k = 0, uram = 0;
    /// Why the channel is a stream or a buffer (from detect-streams).
    std::string reason;
};

/// Estimate of the whole design.
struct DesignEstimate {
    std::vector<FilterEstimate> filters;
    std::vector<ChannelEstimate> channels;
    bool dataflow = false;
    int64_t latency = 0;   ///< cycles from start to the last output (Vitis's report rule)
    /// The latency with the stalls of FIFO consumers waiting for data (the RTL's behaviour).
    int64_t stalled_latency = 0;
    int64_t interval = 0;  ///< cycles between two inputs
    double throughput = 0.0;  ///< samples per second at the clock
    Resources total;
    /// Achieved MAC/cycle / (DSPs x MACs per DSP per cycle for the data type); 0 without
    /// multiplications.
    double dsp_efficiency = 0.0;
    /// Cycles the first call spends copying the URAM-resident weights from their m_axi ports
    /// (one burst each, one port beat per cycle) before its filters start; later calls skip
    /// the copy, so neither the interval nor the latency counts it.
    int64_t first_call_cycles = 0;
};

/// Contract: estimates one filter's latency (cycles), the II of its pipelined loops
/// (max of the target, the memory-port bound and the recurrence bound ceil(delay/distance))
/// and its resources. Pure analysis.
FilterEstimate estimate_filter(const FilterGraph &graph, const Filter &filter, const Device &device,
                               const QorOptions &options);

/// Contract: estimates every filter and the design: with dataflow the interval is the
/// largest filter latency (ping-pong buffers) and the latency the longest producer-consumer
/// path; sequentially both are the sum. Pure analysis.
DesignEstimate estimate_design(const FilterGraph &graph, const Device &device, const QorOptions &options);

/// DSP-cycles spent on multiplications over the DSP-cycles of an interval (in [0, 1]; 0 without
/// any): per filter, its floating-point multiplications if it has any, else its integer ones,
/// each costing the DSPs of its multiplier (and adder, for floating point).
double dsp_efficiency_of(const DesignEstimate &d, const Device &device);

}  // namespace flowhls
