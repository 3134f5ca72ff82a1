// Memory ports one pipeline iteration needs per bank of a (possibly partitioned) array.
#pragma once

#include "graph/FilterGraph.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// One load or store of an array in one pipeline iteration (index with lets substituted).
struct ArrayAccess {
    bool store = false;
    Halide::Expr index;
    /// A FIFO read: it takes the next element, so two reads of one index are two pops, never
    /// one read shared (as two reads of one address of an array the iteration never writes are).
    bool pops = false;
};

/// The loads and stores of one iteration of one pipelined loop, by array name.
struct PipelineIteration {
    std::string loop;
    std::map<std::string, std::vector<ArrayAccess>> arrays;
    /// Ranges of the loop variables around (and of) the pipelined loop, outermost first.
    std::vector<std::pair<std::string, Halide::Internal::Interval>> ranges;
};

/// Contract: for every loop of `body` with a pipeline directive in `directives` (not inside
/// another one), the loads and stores of one iteration, indices with lets substituted;
/// accesses inside loops that stayed loops (not unrolled: `body` should have the HLS unrolls
/// materialized, apply_hls_unroll) are not per-iteration and are left out. Pure.
std::vector<PipelineIteration> pipeline_iterations(const Halide::Internal::Stmt &body,
                                                   const std::map<std::string, LoopDirective> &directives);

/// `ranges` as a scope (for port_demand).
Halide::Internal::Scope<Halide::Internal::Interval>
range_scope(const std::vector<std::pair<std::string, Halide::Internal::Interval>> &ranges);

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
/// needs no ports (registers). A partition of several dimensions applies the rule to each
/// dimension's index (dimension_indices, simplified with `ranges`): accesses whose indices are
/// a constant apart in every partitioned dimension are placed in bank (offset mod factor) of
/// each; others may meet in any bank. A reshaped partition (ArrayPartition::reshape) is one
/// memory of wide words: the accesses to distinct words are its demand (block: offsets a
/// multiple of the word count apart share one; cyclic: by the base's phase modulo the factor
/// when modulus_remainder knows it, else each distinct offset counts). Pure.
PortDemand port_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition, int64_t size,
                       const Halide::Internal::Scope<Halide::Internal::Interval> *ranges);

/// Reads and writes of the most accessed single element: what no partition can separate.
PortDemand same_element_demand(const std::vector<ArrayAccess> &accesses);

}  // namespace flowhls
