// Analyses shown as text, for `flowhls opt --analysis` and its file tests.
#pragma once

#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// Names --analysis accepts: "hls-unroll", "memory-ports".
std::vector<std::string> analysis_names();

/// Contract: one comment line per array accessed in one iteration of a pipelined loop (after
/// the HLS unrolls, as infer-partitions sees it): the loop, the array, its accesses per
/// iteration, and the reads and writes of its busiest bank under its current partition and
/// of its most accessed element. Pure.
std::string print_memory_ports(const FilterGraph &graph);

/// Contract: `graph` with every filter body replaced by apply_hls_unroll(body, directives):
/// the body copies the HLS tool makes (for analyses; never emitted). Pure.
FilterGraph with_hls_unroll(const FilterGraph &graph);

}  // namespace flowhls
