// Pass reshape-banks: the banks of an integer ROM read at one offset a cycle packed into wide words (ARRAY_RESHAPE).
#pragma once

#include "analysis/Device.h"
#include "transforms/Pass.h"

namespace flowhls {

/// What reshape-banks decides with.
struct ReshapeOptions {
    /// The part (its block-RAM model); null, or a target without ARRAY_RESHAPE (PandA-Bambu):
    /// the pass does nothing.
    const Device *device = nullptr;
};

/// Contract: runs after infer-partitions, before bind-uram and bind-lutram. A ROM of an integer
/// type whose 1-D cyclic or block partition infer-partitions chose (not a user's, not one of
/// several dimensions) becomes a reshape (ArrayPartition::reshape: one memory whose words hold
/// `factor` elements, Vitis ARRAY_RESHAPE) when (1) the reshape takes fewer BRAM18K and no more
/// UltraRAM than the banks (MemoryModel's array_storage: an int8 weight of 64 banks of 576
/// words takes 64 BRAM18K, one memory of 576 words of 512 bits 29) and (2) it still serves
/// every pipelined loop of every filter reading it as infer-partitions requires
/// (partition_serves: the banks are read at one offset in the same cycle, as an unrolled or
/// jammed convolution reads its weights: a block partition's offsets a multiple of the block
/// apart). The partition's reason says so. The generated C is the same but for the pragma.
/// Deterministic.
PassResult reshape_banks(FilterGraph &graph, const ReshapeOptions &options);

}  // namespace flowhls
