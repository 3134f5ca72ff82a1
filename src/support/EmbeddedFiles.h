// Access to the runtime support headers embedded into the library at build time.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// One embedded file: its path relative to the embedded directory and its contents.
struct EmbeddedFile {
    std::string path;
    std::string contents;
};

/// The support headers that every generated project gets under include/ (see runtime/include).
const std::vector<EmbeddedFile> &runtime_support_files();

/// The device library (devices/*.json).
const std::vector<EmbeddedFile> &device_files();

/// The published figures (bench/reference/**/*.csv; paths relative to bench/reference).
const std::vector<EmbeddedFile> &reference_files();

/// The float64 reference `flowhls csim --trace MODEL.onnx` runs: models/trace_reference.py and
/// tests/frontend/onnx/qdq_reference.py (paths relative to the source tree).
const std::vector<EmbeddedFile> &reference_scripts();

}  // namespace flowhls
