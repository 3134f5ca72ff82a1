// Pass legalize-dataflow: single-producer, single-consumer channels (HIDA optimization 1).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: rewrites what a Vitis dataflow region forbids into legal form, keeping the
/// computed values: the filters between the first and the last producer of a buffer written
/// by several filters are merged into one; a kernel output that other filters read is
/// computed into an intermediate that a copy filter writes to the output; a buffer (input or
/// intermediate) read by several filters gets a fork filter, placed right after its producer,
/// that reads it once in order and writes one copy per reader, each reader then reading its
/// own copy. Filters returning scalars are left alone. ROMs may have several readers. A top
/// function the dataflow directive turns off (FilterGraph::dataflow_disabled) is left as it is.
PassResult legalize_dataflow(FilterGraph &graph);

}  // namespace flowhls
