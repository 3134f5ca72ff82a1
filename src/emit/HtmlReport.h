// report.html: the QoR estimate with the dataflow graph drawn by Graphviz, viewable offline.
#pragma once

#include "analysis/QorEstimator.h"
#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// `text` with &, <, > and " escaped for HTML.
std::string html_escape(const std::string &text);

/// The filter graph in Graphviz dot: filters as boxes (with their latency), buffers as
/// edges labelled with name, type and size; kernel arguments as ellipses.
std::string dataflow_dot(const FilterGraph &graph, const DesignEstimate &estimate);

/// Contract: a self-contained HTML page (no network: inline CSS and SVG) with the design
/// summary, a per-filter table with bars for latency and resource shares, and `svg`, the
/// dataflow graph (dataflow_dot) as the caller rendered it; "" when it could not be drawn
/// (the page says Graphviz is missing). Read-only: it runs no tool and writes no file.
std::string html_report(const FilterGraph &graph, const DesignEstimate &estimate, const Device &device,
                        const std::string &svg);

}  // namespace flowhls
