// Pass check-dataflow: whether the main filter is a dataflow region, and the arrays' channels.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: stores the verdict of check_dataflow_legality (analysis/DataflowLegality) in
/// graph.dataflow, "no" with the directive as reason when the user turned the region off,
/// and makes every intermediate array a ping-pong buffer when the region is legal (an array
/// of a sequential top function when not). Streams and scalars keep their channel.
PassResult check_dataflow(FilterGraph &graph);

}  // namespace flowhls
