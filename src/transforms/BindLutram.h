// Pass bind-lutram: local arrays of shallow banks (a jam's row accumulators, laned rings) bound to LUT RAM.
#pragma once

#include "analysis/Device.h"
#include "transforms/Pass.h"

namespace flowhls {

/// What bind-lutram decides with.
struct LutramOptions {
    /// The part (its register threshold); null, or a target without a LUT RAM binding
    /// (PandA-Bambu): the pass does nothing.
    const Device *device = nullptr;
};

/// Contract: runs after infer-partitions and bind-uram. Binds to LUT RAM (LocalBuffer::lutram,
/// bind_storage impl=lutram) every non-scalar local array not bound to UltraRAM whose banks are
/// shallow (MemoryModel's lutram_fits: at most kLutramMaxDepth words, each more than the
/// register threshold): such a bank would take a whole BRAM18K for a few thousand bits (an int8
/// jam's row accumulators: 64 banks of 56 int32 words, 1,792 of 18,432 bits each; a float
/// jam's, the same in float; a window-buffers ring written 16 lanes a cycle: 64 banks of 168
/// floats), and takes about 44 LUTs per 64 words in LUT RAM (lutram_storage). Only the storage
/// binding changes (the generated C is the same but for the bind_storage pragma).
/// Deterministic.
PassResult bind_lutram(FilterGraph &graph, const LutramOptions &options);

}  // namespace flowhls
