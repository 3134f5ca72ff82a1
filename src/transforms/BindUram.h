// Pass bind-uram: large banked local arrays (a jam's block copies) and on-chip channels bound to
// UltraRAM; URAM-resident weights refitted and packed two to a word.
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
/// UltraRAM, MemoryModel's array_storage / uram_storage; both copies of a dataflow loop's
/// ping-pong local), then binds local arrays partitioned
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
/// partition's reason says so. A URAM-resident weight of at most uram_bits / 2-bit elements,
/// cyclic in one dimension or unpartitioned, is packed two elements a word (ArrayPartition::
/// pairs, the factor chosen alike with packed blocks) when that takes fewer blocks than the
/// unpacked fit (the fc's 512,000 floats: 63 instead of 125). On-chip channels between filters
/// (ping-pong buffers, arrays) whose every bank needs uram_min_bram18k block RAMs are
/// candidates with the locals (Buffer::uram, all their copies, their partition kept). Only
/// the storage binding, those factors and the packing change: the generated C differs in the
/// bind_storage / partition / reshape pragmas and a packed weight's [2][pairs] layout.
/// Deterministic.
PassResult bind_uram(FilterGraph &graph, const UramOptions &options);

}  // namespace flowhls
