// Pass place-weights: which constant inputs (weights) are on-chip ROMs and which m_axi ports.
#pragma once

#include "flowhls/Target.h"
#include "transforms/Pass.h"

#include <cstdint>
#include <string>

namespace flowhls {

/// What place-weights decides with.
struct WeightOptions {
    WeightPlacement placement = WeightPlacement::Auto;
    /// Bytes of block RAM of the part (Auto fills half of it with ROMs) and its name (for messages).
    int64_t bram_bytes = 0;
    std::string part;
};

/// Contract: runs on the graph as extracted, where every constant input is a Constant buffer
/// (ROM) with its contents. Rom keeps them all (throws flowhls::Error when they take more
/// bytes than the part's block RAM); Axi makes them all Input kernel arguments (off-chip,
/// contents dropped: the testbench supplies them); Auto keeps them as ROMs smallest first
/// (then by name) while they fit in half the block RAM, the rest become arguments.
/// graph.args lists the Input then Output buffers in buffer order (program order).
PassResult place_weights(FilterGraph &graph, const WeightOptions &options);

}  // namespace flowhls
