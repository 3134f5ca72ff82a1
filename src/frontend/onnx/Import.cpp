// import_onnx: ONNX model -> checked, opset-converted, shape-inferred graph -> Halide program.
#include "flowhls/Onnx.h"
#include "frontend/onnx/Converter.h"
#include "frontend/onnx/FoldBatchNorm.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace flowhls {

namespace fs = std::filesystem;
using namespace onnx_import;

namespace {

// A C identifier made of `name` (Funcs and buffers are named after ONNX values).
// PyTorch's "/layer1/conv/Conv_output_0" becomes "layer1_conv_Conv".
std::string identifier(const std::string &name) {
    std::string n = name;
    const std::string suffix = "_output_0";
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        n.resize(n.size() - suffix.size());
    }
    // "/layer1/layer1.0/conv1/Conv": a path component repeated as the next one's prefix goes.
    std::vector<std::string> parts;
    std::string part;
    std::istringstream path(n);
    while (std::getline(path, part, '/')) {
        if (!parts.empty() && part.rfind(parts.back() + ".", 0) == 0) parts.pop_back();
        parts.push_back(part);
    }
    n.clear();
    for (const std::string &p : parts) n += (n.empty() ? "" : "/") + p;
    std::string out;
    for (char c : n) {
        char k = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        if (k == '_' && (out.empty() || out.back() == '_')) continue;
        out += k;
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    // Not "t<digits>": Halide names its own temporaries so.
    bool halide_like = out.size() > 1 && out[0] == 't' &&
                       out.find_first_not_of("0123456789", 1) == std::string::npos;
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) || halide_like) out = "v" + out;
    return out;
}

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

// How messages name a node: its name, or its op and position.
std::string node_label(const onnx::NodeProto &n, int index) {
    return n.name().empty() ? n.op_type() + " #" + std::to_string(index) : n.name();
}

// Loads, checks and converts the model to kOnnxTargetOpset; `opset` receives the model's own.
onnx::ModelProto load_model(const std::string &path, int *opset_out) {
    onnx::ModelProto model = read_model(path);
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception &e) {
        throw Error("'" + path + "' fails the ONNX checker: " + std::string(e.what()));
    }
    int opset = default_opset(model);
    *opset_out = opset;
    if (opset == 0) return model;  // no default-domain nodes; the support check lists the others
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
    return model;
}

// Elem type and dims (-1: unknown or symbolic) of a value.
struct ValueType {
    int elem_type = 0;
    bool has_shape = false;
    std::vector<int64_t> dims;
    std::vector<std::string> symbols;
};

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

// Test data of the model: inputs and expected outputs, in graph order.
struct TestData {
    std::vector<TestTensor> inputs, outputs;
};

std::vector<std::string> sorted_files(const fs::path &dir, const std::string &prefix) {
    std::vector<std::pair<int, std::string>> found;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        if (n.rfind(prefix, 0) != 0 || e.path().extension() != ".pb") continue;
        found.emplace_back(std::atoi(n.c_str() + prefix.size()), e.path().string());
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto &f : found) out.push_back(f.second);
    return out;
}

TestData load_test_data(const std::string &model_path, const OnnxImportOptions &o) {
    TestData data;
    std::vector<std::string> ins = o.input_files, outs = o.expected_files;
    std::string dir = o.test_data_dir;
    // test_data_set_0 beside the model is used unless shapes are overridden.
    if (ins.empty() && outs.empty() && dir.empty() && o.shapes.empty()) {
        fs::path beside = fs::path(model_path).parent_path() / "test_data_set_0";
        std::error_code ec;
        if (fs::is_directory(beside, ec)) dir = beside.string();
    }
    if (ins.empty() && outs.empty() && !dir.empty()) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) throw Error("test data directory '" + dir + "' does not exist");
        ins = sorted_files(dir, "input_");
        outs = sorted_files(dir, "output_");
    }
    for (const std::string &f : ins) data.inputs.push_back(read_test_tensor(f));
    for (const std::string &f : outs) data.outputs.push_back(read_test_tensor(f));
    return data;
}

class Importer {
public:
    Importer(const std::string &path, const OnnxImportOptions &o) : path_(path), options_(o) {}

    HalideProgram run() {
        try {
            return import();
        } catch (const Unsupported &e) {
            throw UnsupportedModelError(path_, {{"(model)", "-", model_opset_, e.what()}});
        }
    }

private:
    void infer_shapes() {
        try {
            onnx::shape_inference::InferShapes(model_);
        } catch (const std::exception &e) {
            throw Error("'" + path_ + "': ONNX shape inference failed: " + std::string(e.what()));
        }
    }

    HalideProgram import() {
        model_ = load_model(path_, &model_opset_);
        onnx::GraphProto &g = *model_.mutable_graph();
        if (options_.fold_batchnorm) fold_batchnorm_into_conv(g);
        for (const onnx::TensorProto &t : g.initializer()) initializers_.insert(t.name());
        // Element types are known before shapes are fixed: check support first.
        onnx::ModelProto original = model_;
        infer_shapes();
        collect_value_types(g);
        check_support(g);
        model_ = original;
        types_.clear();

        test_ = load_test_data(path_, options_);
        fix_input_shapes(*model_.mutable_graph());
        infer_shapes();
        collect_value_types(model_.graph());
        return convert(model_.graph());
    }

    HalideProgram convert(const onnx::GraphProto &g) {

        for (const onnx::TensorProto &t : g.initializer()) add_initializer(t);
        for (const onnx::ValueInfoProto &v : g.input()) {
            if (!initializers_.count(v.name())) add_graph_input(v);
        }
        for (int i = 0; i < g.node_size(); i++) convert_node(g.node(i), i);
        if (!failed_.empty()) throw UnsupportedModelError(path_, failed_);
        return finish(g);
    }

    // Fixes every graph input to a static shape (options, then test data, then batch 1).
    void fix_input_shapes(onnx::GraphProto &g) {
        for (const auto &s : options_.shapes) {
            bool found = false;
            for (const onnx::ValueInfoProto &v : g.input()) found |= v.name() == s.first;
            if (!found) throw Error("--shape " + s.first + ": the model has no input of that name");
        }
        size_t next_test = 0;
        bool reshaped = false;
        for (onnx::ValueInfoProto &v : *g.mutable_input()) {
            if (initializers_.count(v.name())) continue;
            ValueType t = value_type(v);
            const TestTensor *test = next_test < test_.inputs.size() ? &test_.inputs[next_test] : nullptr;
            next_test++;
            if (!v.type().has_tensor_type()) {
                throw Error("'" + path_ + "': input '" + v.name() + "' is not a tensor (sequences, maps and optionals "
                            "are not supported)");
            }
            std::vector<int64_t> dims;
            auto given = options_.shapes.find(v.name());
            if (given != options_.shapes.end()) {
                dims = given->second;
                if (t.has_shape && dims.size() != t.dims.size()) {
                    throw Error("--shape " + v.name() + ": the model's input has rank " + std::to_string(t.dims.size()) +
                                ", the shape given has rank " + std::to_string(dims.size()));
                }
            } else if (test) {
                dims = test->shape;
            } else {
                if (!t.has_shape) {
                    throw Error("'" + path_ + "': input '" + v.name() + "' has no shape; give it with --shape " +
                                v.name() + "=...");
                }
                dims = t.dims;
                for (size_t d = 0; d < dims.size(); d++) {
                    if (dims[d] > 0) continue;
                    if (d == 0) {
                        dims[d] = 1;  // batch
                        continue;
                    }
                    throw Error("'" + path_ + "': input '" + v.name() + "' has a dynamic dimension " +
                                std::to_string(d) + (t.symbols[d].empty() ? "" : " ('" + t.symbols[d] + "')") +
                                "; fix it with --shape " + v.name() + "=" + shape_text(dims));
                }
            }
            for (int64_t d : dims) {
                if (d < 0) throw Error("input '" + v.name() + "': dimensions must be positive (" + shape_text(dims) + ")");
            }
            if (!t.has_shape || dims != t.dims) reshaped = true;
            set_static_dims(v, dims);
        }
        if (reshaped) {
            // Shapes recorded in the model for other values no longer hold: infer them anew.
            g.clear_value_info();
            for (onnx::ValueInfoProto &o : *g.mutable_output()) {
                if (o.type().has_tensor_type()) o.mutable_type()->mutable_tensor_type()->clear_shape();
            }
        }
    }

    void collect_value_types(const onnx::GraphProto &g) {
        for (const onnx::ValueInfoProto &v : g.input()) types_[v.name()] = value_type(v);
        for (const onnx::ValueInfoProto &v : g.value_info()) types_[v.name()] = value_type(v);
        for (const onnx::ValueInfoProto &v : g.output()) types_[v.name()] = value_type(v);
        for (const onnx::TensorProto &t : g.initializer()) {
            ValueType vt;
            vt.elem_type = t.data_type();
            vt.has_shape = true;
            vt.dims = tensor_dims(t);
            types_[t.name()] = vt;
        }
    }

    // Lists every node no converter handles; throws before any conversion.
    void check_support(const onnx::GraphProto &g) {
        std::vector<UnsupportedNode> bad;
        auto check_value = [&](const onnx::ValueInfoProto &v, const char *what) {
            if (initializers_.count(v.name())) return;
            std::string why;
            if (!v.type().has_tensor_type()) why = "not a tensor (sequences, maps and optionals are not supported)";
            else halide_type_of(v.type().tensor_type().elem_type(), &why);
            if (!why.empty()) bad.push_back({std::string(what) + " '" + v.name() + "'", "-", model_opset_, why});
        };
        for (const onnx::ValueInfoProto &v : g.input()) check_value(v, "graph input");
        for (const onnx::ValueInfoProto &v : g.output()) check_value(v, "graph output");
        const ConverterTable &table = converter_table();
        for (int i = 0; i < g.node_size(); i++) {
            const onnx::NodeProto &n = g.node(i);
            UnsupportedNode u{node_label(n, i), n.op_type(), model_opset_, ""};
            if (!n.domain().empty() && n.domain() != "ai.onnx") {
                u.reason = "domain '" + n.domain() + "' is not supported";
                u.opset = 0;
                for (const onnx::OperatorSetIdProto &o : model_.opset_import()) {
                    if (o.domain() == n.domain()) u.opset = static_cast<int>(o.version());
                }
            } else if (!table.count(n.op_type())) {
                u.reason = "no converter for this op";
            } else {
                std::vector<int> in_types;
                for (const std::string &in : n.input()) {
                    auto it = types_.find(in);
                    in_types.push_back(in.empty() || it == types_.end() ? 0 : it->second.elem_type);
                }
                for (const std::string &out : n.output()) {
                    auto it = types_.find(out);
                    if (out.empty() || it == types_.end() || it->second.elem_type == 0) continue;
                    std::string why;
                    halide_type_of(it->second.elem_type, &why);
                    if (!why.empty()) u.reason = "output '" + out + "': " + why;
                }
                for (size_t k = 0; k < in_types.size() && u.reason.empty(); k++) {
                    std::string why;
                    if (in_types[k]) halide_type_of(in_types[k], &why);
                    if (!why.empty()) u.reason = "input '" + n.input(static_cast<int>(k)) + "': " + why;
                }
                const OpConverter &c = table.at(n.op_type());
                if (u.reason.empty() && c.check) u.reason = c.check(n, in_types);
            }
            if (!u.reason.empty()) bad.push_back(u);
        }
        if (!bad.empty()) throw UnsupportedModelError(path_, bad);
    }

    std::string fresh_name(const std::string &base) {
        std::string name = identifier(base);
        std::string candidate = name;
        for (int k = 2; used_names_.count(candidate); k++) candidate = name + "_" + std::to_string(k);
        used_names_.insert(candidate);
        return candidate;
    }

    // A tensor whose values live in a buffer parameter (graph input or constant).
    Tensor param_tensor(const std::string &name, int elem_type, const std::vector<int64_t> &shape,
                        Halide::Buffer<> constant) {
        Tensor t;
        t.name = name;
        t.elem_type = elem_type;
        t.type = storage_type(elem_type);
        t.shape = shape;
        t.constant = constant;
        std::string pname = fresh_name((constant.defined() ? "w_" : "") + name);
        alias(name, pname);
        Halide::ImageParam param(t.type, static_cast<int>(std::max<size_t>(shape.size(), 1)), pname);
        if (constant.defined()) param.set(constant);
        std::vector<Halide::Var> vars = make_vars(t.rank());
        Halide::Func f(fresh_name(name + "_in"));
        define(f, vars, param(halide_args(vars)));
        t.func = f;
        params_[pname] = {param, t};
        return t;
    }

    void add_initializer(const onnx::TensorProto &t) {
        Halide::Buffer<> values = tensor_to_buffer(t, "initializer '" + t.name() + "'");
        tensors_[t.name()] = param_tensor(t.name(), t.data_type(), tensor_dims(t), values);
    }

    void add_graph_input(const onnx::ValueInfoProto &v) {
        ValueType vt = value_type(v);
        std::string why;
        halide_type_of(vt.elem_type, &why);
        if (!why.empty()) throw Error("'" + path_ + "': input '" + v.name() + "': " + why);
        Tensor t = param_tensor(v.name(), vt.elem_type, vt.dims, Halide::Buffer<>());
        t.graph_input = true;
        size_t index = graph_inputs_.size();
        if (options_.specialize_shape_inputs && index < test_.inputs.size()) t.test_value = test_.inputs[index].values;
        graph_inputs_.push_back(v.name());
        tensors_[v.name()] = t;
    }

    // Realizes a tensor with the JIT (all its inputs are constants).
    Halide::Buffer<> evaluate(const Tensor &t) {
        Halide::Buffer<> out = make_buffer(t.type, t.shape);
        Halide::Target target = Halide::get_host_target().with_feature(Halide::Target::StrictFloat);
        try {
            Halide::Func f = t.func;
            f.realize(out, target);
        } catch (const Halide::Error &e) {
            throw Error("folding constant '" + t.name + "' failed: " + std::string(e.what()));
        }
        return out;
    }

    // A node that cannot be converted is recorded; the nodes depending on it are skipped (their
    // failure would only repeat it) and conversion goes on so every such node is listed.
    void convert_node(const onnx::NodeProto &n, int index) {
        std::string label = node_label(n, index);
        std::vector<const Tensor *> inputs;
        bool all_constant = true;
        for (const std::string &in : n.input()) {
            if (in.empty()) {
                inputs.push_back(nullptr);
                continue;
            }
            if (poisoned_.count(in)) {
                poisoned_.insert(n.output().begin(), n.output().end());
                return;
            }
            auto it = tensors_.find(in);
            if (it == tensors_.end()) {
                throw Error("'" + path_ + "': node '" + label + "' reads '" + in + "', which no earlier node defines");
            }
            inputs.push_back(&it->second);
            all_constant &= it->second.is_constant();
        }
        // The converter's Funcs are named <output>_op...; the filter itself <output>.
        std::string prefix = fresh_name((n.output_size() ? n.output(0) : label) + "_op");
        NodeContext ctx(n, inputs, prefix);
        try {
            converter_table().at(n.op_type()).convert(ctx);
        } catch (const Unsupported &e) {
            failed_.push_back({label, n.op_type(), model_opset_, e.what()});
            poisoned_.insert(n.output().begin(), n.output().end());
            return;
        } catch (const Halide::Error &e) {
            throw Error("'" + path_ + "': converting node '" + label + "' (" + n.op_type() +
                        ") failed in Halide: " + std::string(e.what()));
        }
        for (int i = 0; i < n.output_size(); i++) {
            if (n.output(i).empty()) continue;
            Tensor t = ctx.outputs.at(i);
            if (!t.func.defined() && !t.constant.defined()) {
                throw std::logic_error("converter " + n.op_type() + " left output " + n.output(i) + " undefined");
            }
            check_shape(label, n, t);
            if (t.size() == 0 && !t.constant.defined()) {
                failed_.push_back({label, n.op_type(), model_opset_, "output '" + t.name + "' is an empty tensor"});
                poisoned_.insert(t.name);
                continue;
            }
            bool fold = !t.constant.defined() && all_constant && t.size() <= (int64_t(1) << 22);
            if (fold) t.constant = evaluate(t);
            if (t.constant.defined()) {
                t = param_tensor(t.name, t.elem_type, t.shape, t.constant);
            } else if (!ctx.views.at(i)) {
                Halide::Func f(fresh_name(t.name));
                std::vector<Halide::Var> vars = make_vars(t.rank());
                define(f, vars, t.at(as_exprs(vars)));
                f.compute_root();
                t.func = f;
                filters_.insert(f.name());
                alias(t.name, f.name());
                if (i == 0) alias(n.name(), f.name());
            }
            tensors_[t.name] = t;
        }
    }

    // Compares a converter's output shape with ONNX shape inference where both are static.
    void check_shape(const std::string &label, const onnx::NodeProto &n, const Tensor &t) {
        auto it = types_.find(t.name);
        if (it == types_.end() || !it->second.has_shape) return;
        const ValueType &vt = it->second;
        for (int64_t d : vt.dims) {
            if (d < 0) return;
        }
        if (vt.dims != t.shape) {
            throw Error("'" + path_ + "': node '" + label + "' (" + n.op_type() + ") gives '" + t.name + "' shape " +
                        shape_text(t.shape) + " but ONNX shape inference says " + shape_text(vt.dims));
        }
        if (vt.elem_type && vt.elem_type != t.elem_type) {
            throw Error("'" + path_ + "': node '" + label + "' (" + n.op_type() + ") gives '" + t.name + "' type " +
                        elem_type_name(t.elem_type) + " but ONNX says " + elem_type_name(vt.elem_type));
        }
    }

    HalideProgram finish(const onnx::GraphProto &g) {
        HalideProgram p;
        p.name = options_.kernel_name.empty() ? identifier(fs::path(path_).stem().string()) : options_.kernel_name;
        if (p.name == "model") p.name = identifier(fs::path(path_).parent_path().filename().string());
        if (p.name.empty()) p.name = "model";
        std::set<std::string> output_funcs, read;
        for (const onnx::NodeProto &n : g.node()) read.insert(n.input().begin(), n.input().end());
        std::vector<int> output_types;
        for (const onnx::ValueInfoProto &v : g.output()) {
            auto it = tensors_.find(v.name());
            if (it == tensors_.end()) throw Error("'" + path_ + "': output '" + v.name() + "' is never computed");
            const Tensor &t = it->second;
            if (t.size() == 0) throw Unsupported("output '" + v.name() + "' is an empty tensor");
            output_types.push_back(t.elem_type);
            // A filter's result that nothing else reads is the output itself; otherwise a copy.
            if (filters_.count(t.func.name()) && !read.count(v.name()) && output_funcs.insert(t.func.name()).second) {
                p.outputs.push_back({t.func, halide_extents(t.shape)});
                continue;
            }
            Halide::Func f(fresh_name("out_" + v.name()));
            std::vector<Halide::Var> vars = make_vars(t.rank());
            define(f, vars, t.at(as_exprs(vars)));
            f.compute_root();
            std::vector<int> extents = halide_extents(t.shape);
            p.outputs.push_back({f, extents});
        }
        std::vector<Halide::Func> outs;
        for (const ProgramOutput &o : p.outputs) outs.push_back(o.func);
        std::set<std::string> used;
        for (const Halide::Argument &a : Halide::Pipeline(outs).infer_arguments()) used.insert(a.name);
        // Graph inputs the design reads first (in graph order), then constants by name.
        for (size_t gi = 0; gi < graph_inputs_.size(); gi++) {
            for (auto &e : params_) {
                if (e.second.tensor.name != graph_inputs_[gi] || e.second.tensor.is_constant()) continue;
                if (!used.count(e.first)) continue;  // only specialized on, or not read at all
                if (e.second.tensor.size() == 0) throw Unsupported("input '" + graph_inputs_[gi] + "' is empty");
                ProgramInput pi(e.second.param, halide_extents(e.second.tensor.shape), -1.0, 1.0);
                p.inputs.push_back(pi);
                kernel_inputs_.push_back(gi);
            }
        }
        for (auto &e : params_) {
            if (!e.second.tensor.is_constant() || !used.count(e.first)) continue;
            ProgramInput pi(e.second.param, halide_extents(e.second.tensor.shape));
            pi.constant = e.second.tensor.constant;
            p.inputs.push_back(pi);
        }
        for (auto &e : params_) e.second.param.reset();
        attach_test_data(p, output_types);
        p.directive_aliases = aliases_;
        return p;
    }

    void attach_test_data(HalideProgram &p, const std::vector<int> &output_types) {
        if (test_.inputs.empty() && test_.outputs.empty()) return;
        if (test_.outputs.empty()) throw Error("test data has inputs but no expected outputs");
        size_t n_inputs = graph_inputs_.size();
        if (test_.inputs.size() != n_inputs) {
            throw Error("test data has " + std::to_string(test_.inputs.size()) + " input(s); the model has " +
                        std::to_string(n_inputs));
        }
        if (test_.outputs.size() != p.outputs.size()) {
            throw Error("test data has " + std::to_string(test_.outputs.size()) + " expected output(s); the model has " +
                        std::to_string(p.outputs.size()));
        }
        size_t k = 0;
        for (const ProgramInput &in : p.inputs) {
            if (in.constant.defined()) continue;
            size_t gi = kernel_inputs_.at(k++);
            const TestTensor &t = test_.inputs.at(gi);
            if (t.values.type() != in.param.type() || halide_extents(t.shape) != in.shape) {
                throw Error("test input " + std::to_string(gi) + " ('" + t.name + "') does not match model input '" +
                            graph_inputs_.at(gi) + "' (type or shape)");
            }
            p.test_inputs.push_back(t.values);
        }
        for (size_t i = 0; i < p.outputs.size(); i++) {
            const TestTensor &t = test_.outputs[i];
            if (t.elem_type != output_types[i] || halide_extents(t.shape) != p.outputs[i].shape) {
                throw Error("expected output " + std::to_string(i) + " ('" + t.name + "') has type " +
                            elem_type_name(t.elem_type) + " shape " + shape_text(t.shape) +
                            "; the model's output differs");
            }
            p.expected_outputs.push_back(t.values);
        }
        p.atol = options_.atol;
        p.rtol = options_.rtol;
    }

    struct ParamEntry {
        Halide::ImageParam param;
        Tensor tensor;
    };

    std::string path_;
    OnnxImportOptions options_;
    onnx::ModelProto model_;
    TestData test_;
    std::set<std::string> initializers_;
    std::map<std::string, ValueType> types_;
    std::map<std::string, Tensor> tensors_;
    std::map<std::string, ParamEntry> params_;
    std::vector<std::string> graph_inputs_;
    std::vector<size_t> kernel_inputs_;  // indices into graph_inputs_ of the kernel's inputs
    std::set<std::string> used_names_;
    std::set<std::string> filters_;  // names of the compute_root Funcs made for node outputs
    // ONNX node and value names -> the Func or parameter made for them (HalideProgram::directive_aliases).
    std::map<std::string, std::string> aliases_;
    void alias(const std::string &onnx_name, const std::string &name) {
        if (!onnx_name.empty() && onnx_name != name) aliases_.emplace(onnx_name, name);
    }
    int model_opset_ = 0;             // the model's default-domain opset before conversion
    std::vector<UnsupportedNode> failed_;
    std::set<std::string> poisoned_;  // values of nodes that could not be converted
};

}  // namespace

HalideProgram import_onnx(const std::string &path, const OnnxImportOptions &options) {
    return Importer(path, options).run();
}

}  // namespace flowhls
