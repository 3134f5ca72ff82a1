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

// The copies of a local's storage: two for a dataflow loop's ping-pong local, as the estimator
// counts them (ResourceModel).
int64_t local_copies(const LocalBuffer &l) { return l.ping_pong_loop.empty() ? 1 : 2; }

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
        used += (b.uram ? uram_storage(b.size(), stored_bits(graph, b), b.partition, device)
                        : array_storage(b.size(), stored_bits(graph, b), b.partition, device))
                    .uram *
                impl.copies;
    }
    for (const Filter &f : graph.filters) {
        for (const LocalBuffer &l : f.locals) {
            if (l.scalar) continue;
            used += (l.uram ? uram_storage(l.size, l.type.bits(), l.partition, device).uram
                            : array_storage(l.size, l.type.bits(), l.partition, device).uram) *
                    local_copies(l);
        }
    }
    return used;
}

// infer-partitions' largest cyclic factor (rows of a flattened array).
constexpr int64_t kMaxUramBanks = 128;

struct Candidate {
    LocalBuffer *local;  // a local array, or
    Buffer *channel;     // an on-chip channel between filters (its copies)
    int64_t saved_bram18k, uram;
    ArrayPartition partition;  // what the local gets when bound
};

// On-chip channels (ping-pong buffers, arrays) in block RAM whose every bank needs at least
// the part's uram_min_bram18k: candidates at their partition, all their copies.
void channel_candidates(FilterGraph &graph, const Device &device, std::vector<Candidate> &candidates) {
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.uram) continue;
        ChannelImplementation impl = channel_of(b);
        int bits = stored_bits(graph, b);
        if (impl.memory != MemoryKind::LocalRam || bits > device.uram_bits || !b.partition.dims.empty()) continue;
        Storage bram = array_storage(b.size(), bits, b.partition, device);
        if (bram.uram > 0 || bram.bram18k < banks_of(b.partition) * device.uram_min_bram18k) continue;
        candidates.push_back({nullptr, &b, bram.bram18k * impl.copies,
                              uram_storage(b.size(), bits, b.partition, device).uram * impl.copies, b.partition});
    }
}

// `p` for an array of `size` elements of `bits` bound to UltraRAM: the cyclic factor above its
// own (up to kMaxUramBanks) that takes the fewest UltraRAM blocks, fewer than `p` takes (then
// the fewest banks), among those every filter of `filters` serves (serving_cyclic_factors);
// `p` itself when there is none, or when `p` is not a 1-D cyclic partition infer-partitions chose.
// `p` packed in pairs (ArrayPartition::pairs): the fewest pairs that are a multiple of its banks.
ArrayPartition packed(ArrayPartition p, int64_t size) {
    int64_t banks = banks_of(p);
    p.pairs = banks * ((size + 2 * banks - 1) / (2 * banks));
    return p;
}

// With `pack`, every partition considered (`p` itself among them) packed in pairs.
ArrayPartition uram_partition(const std::vector<const Filter *> &filters, const std::string &name, int64_t size,
                              int bits, const ArrayPartition &p, const Device &device, bool pack = false) {
    bool inferred = p.enabled && p.inferred && p.reason.rfind("inferred: ", 0) == 0;
    if (!inferred || p.kind != PartitionKind::Cyclic || !p.dims.empty()) return pack ? packed(p, size) : p;
    int64_t banks = banks_of(p);
    int64_t blocks = uram_storage(size, bits, pack ? packed(p, size) : p, device).uram;
    auto blocks_at = [&](int64_t factor) {
        ArrayPartition q = p;
        q.factor = factor;
        return uram_storage(size, bits, pack ? packed(q, size) : q, device).uram;
    };
    std::vector<int64_t> factors;
    for (int64_t f = banks + 1; f <= kMaxUramBanks; f++) {
        if (blocks_at(f) < blocks) factors.push_back(f);
    }
    std::stable_sort(factors.begin(), factors.end(),
                     [&](int64_t a, int64_t b) { return blocks_at(a) < blocks_at(b); });
    for (const Filter *f : filters) {
        if (factors.empty()) break;
        factors = serving_cyclic_factors(*f, name, size, factors);
    }
    if (factors.empty()) return pack ? packed(p, size) : p;
    ArrayPartition fitted = p;
    fitted.factor = factors.front();
    fitted.reason += "; bind-uram: " + std::to_string(fitted.factor) + " banks instead of " + std::to_string(banks) +
                     ", " + std::to_string(blocks_at(fitted.factor)) + " UltraRAM blocks instead of " +
                     std::to_string(blocks);
    return pack ? packed(fitted, size) : fitted;
}

// Whether a URAM-resident weight of `bits`-bit elements partitioned as `p` may be packed in
// pairs: two elements fit one UltraRAM word, and its banks are cyclic in one dimension (or one).
bool packable(const ArrayPartition &p, int bits, const Device &device) {
    if (2 * bits > device.uram_bits || !p.dims.empty() || p.reshape) return false;
    return !p.enabled || p.kind == PartitionKind::Cyclic;
}

// URAM-resident weights refitted (uram_partition, served by their consumers); whether any changed.
bool fit_resident(FilterGraph &graph, const Device &device) {
    bool changed = false;
    for (Buffer &b : graph.buffers) {
        if (b.channel != ChannelKind::Resident || b.is_scalar()) continue;
        std::vector<const Filter *> readers;
        for (int c : b.consumers) readers.push_back(&graph.filters[c]);
        if (readers.empty()) continue;
        int bits = stored_bits(graph, b);
        ArrayPartition p = uram_partition(readers, b.name, b.size(), bits, b.partition, device);
        if (packable(b.partition, bits, device)) {
            // Two elements a 72-bit word when that takes fewer blocks (the fc's 512,000 floats:
            // 63 instead of 125).
            ArrayPartition q = uram_partition(readers, b.name, b.size(), bits, b.partition, device, true);
            int64_t blocks = uram_storage(b.size(), bits, p, device).uram;
            int64_t fewer = uram_storage(b.size(), bits, q, device).uram;
            if (fewer < blocks) {
                q.reason += "; bind-uram: packed in pairs, " + std::to_string(fewer) + " UltraRAM blocks instead of " +
                            std::to_string(blocks);
                p = q;
            }
        }
        if (p.factor != b.partition.factor || p.pairs != b.partition.pairs) {
            b.partition = p;
            changed = true;
        }
    }
    return changed;
}

}  // namespace

PassResult bind_uram(FilterGraph &graph, const UramOptions &options) {
    PassResult result;
    const Device *device = options.device;
    if (!device || device->uram_words <= 0 || device->uram_bits <= 0) return result;
    result.changed = fit_resident(graph, *device);
    std::vector<Candidate> candidates;
    for (Filter &f : graph.filters) {
        for (LocalBuffer &l : f.locals) {
            int64_t banks = banks_of(l.partition);
            if (l.scalar || l.uram || banks < 2 || l.type.bits() > device->uram_bits) continue;
            Storage bram = array_storage(l.size, l.type.bits(), l.partition, *device);
            if (bram.uram > 0 || bram.bram18k < banks * device->uram_min_bram18k) continue;
            ArrayPartition p = uram_partition({&f}, l.name, l.size, l.type.bits(), l.partition, *device);
            candidates.push_back({&l, nullptr, bram.bram18k * local_copies(l),
                                  uram_storage(l.size, l.type.bits(), p, *device).uram * local_copies(l), p});
        }
    }
    channel_candidates(graph, *device, candidates);
    // Most block RAM saved per UltraRAM first; stable: filter and local order break ties.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
        return a.saved_bram18k * b.uram > b.saved_bram18k * a.uram;
    });
    int64_t used = uram_in_use(graph, *device);
    for (const Candidate &c : candidates) {
        if (used + c.uram > options.uram_blocks) continue;
        used += c.uram;
        if (c.channel) {
            c.channel->uram = true;
        } else {
            c.local->uram = true;
            c.local->partition = c.partition;
        }
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
