// Which designs of the Vitis HLS 2023.2 calibration corpus flowhls reproduces, and how.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// A corpus design and the bundled example, schedule and compile options that rebuild it.
struct CorpusReproduction {
    std::string design;  ///< corpus path, e.g. "polybench/vitis/default/gemm"
    std::string example, schedule, size;
    /// Passes turned off because the corpus design does not do what they do (e.g. an
    /// accumulator the corpus keeps in its array, not in a register: scalar-replacement).
    std::vector<std::string> disabled_passes;
    /// What differs from the corpus source, or why a figure stays unexplained (shown marked).
    std::string note;
    /// Whether the design is one the LUT/FF control costs are fitted on (not when its
    /// operators differ from the corpus source's by construction: their LUT/FF are no measure
    /// of control logic).
    bool fit_costs = true;
};

/// A corpus design flowhls does not reproduce, and why.
struct CorpusGap {
    std::string design, reason;
};

/// The reproduced designs, in corpus order.
const std::vector<CorpusReproduction> &corpus_reproductions();

/// The designs not reproduced.
const std::vector<CorpusGap> &corpus_gaps();

/// The device-library part standing for corpus part `vitis_part` (xcu280-fsvh2892-2L-e ->
/// xcu280; xcu200-fsgd2104-2-e -> xcvu9p, the same die). Throws flowhls::Error if none.
std::string library_part(const std::string &vitis_part);

}  // namespace flowhls
