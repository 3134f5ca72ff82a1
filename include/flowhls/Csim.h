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
    /// Per-layer trace (`flowhls csim --trace REF`): when set, the project's trace testbench
    /// (made for models) runs instead, saving every filter's output, and each is compared with
    /// the reference value of the same ONNX value: REF is a directory (index.txt and .npy files
    /// written by models/trace_reference.py), or the ONNX model file itself, which flowhls then
    /// evaluates with its embedded float64 reference on the simulation's inputs ($FLOWHLS_PYTHON
    /// or /usr/bin/python3, with numpy and onnx) into build/trace-reference/.
    std::string trace_reference;
};

/// One filter output of a trace, compared with the reference value of its ONNX value.
struct TraceRow {
    std::string filter, buffer;
    std::string value;  ///< the ONNX value (tensor) the filter computes
    std::string node, op;  ///< the ONNX node that produces it in the reference ("" if none)
    std::string shape;     ///< ONNX shape ("1x6x28x28"), from the reference
    std::string dtype;     ///< .npy dtype of the design's buffer ("<f4", "|i1"), or "fixed<W,I>"
    bool integer = false;  ///< compared exactly; errors are in LSB
    /// A fixed<W,I> buffer (saved as float64): its LSB 2^-(W-I), which the table also gives
    /// the error in; 0 otherwise.
    double lsb = 0.0;
    int64_t count = 0;     ///< values compared
    int64_t mismatches = 0;
    double max_abs = 0.0;
    /// "match", "DIVERGES", or why it was not compared ("no reference", "size differs").
    std::string status;
};

/// The outcome of a trace.
struct TraceReport {
    std::vector<TraceRow> rows;  ///< in the order the top function computes them
    int first_divergence = -1;   ///< index into rows; -1 when every compared value matches
    double atol = 0.0, rtol = 0.0;  ///< tolerance of floating-point values
    std::string text;  ///< the table and the verdict, as printed
    std::string json;  ///< the same as JSON (written to build/trace/trace.json)
};

/// Outcome of a C simulation run.
struct CsimResult {
    bool built = false;   ///< the testbench compiled
    bool passed = false;  ///< it ran and every output matched the reference
    /// Everything the build and the simulation printed.
    std::string log;
    /// One line: "PASS ..." or "FAIL ..." with the reason.
    std::string verdict;
    /// The per-layer comparison (CsimOptions::trace_reference set and the simulation ran).
    bool traced = false;
    TraceReport trace;
};

/// Contract: checks that `dir` holds what flowhls wrote (every file its marker's manifest
/// lists, outside data/, unchanged by SHA-256, and no other file outside data/ and build/),
/// then runs `make build/csim` (or `build/csim-sanitize`) there, which compiles the project's
/// kernel and testbench with g++/gcc, and runs the resulting binary on data/ (or on the files
/// of `inputs`/`expected`). Throws flowhls::Error when `dir` is not a flowhls project or was
/// changed; data/ may be changed (the testbench checks what it reads).
/// With `options.trace_reference` set, builds `build/csim-trace` instead, whose run saves each
/// filter's output to build/trace/, and compares them in order with the reference (throwing
/// flowhls::Error when the project has no trace testbench or the reference directory is
/// malformed); `passed` is then also false when a filter's output diverges.
CsimResult run_csim(const std::string &dir, const CsimOptions &options);

}  // namespace flowhls
