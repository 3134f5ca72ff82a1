// QoR report of a design: text table and JSON (report.txt / report.json).
#pragma once

#include "analysis/QorEstimator.h"
#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// Contract: the estimate as a text table: one row per filter (loops, trip counts, II,
/// latency, DSP, BRAM18K, LUT, FF), then totals against the device's capacity (with % and a
/// "does not fit" line naming each exceeded resource), latency, interval and throughput.
std::string qor_text(const DesignEstimate &estimate, const Device &device);

/// Contract: the same estimate as JSON (schema in docs/qor.md), deterministic.
std::string qor_json(const DesignEstimate &estimate, const Device &device);

}  // namespace flowhls
