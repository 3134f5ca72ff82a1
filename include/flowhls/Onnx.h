// Public entry point of the ONNX front end: an ONNX model as a Halide program.
#pragma once

#include "flowhls/Error.h"
#include "flowhls/HalideProgram.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// The opset every model is converted to before its nodes are converted.
constexpr int kOnnxTargetOpset = 17;

/// Options of an ONNX import.
struct OnnxImportOptions {
    /// Static shapes of graph inputs (ONNX order, outermost first), fixing symbolic or missing
    /// dimensions. A symbolic first (batch) dimension defaults to 1.
    std::map<std::string, std::vector<int64_t>> shapes;
    /// Test inputs and expected outputs (.pb TensorProto or .npy files, in graph order). When
    /// both are empty, `test_data_dir` is used; when that is empty too, the directory
    /// `test_data_set_0` beside the model if there is one and `shapes` is empty, else random
    /// inputs and the Halide JIT's outputs.
    std::vector<std::string> input_files;
    std::vector<std::string> expected_files;
    std::string test_data_dir;
    /// Default tolerance of the testbench for floating-point outputs.
    double atol = 1e-5;
    double rtol = 1e-4;
    /// Graph inputs that ops read as shapes, axes or pads (Reshape's shape, Slice's starts...)
    /// take their test value as a constant; the design is then specific to that value.
    bool specialize_shape_inputs = false;
    /// Fold BatchNormalization into the Conv that feeds it (when its weights are constant).
    bool fold_batchnorm = true;
    /// Rewrite the QDQ patterns of a quantized model (DequantizeLinear -> Conv/Gemm -> [Relu]
    /// -> QuantizeLinear, and MaxPool/Relu between one scale) as integer ops (docs/quantization.md).
    bool fuse_qdq = true;
    /// Name of the kernel; default: the model file's name made a C identifier.
    std::string kernel_name;
    /// The most bytes the model's tensors may take together (initializers, inputs and every
    /// node's output, as the JIT reference and the testbench hold them); a model that needs
    /// more is refused before anything is allocated. 0: half the physical memory.
    int64_t max_memory_bytes = 0;
};

/// A node of a model that flowhls cannot compile, and why.
struct UnsupportedNode {
    std::string name;
    std::string op_type;
    int opset = 0;
    std::string reason;
};

/// Thrown when a model has nodes flowhls cannot compile; the message lists all of them.
class UnsupportedModelError : public Error {
public:
    UnsupportedModelError(const std::string &model, std::vector<UnsupportedNode> nodes);
    const std::vector<UnsupportedNode> &nodes() const { return nodes_; }
    /// The first line of the message: the model and how many nodes.
    const std::string &summary() const { return summary_; }
    /// One node's line: "node 'NAME' (OP, opset N): REASON".
    static std::string describe(const UnsupportedNode &node);

private:
    std::vector<UnsupportedNode> nodes_;
    std::string summary_;
};

/// Contract: loads the ONNX model at `path` (structural validation before any libonnx call,
/// checker, conversion to kOnnxTargetOpset, shape inference), checks types and every node
/// against the converter table (throwing UnsupportedModelError listing all unsupported nodes
/// before any conversion), converts the graph into Halide Funcs (one compute_root Func per
/// op, initializers as constant inputs) within the memory budget, and attaches the test data.
/// Throws flowhls::Error for malformed or invalid files, dynamic shapes, models over the
/// budget and bad test data; never crashes on a hostile file.
HalideProgram import_onnx(const std::string &path, const OnnxImportOptions &options);

/// The ONNX op types (default domain) the converter table covers, sorted.
std::vector<std::string> supported_onnx_ops();

}  // namespace flowhls
