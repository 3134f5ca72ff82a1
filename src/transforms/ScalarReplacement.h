// Pass scalar-replacement: repeated accesses to one buffer element in a loop become a scalar.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: for every serial loop with a constant positive trip count, outermost first, and every
/// buffer all of whose loads and stores in the loop use one loop-invariant index (an
/// accumulator, a reduction), with at least two such accesses and at least one of them
/// executed in every iteration: adds a one-element local buffer, loads it from the buffer
/// before the loop (if the loop reads it), replaces the accesses in the loop by accesses to
/// the local, and stores it back after the loop (if the loop writes it). The
/// trivial-buffers pass then turns the local into a scalar variable. A buffer the loop only
/// reads is left alone when the loop is in a perfect nest the HLS tool flattens
/// (flattened_nest_outer_loops), the index uses one of the nest's loops around it and the loop
/// stores nothing at an index invariant in it (no accumulation, whose recurrence sets the II
/// flattened or not): the load moved out would stop the flattening (pb_gesummv's x[j], read by
/// both sums of a row).
PassResult scalar_replacement(FilterGraph &graph);

}  // namespace flowhls
