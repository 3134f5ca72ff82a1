// Resources of a scheduled filter: operator instances, control logic and local storage.
#pragma once

#include "analysis/Device.h"
#include "analysis/LoopScheduler.h"
#include "graph/FilterGraph.h"

namespace flowhls {

/// Contract: DSP, BRAM18K, LUT and FF of one filter: operator instances (`filter_units`), one
/// DSP per index multiplier of a flattened pipeline, control logic per function (unless
/// `own_function` is false: the filter is inlined into its caller), pipeline, sequential loop
/// and flattened level (device.control), and the filter's local arrays (`locals`: block RAM
/// per bank, or flip-flops for registers). Pure.
Resources filter_resources(const FilterSchedule &schedule, const std::vector<LocalBuffer> &locals,
                           const Device &device, bool own_function = true);

/// The operator instances `schedule` needs: of each kind the most any region needs (regions run
/// one after another and share them), and one of each kind used outside every region. Pure.
UnitDemand filter_units(const FilterSchedule &schedule);

/// DSP, LUT and FF of the operator instances `units` (device's operator table). Pure.
Resources unit_resources(const UnitDemand &units, const Device &device);

/// Contract: the operator instances of several filters that are loops of one function (inlined
/// into a sequential top function), filter i needing `units[i]` and running from `start[i]` to
/// `finish[i]`: of each kind, the most the filters running at one time need together. Vitis
/// HLS shares a function's functional units among its loops that run one after another, not
/// among loops it runs at once (independent loops of one function overlap). Pure.
UnitDemand shared_units(const std::vector<UnitDemand> &units, const std::vector<int64_t> &start,
                        const std::vector<int64_t> &finish);

}  // namespace flowhls
