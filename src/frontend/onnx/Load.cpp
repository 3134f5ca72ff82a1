// Loading and checking an ONNX model: parse, libonnx checker, opset conversion, shape
// inference, value types, support check.
#include "frontend/onnx/Load.h"
#include "frontend/onnx/Converter.h"
#include "frontend/onnx/TensorData.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace flowhls::onnx_import {

namespace fs = std::filesystem;

onnx::ModelProto read_model(const std::string &path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw Error("cannot read model '" + path + "': no such file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read model '" + path + "'");
    std::ostringstream os;
    os << in.rdbuf();
    std::string bytes = os.str();
    onnx::ModelProto model;
    if (bytes.empty() || !model.ParseFromString(bytes)) {
        throw Error("'" + path + "' is not a valid ONNX model (the protobuf does not parse: truncated or corrupt file)");
    }
    if (!model.has_graph()) throw Error("'" + path + "' is not a valid ONNX model (it has no graph)");
    return model;
}

int default_opset(const onnx::ModelProto &m) {
    for (const onnx::OperatorSetIdProto &o : m.opset_import()) {
        if (o.domain().empty() || o.domain() == "ai.onnx") return static_cast<int>(o.version());
    }
    return 0;
}

std::string node_label(const onnx::NodeProto &n, int index) {
    return n.name().empty() ? n.op_type() + " #" + std::to_string(index) : n.name();
}

int check_and_convert(onnx::ModelProto &model, const std::string &path) {
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception &e) {
        throw Error("'" + path + "' fails the ONNX checker: " + std::string(e.what()));
    }
    int opset = default_opset(model);
    if (opset == 0) return opset;  // no default-domain nodes; the support check lists the others
    if (opset > kOnnxTargetOpset) {
        throw Error("'" + path + "' uses opset " + std::to_string(opset) + "; flowhls supports opsets up to " +
                    std::to_string(kOnnxTargetOpset));
    }
    if (opset != kOnnxTargetOpset) {
        try {
            // Some adapters (broadcasting before opset 7) need the input shapes.
            onnx::shape_inference::InferShapes(model);
            model = onnx::version_conversion::ConvertVersion(model, kOnnxTargetOpset);
        } catch (const std::exception &e) {
            throw Error("'" + path + "': cannot convert opset " + std::to_string(opset) + " to " +
                        std::to_string(kOnnxTargetOpset) + ": " + std::string(e.what()));
        }
    }
    return opset;
}

void infer_shapes(onnx::ModelProto &model, const std::string &path) {
    try {
        onnx::shape_inference::InferShapes(model);
    } catch (const std::exception &e) {
        throw Error("'" + path + "': ONNX shape inference failed: " + std::string(e.what()));
    }
}

ValueType value_type(const onnx::ValueInfoProto &v) {
    ValueType t;
    if (!v.type().has_tensor_type()) return t;
    const onnx::TypeProto_Tensor &tt = v.type().tensor_type();
    t.elem_type = tt.elem_type();
    if (!tt.has_shape()) return t;
    t.has_shape = true;
    for (const onnx::TensorShapeProto_Dimension &d : tt.shape().dim()) {
        t.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
        t.symbols.push_back(d.has_dim_param() ? d.dim_param() : "");
    }
    return t;
}

void set_static_dims(onnx::ValueInfoProto &v, const std::vector<int64_t> &dims) {
    onnx::TensorShapeProto *shape = v.mutable_type()->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

std::map<std::string, ValueType> value_types(const onnx::GraphProto &g) {
    std::map<std::string, ValueType> types;
    for (const onnx::ValueInfoProto &v : g.input()) types[v.name()] = value_type(v);
    for (const onnx::ValueInfoProto &v : g.value_info()) types[v.name()] = value_type(v);
    for (const onnx::ValueInfoProto &v : g.output()) types[v.name()] = value_type(v);
    for (const onnx::TensorProto &t : g.initializer()) {
        ValueType vt;
        vt.elem_type = t.data_type();
        vt.has_shape = true;
        vt.dims = tensor_dims(t);
        types[t.name()] = vt;
    }
    return types;
}

namespace {

// Why a node of a supported domain cannot be converted, or "".
std::string node_support(const onnx::NodeProto &n, const std::map<std::string, ValueType> &types) {
    const ConverterTable &table = converter_table();
    auto converter = table.find(n.op_type());
    if (converter == table.end()) return "no converter for this op";
    std::vector<int> in_types;
    for (const std::string &in : n.input()) {
        auto it = types.find(in);
        in_types.push_back(in.empty() || it == types.end() ? 0 : it->second.elem_type);
    }
    std::string reason;
    for (const std::string &out : n.output()) {
        auto it = types.find(out);
        if (out.empty() || it == types.end() || it->second.elem_type == 0) continue;
        std::string why;
        halide_type_of(it->second.elem_type, &why);
        if (!why.empty()) reason = "output '" + out + "': " + why;
    }
    for (size_t k = 0; k < in_types.size() && reason.empty(); k++) {
        std::string why;
        if (in_types[k]) halide_type_of(in_types[k], &why);
        if (!why.empty()) reason = "input '" + n.input(static_cast<int>(k)) + "': " + why;
    }
    if (reason.empty() && converter->second.check) reason = converter->second.check(n, in_types);
    return reason;
}

}  // namespace

void check_support(const onnx::ModelProto &model, const std::map<std::string, ValueType> &types, int opset,
                   const std::string &path) {
    const onnx::GraphProto &g = model.graph();
    std::set<std::string> initializers;
    for (const onnx::TensorProto &t : g.initializer()) initializers.insert(t.name());
    std::vector<UnsupportedNode> bad;
    auto check_value = [&](const onnx::ValueInfoProto &v, const char *what) {
        if (initializers.count(v.name())) return;
        std::string why;
        if (!v.type().has_tensor_type()) why = "not a tensor (sequences, maps and optionals are not supported)";
        else halide_type_of(v.type().tensor_type().elem_type(), &why);
        if (!why.empty()) bad.push_back({std::string(what) + " '" + v.name() + "'", "-", opset, why});
    };
    for (const onnx::ValueInfoProto &v : g.input()) check_value(v, "graph input");
    for (const onnx::ValueInfoProto &v : g.output()) check_value(v, "graph output");
    for (int i = 0; i < g.node_size(); i++) {
        const onnx::NodeProto &n = g.node(i);
        UnsupportedNode u{node_label(n, i), n.op_type(), opset, ""};
        if (!n.domain().empty() && n.domain() != "ai.onnx") {
            u.reason = "domain '" + n.domain() + "' is not supported";
            u.opset = 0;
            for (const onnx::OperatorSetIdProto &o : model.opset_import()) {
                if (o.domain() == n.domain()) u.opset = static_cast<int>(o.version());
            }
        } else {
            u.reason = node_support(n, types);
        }
        if (!u.reason.empty()) bad.push_back(u);
    }
    if (!bad.empty()) throw UnsupportedModelError(path, bad);
}

}  // namespace flowhls::onnx_import
