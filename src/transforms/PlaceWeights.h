// Pass place-weights: which constant inputs (weights) are on-chip ROMs and which m_axi ports.
#pragma once

#include "analysis/Device.h"
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
    /// UltraRAM blocks of the part and their geometry (words of at most uram_bits bits); 0
    /// blocks: no URAM tier (a part without URAM, or PandA-Bambu).
    int64_t uram_blocks = 0;
    int64_t uram_words = 0;
    int uram_bits = 0;
};

/// Contract: the options of `placement` on `device` for `target`: its block RAM in bytes, its
/// UltraRAM (Vitis only: PandA-Bambu has no URAM tier) and, for Vitis, `axi_width_bits`.
/// Throws flowhls::Error for --weights uram on PandA-Bambu. Pure.
WeightOptions weight_options(WeightPlacement placement, const Device &device, HlsTarget target, int axi_width_bits);

/// Contract: runs on the graph as extracted, where every constant input is a Constant buffer
/// (ROM) with its contents. Rom keeps them all (throws flowhls::Error when they take more
/// bytes than the part's block RAM); Axi makes them all Input kernel arguments (off-chip,
/// contents dropped: the testbench supplies them); Auto keeps them as ROMs smallest first
/// (then by name) while they fit in half the block RAM (a quarter with a URAM tier), the rest
/// become arguments. Each weight
/// made an argument gets options.axi_width_bits as its port width (ArgInterface::width_bits)
/// when that is wider than its element, else 0.
/// The URAM tier: a weight read by exactly one filter may become URAM-resident instead of a
/// plain argument: an Input argument with ChannelKind::Resident (its reader copies it into a
/// static UltraRAM array on the kernel's first call; the testbench supplies its contents like
/// an m_axi weight's). Auto makes the weights it did not keep as ROMs resident, smallest first
/// (then by name), each whose UltraRAM blocks (uram_for, unpartitioned) still fit in half of
/// options.uram_blocks (by size and readers alone: never by the schedule); Uram makes every weight read by one filter resident (the others stay
/// ROMs) and throws flowhls::Error without a URAM tier or when their blocks exceed the part's.
/// graph.args lists the Input then Output buffers in buffer order (program order).
PassResult place_weights(FilterGraph &graph, const WeightOptions &options);

}  // namespace flowhls
