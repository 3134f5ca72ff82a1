// isolated_copy: deep-copied Funcs with fresh input and output Parameters.
#include "frontend/halide/ProgramCopy.h"
#include "frontend/halide/Intake.h"

#include <map>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// A new buffer Parameter with the name, type, dimensions and constraints of `p`.
Parameter fresh_parameter(const Parameter &p) {
    Parameter q(p.type(), p.is_buffer(), p.dimensions(), p.name());
    if (!p.is_buffer()) return q;
    for (int d = 0; d < p.dimensions(); d++) {
        q.set_min_constraint(d, p.min_constraint(d));
        q.set_extent_constraint(d, p.extent_constraint(d));
        q.set_stride_constraint(d, p.stride_constraint(d));
        q.set_min_constraint_estimate(d, p.min_constraint_estimate(d));
        q.set_extent_constraint_estimate(d, p.extent_constraint_estimate(d));
    }
    q.set_host_alignment(p.host_alignment());
    return q;
}

// Replaces references to the caller's input Parameters (image calls, buffer-field variables
// such as input.min.0) with the copy's.
class ReplaceParameters : public IRMutator {
public:
    explicit ReplaceParameters(const std::map<std::string, Parameter> &by_name) : by_name(by_name) {}

private:
    const std::map<std::string, Parameter> &by_name;
    using IRMutator::visit;

    const Parameter *replacement(const Parameter &p) const {
        if (!p.defined()) return nullptr;
        auto it = by_name.find(p.name());
        return it == by_name.end() ? nullptr : &it->second;
    }
    Halide::Expr visit(const Call *op) override {
        Halide::Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        const Parameter *p = c ? replacement(c->param) : nullptr;
        if (!p) return e;
        return Call::make(c->type, c->name, c->args, c->call_type, c->func, c->value_index, c->image, *p);
    }
    Halide::Expr visit(const Variable *op) override {
        const Parameter *p = replacement(op->param);
        if (!p) return op;
        return Variable::make(op->type, op->name, op->image, *p, op->reduction_domain);
    }
};

}  // namespace

HalideProgram isolated_copy(const HalideProgram &program) {
    HalideProgram copy = program;
    std::map<std::string, Parameter> inputs;
    for (ProgramInput &in : copy.inputs) {
        in.param = fresh_parameter(in.param);
        inputs[in.param.name()] = in.param;
    }
    std::vector<Function> outputs;
    for (const ProgramOutput &out : program.outputs) outputs.push_back(out.func.function());
    auto copied = deep_copy(outputs, pipeline_functions(program));
    ReplaceParameters replace(inputs);
    for (auto &kv : copied.second) {
        Function f = kv.second;
        f.mutate(&replace);
        // deep_copy shares the output buffer Parameters; the copy gets its own.
        auto &buffers = const_cast<std::vector<Parameter> &>(f.output_buffers());
        for (Parameter &b : buffers) b = fresh_parameter(b);
    }
    for (size_t i = 0; i < copy.outputs.size(); i++) copy.outputs[i].func = Halide::Func(copied.first.at(i));
    return copy;
}

}  // namespace flowhls
