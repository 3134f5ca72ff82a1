// channel_of / filter_arrays / storage: the memory side of the QoR model.
#include "analysis/MemoryModel.h"
#include "graph/Precision.h"

#include <algorithm>
#include <stdexcept>

namespace flowhls {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool complete(const ArrayPartition &p) { return p.enabled && p.kind == PartitionKind::Complete; }

// Banks of an array partitioned (not completely) as `p`: one for a reshape (ARRAY_RESHAPE).
int64_t bank_count(const ArrayPartition &p) {
    return p.enabled && !p.reshape ? std::max<int64_t>(p.factor, 1) : 1;
}

// Width of a bank's word: a reshape packs `factor` elements into one word.
int word_bits(int bits, const ArrayPartition &p) {
    return p.enabled && p.reshape ? bits * static_cast<int>(std::max<int64_t>(p.factor, 1)) : bits;
}

// Words of a bank: a reshape's memory holds ceil(size / factor) words.
int64_t bank_depth(int64_t size, const ArrayPartition &p) {
    return ceil_div(size, p.enabled ? std::max<int64_t>(p.factor, 1) : 1);
}

}  // namespace

ChannelImplementation channel_of(const Buffer &b) {
    const MemoryKind array = complete(b.partition) ? MemoryKind::Register : MemoryKind::LocalRam;
    switch (b.channel) {
    case ChannelKind::OffChip: return {"argument", MemoryKind::Axi, 1};
    case ChannelKind::Port:  // an on-chip port: block RAM (ap_memory) or AXI4-Stream
        return {"argument", b.interface.mode == InterfaceMode::Axis ? MemoryKind::Fifo : MemoryKind::Port, 1};
    case ChannelKind::Rom: return {"rom", array, 1};
    case ChannelKind::Resident: return {"uram-resident", array, 1};  // read on chip; loaded once
    case ChannelKind::Scalar: return {"scalar", MemoryKind::Register, 1};
    case ChannelKind::Stream:
    case ChannelKind::LineBufferedStream:
    case ChannelKind::WindowBufferedStream: return {"stream", MemoryKind::Fifo, 1};
    case ChannelKind::Array: return {"array", array, 1};
    case ChannelKind::PingPong: return {"ping-pong", array, 2};
    }
    throw std::logic_error("channel_of: unknown channel kind of " + b.name);
}

std::map<std::string, ArrayInfo> filter_arrays(const FilterGraph &graph, const Filter &filter, const Device &device) {
    std::map<std::string, ArrayInfo> arrays;
    for (const Buffer &b : graph.buffers) {
        ArrayInfo a;
        a.kind = channel_of(b).memory;
        a.partition = b.partition;
        a.size = b.size();
        if (b.is_stream() && b.stream_lanes > 1) {
            // Lanes: the accesses' index is the FIFO's (drop_stream_index), one port pair each.
            a.partition = ArrayPartition();
            a.partition.enabled = true;
            a.partition.kind = PartitionKind::Cyclic;
            a.partition.factor = b.stream_lanes;
            a.size = b.stream_lanes;
        }
        a.bits = stored_bits(graph, b);
        if (a.kind == MemoryKind::Axi) a.axi_width_bits = b.interface.width_bits;
        // A URAM-resident weight is bound to UltraRAM whatever its size (emitters' bind_storage).
        if (a.kind == MemoryKind::LocalRam && b.channel != ChannelKind::Resident &&
            a.size * a.bits <= device.register_threshold_bits) {
            a.kind = MemoryKind::Register;
        }
        arrays[b.name] = a;
    }
    for (const LocalBuffer &l : filter.locals) {
        ArrayInfo a;
        a.partition = l.partition;
        a.size = l.size;
        a.bits = filter.fixed.enabled() && l.type.is_float() ? filter.fixed.width : l.type.bits();
        bool small = l.size * a.bits <= device.register_threshold_bits;
        a.kind = l.scalar || small || complete(l.partition) ? MemoryKind::Register : MemoryKind::LocalRam;
        arrays[l.name] = a;
    }
    return arrays;
}

int64_t bram18k_for(int64_t depth, int width) {
    static const int64_t configs[][2] = {{16384, 1}, {8192, 2}, {4096, 4}, {2048, 9}, {1024, 18}, {512, 36}};
    int64_t best = INT64_MAX;
    for (const auto &c : configs) best = std::min(best, ceil_div(width, c[1]) * ceil_div(depth, c[0]));
    return best;
}

Storage array_storage(int64_t size, int bits, const ArrayPartition &p, const Device &device) {
    Storage st;
    if (complete(p)) {
        st.ff = size * bits;
        return st;
    }
    int64_t banks = bank_count(p);
    int64_t depth = bank_depth(size, p);
    bits = word_bits(bits, p);
    if (depth * bits > device.register_threshold_bits) st.bram18k = banks * bram18k_for(depth, bits);
    if (banks == 1 && device.uram_words > 0 && depth <= device.uram_words && bits <= device.uram_bits &&
        st.bram18k >= device.uram_min_bram18k) {
        st.bram18k = 0;
        st.uram = 1;
    }
    return st;
}

int64_t uram_for(int64_t depth, int width, int64_t words, int bits) {
    if (words <= 0 || bits <= 0) return 0;
    return ceil_div(depth, words) * ceil_div(width, bits);
}

Storage uram_storage(int64_t size, int bits, const ArrayPartition &p, const Device &device) {
    if (complete(p)) return array_storage(size, bits, p, device);  // registers
    Storage st;
    int64_t banks = bank_count(p);
    if (p.pairs > 0) {  // two elements a word: pairs / banks words of twice the width a bank
        st.uram = banks * uram_for(ceil_div(p.pairs, banks), 2 * bits, device.uram_words, device.uram_bits);
        return st;
    }
    st.uram = banks * uram_for(bank_depth(size, p), word_bits(bits, p), device.uram_words, device.uram_bits);
    return st;
}

bool lutram_fits(int64_t size, int bits, const ArrayPartition &p, const Device &device) {
    if (complete(p)) return false;
    int64_t depth = bank_depth(size, p);
    return depth <= kLutramMaxDepth && depth * word_bits(bits, p) > device.register_threshold_bits;
}

Storage lutram_storage(int64_t size, int bits, const ArrayPartition &p, const Device &device) {
    if (complete(p)) return array_storage(size, bits, p, device);  // registers
    Storage st;
    int64_t banks = bank_count(p);
    int64_t depth = bank_depth(size, p);
    bits = word_bits(bits, p);
    int64_t per_bank = ceil_div(depth, 64) * ceil_div(bits, 3) * 4 + (depth > 64 ? bits : 0);
    st.lut = banks * per_bank;
    st.ff = banks * bits;
    return st;
}

int64_t fifo_bram18k(int64_t depth, int bits, const Device &device) {
    return depth * bits > device.register_threshold_bits ? 1 : 0;
}

}  // namespace flowhls
