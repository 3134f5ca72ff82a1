// Reading the attributes of an ONNX node: the one helper every converter and check uses.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// The attribute `name` of `node`, or null.
const onnx::AttributeProto *find_attribute(const onnx::NodeProto &node, const std::string &name);
/// Whether `node` has the attribute `name`.
bool has_attribute(const onnx::NodeProto &node, const std::string &name);

/// The value of an attribute of `node`, or `fallback` when the node does not have it.
int64_t attribute_int(const onnx::NodeProto &node, const std::string &name, int64_t fallback);
float attribute_float(const onnx::NodeProto &node, const std::string &name, float fallback);
std::string attribute_string(const onnx::NodeProto &node, const std::string &name, const std::string &fallback);
std::vector<int64_t> attribute_ints(const onnx::NodeProto &node, const std::string &name,
                                    std::vector<int64_t> fallback = {});
std::vector<float> attribute_floats(const onnx::NodeProto &node, const std::string &name,
                                    std::vector<float> fallback = {});
/// The tensor of attribute `name`, or null.
const onnx::TensorProto *attribute_tensor(const onnx::NodeProto &node, const std::string &name);

}  // namespace flowhls::onnx_import
