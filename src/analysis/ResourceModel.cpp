// filter_resources: operator instances, control logic and local storage of one filter; shared_units.
#include "analysis/ResourceModel.h"
#include "analysis/MemoryModel.h"

#include <algorithm>

namespace flowhls {

UnitDemand filter_units(const FilterSchedule &schedule) {
    // The regions of a function run one after another and share the instances: the function
    // needs the most any region needs of each kind.
    UnitDemand units;
    for (const UnitDemand &region : schedule.regions) {
        for (const auto &kv : region) units[kv.first] = std::max(units[kv.first], kv.second);
    }
    // Operators outside every region (straight-line code of the function): one instance each.
    for (const auto &kv : schedule.operations) {
        if (kv.first == "load" || kv.first == "store" || kv.second == 0) continue;
        if (!units.count(kv.first) && !units.count(kv.first + "_fabric")) units[kv.first] = 1;
    }
    return units;
}

Resources unit_resources(const UnitDemand &units, const Device &device) {
    Resources r;
    for (const auto &kv : units) {
        const OperatorCost &c = device.op(kv.first);
        r.dsp += kv.second * c.dsp;
        r.lut += kv.second * c.lut;
        r.ff += kv.second * c.ff;
    }
    return r;
}

UnitDemand shared_units(const std::vector<UnitDemand> &units, const std::vector<int64_t> &start,
                        const std::vector<int64_t> &finish) {
    UnitDemand shared;
    // The most filters running at once start together with one of them.
    for (size_t k = 0; k < units.size(); k++) {
        UnitDemand now;
        for (size_t i = 0; i < units.size(); i++) {
            bool running = i == k || (start[i] <= start[k] && start[k] < finish[i]);
            if (!running) continue;
            for (const auto &kv : units[i]) now[kv.first] += kv.second;
        }
        for (const auto &kv : now) shared[kv.first] = std::max(shared[kv.first], kv.second);
    }
    return shared;
}

Resources filter_resources(const FilterSchedule &schedule, const std::vector<LocalBuffer> &locals,
                           const Device &device, bool own_function) {
    Resources r = unit_resources(filter_units(schedule), device);
    r.dsp += schedule.index_multipliers;
    auto add = [&](const std::string &what, int64_t count) {
        ControlCost c = device.control_cost(what);
        r.lut += count * c.lut;
        r.ff += count * c.ff;
    };
    if (own_function) add("function", 1);
    add("index_multiplier", schedule.index_multipliers);
    // Address and data registers of each load and store in the code.
    for (const char *m : {"load", "store"}) {
        auto it = schedule.operations.find(m);
        if (it != schedule.operations.end()) add("memory_op", it->second);
    }
    for (const LoopEstimate &l : schedule.loops) {
        if (l.pipelined) {
            add("pipeline", 1);
            add("flattened_level", l.flattened_levels - 1);
        } else {
            add("loop", 1);
        }
    }
    for (const LocalBuffer &l : locals) {
        if (l.scalar) continue;
        // Bound to UltraRAM by bind-uram: each bank its own blocks; to LUT RAM by bind-lutram.
        Storage st = l.uram     ? uram_storage(l.size, l.type.bits(), l.partition, device)
                     : l.lutram ? lutram_storage(l.size, l.type.bits(), l.partition, device)
                                : array_storage(l.size, l.type.bits(), l.partition, device);
        if (st.bram18k > 0 || st.uram > 0 || st.lut > 0) add("local_ram", 1);
        // A dataflow loop's ping-pong local: two copies of its storage and their switch.
        const int64_t copies = l.ping_pong_loop.empty() ? 1 : 2;
        if (copies > 1) add("ping_pong", 1);
        r.bram18k += copies * st.bram18k;
        r.uram += copies * st.uram;
        r.ff += copies * st.ff;
        r.lut += copies * st.lut;
    }
    return r;
}

}  // namespace flowhls
