// The exact text form of a FilterGraph (graph.txt, --dump-after, flowhls-opt) and its parser.
#pragma once

#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// Contract: the whole graph as text, every field: buffers (kind, type, shape, channel,
/// edges, directives, partitions, line-buffer plans), the main filter (arguments, dataflow
/// verdict), each filter (loop directives, locals, body in the exact IR text of
/// ir/IRText.h) and the contents of ROMs (bit patterns, at the end). parse_graph reads it
/// back into an equal graph, and printing that again gives the same text. Lines starting
/// with "//" are comments.
std::string print_graph(const FilterGraph &graph);

/// Contract: parses the text print_graph writes (comments and blank lines ignored) into a
/// FilterGraph. `source` names the text in error messages. Throws flowhls::Error
/// "SOURCE:LINE: message" on malformed text; does not verify the graph (verify_graph does).
FilterGraph parse_graph(const std::string &text, const std::string &source = "<graph>");

}  // namespace flowhls
