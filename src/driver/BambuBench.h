// flowhls bench --bambu: the Bambu model's cycle estimates beside the cycles Bambu measured.
#pragma once

#include <iosfwd>
#include <string>

namespace flowhls {

/// Options of `flowhls bench --bambu`.
struct BambuBenchOptions {
    /// Directory holding bambu_measured.csv (bench/reference of the source tree, whose root is
    /// two levels up: the designs' compile arguments are relative to it).
    std::string reference_dir = "bench/reference";
    /// The flowhls executable that compiles each design.
    std::string flowhls_binary;
};

/// Contract: compiles every design of bambu_measured.csv with --target bambu (into a temporary
/// directory, with flowhls_binary run in the source tree) and prints, per design, the cycles
/// PandA-Bambu and Verilator measured (labelled with the tool versions of the file), the Bambu
/// model's estimate and its error, then the mean absolute error. Throws flowhls::Error when the
/// file cannot be read or a design does not compile.
void run_bambu_bench(const BambuBenchOptions &options, std::ostream &out);

}  // namespace flowhls
