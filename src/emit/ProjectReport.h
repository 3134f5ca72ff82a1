// report.txt of a project: the design summary and the QoR estimate, assembled in one place.
#pragma once

#include "analysis/QorEstimator.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// Contract: the estimate's text: qor_text(estimate, device), then `target_model` (a target's
/// own estimate, such as the PandA-Bambu cycle model; "" for none). Read-only.
std::string estimate_text(const DesignEstimate &estimate, const Device &device, const std::string &target_model);

/// Contract: the text of report.txt: the kernel's filters and buffers, the directives
/// (inferred ones counted; each user directive with whether and how `target` applies it), the
/// dataflow verdict, then estimate_text(estimate, device, target_model). Read-only. (`flowhls synth`
/// later appends what PandA-Bambu measured, emit/bambu/BambuReport.)
std::string project_report(const FilterGraph &graph, HlsTarget target, const DesignEstimate &estimate,
                           const Device &device, const std::string &target_model);

}  // namespace flowhls
