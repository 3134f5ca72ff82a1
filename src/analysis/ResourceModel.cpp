// filter_resources: operator instances, control logic and local storage of one filter.
#include "analysis/ResourceModel.h"
#include "analysis/MemoryModel.h"

#include <algorithm>

namespace flowhls {

UnitDemand operator_units(const FilterSchedule &schedule) {
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

Resources filter_resources(const FilterSchedule &schedule, const std::vector<LocalBuffer> &locals,
                           const Device &device) {
    Resources r;
    UnitDemand units = operator_units(schedule);
    for (const auto &kv : units) {
        const OperatorCost &c = device.op(kv.first);
        r.dsp += kv.second * c.dsp;
        r.lut += kv.second * c.lut;
        r.ff += kv.second * c.ff;
    }
    r.dsp += schedule.index_multipliers;
    auto add = [&](const std::string &what, int64_t count) {
        ControlCost c = device.control_cost(what);
        r.lut += count * c.lut;
        r.ff += count * c.ff;
    };
    add("function", 1);
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
        Storage st = array_storage(l.size, l.type.bits(), l.partition, device);
        if (st.bram18k > 0 || st.uram > 0) add("local_ram", 1);
        r.bram18k += st.bram18k;
        r.uram += st.uram;
        r.ff += st.ff;
    }
    return r;
}

}  // namespace flowhls
