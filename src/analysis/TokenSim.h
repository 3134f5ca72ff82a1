// Token-level simulation of a dataflow graph: does it finish, or deadlock, with given FIFOs?
#pragma once

#include "graph/FilterGraph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// Outcome of one token simulation.
struct TokenSimResult {
    bool deadlock = false;
    /// Rounds until every filter finished (or until nothing could move).
    int64_t rounds = 0;
    /// On deadlock: one line per blocked filter ("F waits for data on C (k of N read)" or
    /// "F waits for space on C (full at depth d)").
    std::vector<std::string> blocked;
    /// Streams whose producer was blocked on a full FIFO.
    std::vector<std::string> full_streams;
};

/// Contract: simulates the filters of a dataflow graph as concurrent processes exchanging
/// tokens, one per element. A filter starts when every buffer (ping-pong) channel it reads is
/// complete, moves through its iterations reading and writing each stream in order at its
/// own rate (element i of a stream with n elements at iteration i*T/n of T), stalls on an
/// empty input stream or a full output stream (capacity = its depth: `depths[name]`, else the
/// buffer's stream_depth), and completes its buffer outputs when it finishes. A consumer that
/// reads a stream through a line buffer (Buffer::line_buffer) takes one element of it per
/// iteration and accesses its other streams only when a window is complete, so the latency
/// of its line buffer is modelled exactly. A consumer reading a stream through a ring of rows
/// (Buffer::window_buffer) reads, for each iteration k of its row loop, the rows up to F(k)
/// one element per step and then accesses its other streams for a row's share of steps; the
/// unread rows come last. Reports
/// deadlock when no filter can move before all are done. Pure analysis.
TokenSimResult simulate_tokens(const FilterGraph &graph, const std::map<std::string, int64_t> &depths = {});

}  // namespace flowhls
