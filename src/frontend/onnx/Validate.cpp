// validate_model: the structure of an ONNX model checked before libonnx sees it.
#include "frontend/onnx/Validate.h"
#include "flowhls/Error.h"
#include "frontend/onnx/Load.h"
#include "frontend/onnx/TensorData.h"
#include "support/Sizes.h"

#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace flowhls::onnx_import {

namespace {

constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();

// Attributes that are switches (0 or 1) wherever ONNX uses them.
const std::set<std::string> kSwitches = {
    "ceil_mode",  "count_include_pad", "transA",     "transB",        "keepdims",        "select_last_index",
    "noop_with_empty_axes", "training_mode", "fmod", "detect_negative", "detect_positive", "exclusive",
    "reverse",    "upper",             "largest",    "sorted",        "storage_order",   "allowzero",
    "center_point_box", "new_axis", "scan_input_directions", "scan_output_directions"};

// Attributes that name axes of a tensor. A rank is far below 2^31, and libonnx's shape
// inference narrows some of them to int (LayerNormalization's axis of 2^31 became an index of
// -2^31): each value must be within +-(2^31 - 1).
const std::set<std::string> kAxisAttributes = {"axis",       "axes",       "perm",
                                               "batch_axis", "time_axis",  "batch_dims",
                                               "scan_input_axes", "scan_output_axes"};

// Ops whose window attributes (kernel_shape, strides, dilations, pads, group) are checked.
const std::set<std::string> kWindowOps = {"Conv",        "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool",
                                          "AveragePool", "LpPool",        "MaxUnpool",   "DeformConv"};

// The attributes a Constant node may give its value with.
const std::set<std::string> kConstantValues = {"value",       "value_float",   "value_floats", "value_int",
                                               "value_ints",  "value_string",  "value_strings", "sparse_value"};

// A function's key: domain and name.
using FunctionKey = std::pair<std::string, std::string>;

class Validator {
public:
    Validator(const onnx::ModelProto &model, const std::string &path) : model_(model), path_(path) {}

    void run() {
        check_opsets();
        check_functions();
        std::map<std::string, std::string> scope;
        graph(model_.graph(), scope, 0, "the graph");
    }

private:
    const onnx::ModelProto &model_;
    const std::string &path_;
    std::map<FunctionKey, const onnx::FunctionProto *> functions_;

    [[noreturn]] void fail(const std::string &what) const { throw Error("'" + path_ + "': " + what); }

    void check_opsets() {
        std::set<std::string> domains;
        for (const onnx::OperatorSetIdProto &o : model_.opset_import()) {
            std::string d = o.domain() == "ai.onnx" ? "" : o.domain();
            if (!domains.insert(d).second) fail("opset of domain '" + o.domain() + "' imported twice");
            if (o.version() < 1 || o.version() > 1000) {
                fail("opset version " + std::to_string(o.version()) + " of domain '" + o.domain() + "' is invalid");
            }
        }
    }

    // Functions are unique, their bodies well formed, and the calls between them acyclic.
    void check_functions() {
        for (const onnx::FunctionProto &f : model_.functions()) {
            if (f.name().empty()) fail("a model-local function has no name");
            if (!functions_.emplace(FunctionKey{f.domain(), f.name()}, &f).second) {
                fail("model-local function '" + f.domain() + "." + f.name() + "' is defined twice");
            }
        }
        for (const onnx::FunctionProto &f : model_.functions()) function_body(f);
        // Depth-first search over calls, without recursion: 0 unvisited, 1 on the path, 2 done.
        std::map<FunctionKey, int> state;
        for (const auto &entry : functions_) {
            if (state[entry.first]) continue;
            std::vector<std::pair<FunctionKey, int>> stack = {{entry.first, 0}};
            state[entry.first] = 1;
            while (!stack.empty()) {
                auto &[key, next] = stack.back();
                const onnx::FunctionProto &f = *functions_.at(key);
                if (next == f.node_size()) {
                    state[key] = 2;
                    stack.pop_back();
                    continue;
                }
                const onnx::NodeProto &n = f.node(next++);
                FunctionKey callee{n.domain(), n.op_type()};
                if (!functions_.count(callee)) continue;
                if (state[callee] == 1) {
                    std::string name = callee.first + "." + callee.second;
                    fail("model-local function '" + name + "' calls itself" +
                         (callee == key ? "" : " (through '" + key.first + "." + key.second + "')") +
                         "; recursion is not allowed");
                }
                if (state[callee] == 0) {
                    state[callee] = 1;
                    stack.push_back({callee, 0});
                }
            }
        }
    }

    void function_body(const onnx::FunctionProto &f) {
        std::string where = "model-local function '" + f.domain() + "." + f.name() + "'";
        std::map<std::string, std::string> defined;
        for (const std::string &in : f.input()) {
            if (in.empty()) fail(where + " has an input without a name");
            if (!defined.emplace(in, "an input").second) fail(where + " lists input '" + in + "' twice");
        }
        nodes(f.node(), defined, 1, where);
        std::set<std::string> outputs;
        for (const std::string &out : f.output()) {
            if (!defined.count(out)) fail(where + ": output '" + out + "' is not produced by any node");
            if (!outputs.insert(out).second) fail(where + " lists output '" + out + "' twice");
        }
    }

    // `scope`: the values visible from the enclosing graphs and who produced them.
    void graph(const onnx::GraphProto &g, std::map<std::string, std::string> scope, int depth, const std::string &where) {
        if (depth > kMaxSubgraphDepth) fail("subgraphs are nested more than " + std::to_string(kMaxSubgraphDepth) + " deep");
        std::set<std::string> initializers;
        for (const onnx::TensorProto &t : g.initializer()) {
            if (t.name().empty()) fail("an initializer of " + where + " has no name");
            if (!initializers.insert(t.name()).second) fail("initializer '" + t.name() + "' is defined twice");
            check_tensor(t, "'" + path_ + "': initializer '" + t.name() + "'", kMaxTensorBytes);
        }
        if (g.sparse_initializer_size() > 0) fail("sparse initializers are not supported");
        std::set<std::string> inputs;
        for (const onnx::ValueInfoProto &v : g.input()) {
            if (v.name().empty()) fail("an input of " + where + " has no name");
            if (!inputs.insert(v.name()).second) fail("input '" + v.name() + "' of " + where + " is listed twice");
            if (scope.count(v.name()) && !initializers.count(v.name())) {
                fail("input '" + v.name() + "' of " + where + " has the name of a value of an enclosing graph");
            }
            value_shape(v, "input");
            scope[v.name()] = "an input of " + where;
        }
        for (const std::string &name : initializers) scope[name] = "an initializer";
        for (const onnx::ValueInfoProto &v : g.value_info()) value_shape(v, "value");
        nodes(g.node(), scope, depth, where);
        convolution_ranks(g);
        std::set<std::string> outputs;
        for (const onnx::ValueInfoProto &v : g.output()) {
            if (v.name().empty()) fail("an output of " + where + " has no name");
            if (!outputs.insert(v.name()).second) fail("output '" + v.name() + "' of " + where + " is listed twice");
            if (!scope.count(v.name())) fail("output '" + v.name() + "' of " + where + " is not produced by any node");
            value_shape(v, "output");
        }
    }

    // Convolutions whose data and weight ranks are declared (graph inputs, initializers, value
    // infos): see check_convolution_ranks.
    void convolution_ranks(const onnx::GraphProto &g) {
        std::map<std::string, int> rank;
        auto declare = [&](const onnx::ValueInfoProto &v) {
            if (v.type().has_tensor_type() && v.type().tensor_type().has_shape()) {
                rank[v.name()] = v.type().tensor_type().shape().dim_size();
            }
        };
        for (const onnx::ValueInfoProto &v : g.input()) declare(v);
        for (const onnx::ValueInfoProto &v : g.value_info()) declare(v);
        for (const onnx::TensorProto &t : g.initializer()) rank[t.name()] = t.dims_size();
        for (int i = 0; i < g.node_size(); i++) check_convolution_ranks(g.node(i), i, rank, path_);
    }

    // A type recorded for a value: a known element type, every dimension in [0, 2^31).
    void value_shape(const onnx::ValueInfoProto &v, const char *what) {
        if (!v.type().has_tensor_type()) return;
        int elem = v.type().tensor_type().elem_type();
        if (!onnx::TensorProto::DataType_IsValid(elem)) {
            fail(std::string(what) + " '" + v.name() + "' has an unknown element type (" + std::to_string(elem) + ")");
        }
        if (!v.type().tensor_type().has_shape()) return;
        for (const onnx::TensorShapeProto_Dimension &d : v.type().tensor_type().shape().dim()) {
            if (!d.has_dim_value()) continue;
            if (d.dim_value() < 0 || d.dim_value() > kMaxExtent) {
                fail(std::string(what) + " '" + v.name() + "' has dimension " + std::to_string(d.dim_value()) +
                     " (dimensions are in [0, 2^31))");
            }
        }
    }

    // Nodes in order: each reads values produced before it and produces new ones.
    template <typename Nodes>
    void nodes(const Nodes &list, std::map<std::string, std::string> &defined, int depth, const std::string &where) {
        std::map<std::string, int> producer;  // the first node producing each value
        for (int i = 0; i < list.size(); i++) {
            for (const std::string &out : list.Get(i).output()) {
                if (!out.empty()) producer.emplace(out, i);
            }
        }
        for (int i = 0; i < list.size(); i++) {
            const onnx::NodeProto &n = list.Get(i);
            std::string label = "node '" + node_label(n, i) + "' (" + n.op_type() + ")";
            if (where != "the graph") label += " of " + where;
            if (n.op_type().empty()) fail("node '" + node_label(n, i) + "' of " + where + " has no op type");
            for (const std::string &in : n.input()) {
                if (in.empty() || defined.count(in)) continue;
                auto later = producer.find(in);
                if (later == producer.end()) fail(label + " reads '" + in + "', which is not produced by any node");
                fail(label + " reads '" + in + "' before node '" + node_label(list.Get(later->second), later->second) +
                     "' produces it: the graph has a cycle or its nodes are not in topological order");
            }
            attributes(n, label, defined, depth);
            for (const std::string &out : n.output()) {
                if (out.empty()) continue;
                auto [it, fresh] = defined.emplace(out, label);
                if (!fresh) fail(label + " produces '" + out + "', which is already " + it->second);
            }
        }
    }

    void attributes(const onnx::NodeProto &n, const std::string &label, const std::map<std::string, std::string> &scope,
                    int depth) {
        std::set<std::string> names;
        int constant_values = 0;
        for (const onnx::AttributeProto &a : n.attribute()) {
            if (a.name().empty()) fail(label + " has an attribute without a name");
            if (!names.insert(a.name()).second) fail(label + " has attribute '" + a.name() + "' twice");
            if (a.name().rfind("flowhls_", 0) == 0) {
                fail(label + " has attribute '" + a.name() +
                     "'; names starting with flowhls_ are reserved for flowhls's own rewrites");
            }
            if (a.has_t()) check_tensor(a.t(), "'" + path_ + "': " + label + ", attribute '" + a.name() + "'", kMaxTensorBytes);
            for (const onnx::TensorProto &t : a.tensors()) {
                check_tensor(t, "'" + path_ + "': " + label + ", attribute '" + a.name() + "'", kMaxTensorBytes);
            }
            if (a.has_g()) graph(a.g(), scope, depth + 1, "the subgraph '" + a.name() + "' of " + label);
            for (const onnx::GraphProto &g : a.graphs()) {
                graph(g, scope, depth + 1, "a subgraph '" + a.name() + "' of " + label);
            }
            if (!default_domain(n.domain()) || !a.ref_attr_name().empty()) continue;
            attribute_range(n, a, label);
            constant_values += kConstantValues.count(a.name()) ? 1 : 0;
        }
        if (default_domain(n.domain()) && n.op_type() == "Constant" && constant_values != 1) {
            fail(label + " has " + std::to_string(constant_values) +
                 " value attributes; a Constant has exactly one (value, value_float, value_ints, ...)");
        }
    }

    // The value of a default-domain attribute within what its op allows.
    void attribute_range(const onnx::NodeProto &n, const onnx::AttributeProto &a, const std::string &label) {
        const std::string &name = a.name();
        auto values = [&]() {
            std::vector<int64_t> v(a.ints().begin(), a.ints().end());
            if (a.type() == onnx::AttributeProto::INT || (a.ints_size() == 0 && a.has_i())) v.push_back(a.i());
            return v;
        };
        auto require = [&](bool ok, const std::string &rule) {
            if (ok) return;
            std::string list;
            for (int64_t v : values()) list += (list.empty() ? "" : ", ") + std::to_string(v);
            fail(label + ": attribute '" + name + "' is " + (list.empty() ? "empty" : list) + "; " + rule);
        };
        if (kSwitches.count(name)) {
            for (int64_t v : values()) require(v == 0 || v == 1, "it must be 0 or 1");
        }
        if (kAxisAttributes.count(name)) {
            for (int64_t v : values()) require(v >= -kMaxExtent && v <= kMaxExtent, "an axis is within +-(2^31 - 1)");
        }
        if (kWindowOps.count(n.op_type())) {
            if (name == "kernel_shape" || name == "strides" || name == "dilations" || name == "output_shape") {
                for (int64_t v : values()) require(v >= 1 && v <= kMaxExtent, "each value must be positive (and below 2^31)");
            }
            if (name == "pads" || name == "output_padding") {
                for (int64_t v : values()) require(v >= 0 && v <= kMaxExtent, "each value must be >= 0 (and below 2^31)");
            }
            if (name == "group") require(a.i() >= 1 && a.i() <= kMaxExtent, "it must be positive");
        }
        if (name == "blocksize" && (n.op_type() == "DepthToSpace" || n.op_type() == "SpaceToDepth")) {
            require(a.i() >= 1 && a.i() <= kMaxExtent, "it must be positive");
        }
        if (name == "size" && n.op_type() == "LRN") require(a.i() >= 1 && a.i() <= kMaxExtent, "it must be positive");
        if (name == "split" && n.op_type() == "Split") {
            for (int64_t v : values()) require(v >= 0 && v <= kMaxExtent, "each value must be >= 0");
        }
        // A count libonnx sizes vectors by (2^31 scan inputs took 23 GB before the OOM killer).
        if (name == "num_scan_inputs" && n.op_type() == "Scan") {
            require(a.i() >= 1 && a.i() <= n.input_size(), "it must be between 1 and the node's " +
                                                                std::to_string(n.input_size()) + " input(s)");
        }
        if (name == "p" && n.op_type() == "LpNormalization") require(a.i() == 1 || a.i() == 2, "it must be 1 or 2");
    }
};

}  // namespace

void check_convolution_ranks(const onnx::NodeProto &n, int index, const std::map<std::string, int> &rank,
                             const std::string &path) {
    static const std::map<std::string, int> kWeightInput = {
        {"Conv", 1}, {"ConvTranspose", 1}, {"ConvInteger", 1}, {"QLinearConv", 3}};
    auto op = kWeightInput.find(n.op_type());
    if (!default_domain(n.domain()) || op == kWeightInput.end() || n.input_size() <= op->second) return;
    auto fail = [&](const std::string &what) {
        throw Error("'" + path + "': node '" + node_label(n, index) + "' (" + n.op_type() + "): " + what);
    };
    auto x = rank.find(n.input(0)), w = rank.find(n.input(op->second));
    if (x != rank.end() && x->second < 3) {
        fail("input '" + n.input(0) + "' has rank " + std::to_string(x->second) +
             "; a convolution's input is N x C x spatial axes (rank 3 or more)");
    }
    if (x != rank.end() && w != rank.end() && x->second != w->second) {
        fail("input '" + n.input(0) + "' has rank " + std::to_string(x->second) + " but weights '" +
             n.input(op->second) + "' have rank " + std::to_string(w->second) + "; they must be equal");
    }
    int spatial = x != rank.end() ? x->second - 2 : w != rank.end() ? w->second - 2 : -1;
    if (spatial < 1) return;
    for (const onnx::AttributeProto &a : n.attribute()) {
        const std::string &name = a.name();
        int want = name == "pads" ? 2 * spatial : spatial;
        bool per_axis = name == "pads" || name == "strides" || name == "dilations" || name == "kernel_shape" ||
                        name == "output_padding";
        if (per_axis && a.ints_size() != want) {
            fail("attribute '" + name + "' has " + std::to_string(a.ints_size()) + " value(s); " +
                 std::to_string(want) + " for " + std::to_string(spatial) + " spatial axes");
        }
    }
}

void validate_model(const onnx::ModelProto &model, const std::string &path) { Validator(model, path).run(); }

}  // namespace flowhls::onnx_import
