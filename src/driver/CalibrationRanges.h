// measure_calibration_ranges: the value ranges `--precision auto` chooses formats from, measured
// by running the model's float64 reference (models/trace_reference.py, embedded) on calibration
// inputs. Runs Python, so it lives in the driver; the ranges reach assign_precision as data
// (PrecisionOptions::calibration).
#pragma once

#include "flowhls/Compiler.h"
#include "flowhls/Precision.h"

#include <Halide.h>

#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

/// The Python interpreter that runs the embedded float64 reference: $FLOWHLS_PYTHON, else
/// Debian's /usr/bin/python3 (the one with numpy and onnx), else python3 on the PATH.
std::string reference_python();

/// Contract: writes the embedded reference scripts (models/trace_reference.py and the evaluator
/// it imports) to `root`/scripts/ and runs `trace_reference.py args...` in `cwd` with
/// reference_python(). Throws flowhls::Error "`what` (PYTHON trace_reference.py, which needs
/// numpy and onnx) failed: LAST LINE" when it cannot be written or run or exits non-zero.
void run_reference_script(const std::string &root, const std::vector<std::string> &args, const std::string &cwd,
                          const std::string &what, std::ostream *echo);

/// Contract: the max |value| of every graph input and node output of ONNX model `model` over
/// the calibration samples, from its float64 reference. `calibration`: .npy / .pb files or
/// directories (their .npy and .pb files, sorted by name), in groups of one file per graph
/// input, a file holding one or more samples; empty: `default_inputs` (one buffer per graph
/// input, the compile's test inputs). Works in a temporary directory it removes; writes
/// nothing else. Throws flowhls::Error (one line) for a missing or unreadable calibration
/// file, a directory without one, or a reference that fails (its message). Deterministic.
CalibrationRanges measure_calibration_ranges(const std::string &model, const std::vector<std::string> &calibration,
                                             const std::vector<Halide::Buffer<>> &default_inputs, std::ostream *echo);

/// Contract: with an `auto` format among `options.precision`, the value ranges it is chosen
/// from, measured once on the calibration inputs (`calibration`, else the program's test
/// inputs, else its seeded random ones) with ONNX model `model`'s float64 reference, into
/// `options.precision.calibration`. Both compile (also with --dse) and dse call it before any
/// point is evaluated. Throws flowhls::Error (one line) before anything is written: no ONNX
/// model (`model` empty), a bad calibration file, a failing reference; `calibration` without
/// an auto format.
void measure_auto_precision(const std::string &model, const std::vector<std::string> &calibration,
                            const HalideProgram &program, CompileOptions &options, std::ostream *echo);

}  // namespace flowhls
