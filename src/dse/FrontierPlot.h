// The Pareto frontier of an exploration drawn as an inline SVG scatter plot (report.html,
// `flowhls dse -o DIR`'s frontier.svg).
#pragma once

#include "dse/Search.h"

#include <string>

namespace flowhls::dse {

/// Contract: a self-contained SVG (no script, no external reference) plotting every point of
/// `result` that compiled: estimated interval (cycles, log scale) against DSPs (log scale);
/// points on the Pareto frontier joined by a line, points over `budget` hollow, the chosen
/// point starred and labelled, the DSP budget a dashed line. Titled as estimates. Pure and
/// deterministic (fixed-precision coordinates). "" when no point compiled.
std::string frontier_svg(const SearchResult &result, const Resources &budget);

} // namespace flowhls::dse
