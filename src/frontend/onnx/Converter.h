// Interface between the ONNX importer and the per-op converters: tensors as Halide Funcs.
#pragma once

#include "flowhls/Error.h"

#include <Halide.h>
#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// A value of the ONNX graph as a Halide Func.
struct Tensor {
    std::string name;
    /// ONNX element type (onnx::TensorProto_DataType).
    int elem_type = 0;
    /// Halide type of the values (bool is UInt(8) holding 0 or 1).
    Halide::Type type;
    /// Extent per dimension in ONNX order (outermost first); empty for a scalar.
    std::vector<int64_t> shape;
    /// Defined over one Var per dimension, innermost (last ONNX axis) first; a scalar has one
    /// dimension of extent 1.
    Halide::Func func;
    /// The values, when known at compile time (initializers, folded constants).
    Halide::Buffer<> constant;
    /// A graph input's test value, which shape operands (Reshape's shape, Slice's starts...)
    /// may be specialized on (OnnxImportOptions::specialize_shape_inputs).
    Halide::Buffer<> test_value;
    bool graph_input = false;
    /// How many views (reshape, squeeze...) are inlined into `func` in a row; the importer
    /// makes a view a filter of its own beyond kMaxViewChain, so expressions stay shallow.
    int view_depth = 0;
    /// Names of the dimensions (ONNX order; dim_names), which name the loops of its filter.
    std::vector<std::string> dims;

    int rank() const { return static_cast<int>(shape.size()); }
    int64_t size() const;
    bool is_constant() const { return constant.defined(); }
    /// The value at `index` (ONNX order, one Expr per dimension; empty for a scalar).
    Halide::Expr at(const std::vector<Halide::Expr> &index) const;
};

/// Raised by a converter for a node or attribute combination it does not handle.
class Unsupported : public Error {
public:
    using Error::Error;
};

/// Raised by a converter for a node that breaks the ONNX specification in a way the checker
/// and shape inference let through (a Conv bias of the wrong length, a constant index out of
/// range...); the importer reports it with the model and the node.
class InvalidNode : public Error {
public:
    using Error::Error;
};

/// Raised by the importer when Halide rejects what a converter defined: a flaw of flowhls's
/// converter, reported to the user as an error in that node (without Halide's text), and
/// treated as a crash by the fuzzers.
class ConverterFailure : public Error {
public:
    using Error::Error;
};

/// How many views may be inlined into each other before one becomes a filter.
constexpr int kMaxViewChain = 16;

/// What a converter sees: one node, its inputs, its attributes; it defines the outputs.
class NodeContext {
public:
    NodeContext(const onnx::NodeProto &node, std::vector<const Tensor *> inputs, std::string prefix);

    const onnx::NodeProto &node() const { return node_; }
    const std::string &op() const { return node_.op_type(); }

    /// Number of inputs listed (optional ones may be empty).
    int num_inputs() const { return static_cast<int>(inputs_.size()); }
    bool has_input(int i) const { return i < num_inputs() && inputs_[i] != nullptr; }
    /// Input `i`; throws Unsupported if it is missing.
    const Tensor &input(int i) const;
    /// Values of constant input `i` as integers (a shape, axes, pads...); Unsupported if the
    /// input is computed at run time.
    std::vector<int64_t> constant_ints(int i) const;
    /// The same as doubles.
    std::vector<double> constant_doubles(int i) const;

    bool has_attr(const std::string &name) const;
    int64_t attr_int(const std::string &name, int64_t fallback) const;
    float attr_float(const std::string &name, float fallback) const;
    std::string attr_string(const std::string &name, const std::string &fallback) const;
    std::vector<int64_t> attr_ints(const std::string &name, std::vector<int64_t> fallback = {}) const;
    std::vector<float> attr_floats(const std::string &name, std::vector<float> fallback = {}) const;
    const onnx::TensorProto *attr_tensor(const std::string &name) const;

    int num_outputs() const { return node_.output_size(); }
    /// Whether output `i` is used (listed with a non-empty name).
    bool wants_output(int i) const { return i < num_outputs() && !node_.output(i).empty(); }
    /// A fresh Func named after the node (`suffix` distinguishes helpers).
    Halide::Func func(const std::string &suffix = "") const;
    /// Names of the Funcs func() made, in order.
    const std::vector<std::string> &funcs_made() const { return func_names_; }
    /// Defines output `i` as `func` with `shape` (ONNX order) and ONNX element type.
    void set_output(int i, Halide::Func func, std::vector<int64_t> shape, int elem_type);
    /// Defines output `i` as a known constant (a buffer in Halide dimension order).
    void set_constant_output(int i, Halide::Buffer<> values, std::vector<int64_t> shape, int elem_type);
    /// Output `i` is a view of an input (reshape, squeeze...): it is inlined into its consumers
    /// instead of becoming a filter of its own.
    void mark_view(int i);
    /// A constant the converter computes (a table of per-channel multipliers...), made an
    /// input of the program like an initializer (a ROM or m_axi port) named after the node.
    Tensor constant(const std::string &suffix, Halide::Buffer<> values, std::vector<int64_t> shape,
                    int elem_type) const;
    /// Makes the tensors of constant(); set by the importer.
    std::function<Tensor(const std::string &name, Halide::Buffer<> values, const std::vector<int64_t> &shape,
                         int elem_type)>
        make_constant;

    /// Throws Unsupported with `reason`.
    [[noreturn]] void unsupported(const std::string &reason) const;
    /// Throws InvalidNode with `reason`.
    [[noreturn]] void invalid(const std::string &reason) const;

    /// What the importer collects after the converter ran.
    std::vector<Tensor> outputs;
    std::vector<bool> views;

private:
    // Names, types and shapes output `i`; null when the node has no such output.
    Tensor *describe_output(int i, std::vector<int64_t> shape, int elem_type);

    const onnx::NodeProto &node_;
    std::vector<const Tensor *> inputs_;
    std::string prefix_;
    mutable int funcs_made_ = 0;
    mutable std::vector<std::string> func_names_;
};

/// Returns "" when the converter handles the node as far as its attributes and input types
/// tell, else the reason it does not.
using CheckFn = std::function<std::string(const onnx::NodeProto &node, const std::vector<int> &input_types)>;
using ConvertFn = std::function<void(NodeContext &ctx)>;

/// One entry of the converter table.
struct OpConverter {
    ConvertFn convert;
    /// Optional static check run on every node before any conversion.
    CheckFn check;
};

/// Converters keyed by ONNX op type (default domain, opset kOnnxTargetOpset).
using ConverterTable = std::map<std::string, OpConverter>;

/// The table of every converter family.
const ConverterTable &converter_table();

/// Whether a node of a domain other than ONNX's default one has a converter: ONNX Runtime's
/// com.microsoft QLinearAdd, QLinearConcat, QLinearAveragePool, QLinearGlobalAveragePool and
/// QONNX's Quant and Trunc (domains qonnx.custom_op.general and finn.custom_op.general).
bool supported_foreign_op(const std::string &domain, const std::string &op_type);
/// Whether some op of `domain` (not the default one) has a converter.
bool supported_foreign_domain(const std::string &domain);

// Families (one file each under ops/); each adds its ops to the table.
void add_elementwise_converters(ConverterTable &table);
void add_linear_converters(ConverterTable &table);
void add_resize_converters(ConverterTable &table);
void add_pool_converters(ConverterTable &table);
void add_normalization_converters(ConverterTable &table);
void add_reduction_converters(ConverterTable &table);
void add_shape_converters(ConverterTable &table);
void add_quantize_converters(ConverterTable &table);
void add_qlinear_contrib_converters(ConverterTable &table);
void add_qonnx_converters(ConverterTable &table);

}  // namespace flowhls::onnx_import
