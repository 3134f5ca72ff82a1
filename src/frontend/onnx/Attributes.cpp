// Reading the attributes of an ONNX node.
#include "frontend/onnx/Attributes.h"

namespace flowhls::onnx_import {

const onnx::AttributeProto *find_attribute(const onnx::NodeProto &node, const std::string &name) {
    for (const onnx::AttributeProto &a : node.attribute()) {
        if (a.name() == name) return &a;
    }
    return nullptr;
}

bool has_attribute(const onnx::NodeProto &node, const std::string &name) { return find_attribute(node, name); }

int64_t attribute_int(const onnx::NodeProto &node, const std::string &name, int64_t fallback) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a ? a->i() : fallback;
}

float attribute_float(const onnx::NodeProto &node, const std::string &name, float fallback) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a ? a->f() : fallback;
}

std::string attribute_string(const onnx::NodeProto &node, const std::string &name, const std::string &fallback) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a ? a->s() : fallback;
}

std::vector<int64_t> attribute_ints(const onnx::NodeProto &node, const std::string &name,
                                    std::vector<int64_t> fallback) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : fallback;
}

std::vector<float> attribute_floats(const onnx::NodeProto &node, const std::string &name,
                                    std::vector<float> fallback) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a ? std::vector<float>(a->floats().begin(), a->floats().end()) : fallback;
}

const onnx::TensorProto *attribute_tensor(const onnx::NodeProto &node, const std::string &name) {
    const onnx::AttributeProto *a = find_attribute(node, name);
    return a && a->has_t() ? &a->t() : nullptr;
}

}  // namespace flowhls::onnx_import
