// reshape_banks: integer ROM banks read at one offset packed into wide words.
#include "transforms/ReshapeBanks.h"
#include "analysis/MemoryModel.h"
#include "graph/Precision.h"
#include "transforms/InferPartitions.h"

namespace flowhls {

namespace {

// Whether reshape-banks may reshape `p`: a 1-D cyclic or block partition infer-partitions chose.
bool candidate(const ArrayPartition &p) {
    return p.enabled && !p.reshape && p.inferred && p.reason.rfind("inferred: ", 0) == 0 && p.dims.empty() &&
           p.factor > 1 && (p.kind == PartitionKind::Cyclic || p.kind == PartitionKind::Block);
}

}  // namespace

PassResult reshape_banks(FilterGraph &graph, const ReshapeOptions &options) {
    PassResult result;
    if (!options.device) return result;
    for (Buffer &b : graph.buffers) {
        if (b.channel != ChannelKind::Rom || b.type.is_float() || !candidate(b.partition)) continue;
        ArrayPartition reshaped = b.partition;
        reshaped.reshape = true;
        int bits = stored_bits(graph, b);
        Storage banks = array_storage(b.size(), bits, b.partition, *options.device);
        Storage words = array_storage(b.size(), bits, reshaped, *options.device);
        if (words.bram18k >= banks.bram18k || words.uram > banks.uram) continue;
        bool serves = true;
        for (int c : b.consumers) serves = serves && partition_serves(graph.filters.at(size_t(c)), b.name, b.size(), reshaped);
        for (int p : b.producers) serves = serves && partition_serves(graph.filters.at(size_t(p)), b.name, b.size(), reshaped);
        if (!serves) continue;
        reshaped.reason += "; reshaped: " + std::to_string(banks.bram18k) + " banks' BRAM18K -> " +
                           std::to_string(words.bram18k) + " in words of " + std::to_string(reshaped.factor) +
                           " elements read at one offset";
        b.partition = reshaped;
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
