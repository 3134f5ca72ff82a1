// bind_uram: large banked local arrays (a jam's block copies) bound to UltraRAM.
#include "transforms/BindUram.h"
#include "analysis/MemoryModel.h"
#include "graph/Precision.h"
#include "transforms/InferPartitions.h"

#include <algorithm>

namespace flowhls {

namespace {

bool complete(const ArrayPartition &p) { return p.enabled && p.kind == PartitionKind::Complete; }

int64_t banks_of(const ArrayPartition &p) { return p.enabled && !complete(p) ? std::max<int64_t>(p.factor, 1) : 1; }

// The UltraRAM blocks the design's arrays take before the pass, as the estimator counts them.
int64_t uram_in_use(const FilterGraph &graph, const Device &device) {
    int64_t used = 0;
    for (const Buffer &b : graph.buffers) {
        if (b.is_scalar()) continue;
        if (b.channel == ChannelKind::Resident) {
            used += uram_storage(b.size(), stored_bits(graph, b), b.partition, device).uram;
            continue;
        }
        if (b.kind == BufferKind::Input || b.kind == BufferKind::Output) continue;  // arguments
        ChannelImplementation impl = channel_of(b);
        if (impl.memory == MemoryKind::Fifo) continue;
        used += array_storage(b.size(), stored_bits(graph, b), b.partition, device).uram * impl.copies;
    }
    for (const Filter &f : graph.filters) {
        for (const LocalBuffer &l : f.locals) {
            if (l.scalar) continue;
            used += l.uram ? uram_storage(l.size, l.type.bits(), l.partition, device).uram
                           : array_storage(l.size, l.type.bits(), l.partition, device).uram;
        }
    }
    return used;
}

// infer-partitions' largest cyclic factor (rows of a flattened array).
constexpr int64_t kMaxUramBanks = 128;

struct Candidate {
    LocalBuffer *local;
    int64_t saved_bram18k, uram;
    ArrayPartition partition;  // what the local gets when bound
};

// `l`'s partition for UltraRAM: when its banks are deeper than one UltraRAM block, the smallest
// cyclic factor whose banks fit one block each and that still serves `f`'s accesses, if that
// takes fewer UltraRAMs; else its own. Only a 1-D cyclic partition infer-partitions chose.
ArrayPartition uram_partition(const Filter &f, const LocalBuffer &l, const Device &device) {
    const ArrayPartition &p = l.partition;
    bool inferred = p.inferred && p.reason.rfind("inferred: ", 0) == 0;
    if (!inferred || p.kind != PartitionKind::Cyclic || !p.dims.empty()) return p;
    int64_t banks = banks_of(p);
    int64_t uram = uram_storage(l.size, l.type.bits(), p, device).uram;
    int64_t lo = std::max((l.size + device.uram_words - 1) / device.uram_words, banks + 1);
    if (lo >= uram) return p;  // no factor that fits the blocks takes fewer of them
    int64_t factor = smallest_serving_cyclic_factor(f, l.name, l.size, lo, std::min(kMaxUramBanks, uram - 1));
    if (factor == 0) return p;
    ArrayPartition fitted = p;
    fitted.factor = factor;
    fitted.reason += "; bind-uram: " + std::to_string(factor) + " banks instead of " + std::to_string(banks) +
                     ", each within one UltraRAM block";
    return fitted;
}

}  // namespace

PassResult bind_uram(FilterGraph &graph, const UramOptions &options) {
    PassResult result;
    const Device *device = options.device;
    if (!device || device->uram_words <= 0 || device->uram_bits <= 0) return result;
    std::vector<Candidate> candidates;
    for (Filter &f : graph.filters) {
        for (LocalBuffer &l : f.locals) {
            int64_t banks = banks_of(l.partition);
            if (l.scalar || l.uram || banks < 2 || l.type.bits() > device->uram_bits) continue;
            Storage bram = array_storage(l.size, l.type.bits(), l.partition, *device);
            if (bram.uram > 0 || bram.bram18k < banks * device->uram_min_bram18k) continue;
            ArrayPartition p = uram_partition(f, l, *device);
            candidates.push_back({&l, bram.bram18k, uram_storage(l.size, l.type.bits(), p, *device).uram, p});
        }
    }
    // Most block RAM saved per UltraRAM first; stable: filter and local order break ties.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
        return a.saved_bram18k * b.uram > b.saved_bram18k * a.uram;
    });
    int64_t used = uram_in_use(graph, *device);
    for (const Candidate &c : candidates) {
        if (used + c.uram > options.uram_blocks) continue;
        used += c.uram;
        c.local->uram = true;
        c.local->partition = c.partition;
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
