// The front half of compile(): a Halide program lowered, extracted and run through the passes.
#pragma once

#include "analysis/Device.h"
#include "flowhls/Compiler.h"
#include "graph/FilterGraph.h"

namespace flowhls {

/// Contract: lowers `program` for options.target, places its weights on `device`, extracts the
/// filter graph and runs the pass pipeline with the options' dumps, disabled passes and the
/// program's directives; returns the graph code generation and the QoR estimate work on, and
/// (when `program_arg_names` is given) the kernel arguments' names before the passes renamed
/// them, in order. Writes nothing but the requested dumps and log lines. Throws flowhls::Error
/// like compile().
FilterGraph compile_graph(const HalideProgram &program, const CompileOptions &options, const Device &device,
                          std::vector<std::string> *program_arg_names = nullptr);

}  // namespace flowhls
