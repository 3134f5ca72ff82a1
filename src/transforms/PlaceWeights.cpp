// place_weights: constant inputs as on-chip ROMs or m_axi kernel arguments.
#include "transforms/PlaceWeights.h"

#include <algorithm>

namespace flowhls {

namespace {

int64_t bytes_of(const Buffer &b) { return static_cast<int64_t>(b.contents.size_in_bytes()); }

}  // namespace

PassResult place_weights(FilterGraph &graph, const WeightOptions &options) {
    PassResult result;
    std::vector<Buffer *> constants;
    for (Buffer &b : graph.buffers) {
        if (b.kind == BufferKind::Constant) constants.push_back(&b);
    }
    std::vector<Buffer *> to_axi;
    if (options.placement == WeightPlacement::Axi) {
        to_axi = constants;
    } else if (options.placement == WeightPlacement::Rom) {
        int64_t total = 0;
        for (const Buffer *b : constants) total += bytes_of(*b);
        if (total > options.bram_bytes) {
            throw Error("--weights rom: the weights take " + std::to_string(total) + " bytes, more than the " +
                        std::to_string(options.bram_bytes) + " bytes of block RAM of " + options.part +
                        "; use --weights auto or axi, or a larger --device");
        }
    } else {
        // Smallest first (then by name, for determinism) while they fit in half the part's BRAM.
        std::vector<Buffer *> order = constants;
        std::stable_sort(order.begin(), order.end(), [](const Buffer *a, const Buffer *b) {
            if (bytes_of(*a) != bytes_of(*b)) return bytes_of(*a) < bytes_of(*b);
            return a->name < b->name;
        });
        int64_t budget = options.bram_bytes / 2;
        size_t fitting = 0;
        for (; fitting < order.size() && bytes_of(*order[fitting]) <= budget; fitting++) budget -= bytes_of(*order[fitting]);
        to_axi.assign(order.begin() + static_cast<std::ptrdiff_t>(fitting), order.end());
    }
    for (Buffer *b : to_axi) {
        b->kind = BufferKind::Input;
        b->channel = ChannelKind::OffChip;
        b->contents = Halide::Buffer<>();
        b->interface.width_bits = options.axi_width_bits > b->type.bits() ? options.axi_width_bits : 0;
        result.changed = true;
    }
    std::vector<std::string> args;
    for (BufferKind kind : {BufferKind::Input, BufferKind::Output}) {
        for (const Buffer &b : graph.buffers) {
            if (b.kind == kind) args.push_back(b.name);
        }
    }
    graph.args = args;
    return result;
}

}  // namespace flowhls
