// Pass hoist-invariants: loop-invariant computations and stores moved out of loops.
#pragma once

#include "transforms/Pass.h"

#include <map>
#include <set>
#include <string>

namespace flowhls {

/// Contract: for every loop, innermost first, moves each LetStmt found directly in the loop
/// body (not under an if or an inner loop) whose value does not depend on the loop variable
/// or on anything bound in the loop to just before the loop; values that load from memory
/// move only out of loops with a constant positive trip count and only if the loop stores
/// nothing to that buffer. A store directly in the body whose value and index are invariant
/// and whose buffer the loop does not otherwise touch moves before the loop (same condition
/// on the trip count). Repeated to a fixpoint, so computations travel as far out as their
/// dependences allow. Loads and stores do not move out of a loop of a perfect nest that the HLS
/// tool flattens into one pipeline (outer bodies holding only load-free lets and the next loop,
/// inner trip counts constant, the innermost loop pipelined: no pipelined or unrolled loop around
/// it or above it in the nest, and no directive on it other than pipeline or a partial unroll)
/// unless they depend on none of the nest's loops and so leave the whole nest: between two of
/// its loops they would stop the flattening (docs/qor.md).
PassResult hoist_invariants(FilterGraph &graph);

/// The loops of `filter` inside a perfect nest the HLS tool flattens into one pipeline (the
/// rule above), each with the loops around it in that nest (names used by several loops get the
/// union). Pure.
std::map<std::string, std::set<std::string>> flattened_nest_outer_loops(const Filter &filter);

}  // namespace flowhls
