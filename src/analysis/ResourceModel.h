// Resources of a scheduled filter: operator instances, control logic and local storage.
#pragma once

#include "analysis/Device.h"
#include "analysis/LoopScheduler.h"
#include "graph/FilterGraph.h"

namespace flowhls {

/// The operator instances a filter needs: each kind the most any region of `schedule` needs
/// (regions run one after another and share them), and one instance of each operator outside
/// every region (straight-line code). Pure.
UnitDemand operator_units(const FilterSchedule &schedule);

/// Contract: DSP, BRAM18K, LUT and FF of one filter: operator instances, each kind the most any
/// region of `schedule` needs (regions run one after another and share them), one DSP per
/// index multiplier of a flattened pipeline, control logic per function, pipeline,
/// sequential loop and flattened level (device.control), and the filter's local arrays
/// (`locals`: block RAM per bank, or flip-flops for registers). Pure.
Resources filter_resources(const FilterSchedule &schedule, const std::vector<LocalBuffer> &locals,
                           const Device &device);

}  // namespace flowhls
