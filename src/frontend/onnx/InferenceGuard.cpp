// guard_shape_inference: what must be refused before libonnx's shape inference sees a model.
#include "frontend/onnx/InferenceGuard.h"
#include "flowhls/Error.h"
#include "frontend/onnx/Load.h"
#include "frontend/onnx/Validate.h"

#include <onnx/shape_inference/implementation.h>

#include <map>
#include <set>
#include <utility>

namespace flowhls::onnx_import {

namespace {

bool is_convolution(const onnx::NodeProto &n) {
    static const std::set<std::string> kOps = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv"};
    return (n.domain().empty() || n.domain() == "ai.onnx") && kOps.count(n.op_type());
}

// The first convolution in the bodies of `n` (recursively), or nullptr.
const onnx::NodeProto *convolution_in_bodies(const onnx::NodeProto &n) {
    for (const onnx::AttributeProto &a : n.attribute()) {
        std::vector<const onnx::GraphProto *> bodies;
        if (a.has_g()) bodies.push_back(&a.g());
        for (const onnx::GraphProto &g : a.graphs()) bodies.push_back(&g);
        for (const onnx::GraphProto *g : bodies) {
            for (const onnx::NodeProto &inner : g->node()) {
                if (is_convolution(inner)) return &inner;
                if (const onnx::NodeProto *deeper = convolution_in_bodies(inner)) return deeper;
            }
        }
    }
    return nullptr;
}

// Ranks of `names` after inferring shapes on the nodes of `model`'s graph before `end`.
std::map<std::string, int> ranks_before(const onnx::ModelProto &model, int end, const std::set<std::string> &names) {
    onnx::ModelProto prefix;
    *prefix.mutable_opset_import() = model.opset_import();
    prefix.set_ir_version(model.ir_version());
    const onnx::GraphProto &g = model.graph();
    onnx::GraphProto &p = *prefix.mutable_graph();
    p.set_name(g.name());
    *p.mutable_input() = g.input();
    *p.mutable_value_info() = g.value_info();
    std::set<std::string> inputs;
    for (const onnx::ValueInfoProto &v : g.input()) inputs.insert(v.name());
    for (const onnx::TensorProto &t : g.initializer()) {
        // Integer initializers may carry shapes and axes inference reads; float data never does.
        bool shape_like = t.data_type() == onnx::TensorProto::INT64 || t.data_type() == onnx::TensorProto::INT32;
        if (shape_like) {
            *p.add_initializer() = t;
        } else if (!inputs.count(t.name())) {
            onnx::ValueInfoProto &v = *p.add_input();
            v.set_name(t.name());
            onnx::TypeProto_Tensor &tt = *v.mutable_type()->mutable_tensor_type();
            tt.set_elem_type(t.data_type());
            tt.mutable_shape();
            for (int64_t d : t.dims()) tt.mutable_shape()->add_dim()->set_dim_value(d);
        }
    }
    for (int i = 0; i < end; i++) *p.add_node() = g.node(i);
    try {
        onnx::shape_inference::InferShapes(prefix);
    } catch (const std::exception &) {
        // The full inference fails on the same nodes and reports it; no ranks are known here.
    }
    std::map<std::string, int> rank;
    auto record = [&](const onnx::ValueInfoProto &v) {
        if (names.count(v.name()) && v.type().has_tensor_type() && v.type().tensor_type().has_shape()) {
            rank[v.name()] = v.type().tensor_type().shape().dim_size();
        }
    };
    for (const onnx::ValueInfoProto &v : p.input()) record(v);
    for (const onnx::ValueInfoProto &v : p.value_info()) record(v);
    for (const onnx::TensorProto &t : p.initializer()) {
        if (names.count(t.name())) rank[t.name()] = t.dims_size();
    }
    return rank;
}

}  // namespace

void guard_shape_inference(const onnx::ModelProto &model, const std::string &path) {
    std::set<std::pair<std::string, std::string>> functions;
    for (const onnx::FunctionProto &f : model.functions()) functions.insert({f.domain(), f.name()});
    const onnx::GraphProto &g = model.graph();
    for (int i = 0; i < g.node_size(); i++) {
        const onnx::NodeProto &n = g.node(i);
        std::string label = "node '" + node_label(n, i) + "' (" + n.op_type() + ")";
        if (functions.count({n.domain(), n.op_type()})) {
            throw Error("'" + path + "': " + label + " calls model-local function '" + n.domain() + "." +
                        n.op_type() + "'; flowhls does not compile model-local functions (inline them first)");
        }
        if (const onnx::NodeProto *conv = convolution_in_bodies(n)) {
            throw Error("'" + path + "': " + label + " has a " + conv->op_type() +
                        " in its body; flowhls does not compile control flow (If, Loop, Scan)");
        }
        if (n.op_type() != "ConvTranspose" || !is_convolution(n) || n.input_size() < 2) continue;
        check_convolution_ranks(n, i, ranks_before(model, i, {n.input(0), n.input(1)}), path);
    }
}

}  // namespace flowhls::onnx_import
