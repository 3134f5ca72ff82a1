// The interface every transformation pass of the FilterGraph implements.
#pragma once

#include "graph/FilterGraph.h"

namespace flowhls {

/// What a pass reports back to the pipeline.
struct PassResult {
    /// Whether the pass changed the graph.
    bool changed = false;
};

}  // namespace flowhls
