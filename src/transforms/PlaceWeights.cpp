// place_weights: constant inputs as on-chip ROMs or m_axi kernel arguments.
#include "transforms/PlaceWeights.h"
#include "analysis/MemoryModel.h"

#include <algorithm>

namespace flowhls {

namespace {

int64_t bytes_of(const Buffer &b) { return static_cast<int64_t>(b.contents.size_in_bytes()); }

int64_t uram_of(const Buffer &b, const WeightOptions &o) { return uram_for(b.size(), b.type.bits(), o.uram_words, o.uram_bits); }

// Of `weights` (smallest first), those the URAM tier takes: read by one filter, each while its
// blocks still fit in `budget`; the others go to `rest`. Sizes and readers only: the decision
// must not depend on the schedule (flowhls dse decides its space from the unscheduled graph's
// placement, every point compiles with its own schedule).
std::vector<Buffer *> take_resident(const std::vector<Buffer *> &weights, int64_t budget, const WeightOptions &o,
                                    std::vector<Buffer *> &rest) {
    std::vector<Buffer *> resident;
    for (Buffer *b : weights) {
        if (b->consumers.size() == 1 && uram_of(*b, o) <= budget) {
            budget -= uram_of(*b, o);
            resident.push_back(b);
        } else {
            rest.push_back(b);
        }
    }
    return resident;
}

bool smaller(const Buffer *a, const Buffer *b) {
    if (bytes_of(*a) != bytes_of(*b)) return bytes_of(*a) < bytes_of(*b);
    return a->name < b->name;
}

}  // namespace

WeightOptions weight_options(WeightPlacement placement, const Device &device, HlsTarget target, int axi_width_bits) {
    if (placement == WeightPlacement::Uram && target != HlsTarget::Vitis) {
        throw Error("--weights uram: PandA-Bambu designs have no UltraRAM tier (weights are ROMs or m_axi "
                    "arguments); use --weights auto, rom or axi");
    }
    WeightOptions o;
    o.placement = placement;
    o.bram_bytes = device.capacity.bram18k * device.bram18k_bits / 8;
    o.part = device.part;
    o.axi_width_bits = target == HlsTarget::Vitis ? axi_width_bits : 0;
    if (target == HlsTarget::Vitis && device.uram_words > 0) {
        o.uram_blocks = device.capacity.uram;
        o.uram_words = device.uram_words;
        o.uram_bits = device.uram_bits;
    }
    return o;
}

PassResult place_weights(FilterGraph &graph, const WeightOptions &options) {
    PassResult result;
    std::vector<Buffer *> constants;
    for (Buffer &b : graph.buffers) {
        if (b.kind == BufferKind::Constant) constants.push_back(&b);
    }
    std::vector<Buffer *> to_axi, resident;
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
    } else if (options.placement == WeightPlacement::Uram) {
        if (options.uram_blocks <= 0) {
            throw Error("--weights uram: " + options.part + " has no UltraRAM; use --weights auto, rom or axi, or a "
                        "--device with URAM (xcvu9p, xcu250, xcu280)");
        }
        std::vector<Buffer *> roms;
        resident = take_resident(constants, INT64_MAX, options, roms);
        int64_t blocks = 0;
        for (const Buffer *b : resident) blocks += uram_of(*b, options);
        if (blocks > options.uram_blocks) {
            throw Error("--weights uram: the weights take " + std::to_string(blocks) + " UltraRAM blocks, more than the " +
                        std::to_string(options.uram_blocks) + " of " + options.part + "; use --weights auto");
        }
    } else {
        // Smallest first (then by name, for determinism) while they fit in half the part's BRAM,
        // a quarter with a URAM tier: the dataflow's buffers and the jams' banks need block RAM,
        // the larger weights go to URAM (ResNet-18 at 224x224: 2,632 BRAM18K in ROMs bound the jams).
        std::vector<Buffer *> order = constants;
        std::stable_sort(order.begin(), order.end(), smaller);
        int64_t budget = options.uram_blocks > 0 ? options.bram_bytes / 4 : options.bram_bytes / 2;
        size_t fitting = 0;
        for (; fitting < order.size() && bytes_of(*order[fitting]) <= budget; fitting++) budget -= bytes_of(*order[fitting]);
        std::vector<Buffer *> rest(order.begin() + static_cast<std::ptrdiff_t>(fitting), order.end());
        // The URAM tier takes what the ROMs left, smallest first (each that still fits), in half
        // the part's URAM.
        resident = take_resident(rest, options.uram_blocks / 2, options, to_axi);
    }
    for (ChannelKind channel : {ChannelKind::Resident, ChannelKind::OffChip}) {
        for (Buffer *b : channel == ChannelKind::Resident ? resident : to_axi) {
            b->kind = BufferKind::Input;
            b->channel = channel;
            b->contents = Halide::Buffer<>();
            b->interface.width_bits = options.axi_width_bits > b->type.bits() ? options.axi_width_bits : 0;
            result.changed = true;
        }
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
