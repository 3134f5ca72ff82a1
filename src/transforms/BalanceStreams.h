// Pass balance-streams: FIFO depths that keep reconvergent paths from deadlocking (HIDA opt. 2).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: with every stream at the default depth, runs the token-level simulation of the
/// graph (simulate_tokens); while it deadlocks, doubles the depth of each stream whose
/// producer is blocked on it (up to the stream's element count), then lowers each enlarged
/// depth to the smallest that still completes (binary search, other depths fixed). Sets
/// Buffer::stream_depth and FilterGraph::token_check (the verdict, with the depths). Changes
/// no filter body.
PassResult balance_streams(FilterGraph &graph);

}  // namespace flowhls
