// Builds small ONNX models in tests (ModelProto by hand: inputs, initializers, nodes).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace flowhls::test {

/// An ONNX model under construction (opset 13, float tensors unless told otherwise).
class OnnxModelBuilder {
public:
    explicit OnnxModelBuilder(const std::string &name);

    /// A graph input or output; a dimension given as a string is symbolic.
    struct Dim {
        Dim(int64_t v) : value(v) {}
        Dim(const char *s) : symbol(s) {}
        int64_t value = 0;
        std::string symbol;
    };
    void input(const std::string &name, std::vector<Dim> dims);
    void output(const std::string &name, std::vector<Dim> dims);
    /// A float initializer whose element i is value(i).
    void initializer(const std::string &name, std::vector<int64_t> dims, const std::function<float(int64_t)> &value);

    /// A node with named outputs; returns it to add attributes.
    onnx::NodeProto *node(const std::string &type, std::vector<std::string> inputs, std::vector<std::string> outputs);
    /// A node with a fresh output name; returns that name.
    std::string op(const std::string &type, std::vector<std::string> inputs);
    static void ints(onnx::NodeProto *node, const std::string &name, std::vector<int64_t> values);
    static void integer(onnx::NodeProto *node, const std::string &name, int64_t value);
    static void text(onnx::NodeProto *node, const std::string &name, const std::string &value);

    // Layers used by the dataflow tests: 3x3 convolution with padding 1 and generated weights,
    // 2x2 max pooling, nearest 2x upsampling, concatenation of channels.
    std::string conv(const std::string &in, int64_t cin, int64_t cout);
    std::string maxpool(const std::string &in);
    std::string upsample2(const std::string &in);
    std::string concat(std::vector<std::string> inputs);
    /// Renames the value a node produces (to make it a graph output).
    void rename_output(const std::string &value, const std::string &name);

    /// Writes the model to `path` and returns the path.
    std::string write(const std::string &path) const;

private:
    onnx::ModelProto m_;
    onnx::GraphProto *g_;
    int next_ = 0;
    std::string fresh(const std::string &base) { return base + std::to_string(next_++); }
    void value(onnx::ValueInfoProto *v, const std::string &name, const std::vector<Dim> &dims);
};

}  // namespace flowhls::test
