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
/// local order), each while the total stays within options.uram_blocks. A bound local whose
/// banks (an inferred 1-D cyclic partition) are deeper than one UltraRAM block gets the
/// smallest larger cyclic factor (at most 128) whose banks fit one block each, when one serves
/// the filter's accesses as infer-partitions requires (smallest_serving_cyclic_factor) and it
/// takes fewer UltraRAMs (a 65 x 4,538-float copy: 73 banks of 4,040, 73 URAM instead of 130);
/// the reason text says so. Only the storage binding and that factor change (the generated C
/// is the same but for the bind_storage and partition pragmas). Deterministic.
PassResult bind_uram(FilterGraph &graph, const UramOptions &options);

}  // namespace flowhls
