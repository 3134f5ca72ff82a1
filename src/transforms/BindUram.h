// Pass bind-uram: large banked local arrays (a jam's block copies) bound to UltraRAM.
#pragma once

#include "analysis/Device.h"
#include "transforms/Pass.h"

#include <cstdint>

namespace flowhls {

/// What bind-uram decides with.
struct UramOptions {
    /// The part (its UltraRAM geometry and block-RAM model); null, or a part without URAM, or
    /// a target without a URAM binding (PandA-Bambu): the pass does nothing.
    const Device *device = nullptr;
    /// Most UltraRAM blocks the design's arrays may take together (the URAM of the budget).
    int64_t uram_blocks = 0;
};

/// Contract: runs after infer-partitions. Counts the UltraRAM the design's arrays already take
/// as the estimator does (URAM-resident weights, single-bank arrays the tool puts in one
/// UltraRAM, MemoryModel's array_storage / uram_storage), then binds local arrays partitioned
/// into at least two banks, each bank needing at least device->uram_min_bram18k block RAMs
/// (and elements of at most device->uram_bits bits), to UltraRAM (LocalBuffer::uram: each bank
/// in its own blocks, uram_storage): most block RAMs saved per UltraRAM first (then filter and
/// local order), each while the total stays within options.uram_blocks. Before, and for each
/// local it binds, an array whose partition infer-partitions chose (1-D cyclic) gets the larger
/// cyclic factor (at most 128) taking the fewest UltraRAM blocks, fewer than its own (then the
/// fewest banks), among those that serve the accesses of the filters touching it as
/// infer-partitions requires (serving_cyclic_factors; a URAM-resident weight: its consumers),
/// when there is one: a 65 x 4,538-float block copy gets 73 banks of 4,040 floats (73 URAM
/// instead of 130), a resident weight of 35 x 16,852 floats 73 banks of 8,080 (146 instead of 175); the
/// partition's reason says so. Only the storage binding and those factors change (the generated
/// C is the same but for the bind_storage and partition pragmas). Deterministic.
PassResult bind_uram(FilterGraph &graph, const UramOptions &options);

}  // namespace flowhls
