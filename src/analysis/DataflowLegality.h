// Whether the main filter of a FilterGraph can be a Vitis HLS dataflow region.
#pragma once

#include "graph/FilterGraph.h"

namespace flowhls {

/// Contract: decides whether calling the filters under `#pragma HLS dataflow` is legal:
/// at least two filters; every intermediate buffer written by one filter and read by exactly
/// one other, later filter; every kernel input read by at most one filter; every output
/// written by one filter and read by no other. Pure analysis: the graph is not changed. The
/// reason names the first violation.
DataflowVerdict check_dataflow_legality(const FilterGraph &graph);

}  // namespace flowhls
