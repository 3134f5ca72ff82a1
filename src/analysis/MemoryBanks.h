// Memory ports one pipeline iteration needs per bank of a (possibly partitioned) array.
#pragma once

#include "graph/FilterGraph.h"

#include <vector>

namespace flowhls {

/// One load or store of an array in one pipeline iteration (index with lets substituted).
struct ArrayAccess {
    bool store = false;
    Halide::Expr index;
};

/// Reads and writes of the busiest bank in one iteration.
struct PortDemand {
    int64_t reads = 0, writes = 0;
};

/// Contract: groups the indices by constant difference and places each access in its bank:
/// cyclic: offset mod factor; block: the block the access's index range lies in (ranges of
/// the loop variables from `ranges`, may be null), or, for offsets a whole number of blocks
/// apart, distinct blocks; an access whose block is unknown may meet any other. Returns the
/// reads and writes of the busiest bank, summed over index groups (indices not a constant
/// apart may meet in any bank). Reads of an array the iteration never writes count once per
/// address (the HLS tool reuses the value). A disabled partition is one bank; a complete one
/// needs no ports (registers). Pure.
PortDemand port_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition, int64_t size,
                       const Halide::Internal::Scope<Halide::Internal::Interval> *ranges);

/// Reads and writes of the most accessed single element: what no partition can separate.
PortDemand same_element_demand(const std::vector<ArrayAccess> &accesses);

}  // namespace flowhls
