// Latency and interval of a design from its filters' schedules: dataflow or sequential.
#pragma once

#include "graph/FilterGraph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// What the composition needs of one filter.
struct ProcessTiming {
    int64_t latency = 0;  ///< cycles of one call
    int64_t tail = 0;     ///< cycles it still needs after a FIFO producer ends
    /// Buffer -> [first, last] cycle of the call in which it accesses the buffer's elements
    /// (spread evenly over the window).
    std::map<std::string, std::pair<int64_t, int64_t>> windows;
};

/// When each filter runs and what the design takes.
struct DesignTiming {
    std::vector<int64_t> start, finish;
    int64_t latency = 0, interval = 0;
    /// The latency with FIFO stalls: a consumer delayed until every element it reads from a
    /// FIFO has been written (what RTL co-simulation shows; the synthesis report ignores it).
    int64_t stalled_latency = 0;
};

/// Contract: composes the filters of `graph` as Vitis HLS's synthesis report does. In a dataflow
/// region a process reading a FIFO starts with its producer and ends no earlier than its
/// producer's end plus its own tail; one reading a ping-pong buffer starts at its producer's
/// own end, the producer's start plus its latency, or the later own end of a process writing
/// one of the producer's FIFOs plus the producer's tail: the report carries the wait of a FIFO
/// consumer on its direct producers across a ping-pong buffer, not on theirs (stalls of
/// mismatched rates are not part of the report's figure); the interval is the slowest process. In a sequential top the calls are issued in
/// order and a call starts when the earlier calls it shares a buffer with have finished (a
/// shared array is a shared port, even read-only), so filters touching disjoint arrays overlap;
/// the interval is the latency. The stalled latency delays each FIFO consumer so that it reads
/// element k no earlier than its producer writes it, both spreading a stream's elements evenly
/// over the windows in which they access it (ProcessTiming::windows). Pure.
DesignTiming compose_design(const FilterGraph &graph, const std::vector<ProcessTiming> &filters);

}  // namespace flowhls
