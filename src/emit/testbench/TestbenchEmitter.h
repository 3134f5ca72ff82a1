// Testbench and project files of a generated HLS project (tb.cpp, Makefile, scripts, README).
#pragma once

#include "emit/EmittedFile.h"
#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// Settings of the vendor-tool script.
struct ProjectSettings {
    std::string part = "xc7z020clg400-1";
    double clock_mhz = 100.0;
};

/// Data file of kernel argument `arg` ("data/input.npy", "data/out.expected.npy").
std::string data_file(const Buffer &arg);

/// Contract: prints the C-simulation testbench, the Makefile (g++ csim, with and without
/// sanitizers), run_hls.tcl (Vitis csim/csynth/cosim), README.md and report.txt for the
/// prepared graph. Read-only.
std::vector<EmittedFile> emit_project_files(const FilterGraph &graph, const ProjectSettings &settings);

}  // namespace flowhls
