// PandA-Bambu target: kernel in C99 with OpenMP parallel loops, and run_bambu.sh.
#pragma once

#include "emit/EmittedFile.h"
#include "emit/KernelEmitter.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "graph/FilterGraph.h"

#include <vector>

namespace flowhls {

/// The kernel style of PandA-Bambu: C99, OpenMP parallel loops, vectors as arrays, hex floats.
KernelStyle bambu_kernel_style();

/// Contract: kernel.h, kernel.c (C99 that Bambu accepts: a function per filter, the main
/// filter as top, hexfloat constants, `#pragma omp for` on Halide parallel loops) and
/// run_bambu.sh (the bambu command line: top function, clock, device, simulation with the
/// generated testbench) for the prepared graph. Read-only.
std::vector<EmittedFile> emit_bambu_files(const FilterGraph &graph, const ProjectSettings &settings);

}  // namespace flowhls
