// channel_of / filter_arrays / storage: the memory side of the QoR model.
#include "analysis/MemoryModel.h"

#include <algorithm>

namespace flowhls {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

MemoryKind argument_memory(const Buffer &b) {
    switch (b.interface.mode) {
    case InterfaceMode::Bram: return MemoryKind::Port;
    case InterfaceMode::Axis: return MemoryKind::Fifo;
    case InterfaceMode::MAxi: return MemoryKind::Axi;
    }
    return MemoryKind::Axi;
}

bool complete(const ArrayPartition &p) { return p.enabled && p.kind == PartitionKind::Complete; }

}  // namespace

ChannelImplementation channel_of(const Buffer &b, bool dataflow) {
    ChannelImplementation c;
    if (b.kind == BufferKind::Input || b.kind == BufferKind::Output) {
        c.kind = "argument";
        c.memory = argument_memory(b);
    } else if (b.kind == BufferKind::Constant) {
        c.kind = "rom";
        c.memory = complete(b.partition) ? MemoryKind::Register : MemoryKind::LocalRam;
    } else if (b.is_scalar()) {
        c.kind = "scalar";
        c.memory = MemoryKind::Register;
    } else if (b.is_stream()) {
        c.kind = "stream";
        c.memory = MemoryKind::Fifo;
    } else {
        c.kind = dataflow ? "ping-pong" : "array";
        c.memory = complete(b.partition) ? MemoryKind::Register : MemoryKind::LocalRam;
        c.copies = dataflow ? 2 : 1;
    }
    return c;
}

std::map<std::string, ArrayInfo> filter_arrays(const FilterGraph &graph, const Filter &filter, const Device &device) {
    std::map<std::string, ArrayInfo> arrays;
    for (const Buffer &b : graph.buffers) {
        ArrayInfo a;
        a.kind = channel_of(b, graph.dataflow.legal).memory;
        a.partition = b.partition;
        a.size = b.size();
        a.bits = b.type.bits();
        if (a.kind == MemoryKind::LocalRam && a.size * a.bits <= device.register_threshold_bits) {
            a.kind = MemoryKind::Register;
        }
        arrays[b.name] = a;
    }
    for (const LocalBuffer &l : filter.locals) {
        ArrayInfo a;
        a.partition = l.partition;
        a.size = l.size;
        a.bits = l.type.bits();
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
    int64_t banks = p.enabled ? std::max<int64_t>(p.factor, 1) : 1;
    int64_t depth = ceil_div(size, banks);
    if (depth * bits > device.register_threshold_bits) st.bram18k = banks * bram18k_for(depth, bits);
    if (banks == 1 && device.uram_words > 0 && size <= device.uram_words && bits <= device.uram_bits &&
        st.bram18k >= device.uram_min_bram18k) {
        st.bram18k = 0;
        st.uram = 1;
    }
    return st;
}

int64_t fifo_bram18k(int64_t depth, int bits, const Device &device) {
    return depth * bits > device.register_threshold_bits ? 1 : 0;
}

}  // namespace flowhls
