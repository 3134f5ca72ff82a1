// Latency and interval of a design from its filters' schedules: dataflow or sequential.
#pragma once

#include "graph/FilterGraph.h"

#include <cstdint>
#include <vector>

namespace flowhls {

/// What the composition needs of one filter.
struct ProcessTiming {
    int64_t latency = 0;  ///< cycles of one call
    int64_t tail = 0;     ///< cycles it still needs after a FIFO producer ends
};

/// When each filter runs and what the design takes.
struct DesignTiming {
    std::vector<int64_t> start, finish;
    int64_t latency = 0, interval = 0;
};

/// Contract: composes the filters of `graph` as Vitis HLS's synthesis report does. In a dataflow
/// region every filter is a process that starts with the region; one reading a ping-pong
/// buffer starts when its producer has finished, one reading a FIFO ends no earlier than its
/// producer's end plus its own tail (stalls of mismatched rates are not part of the report's
/// figure); the interval is the slowest process. In a sequential top the calls are issued in
/// order and a call starts when the earlier calls it shares a buffer with have finished (a
/// shared array is a shared port, even read-only), so filters touching disjoint arrays overlap;
/// the interval is the latency. Pure.
DesignTiming compose_design(const FilterGraph &graph, const std::vector<ProcessTiming> &filters);

}  // namespace flowhls
