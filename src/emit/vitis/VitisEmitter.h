// Vitis HLS target: kernel in C++ with interface/dataflow pragmas, and run_hls.tcl.
#pragma once

#include "emit/EmittedFile.h"
#include "emit/KernelEmitter.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "graph/FilterGraph.h"

#include <vector>

namespace flowhls {

/// The kernel style of Vitis HLS: C++ with loop labels, hls::stream FIFOs, the Vitis pragmas.
KernelStyle vitis_kernel_style();

/// Contract: kernel.h, kernel.cpp (C++, loop labels, m_axi/s_axilite interfaces,
/// `#pragma HLS DATAFLOW` when the verdict allows it) and run_hls.tcl (csim, csynth,
/// cosim) for the prepared graph. Read-only.
std::vector<EmittedFile> emit_vitis_files(const FilterGraph &graph, const ProjectSettings &settings);

}  // namespace flowhls
