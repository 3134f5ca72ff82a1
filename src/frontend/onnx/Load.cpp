// Loading and checking an ONNX model: parse, libonnx checker, opset conversion, shape
// inference, value types, support check.
#include "frontend/onnx/Load.h"
#include "frontend/onnx/Converter.h"
#include "frontend/onnx/InferenceGuard.h"
#include "frontend/onnx/TensorData.h"
#include "frontend/onnx/Validate.h"
#include "support/Paths.h"
#include "support/Sizes.h"
#include "support/Text.h"

#include <onnx/checker.h>
#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <iostream>
#include <sstream>

namespace flowhls::onnx_import {

onnx::ModelProto read_model(const std::string &path) {
    // Protocol buffers are at most 2 GB.
    return parse_model(read_file_bytes(path, "model", kMaxTensorBytes), path);
}

onnx::ModelProto parse_model(const std::string &bytes, const std::string &path) {
    onnx::ModelProto model;
    if (bytes.empty() || !model.ParseFromString(bytes)) {
        throw Error("'" + path + "' is not a valid ONNX model (the protobuf does not parse: truncated or corrupt file)");
    }
    if (!model.has_graph()) throw Error("'" + path + "' is not a valid ONNX model (it has no graph)");
    validate_model(model, path);
    return model;
}

int default_opset(const onnx::ModelProto &m) {
    for (const onnx::OperatorSetIdProto &o : m.opset_import()) {
        if (o.domain().empty() || o.domain() == "ai.onnx") return static_cast<int>(o.version());
    }
    return 0;
}

namespace {

// While it lives, what libonnx writes to std::cerr (warnings such as "Checker does not support
// models with experimental ops") is dropped: flowhls reports one line per error itself.
class QuietLibonnx {
public:
    QuietLibonnx() : saved_(std::cerr.rdbuf(sink_.rdbuf())) {}
    ~QuietLibonnx() { std::cerr.rdbuf(saved_); }
    QuietLibonnx(const QuietLibonnx &) = delete;
    QuietLibonnx &operator=(const QuietLibonnx &) = delete;

private:
    std::ostringstream sink_;
    std::streambuf *saved_;
};

}  // namespace

std::string node_label(const onnx::NodeProto &n, int index) {
    return n.name().empty() ? n.op_type() + " #" + std::to_string(index) : n.name();
}

int check_and_convert(onnx::ModelProto &model, const std::string &path) {
    QuietLibonnx quiet;
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception &e) {
        throw Error("'" + path + "' fails the ONNX checker: " + one_line(e.what()));
    }
    guard_shape_inference(model, path);
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
                        std::to_string(kOnnxTargetOpset) + ": " + one_line(e.what()));
        }
    }
    return opset;
}

void infer_shapes(onnx::ModelProto &model, const std::string &path) {
    QuietLibonnx quiet;
    try {
        onnx::shape_inference::InferShapes(model);
    } catch (const std::exception &e) {
        throw Error("'" + path + "': ONNX shape inference failed: " + one_line(e.what()));
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

// The element types of a node's inputs (or outputs) against the formal parameters of its
// schema: values sharing a type parameter (Add's "T") have one element type, in the set
// the parameter allows. Throws flowhls::Error for the first that does not.
void check_formals(const onnx::NodeProto &n, const std::string &label, bool outputs,
                   const std::map<std::string, ValueType> &types, std::map<std::string, std::pair<int, std::string>> &bound,
                   const std::string &path) {
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(n.op_type(), kOnnxTargetOpset, "");
    if (!schema) return;
    const std::vector<onnx::OpSchema::FormalParameter> &formals = outputs ? schema->outputs() : schema->inputs();
    const auto &names = outputs ? n.output() : n.input();
    for (int k = 0; k < names.size() && !formals.empty(); k++) {
        size_t f = std::min(static_cast<size_t>(k), formals.size() - 1);
        const onnx::OpSchema::FormalParameter &formal = formals[f];
        if (f != static_cast<size_t>(k) && (formal.GetOption() != onnx::OpSchema::Variadic || !formal.GetIsHomogeneous())) {
            break;
        }
        auto it = types.find(names.Get(k));
        if (names.Get(k).empty() || it == types.end() || it->second.elem_type == 0) continue;
        int elem = it->second.elem_type;
        if (!onnx::TensorProto::DataType_IsValid(elem)) continue;  // validate_model refused those
        onnx::TypeProto type;
        type.mutable_tensor_type()->set_elem_type(elem);
        std::string what = std::string(outputs ? "output" : "input") + " '" + names.Get(k) + "'";
        onnx::DataType data_type = onnx::Utils::DataTypeUtils::ToType(type);
        if (!formal.GetTypes().empty() && !formal.GetTypes().count(data_type)) {
            throw Error("'" + path + "': " + label + ": " + what + " is " + elem_type_name(elem) + ", which " +
                        n.op_type() + " does not accept");
        }
        auto [prior, fresh] = bound.emplace(formal.GetTypeStr(), std::make_pair(elem, what));
        if (!fresh && prior->second.first != elem) {
            throw Error("'" + path + "': " + label + ": " + what + " is " + elem_type_name(elem) + " but " +
                        prior->second.second + " is " + elem_type_name(prior->second.first) + "; " + n.op_type() +
                        " needs one type for both (" + formal.GetTypeStr() + ")");
        }
    }
}

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

void check_types(const onnx::GraphProto &g, const std::map<std::string, ValueType> &types, const std::string &path) {
    std::map<std::string, int> rank;
    for (const auto &[name, t] : types) {
        if (t.has_shape) rank[name] = static_cast<int>(t.dims.size());
    }
    for (int i = 0; i < g.node_size(); i++) {
        const onnx::NodeProto &n = g.node(i);
        if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
        check_convolution_ranks(n, i, rank, path);
        std::string label = "node '" + node_label(n, i) + "' (" + n.op_type() + ")";
        std::map<std::string, std::pair<int, std::string>> bound;  // type parameter -> first value's type, name
        check_formals(n, label, false, types, bound, path);
        check_formals(n, label, true, types, bound, path);
    }
}

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
        // ONNX Runtime's QLinearAdd (com.microsoft) is the one op read from another domain.
        bool contrib = n.domain() == "com.microsoft" && n.op_type() == "QLinearAdd";
        if (!n.domain().empty() && n.domain() != "ai.onnx" && !contrib) {
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
