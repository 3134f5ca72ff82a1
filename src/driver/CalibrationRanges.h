// measure_calibration_ranges: the value ranges `--precision auto` chooses formats from, measured
// by running the model's float64 reference (models/trace_reference.py, embedded) on calibration
// inputs. Runs Python, so it lives in the driver; the ranges reach assign_precision as data
// (PrecisionOptions::calibration).
#pragma once

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

}  // namespace flowhls
