// compare_trace: the outputs a trace testbench saved, compared with a reference's intermediates.
#pragma once

#include "flowhls/Csim.h"

#include <string>

namespace flowhls {

/// A name of trace.txt or a reference's index.txt with its %XX escapes (control characters,
/// '%' and, in trace.txt, spaces) decoded. Throws flowhls::Error naming `where` for a bad escape.
std::string unescape_trace_name(const std::string &s, const std::string &where);

/// Contract: reads the project's trace.txt (filter, buffer, ONNX value, dtype and size of each
/// traced output, in the order the top function computes them), the files the trace testbench
/// saved to `dir`/build/trace/, and `reference`/index.txt (ONNX value, node, op, shape and .npy
/// file of each reference value, as models/trace_reference.py writes it); compares each output
/// with the reference value of its ONNX value: integers exactly (errors in LSB), floating-point
/// values within `atol` + `rtol` * |reference| (negative: 1e-5 and 1e-4). Writes
/// build/trace/trace.json and returns the rows, the first diverging one, the text table and the
/// JSON. Throws flowhls::Error naming a malformed or missing file.
TraceReport compare_trace(const std::string &dir, const std::string &reference, double atol, double rtol);

}  // namespace flowhls
