// Vitis HLS C++ emitter: kernel.h and kernel.cpp from a prepared FilterGraph.
#pragma once

#include "emit/EmittedFile.h"
#include "graph/FilterGraph.h"

#include <vector>

namespace flowhls {

/// Contract: prints the graph (after the pass pipeline: legal names, no Let expressions,
/// dataflow verdict set) as Vitis HLS C++: a function per filter, a top function with
/// m_axi/s_axilite interface pragmas, `#pragma HLS dataflow` when the verdict allows it,
/// intermediate buffers as local arrays. Read-only. Returns kernel.h and kernel.cpp.
std::vector<EmittedFile> emit_vitis_kernel(const FilterGraph &graph);

/// The C parameter declaration of buffer `b` ("const float input[4096]").
std::string array_parameter(const Buffer &b, bool read_only);

}  // namespace flowhls
