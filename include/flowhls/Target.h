// The HLS tools flowhls writes for and where weights live: enums every layer may read.
#pragma once

#include "flowhls/Error.h"

#include <string>

namespace flowhls {

/// The HLS tool the generated code is written for.
enum class HlsTarget {
    Vitis,  ///< C++ for AMD/Xilinx Vitis HLS.
    Bambu,  ///< C99 for PandA-Bambu.
};

/// Parses "vitis" or "bambu"; throws flowhls::Error for anything else.
inline HlsTarget parse_hls_target(const std::string &name) {
    if (name == "vitis") return HlsTarget::Vitis;
    if (name == "bambu") return HlsTarget::Bambu;
    throw Error("unknown target '" + name + "' (targets: vitis, bambu)");
}

/// The name parse_hls_target accepts for `target`.
inline std::string hls_target_name(HlsTarget target) { return target == HlsTarget::Vitis ? "vitis" : "bambu"; }

/// Where constant inputs (weights) of a program live in the design.
enum class WeightPlacement {
    /// on-chip ROM, smallest first, while they fit in half the part's BRAM (a quarter where
    /// the URAM tier exists: Vitis, parts with URAM); of the rest, those read by one filter in
    /// UltraRAM (as Uram), smallest first, while they fit in half the part's URAM; the rest m_axi
    Auto,
    Rom,   ///< all in on-chip ROM (static const arrays, one source file each)
    Axi,   ///< all read through m_axi ports the testbench fills
    /// all (read by one filter) in UltraRAM, copied from m_axi ports on the first call (Vitis)
    Uram,
};

/// Parses "auto", "rom", "axi" or "uram"; throws flowhls::Error for anything else.
inline WeightPlacement parse_weight_placement(const std::string &name) {
    if (name == "auto") return WeightPlacement::Auto;
    if (name == "rom") return WeightPlacement::Rom;
    if (name == "axi") return WeightPlacement::Axi;
    if (name == "uram") return WeightPlacement::Uram;
    throw Error("unknown weight placement '" + name + "' (auto, rom, axi, uram)");
}

}  // namespace flowhls
