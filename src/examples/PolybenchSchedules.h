// Named schedules of the PolyBench examples: baseline and the corpus designs (ScaleHLS, HIDA, Stream-HLS).
#pragma once

#include "examples/ExampleRegistry.h"

#include <string>
#include <vector>

namespace flowhls {

/// The kernel parameters (NI, NJ, ... as PolyBench names them) of dataset `size` ("mini",
/// "small" or "medium"); throws std::logic_error for another.
std::vector<int> polybench_dataset(const std::string &size, std::vector<int> mini, std::vector<int> small,
                                   std::vector<int> medium);

/// The named schedules of PolyBench kernel `kernel` ("gemm", "2mm", ...), `baseline` first:
/// PolyBench's loop nest with Vitis HLS defaults (innermost loops pipelined, arrays on block-RAM
/// ports, no dataflow), the design of the calibration corpus's polybench/vitis sources.
std::vector<ExampleSchedule> polybench_schedules(const std::string &kernel);

/// The Stream-HLS designs of `kernel` (gemm, 2mm, 3mm, atax, bicg, gesummv, mvt; none for the
/// others): streamhls_opt1 and streamhls_opt2, each with its own formulation of the algorithm
/// (Stream-HLS computes alpha*(A*B), not (alpha*A)*B, and splits the kernel into processes).
std::vector<ExampleSchedule> streamhls_schedules(const std::string &kernel);

/// The HIDA designs of `kernel` (schedule `hida`), each with its own formulation: HIDA's loop
/// order and tiling, its reduction order within a tile, and two-dimensional arguments passed
/// bank by bank (flowhls arrays are one-dimensional; docs/calibration.md).
std::vector<ExampleSchedule> hida_schedules(const std::string &kernel);

/// The HIDA and ScaleHLS designs of 2mm and 3mm (schedules `hida` and `scalehls`; none for the
/// other kernels): the tools' loop order, tiling and sums, arrays partitioned on rows and
/// columns keeping their shape, each nest's filter inlined into one sequential top function.
std::vector<ExampleSchedule> hida_mm_schedules(const std::string &kernel);

}  // namespace flowhls
