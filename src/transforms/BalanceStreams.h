// Pass balance-streams: FIFO depths that keep reconvergent paths from deadlocking (HIDA opt. 2).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: with every stream at the default depth, runs the token-level simulation of the
/// graph (simulate_tokens); while it deadlocks, doubles the depth of each stream whose
/// producer is blocked on it (up to the stream's element count), then lowers each enlarged
/// depth to the smallest that still completes (the initial depth first, then a binary search;
/// other depths fixed). Sets Buffer::stream_depth and FilterGraph::token_check (the verdict,
/// with the depths). Changes no filter body. A stream with a depth from a stream directive
/// (Buffer::requested_depth) starts at that depth and is never changed; if the simulation then
/// deadlocks while computed depths would complete, throws flowhls::Error naming the stream and
/// the depth it needs.
PassResult balance_streams(FilterGraph &graph);

}  // namespace flowhls
