// Helpers shared by the design-space tests (SpaceTest.cpp, SearchTest.cpp): the space of a
// program as the exploration builds it, and its nodes by filter name.
#pragma once

#include "dse/Space.h"
#include "flowhls/HalideProgram.h"
#include "frontend/halide/ProgramCopy.h"
#include "graph/ExtractFilters.h"
#include "driver/CompileGraph.h"
#include "transforms/PlaceWeights.h"

#include <string>

namespace flowhls::dse {

inline DesignSpace space_of(const HalideProgram &program) {
    return build_space(program, extract_filters(lower_for_hls(isolated_copy(program), HlsTarget::Vitis)));
}

// The space of `program` with every weight in external memory (place-weights Axi).
inline DesignSpace axi_weight_space(const HalideProgram &program) {
    FilterGraph g = extract_filters(lower_for_hls(isolated_copy(program), HlsTarget::Vitis));
    WeightOptions axi;
    axi.placement = WeightPlacement::Axi;
    place_weights(g, axi);
    return build_space(program, g);
}

inline const NodeKnobs *node(const DesignSpace &s, const std::string &filter) {
    for (const NodeKnobs &n : s.nodes) {
        if (n.filter == filter) return &n;
    }
    return nullptr;
}

}  // namespace flowhls::dse
