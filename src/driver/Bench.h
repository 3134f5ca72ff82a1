// flowhls bench: compile time and QoR of every bundled example beside published figures.
#pragma once

#include "flowhls/Compiler.h"

#include <iosfwd>
#include <string>

namespace flowhls {

/// Options of a benchmark run.
struct BenchOptions {
    HlsTarget target = HlsTarget::Vitis;
    std::string device = "xc7z020";
    double clock_mhz = 100.0;
    /// Directory to read the published figures from instead of the copy embedded in the
    /// binary (bench/reference of the source tree at build time); "" for the embedded one.
    std::string reference_dir;
};

/// Contract: compiles every bundled example with each named schedule the target accepts
/// (into temporary directories), and prints a table of wall-clock compile time and the QoR
/// estimate, followed by the published figures of other systems for the same kernels
/// (clearly labelled, never mixed into flowhls's numbers). The PolyBench examples run their
/// baseline schedule only (their corpus schedules are what the calibration compares). Throws
/// flowhls::Error when a reference directory is given and cannot be read.
void run_bench(const BenchOptions &options, std::ostream &out);

}  // namespace flowhls
