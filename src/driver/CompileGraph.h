// The front half of compile(): a Halide program lowered, extracted and run through the passes.
#pragma once

#include "analysis/Device.h"
#include "analysis/QorEstimator.h"
#include "flowhls/Compiler.h"
#include "graph/FilterGraph.h"

namespace flowhls {

class LoweringMemo;

/// Contract: lowers `program` for options.target, places its weights on `device`, extracts the
/// filter graph and runs the pass pipeline with the options' dumps, disabled passes and the
/// program's directives; returns the graph code generation and the QoR estimate work on, and
/// (when `interface_names` is given) the names of the program's inputs and outputs in buffer
/// order before the passes renamed them. Binds `program`'s shapes: give it a program of its
/// own (compile() passes an isolated_copy). Writes nothing but the requested dumps and log
/// lines. Throws flowhls::Error like compile().
FilterGraph compile_graph(const HalideProgram &program, const CompileOptions &options, const Device &device,
                          std::vector<std::string> *interface_names = nullptr);

/// Contract: compile_graph's work after extraction: the ONNX origins recorded, the
/// interface names (as compile_graph), the pass pipeline run on `graph` (extracted from
/// `program`, whose directives, aliases and origins it reads). Same dumps, logs and errors.
FilterGraph compile_extracted(FilterGraph graph, const HalideProgram &program, const CompileOptions &options,
                              const Device &device, std::vector<std::string> *interface_names = nullptr);

/// Contract: the QoR estimate compile() would report for `program` with `options` (the loop
/// transformations applied to an isolated copy, the graph compiled and DSP-packed exactly as
/// compile() does), without emitting or writing anything and without the Halide JIT reference;
/// with `memo`, the extracted graph comes from it when a point with the same loop
/// transformations was lowered before (the same estimate; src/driver/LoweringMemo.h).
/// Used by the design-space exploration to evaluate a point. Throws flowhls::Error like compile().
DesignEstimate estimate_program(const HalideProgram &program, const CompileOptions &options,
                                LoweringMemo *memo = nullptr);

}  // namespace flowhls
