// Testbench and project files of a generated HLS project (tb, Makefile, README).
#pragma once

#include "emit/EmittedFile.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// Settings of a generated project.
struct ProjectSettings {
    HlsTarget target = HlsTarget::Vitis;
    /// Part for Vitis HLS and device for PandA-Bambu (the same FPGA).
    std::string vitis_part = "xc7z020clg400-1";
    std::string bambu_device = "xc7z020-1clg484-VVD";
    double clock_mhz = 100.0;
    /// Default tolerance of the testbench's comparison (0 and 0: bit-exact).
    double atol = 0.0;
    double rtol = 0.0;
};

/// Data file of kernel argument `arg` ("data/input.npy", "data/out.expected.npy").
std::string data_file(const Buffer &arg);

/// Name of the kernel source for a target ("kernel.cpp" for Vitis, "kernel.c" for Bambu).
std::string kernel_source_file(HlsTarget target);

/// Contract: prints the C-simulation testbench (plain C99 that also compiles as C++), the
/// Makefile (g++ or gcc -std=c99; plain and sanitizer builds) and README.md for the prepared
/// graph (report.txt: emit/ProjectReport). Read-only.
std::vector<EmittedFile> emit_project_files(const FilterGraph &graph, const ProjectSettings &settings);

}  // namespace flowhls
