// A Halide pipeline with static shapes: what flowhls compiles into an HLS kernel.
#pragma once

#include <Halide.h>

#include "flowhls/Directives.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// One input image of a program: the Halide parameter, its static shape and the value
/// range that generated test data is drawn from.
struct ProgramInput {
    ProgramInput() = default;
    /// An ImageParam input.
    ProgramInput(const Halide::ImageParam &image, std::vector<int> shape, double low = 0.0, double high = 1.0)
        : param(image.parameter()), shape(std::move(shape)), low(low), high(high) {}
    /// Any buffer parameter (for example a Generator's Input<Buffer<>>).
    ProgramInput(const Halide::Internal::Parameter &param, std::vector<int> shape, double low = 0.0,
                 double high = 1.0)
        : param(param), shape(std::move(shape)), low(low), high(high) {}

    /// The buffer parameter the pipeline reads.
    Halide::Internal::Parameter param;
    /// Extent of each dimension, innermost (Halide dimension 0) first. Minimums are 0.
    std::vector<int> shape;
    /// Random test inputs are drawn uniformly from [low, high] (integers: inclusive).
    double low = 0.0;
    double high = 1.0;
    /// Constant contents (for example a model's weights): when defined, the input is part of
    /// the design (an on-chip ROM, or an m_axi port the testbench fills with these values,
    /// see CompileOptions::weights) rather than data the caller chooses.
    Halide::Buffer<> constant;
};

/// One output of a program: the Halide Func and the static shape it is computed over.
struct ProgramOutput {
    Halide::Func func;
    /// Extent of each dimension, innermost first. Minimums are 0.
    std::vector<int> shape;
};

/// A scheduled Halide pipeline with every input and output dimension bound to constants.
/// Where a Func (and the filter computing it) comes from in an ONNX model: the node, and the
/// ONNX values (tensors) whose elements it holds. The generated function's comment is its
/// text(); `flowhls csim --trace` compares the filter's output with `values`.
struct OnnxOrigin {
    /// The node's name (its label when unnamed) and op type; both "" for a copy.
    std::string node, op;
    /// The node's outputs; for a copy, the value copied.
    std::vector<std::string> outputs;
    /// The values the Func holds: the one it computes, then the views of it (Reshape, Flatten,
    /// Identity: the same elements in the same order). Empty: not traced (a copy a pass made).
    std::vector<std::string> values;

    bool empty() const { return node.empty() && op.empty() && outputs.empty() && values.empty(); }
    /// "ONNX node '/conv1/Conv' (Conv) -> '/conv1/Conv_output_0'", or "copy of ONNX value 'x'".
    std::string text() const {
        if (empty()) return "";
        std::string t = node.empty() && op.empty() ? "copy of ONNX value" : "ONNX node '" + node + "' (" + op + ") ->";
        for (size_t i = 0; i < outputs.size(); i++) t += std::string(i ? ", '" : " '") + outputs[i] + "'";
        return t;
    }
    bool operator==(const OnnxOrigin &o) const {
        return node == o.node && op == o.op && outputs == o.outputs && values == o.values;
    }
    bool operator!=(const OnnxOrigin &o) const { return !(*this == o); }
};

struct HalideProgram {
    HalideProgram() = default;
    HalideProgram(std::string name, std::vector<ProgramInput> inputs, std::vector<ProgramOutput> outputs)
        : name(std::move(name)), inputs(std::move(inputs)), outputs(std::move(outputs)) {}

    /// Name of the kernel (the top-level HLS function); must be a C identifier.
    std::string name;
    std::vector<ProgramInput> inputs;
    std::vector<ProgramOutput> outputs;
    /// Test data of the generated testbench. When `expected_outputs` is empty, the inputs are
    /// random and the Halide JIT computes the expected outputs; otherwise `test_inputs` holds
    /// one buffer per non-constant input and `expected_outputs` one per output, in order.
    std::vector<Halide::Buffer<>> test_inputs;
    std::vector<Halide::Buffer<>> expected_outputs;
    /// Default tolerance of the testbench's comparison (0 and 0: bit-exact).
    double atol = 0.0;
    double rtol = 0.0;
    /// HLS directives (the co-language); what is not given is inferred.
    HlsSchedule directives;
    /// Other names directives may use for a Func or kernel argument, mapped to its name (the
    /// ONNX importer maps node names and ONNX value names to the Funcs it creates).
    std::map<std::string, std::string> directive_aliases;
    /// Func name (without Halide's "$N") -> where it comes from in the ONNX model, for the Funcs
    /// the ONNX importer makes compute_root (and its copies to graph outputs); the filter
    /// computing it records it (Filter::onnx).
    std::map<std::string, OnnxOrigin> onnx_origins;
};

}  // namespace flowhls
