// Loading and checking an ONNX model before conversion: parse, libonnx checker, opset
// conversion, shape inference, value types and the support check of every node.
#pragma once

#include "flowhls/Onnx.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// Reads the model file at `path` and parses it (parse_model). Throws flowhls::Error when it
/// cannot be read or is not a valid ONNX model.
onnx::ModelProto read_model(const std::string &path);

/// Contract: parses `bytes` as an ONNX model named `path` in messages and validates its
/// structure (validate_model) so that libonnx can be given it. Throws flowhls::Error when it
/// does not parse, has no graph or is malformed.
onnx::ModelProto parse_model(const std::string &bytes, const std::string &path);

/// The model's default-domain opset (0 when it imports none).
int default_opset(const onnx::ModelProto &model);

/// Contract: checks `model` (named `path` in messages) with the libonnx checker and converts
/// it to kOnnxTargetOpset; returns the model's own default-domain opset. Throws
/// flowhls::Error for a model the checker refuses, one guard_shape_inference refuses, a newer
/// opset or a failed conversion.
int check_and_convert(onnx::ModelProto &model, const std::string &path);

/// Runs ONNX shape inference on `model` (named `path` in messages); throws flowhls::Error
/// when it fails.
void infer_shapes(onnx::ModelProto &model, const std::string &path);

/// Element type and dims (-1: unknown or symbolic) of a value.
struct ValueType {
    int elem_type = 0;
    bool has_shape = false;
    std::vector<int64_t> dims;
    std::vector<std::string> symbols;
};

/// The element type and shape recorded in a ValueInfoProto.
ValueType value_type(const onnx::ValueInfoProto &value);
/// Replaces the shape recorded in `value` with static `dims`.
void set_static_dims(onnx::ValueInfoProto &value, const std::vector<int64_t> &dims);
/// Types of every graph input, value_info, output and initializer, by name.
std::map<std::string, ValueType> value_types(const onnx::GraphProto &graph);

/// How messages name a node: its name, or its op and position.
std::string node_label(const onnx::NodeProto &node, int index);

/// Contract: checks the element types of every default-domain node of `graph` against its
/// schema at kOnnxTargetOpset (`types` after shape inference): values sharing a type
/// parameter have one type, within the types the parameter allows (so Add of float and int64
/// is refused); convolutions have the ranks check_convolution_ranks requires of the inferred
/// shapes. Throws flowhls::Error naming `path`, the node and the values.
void check_types(const onnx::GraphProto &graph, const std::map<std::string, ValueType> &types, const std::string &path);

/// Contract: lists every node of `model`'s graph that no converter handles (domain, op type,
/// element types of inputs and outputs, the converter's own check) and every graph input and
/// output of an unsupported type; throws UnsupportedModelError naming `path` when there is
/// any. `types` are the value types after shape inference; `opset` the model's own opset.
void check_support(const onnx::ModelProto &model, const std::map<std::string, ValueType> &types, int opset,
                   const std::string &path);

}  // namespace flowhls::onnx_import
