// The named constant-trip loops of a filter body, as the exploration reads them.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// A loop named `FUNC.sN.VAR` with a constant trip count: its Func (by Halide base name, as
/// filters are named), stage, variable and trip, and the innermost such loop enclosing it.
struct GraphLoop {
    std::string func, var;
    int stage = 0;
    int64_t trip = 0;
    int parent = -1;  ///< index in the same list, -1 if none
};

/// Contract: the loops of `body` named `FUNC.sN.VAR` with a constant trip count, in pre-order
/// (outermost first); loops of other names or trips are skipped (their children are not).
/// Pure; an undefined body has none.
std::vector<GraphLoop> graph_loops(const Halide::Internal::Stmt &body);

}  // namespace flowhls::dse
