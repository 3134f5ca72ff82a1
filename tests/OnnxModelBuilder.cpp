// Builds small ONNX models in tests.
#include "OnnxModelBuilder.h"

#include <fstream>

namespace flowhls::test {

OnnxModelBuilder::OnnxModelBuilder(const std::string &name) {
    m_.set_ir_version(8);
    m_.add_opset_import()->set_version(13);
    g_ = m_.mutable_graph();
    g_->set_name(name);
}

void OnnxModelBuilder::value(onnx::ValueInfoProto *v, const std::string &name, const std::vector<Dim> &dims) {
    v->set_name(name);
    onnx::TypeProto_Tensor *t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (const Dim &d : dims) {
        onnx::TensorShapeProto_Dimension *dim = t->mutable_shape()->add_dim();
        if (d.symbol.empty()) dim->set_dim_value(d.value);
        else dim->set_dim_param(d.symbol);
    }
}

void OnnxModelBuilder::input(const std::string &name, std::vector<Dim> dims) { value(g_->add_input(), name, dims); }
void OnnxModelBuilder::output(const std::string &name, std::vector<Dim> dims) { value(g_->add_output(), name, dims); }

void OnnxModelBuilder::initializer(const std::string &name, std::vector<int64_t> dims,
                                   const std::function<float(int64_t)> &value) {
    onnx::TensorProto *t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
        t->add_dims(d);
        n *= d;
    }
    for (int64_t i = 0; i < n; i++) t->add_float_data(value(i));
}

onnx::NodeProto *OnnxModelBuilder::node(const std::string &type, std::vector<std::string> inputs,
                                        std::vector<std::string> outputs) {
    onnx::NodeProto *n = g_->add_node();
    n->set_op_type(type);
    n->set_name(fresh(type));
    for (const std::string &i : inputs) n->add_input(i);
    for (const std::string &o : outputs) n->add_output(o);
    return n;
}

std::string OnnxModelBuilder::op(const std::string &type, std::vector<std::string> inputs) {
    return node(type, inputs, {fresh("v")})->output(0);
}

void OnnxModelBuilder::ints(onnx::NodeProto *node, const std::string &name, std::vector<int64_t> values) {
    onnx::AttributeProto *a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
}

void OnnxModelBuilder::integer(onnx::NodeProto *node, const std::string &name, int64_t value) {
    onnx::AttributeProto *a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
}

void OnnxModelBuilder::text(onnx::NodeProto *node, const std::string &name, const std::string &value) {
    onnx::AttributeProto *a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
}

std::string OnnxModelBuilder::conv(const std::string &in, int64_t cin, int64_t cout) {
    std::string w = fresh("w");
    initializer(w, {cout, cin, 3, 3}, [](int64_t i) { return 0.05f * static_cast<float>((i * 5) % 7) - 0.1f; });
    onnx::NodeProto *n = node("Conv", {in, w}, {fresh("v")});
    ints(n, "pads", {1, 1, 1, 1});
    return n->output(0);
}

std::string OnnxModelBuilder::maxpool(const std::string &in) {
    onnx::NodeProto *n = node("MaxPool", {in}, {fresh("v")});
    ints(n, "kernel_shape", {2, 2});
    ints(n, "strides", {2, 2});
    return n->output(0);
}

std::string OnnxModelBuilder::upsample2(const std::string &in) {
    std::string scales = fresh("scales");
    initializer(scales, {4}, [](int64_t i) { return i < 2 ? 1.0f : 2.0f; });
    onnx::NodeProto *n = node("Resize", {in, "", scales}, {fresh("v")});
    text(n, "mode", "nearest");
    return n->output(0);
}

std::string OnnxModelBuilder::concat(std::vector<std::string> inputs) {
    onnx::NodeProto *n = node("Concat", inputs, {fresh("v")});
    integer(n, "axis", 1);
    return n->output(0);
}

void OnnxModelBuilder::rename_output(const std::string &value, const std::string &name) {
    for (onnx::NodeProto &n : *g_->mutable_node()) {
        for (std::string &o : *n.mutable_output()) {
            if (o == value) o = name;
        }
    }
}

std::string OnnxModelBuilder::write(const std::string &path) const {
    std::ofstream(path, std::ios::binary) << m_.SerializeAsString();
    return path;
}

}  // namespace flowhls::test
