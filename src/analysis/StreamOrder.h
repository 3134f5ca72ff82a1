// Stream legality of a channel: proven from loop nests and affine indices, not guessed.
#pragma once

#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// Whether an intermediate buffer can be a FIFO, and why (or why not).
struct StreamVerdict {
    bool stream = false;
    std::string reason;
};

/// Contract: a buffer is a stream when exactly one filter writes it with a single
/// unconditional store and exactly one later filter reads it with a single unconditional
/// load, and each access, as a function of its enclosing loops (constant bounds), has an
/// affine index equal to the loops' linearized iteration counter — so element i is the i-th
/// written and the i-th read, every element exactly once. The reason names the loop, the
/// coefficient or the access that breaks this. Pure analysis.
StreamVerdict stream_verdict(const FilterGraph &graph, const Buffer &buffer);

}  // namespace flowhls
