// NodeContext (what a converter sees of a node) and the table of converters.
#include "frontend/onnx/Converter.h"
#include "frontend/onnx/Attributes.h"
#include "flowhls/Onnx.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

#include <cstring>
#include <set>
#include <sstream>

namespace flowhls::onnx_import {

int64_t Tensor::size() const { return element_count(shape); }

Halide::Expr Tensor::at(const std::vector<Halide::Expr> &index) const {
    if (index.size() != shape.size()) {
        throw std::logic_error("Tensor::at: " + std::to_string(index.size()) + " indices for rank " +
                               std::to_string(shape.size()) + " tensor " + name);
    }
    std::vector<Halide::Expr> args(index.rbegin(), index.rend());
    if (args.empty()) args.push_back(0);
    return func(args);
}

NodeContext::NodeContext(const onnx::NodeProto &node, std::vector<const Tensor *> inputs, std::string prefix)
    : node_(node), inputs_(std::move(inputs)), prefix_(std::move(prefix)) {
    outputs.resize(node.output_size());
    views.resize(node.output_size(), false);
}

const Tensor &NodeContext::input(int i) const {
    if (!has_input(i)) unsupported("input " + std::to_string(i) + " is missing");
    return *inputs_[i];
}

namespace {

// The compile-time values of `t`: its constant, or the test value of a specialized input.
const Halide::Buffer<> &known_values(const NodeContext &ctx, const Tensor &t) {
    if (t.is_constant()) return t.constant;
    if (t.test_value.defined()) return t.test_value;
    ctx.unsupported("input '" + t.name + "' must be a constant (it is computed at run time)" +
                    (t.graph_input ? "; --specialize-shape-inputs fixes it to its test value" : ""));
}

}  // namespace

std::vector<double> NodeContext::constant_doubles(int i) const {
    const Tensor &t = input(i);
    std::vector<double> out = buffer_doubles(known_values(*this, t));
    out.resize(static_cast<size_t>(t.size()));
    return out;
}

std::vector<int64_t> NodeContext::constant_ints(int i) const {
    const Tensor &t = input(i);
    const Halide::Buffer<> &b = known_values(*this, t);
    if (t.type == Halide::Int(64)) {
        const int64_t *p = static_cast<const int64_t *>(b.data());
        return std::vector<int64_t>(p, p + t.size());
    }
    std::vector<int64_t> out;
    for (double d : constant_doubles(i)) out.push_back(static_cast<int64_t>(d));
    return out;
}

bool NodeContext::has_attr(const std::string &name) const { return has_attribute(node_, name); }

int64_t NodeContext::attr_int(const std::string &name, int64_t fallback) const {
    return attribute_int(node_, name, fallback);
}

float NodeContext::attr_float(const std::string &name, float fallback) const {
    return attribute_float(node_, name, fallback);
}

std::string NodeContext::attr_string(const std::string &name, const std::string &fallback) const {
    return attribute_string(node_, name, fallback);
}

std::vector<int64_t> NodeContext::attr_ints(const std::string &name, std::vector<int64_t> fallback) const {
    return attribute_ints(node_, name, std::move(fallback));
}

std::vector<float> NodeContext::attr_floats(const std::string &name, std::vector<float> fallback) const {
    return attribute_floats(node_, name, std::move(fallback));
}

const onnx::TensorProto *NodeContext::attr_tensor(const std::string &name) const {
    return attribute_tensor(node_, name);
}

Halide::Func NodeContext::func(const std::string &suffix) const {
    std::string name = prefix_ + (suffix.empty() ? "" : "_" + suffix);
    if (funcs_made_++ > 0) name += "_" + std::to_string(funcs_made_);
    func_names_.push_back(name);
    return Halide::Func(name);
}

Tensor *NodeContext::describe_output(int i, std::vector<int64_t> shape, int elem_type) {
    if (i >= num_outputs()) return nullptr;
    Tensor &t = outputs.at(i);
    t.name = node_.output(i);
    t.elem_type = elem_type;
    t.type = storage_type(elem_type);
    t.shape = std::move(shape);
    return &t;
}

void NodeContext::set_output(int i, Halide::Func f, std::vector<int64_t> shape, int elem_type) {
    Tensor *t = describe_output(i, std::move(shape), elem_type);
    if (!t) return;
    t->func = f;
    if (f.defined() && f.output_types()[0] != t->type) {
        std::ostringstream os;
        os << "converter " << op() << " defined output " << t->name << " as " << f.output_types()[0] << ", not "
           << t->type;
        throw std::logic_error(os.str());
    }
}

void NodeContext::set_constant_output(int i, Halide::Buffer<> values, std::vector<int64_t> shape, int elem_type) {
    if (Tensor *t = describe_output(i, std::move(shape), elem_type)) t->constant = values;
}

void NodeContext::mark_view(int i) {
    if (i < static_cast<int>(views.size())) views[i] = true;
}

Tensor NodeContext::constant(const std::string &suffix, Halide::Buffer<> values, std::vector<int64_t> shape,
                             int elem_type) const {
    if (!make_constant) throw std::logic_error("NodeContext::constant: no importer to make constants");
    return make_constant(prefix_ + "_" + suffix, values, shape, elem_type);
}

void NodeContext::unsupported(const std::string &reason) const { throw Unsupported(reason); }

void NodeContext::invalid(const std::string &reason) const { throw InvalidNode(reason); }

namespace {

// The ops read from domains other than ONNX's default one, by domain.
const std::map<std::string, std::set<std::string>> &foreign_ops() {
    static const std::map<std::string, std::set<std::string>> ops = {
        {"com.microsoft", {"QLinearAdd", "QLinearConcat", "QLinearAveragePool", "QLinearGlobalAveragePool"}},
        {"qonnx.custom_op.general", {"Quant", "Trunc"}},
        {"finn.custom_op.general", {"Quant", "Trunc"}},
    };
    return ops;
}

}  // namespace

bool supported_foreign_op(const std::string &domain, const std::string &op_type) {
    auto it = foreign_ops().find(domain);
    return it != foreign_ops().end() && it->second.count(op_type);
}

bool supported_foreign_domain(const std::string &domain) { return foreign_ops().count(domain) != 0; }

const ConverterTable &converter_table() {
    static const ConverterTable table = [] {
        ConverterTable t;
        add_elementwise_converters(t);
        add_linear_converters(t);
        add_resize_converters(t);
        add_pool_converters(t);
        add_normalization_converters(t);
        add_reduction_converters(t);
        add_shape_converters(t);
        add_quantize_converters(t);
        add_qlinear_contrib_converters(t);
        add_qonnx_converters(t);
        return t;
    }();
    return table;
}

}  // namespace flowhls::onnx_import

namespace flowhls {

std::vector<std::string> supported_onnx_ops() {
    std::vector<std::string> ops;
    for (const auto &e : onnx_import::converter_table()) ops.push_back(e.first);
    return ops;
}

std::string UnsupportedModelError::describe(const UnsupportedNode &n) {
    return "node '" + n.name + "' (" + n.op_type + ", opset " + std::to_string(n.opset) + "): " + n.reason;
}

namespace {

std::string unsupported_summary(const std::string &model, size_t nodes) {
    return "'" + model + "' has " + std::to_string(nodes) + " node(s) flowhls cannot compile:";
}

std::string unsupported_message(const std::string &model, const std::vector<UnsupportedNode> &nodes) {
    std::string m = unsupported_summary(model, nodes.size());
    for (const UnsupportedNode &n : nodes) m += "\n  " + UnsupportedModelError::describe(n);
    return m;
}

}  // namespace

UnsupportedModelError::UnsupportedModelError(const std::string &model, std::vector<UnsupportedNode> nodes)
    : Error(unsupported_message(model, nodes)), nodes_(std::move(nodes)),
      summary_(unsupported_summary(model, nodes_.size())) {}

}  // namespace flowhls
