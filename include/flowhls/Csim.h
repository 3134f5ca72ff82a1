// Public entry point: build and run the C simulation of a generated HLS project.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// Options of a C simulation run.
struct CsimOptions {
    /// Build and run with AddressSanitizer and UndefinedBehaviorSanitizer.
    bool sanitize = false;
    /// Absolute and relative tolerance; negative: the project's default (bit-exact for
    /// Halide programs, rtol 1e-4 / atol 1e-5 for float models). 0 and 0 means bit for bit.
    double atol = -1.0;
    double rtol = -1.0;
    /// Test inputs and expected outputs (.pb or .npy) replacing the project's data, in the
    /// program's order (data/manifest.txt); empty: the project's own data/.
    std::vector<std::string> inputs;
    std::vector<std::string> expected;
    /// Echo the build and simulation output while it runs.
    bool echo = false;
};

/// Outcome of a C simulation run.
struct CsimResult {
    bool built = false;   ///< the testbench compiled
    bool passed = false;  ///< it ran and every output matched the reference
    /// Everything the build and the simulation printed.
    std::string log;
    /// One line: "PASS ..." or "FAIL ..." with the reason.
    std::string verdict;
};

/// Contract: checks that `dir` holds what flowhls wrote (every file its marker's manifest
/// lists, outside data/, unchanged by SHA-256, and no other file outside data/ and build/),
/// then runs `make build/csim` (or `build/csim-sanitize`) there, which compiles the project's
/// kernel and testbench with g++/gcc, and runs the resulting binary on data/ (or on the files
/// of `inputs`/`expected`). Throws flowhls::Error when `dir` is not a flowhls project or was
/// changed; data/ may be changed (the testbench checks what it reads).
CsimResult run_csim(const std::string &dir, const CsimOptions &options);

}  // namespace flowhls
