// Public entry point: Halide Generators (from plugin libraries) as flowhls programs.
#pragma once

#include "flowhls/HalideProgram.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// What to build from a registered Halide Generator.
struct GeneratorRequest {
    /// Shared libraries to load first; their HALIDE_REGISTER_GENERATOR entries become
    /// available (they must link the same libHalide as flowhls).
    std::vector<std::string> plugins;
    /// Registered generator name.
    std::string generator;
    /// GeneratorParam values by name.
    std::map<std::string, std::string> params;
    /// Static shape of each input and output buffer, outermost dimension first (NumPy
    /// order), by name. Every buffer needs one: Generators declare dynamic shapes.
    std::map<std::string, std::vector<int>> shapes;
    /// Kernel name ("" = the generator name).
    std::string kernel_name;
};

/// Loads the plugins, instantiates and builds the generator and returns its pipeline as a
/// program with the requested static shapes (Generator schedules are kept). Throws
/// flowhls::Error for a plugin that cannot be loaded, an unknown generator or parameter,
/// a buffer without a shape (dynamic shape), a shape of the wrong rank, or a shape for a
/// buffer the generator does not have.
HalideProgram load_generator(const GeneratorRequest &request);

/// Names of the registered generators (after loading `plugins`), sorted.
std::vector<std::string> list_generators(const std::vector<std::string> &plugins);

/// Parses "64x48" (outermost first) into {64, 48}; throws flowhls::Error naming `what`.
std::vector<int> parse_shape(const std::string &text, const std::string &what);

}  // namespace flowhls
