// Pass hoist-invariants: loop-invariant computations and stores moved out of loops.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: for every loop, innermost first, moves each LetStmt found directly in the loop
/// body (not under an if or an inner loop) whose value does not depend on the loop variable
/// or on anything bound in the loop to just before the loop; values that load from memory
/// move only out of loops with a constant positive trip count and only if the loop stores
/// nothing to that buffer. A store directly in the body whose value and index are invariant
/// and whose buffer the loop does not otherwise touch moves before the loop (same condition
/// on the trip count). Repeated to a fixpoint, so computations travel as far out as their
/// dependences allow.
PassResult hoist_invariants(FilterGraph &graph);

}  // namespace flowhls
