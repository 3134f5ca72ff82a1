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
    /// Data width in bits of the m_axi ports of the weights made arguments (--axi-width; 0 or
    /// at most the element's width: not widened). Vitis widens such a port automatically
    /// (`max_widen_bitwidth`) where the code reads it by aligned bursts of consecutive elements.
    int axi_width_bits = 0;
};

/// Contract: runs on the graph as extracted, where every constant input is a Constant buffer
/// (ROM) with its contents. Rom keeps them all (throws flowhls::Error when they take more
/// bytes than the part's block RAM); Axi makes them all Input kernel arguments (off-chip,
/// contents dropped: the testbench supplies them); Auto keeps them as ROMs smallest first
/// (then by name) while they fit in half the block RAM, the rest become arguments. Each weight
/// made an argument gets options.axi_width_bits as its port width (ArgInterface::width_bits)
/// when that is wider than its element, else 0.
/// graph.args lists the Input then Output buffers in buffer order (program order).
PassResult place_weights(FilterGraph &graph, const WeightOptions &options);

}  // namespace flowhls
