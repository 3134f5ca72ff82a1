// load_generator: a registered Halide Generator built into a flowhls program.
#include "flowhls/Generators.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "support/Names.h"

#include <algorithm>
#include <dlfcn.h>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

void load_plugins(const std::vector<std::string> &plugins) {
    for (const std::string &path : plugins) {
        // Never unloaded: the generator registry keeps pointers into the library.
        if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            const char *why = dlerror();
            throw Error("cannot load generator plugin '" + path + "': " + (why ? why : "unknown error"));
        }
    }
}

// Buffer parameters the pipeline's Funcs read, by name.
class CollectImageParams : public IRVisitor {
public:
    std::map<std::string, Parameter> params;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Image && op->param.defined()) params.emplace(op->param.name(), op->param);
        IRVisitor::visit(op);
    }
};

std::map<std::string, Parameter> image_params(const std::vector<Halide::Func> &outputs) {
    CollectImageParams collect;
    for (auto &kv : pipeline_functions(outputs)) {
        Function f = kv.second;
        auto visit_definition = [&](const Definition &d) {
            for (const Halide::Expr &e : d.values()) e.accept(&collect);
            for (const Halide::Expr &e : d.args()) e.accept(&collect);
        };
        if (f.has_pure_definition()) visit_definition(f.definition());
        for (const Definition &u : f.updates()) visit_definition(u);
    }
    return collect.params;
}

// "NxN..." with one N per dimension, for messages.
std::string placeholder_shape(int dims) {
    std::string s;
    for (int i = 0; i < dims; i++) s += i ? "xN" : "N";
    return s;
}

std::vector<int> take_shape(std::map<std::string, std::vector<int>> &shapes, const std::string &name, int dims,
                            const char *what) {
    auto it = shapes.find(name);
    if (it == shapes.end()) {
        throw Error(std::string(what) + " '" + name + "' has a dynamic shape (" + std::to_string(dims) +
                    " dimensions); give it with --shape " + name + "=" + placeholder_shape(dims));
    }
    std::vector<int> numpy_order = it->second;
    shapes.erase(it);
    if (static_cast<int>(numpy_order.size()) != dims) {
        throw Error(std::string(what) + " '" + name + "' has " + std::to_string(dims) + " dimensions but --shape gives " +
                    std::to_string(numpy_order.size()));
    }
    return std::vector<int>(numpy_order.rbegin(), numpy_order.rend());
}

}  // namespace

std::vector<int> parse_shape(const std::string &text, const std::string &what) {
    std::vector<int> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t x = text.find('x', pos);
        std::string part = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
        if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos) {
            throw Error(what + ": '" + text + "' is not a shape like 48x64 (positive extents, outermost first)");
        }
        out.push_back(std::stoi(part));
        if (out.back() <= 0) throw Error(what + ": extents must be positive in '" + text + "'");
        if (x == std::string::npos) break;
        pos = x + 1;
    }
    return out;
}

std::vector<std::string> list_generators(const std::vector<std::string> &plugins) {
    load_plugins(plugins);
    std::vector<std::string> names = GeneratorRegistry::enumerate();
    std::sort(names.begin(), names.end());
    return names;
}

HalideProgram load_generator(const GeneratorRequest &request) {
    std::vector<std::string> names = list_generators(request.plugins);
    if (std::find(names.begin(), names.end(), request.generator) == names.end()) {
        std::string known;
        for (const std::string &n : names) known += (known.empty() ? "" : ", ") + n;
        throw Error("unknown generator '" + request.generator + "' (registered: " + (known.empty() ? "none" : known) +
                    "; load the library that defines it with --plugin)");
    }
    HalideProgram program;
    program.name = request.kernel_name.empty() ? request.generator : request.kernel_name;
    std::map<std::string, std::vector<int>> shapes = request.shapes;
    try {
        std::unique_ptr<GeneratorBase> gen =
            GeneratorRegistry::create(request.generator, Halide::GeneratorContext(Halide::get_host_target()));
        GeneratorParamsMap params;
        for (const auto &kv : request.params) params[kv.first] = kv.second;
        gen->set_generator_param_values(params);
        // Building the module runs generate() and schedule(); the pipeline is then available.
        gen->build_module(program.name);
        Halide::Pipeline pipeline = gen->get_pipeline();
        std::map<std::string, Parameter> params_by_name = image_params(pipeline.outputs());
        for (const Halide::Argument &a : pipeline.infer_arguments()) {
            if (a.is_scalar()) {
                throw Error("generator '" + request.generator + "' has the scalar input '" + a.name +
                            "'; scalar kernel parameters are not supported yet");
            }
            auto it = params_by_name.find(a.name);
            if (it == params_by_name.end()) throw std::logic_error("load_generator: no parameter for " + a.name);
            program.inputs.emplace_back(it->second, take_shape(shapes, a.name, a.dimensions, "input"));
        }
        for (const Halide::Func &f : pipeline.outputs()) {
            program.outputs.push_back(
                {f, take_shape(shapes, halide_base_name(f.name()), f.dimensions(), "output")});
        }
    } catch (const Halide::Error &e) {
        throw Error("generator '" + request.generator + "': " + e.what());
    }
    if (!shapes.empty()) {
        throw Error("--shape " + shapes.begin()->first + ": generator '" + request.generator +
                    "' has no input or output with that name");
    }
    return program;
}

}  // namespace flowhls
