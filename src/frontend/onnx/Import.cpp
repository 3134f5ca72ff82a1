// import_onnx: a loaded, checked ONNX graph converted into a Halide program (one Func per op).
#include "flowhls/Onnx.h"
#include "frontend/onnx/Converter.h"
#include "frontend/halide/JitTarget.h"
#include "frontend/onnx/FoldBatchNorm.h"
#include "frontend/onnx/FuseQdq.h"
#include "frontend/onnx/Load.h"
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TestData.h"
#include "support/Names.h"
#include "support/Sizes.h"

#include <algorithm>
#include <filesystem>
#include <limits>
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

// The module path of a PyTorch value name ("/layer1/layer1.0/conv1/Conv_output_0" is in
// "/layer1/layer1.0/conv1"); "" for a name without one.
std::string module_of(const std::string &value) {
    size_t slash = value.rfind('/');
    if (slash == std::string::npos || value.find_first_not_of('/') >= slash) return "";
    return value.substr(0, slash);
}

// The modules of `g`'s node outputs that hold other modules' values ("/layer1/layer1.0"
// holds "/layer1/layer1.0/conv1/...").
std::set<std::string> outer_modules(const onnx::GraphProto &g) {
    std::set<std::string> outer;
    for (const onnx::NodeProto &n : g.node()) {
        for (const std::string &o : n.output()) {
            // Every module around the value's module holds it (an inserted one, those around it too).
            for (std::string up = module_of(module_of(o)); !up.empty(); up = module_of(up)) {
                if (!outer.insert(up).second) break;
            }
        }
    }
    return outer;
}

// The name of output `value` of a node of type `op`, for its filter: PyTorch's
// "/layer2/layer2.0/conv1/Conv_output_0" is "layer2_0_conv1": in a module that holds no
// other module (not in `outer`), a last path component that is an op type (the node's, or
// QuantizeLinear whose output a QDQ fusion takes over) goes, as the module says what the
// value is and the comment at the filter function names the node and its type.
// "/layer1/layer1.0/Add_output_0" (layer1.0 holds conv1...) stays "layer1_0_Add",
// "/Relu_1_output_0" (no module) "Relu_1".
std::string value_name(const std::string &value, const std::string &op, const std::set<std::string> &outer) {
    std::string n = value;
    const std::string suffix = "_output_0";
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        n.resize(n.size() - suffix.size());
    }
    size_t slash = n.rfind('/');
    std::string module = module_of(n);
    if (module.empty() || outer.count(module)) return identifier(n);
    std::string last = n.substr(slash + 1);
    size_t number = last.find_last_not_of("0123456789");
    if (number != std::string::npos && number + 1 < last.size() && number > 0 && last[number] == '_') {
        last.resize(number);  // "Relu_1": PyTorch numbers a module's repeated ops
    }
    if (last == op || converter_table().count(last)) n.resize(slash);
    return identifier(n);
}

class Importer {
public:
    Importer(const std::string &path, const OnnxImportOptions &o)
        : path_(path), options_(o), budget_(o.max_memory_bytes > 0 ? o.max_memory_bytes : default_memory_budget()) {}

    HalideProgram run() {
        try {
            return import();
        } catch (const Unsupported &e) {
            throw UnsupportedModelError(path_, {{"(model)", "-", model_opset_, e.what()}});
        }
    }

private:
    HalideProgram import() {
        model_ = read_model(path_);
        model_opset_ = check_and_convert(model_, path_);
        onnx::GraphProto &g = *model_.mutable_graph();
        if (options_.fold_batchnorm) fold_batchnorm_into_conv(g);
        if (options_.fuse_qdq) fuse_qdq(model_, path_);
        for (const onnx::TensorProto &t : g.initializer()) initializers_.insert(t.name());
        // Element types are known before shapes are fixed: check support first.
        {
            onnx::ModelProto inferred = model_;
            infer_shapes(inferred, path_);
            std::map<std::string, ValueType> types = value_types(inferred.graph());
            check_types(inferred.graph(), types, path_);
            check_support(inferred, types, model_opset_, path_);
        }
        test_ = load_test_data(path_, options_);
        fix_input_shapes(*model_.mutable_graph());
        infer_shapes(model_, path_);
        types_ = value_types(model_.graph());
        return convert(model_.graph());
    }

    HalideProgram convert(const onnx::GraphProto &g) {

        for (const onnx::TensorProto &t : g.initializer()) add_initializer(t);
        for (const onnx::ValueInfoProto &v : g.input()) {
            if (!initializers_.count(v.name())) add_graph_input(v);
        }
        outer_modules_ = outer_modules(g);
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

    std::string fresh_name(const std::string &base) { return flowhls::fresh_name(identifier(base), used_names_); }

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
        t.dims = dim_names("", shape, {});
        std::vector<Halide::Var> vars = make_vars(t.dims);
        Halide::Func f(fresh_name(name + "_in"));
        define(f, vars, param(halide_args(vars)));
        t.func = f;
        params_[pname] = {param, t};
        return t;
    }

    void add_initializer(const onnx::TensorProto &t) {
        charge("'" + path_ + "': ", "initializer '" + t.name() + "'", t.data_type(), tensor_dims(t));
        Halide::Buffer<> values = tensor_to_buffer(t, "initializer '" + t.name() + "'");
        tensors_[t.name()] = param_tensor(t.name(), t.data_type(), tensor_dims(t), values);
    }

    void add_graph_input(const onnx::ValueInfoProto &v) {
        ValueType vt = value_type(v);
        std::string why;
        halide_type_of(vt.elem_type, &why);
        if (!why.empty()) throw Error("'" + path_ + "': input '" + v.name() + "': " + why);
        charge("'" + path_ + "': ", "input '" + v.name() + "'", vt.elem_type, vt.dims);
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
        Halide::Target target = jit_target();
        try {
            Halide::Func f = t.func;
            f.realize(out, target);
        } catch (const Halide::Error &e) {
            throw ConverterFailure("the Halide JIT could not fold the constant '" + t.name + "'");
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
        // The converter's Funcs are named <value>_op...; the filter itself <value> (value_name).
        std::string prefix =
            fresh_name(value_name(n.output_size() ? n.output(0) : label, n.op_type(), outer_modules_) + "_op");
        NodeContext ctx(n, inputs, prefix);
        ctx.make_constant = [this](const std::string &name, Halide::Buffer<> values, const std::vector<int64_t> &shape,
                                   int elem_type) { return param_tensor(name, elem_type, shape, values); };
        std::string where = "'" + path_ + "': node '" + label + "' (" + n.op_type() + ")";
        try {
            converter_table().at(n.op_type()).convert(ctx);
            std::vector<std::pair<std::vector<int64_t>, std::vector<std::string>>> input_dims;
            for (const Tensor *in : inputs) {
                if (in) input_dims.emplace_back(in->shape, in->dims);
            }
            for (Tensor &out : ctx.outputs) out.dims = dim_names(n.op_type(), out.shape, input_dims);
            for (const std::string &f : ctx.funcs_made()) origins_[f] = origin(n, label);
        } catch (const Unsupported &e) {
            failed_.push_back({label, n.op_type(), model_opset_, e.what()});
            poisoned_.insert(n.output().begin(), n.output().end());
            return;
        } catch (const InvalidNode &e) {
            throw Error(where + ": " + e.what());
        } catch (const Halide::Error &e) {
            throw ConverterFailure(where + ": flowhls's converter produced a definition Halide rejects");
        }
        try {
            for (int i = 0; i < n.output_size(); i++) {
                if (!n.output(i).empty()) add_node_output(n, i, label, ctx, all_constant);
            }
        } catch (const ConverterFailure &e) {
            throw ConverterFailure(where + ": " + e.what());
        } catch (const UnsupportedModelError &) {
            throw;
        } catch (const Error &e) {
            throw Error(where + ": " + e.what());
        }
    }

    // Output `i` of node `n` as the converter defined it: checked against shape inference and
    // the memory budget, folded when its inputs are constants, else a filter (or an inlined view).
    void add_node_output(const onnx::NodeProto &n, int i, const std::string &label, NodeContext &ctx,
                         bool all_constant) {
        Tensor t = ctx.outputs.at(i);
        if (!t.func.defined() && !t.constant.defined()) {
            throw std::logic_error("converter " + n.op_type() + " left output " + n.output(i) + " undefined");
        }
        for (int64_t d : t.shape) {
            if (d < 0 || d > std::numeric_limits<int32_t>::max()) {
                throw Error("output '" + t.name + "' would have shape " + shape_text(t.shape) +
                            " (dimensions are in [0, 2^31))");
            }
        }
        check_shape(label, n, t);
        if (t.size() == 0 && !t.constant.defined()) {
            failed_.push_back({label, n.op_type(), model_opset_, "output '" + t.name + "' is an empty tensor"});
            poisoned_.insert(t.name);
            return;
        }
        bool view = ctx.views.at(i) && !t.constant.defined();
        if (view) {
            int depth = 0;
            for (const std::string &in : n.input()) {
                auto it = tensors_.find(in);
                if (it != tensors_.end()) depth = std::max(depth, it->second.view_depth);
            }
            t.view_depth = depth + 1;
            view = t.view_depth <= kMaxViewChain;  // a longer chain of views: this one is a filter
            auto source = tensors_.find(n.input(0));
            if (view && source != tensors_.end() && source->second.func.defined() &&
                filters_.count(source->second.func.name())) {
                origins_[halide_base_name(source->second.func.name())].values.push_back(t.name);  // a view of its value
            }
        }
        if (!view) charge("", "output '" + t.name + "'", t.elem_type, t.shape);
        bool fold = !t.constant.defined() && all_constant && t.size() <= (int64_t(1) << 22);
        if (fold) t.constant = evaluate(t);
        if (t.constant.defined()) {
            t = param_tensor(t.name, t.elem_type, t.shape, t.constant);
        } else if (!view) {
            Halide::Func f(fresh_name(value_name(t.name, n.op_type(), outer_modules_)));
            std::vector<Halide::Var> vars = make_vars(t.dims);
            define(f, vars, t.at(as_exprs(vars)));
            f.compute_root();
            t.func = f;
            t.view_depth = 0;
            filters_.insert(f.name());
            OnnxOrigin &o = origins_[halide_base_name(f.name())];
            o = origin(n, label);
            o.values.push_back(t.name);
            alias(t.name, f.name());
            if (i == 0) alias(n.name(), f.name());
            // The node's accumulation helper, so a schedule can address it too.
            std::string acc = accumulation_func(f, ctx.funcs_made());
            if (!acc.empty()) {
                alias(t.name + "#acc", acc);
                alias(f.name() + "#acc", acc);
                if (i == 0) alias(n.name() + "#acc", acc);
            }
        }
        tensors_[t.name] = t;
    }

    // The one Func among `made` (a converter's Funcs) that `filter` calls and that has update
    // definitions (a Conv's, Gemm's or MatMul's accumulation); "" when there is none or several.
    static std::string accumulation_func(const Halide::Func &filter, const std::vector<std::string> &made) {
        std::string found;
        for (const auto &kv : Halide::Internal::find_transitive_calls(filter.function())) {
            if (!kv.second.has_update_definition()) continue;
            if (std::find(made.begin(), made.end(), halide_base_name(kv.first)) == made.end()) continue;
            if (!found.empty()) return "";
            found = kv.first;
        }
        return found;
    }

    // Adds the bytes of a tensor of `elem_type` and `shape` to what the model needs; throws
    // flowhls::Error naming `what` (after `where`) when the total passes the memory budget.
    void charge(const std::string &where, const std::string &what, int elem_type, const std::vector<int64_t> &shape) {
        int64_t bytes = checked_bytes(shape, std::max(element_bytes(elem_type), 1), kMaxTensorBytes);
        if (bytes < 0) {
            throw Error(where + what + " has shape " + shape_text(shape) + ", more than the " +
                        byte_size_text(kMaxTensorBytes) + " one tensor may hold");
        }
        memory_ += bytes;
        if (memory_ > budget_) {
            throw Error(where + "the model's tensors need more than the memory budget of " +
                        byte_size_text(budget_) + " (" + what + " brings them to " + byte_size_text(memory_) +
                        "); raise it with --max-memory");
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
            std::vector<Halide::Var> vars = make_vars(t.dims);
            origins_[halide_base_name(f.name())] = OnnxOrigin{"", "", {v.name()}, {v.name()}};
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
        attach_test_data(p, test_, graph_inputs_, kernel_inputs_, output_types, options_);
        p.directive_aliases = aliases_;
        p.onnx_origins = origins_;
        return p;
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
    std::set<std::string> outer_modules_;  // value_name's modules that hold others
    // Func name -> the ONNX node it computes and the values it holds (HalideProgram::onnx_origins).
    std::map<std::string, OnnxOrigin> origins_;
    static OnnxOrigin origin(const onnx::NodeProto &n, const std::string &label) {
        return OnnxOrigin{label, n.op_type(), {n.output().begin(), n.output().end()}, {}};
    }
    int model_opset_ = 0;             // the model's default-domain opset before conversion
    int64_t budget_ = 0;              // bytes all tensors may take (OnnxImportOptions::max_memory_bytes)
    int64_t memory_ = 0;              // bytes of the tensors so far
    std::vector<UnsupportedNode> failed_;
    std::set<std::string> poisoned_;  // values of nodes that could not be converted
};

}  // namespace

HalideProgram import_onnx(const std::string &path, const OnnxImportOptions &options) {
    return Importer(path, options).run();
}

}  // namespace flowhls
