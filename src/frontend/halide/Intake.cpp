// lower_for_hls: binds static shapes, lowers with Halide and strips CPU-specific IR.
#include "frontend/halide/Intake.h"
#include "flowhls/Error.h"
#include "frontend/halide/LowerMath.h"
#include "support/Names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Dense strides of a shape (innermost first).
std::vector<int64_t> dense_strides(const std::vector<int64_t> &shape) {
    std::vector<int64_t> strides(shape.size());
    int64_t s = 1;
    for (size_t i = 0; i < shape.size(); i++) {
        strides[i] = s;
        s *= shape[i];
    }
    return strides;
}

// Replaces lets of buffer-descriptor queries by their constants, drops asserts.
class StripBufferQueries : public IRMutator {
public:
    explicit StripBufferQueries(const std::vector<KernelArg> &args) {
        for (const KernelArg &a : args) shapes[a.name + ".buffer"] = a.shape;
    }

private:
    std::map<std::string, std::vector<int64_t>> shapes;
    using IRMutator::visit;

    Stmt visit(const AssertStmt *) override { return Evaluate::make(0); }

    // The constant a buffer query evaluates to, or an undefined Expr.
    Expr constant_query(const Call *call) {
        if (!call || call->args.empty()) return Expr();
        const Variable *buf = call->args[0].as<Variable>();
        if (!buf || !shapes.count(buf->name)) return Expr();
        const std::vector<int64_t> &shape = shapes[buf->name];
        int dim = -1;
        if (call->args.size() == 2) {
            const IntImm *d = call->args[1].as<IntImm>();
            if (!d || d->value < 0 || d->value >= static_cast<int64_t>(shape.size())) return Expr();
            dim = static_cast<int>(d->value);
        }
        if (call->name == "_halide_buffer_get_min" && dim >= 0) return Halide::Expr(0);
        if (call->name == "_halide_buffer_get_max" && dim >= 0) return Halide::Expr(static_cast<int>(shape[dim] - 1));
        if (call->name == "_halide_buffer_get_extent" && dim >= 0) return Halide::Expr(static_cast<int>(shape[dim]));
        if (call->name == "_halide_buffer_get_stride" && dim >= 0) {
            return Halide::Expr(static_cast<int>(dense_strides(shape)[dim]));
        }
        if (call->name == "_halide_buffer_get_dimensions") return Halide::Expr(static_cast<int>(shape.size()));
        return Expr();
    }

    // The constants of the queries bound by the lets around the node visited, by name: a
    // variable naming one is replaced by it, as substitute() into each let's body would
    // (one walk instead of one per query), a binder of the same name hiding it (as
    // substitute's does).
    std::map<std::string, Expr> constants;

    Expr visit(const Variable *op) override {
        auto it = constants.find(op->name);
        return it == constants.end() ? Expr(op) : it->second;
    }

    // Mutates `body` with `name` bound to `value` (undefined: hidden) for its duration.
    template<typename Node> Node with_binding(const std::string &name, const Expr &value, const Node &body) {
        auto it = constants.find(name);
        std::optional<Expr> outer;
        if (it != constants.end()) {
            outer = it->second;
            constants.erase(it);
        }
        if (value.defined()) constants[name] = value;
        Node result = mutate(body);
        constants.erase(name);
        if (outer) constants[name] = *outer;
        return result;
    }

    Stmt visit(const LetStmt *op) override {
        const Call *call = op->value.as<Call>();
        if (call && call->name == "_halide_buffer_get_host") {
            // The host pointer: loads and stores name the buffer directly.
            return mutate(op->body);
        }
        Expr c = constant_query(call);
        if (c.defined()) return with_binding(op->name, c, op->body);
        Expr value = mutate(op->value);
        Stmt body = with_binding(op->name, Expr(), op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body = with_binding(op->name, Expr(), op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        Stmt body = with_binding(op->name, Expr(), op->body);
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return op;
        return For::make(op->name, min, extent, op->for_type, op->device_api, body);
    }
};

// Checks that what is left is plain code (scalar, or with vectors where the target maps
// them) with every variable bound.
class VerifyHlsReady : public IRVisitor {
public:
    explicit VerifyHlsReady(bool vectors_allowed) : vectors_allowed(vectors_allowed) {}
    std::string problem;

private:
    bool vectors_allowed;
    std::set<std::string> bound;
    using IRVisitor::visit;

    void fail(const std::string &p) {
        if (problem.empty()) problem = p;
    }
    void check_type(Halide::Type t, const char *what) {
        if (t.lanes() != 1 && !vectors_allowed) fail(std::string("vector ") + what + " (vectorized code) remains after lowering");
    }
    void visit(const Variable *op) override {
        if (!bound.count(op->name)) {
            fail("value '" + op->name + "' is not a compile-time constant (a dynamic bound or an unbound parameter)");
        }
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        bool had = bound.count(op->name);
        bound.insert(op->name);
        op->body.accept(this);
        if (!had) bound.erase(op->name);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        bool had = bound.count(op->name);
        bound.insert(op->name);
        op->body.accept(this);
        if (!had) bound.erase(op->name);
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        bool had = bound.count(op->name);
        bound.insert(op->name);
        op->body.accept(this);
        if (!had) bound.erase(op->name);
    }
    void visit(const Load *op) override {
        if (op->image.defined()) {
            fail("it reads the embedded Halide::Buffer '" + op->name +
                 "'; constant buffers are not supported yet (pass it as an ImageParam input)");
        }
        check_type(op->type, "load");
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        check_type(op->value.type(), "store");
        IRVisitor::visit(op);
    }
    void visit(const Ramp *op) override {
        if (!vectors_allowed) fail("vector index (vectorized code) remains after lowering");
        IRVisitor::visit(op);
    }
    void visit(const Broadcast *op) override {
        if (!vectors_allowed) fail("vector broadcast (vectorized code) remains after lowering");
        IRVisitor::visit(op);
    }
    void visit(const Shuffle *) override { fail("a vector shuffle remains after lowering (not supported yet)"); }
    void visit(const VectorReduce *) override {
        fail("a vector reduction remains after lowering (not supported yet; vectorize a pure dimension instead)");
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Extern || op->call_type == Call::ExternCPlusPlus) {
            fail("call to external function '" + op->name + "' cannot be synthesized");
        }
        if (op->type.is_handle() && !op->is_intrinsic(Call::undef)) {
            fail("call '" + op->name + "' returns a pointer");
        }
        IRVisitor::visit(op);
    }
    void visit(const Prefetch *) override { fail("prefetch remains after lowering"); }
    void visit(const Fork *) override { fail("fork (async schedule) remains after lowering"); }
    void visit(const Acquire *) override { fail("semaphore acquire (async schedule) remains after lowering"); }
    void visit(const Atomic *) override { fail("atomic section remains after lowering"); }
};

std::vector<int64_t> to_int64(const std::vector<int> &v) { return std::vector<int64_t>(v.begin(), v.end()); }

// Halide 14 turns parallel loops into closures during lowering. While this object lives,
// every parallel loop of the program is scheduled serial; the names of those loops are
// kept so that mark_parallel() can restore them in the lowered IR. The schedule is
// restored on destruction (the JIT reference runs the program as written).
class SerializeParallelLoops {
public:
    explicit SerializeParallelLoops(const HalideProgram &program) {
        for (auto &kv : pipeline_functions(program)) {
            Function f = kv.second;
            serialize(f.name(), 0, f.definition());
            for (size_t i = 0; i < f.updates().size(); i++) serialize(f.name(), static_cast<int>(i) + 1, f.updates()[i]);
        }
    }
    ~SerializeParallelLoops() {
        for (Dim *d : changed) d->for_type = ForType::Parallel;
    }
    SerializeParallelLoops(const SerializeParallelLoops &) = delete;
    SerializeParallelLoops &operator=(const SerializeParallelLoops &) = delete;

    Stmt mark_parallel(const Stmt &s) const {
        class Mark : public IRMutator {
        public:
            explicit Mark(const std::set<std::string> &names) : names(names) {}

        private:
            const std::set<std::string> &names;
            using IRMutator::visit;
            Stmt visit(const For *op) override {
                Stmt s = IRMutator::visit(op);
                if (!names.count(op->name)) return s;
                const For *f = s.as<For>();
                return For::make(f->name, f->min, f->extent, ForType::Parallel, f->device_api, f->body);
            }
        };
        return Mark(loop_names).mutate(s);
    }

private:
    std::vector<Dim *> changed;
    std::set<std::string> loop_names;

    void serialize(const std::string &func, int stage, Definition def) {
        for (Dim &d : def.schedule().dims()) {
            if (d.for_type != ForType::Parallel) continue;
            d.for_type = ForType::Serial;
            changed.push_back(&d);
            loop_names.insert(func + ".s" + std::to_string(stage) + "." + d.var);
        }
    }
};

}  // namespace

std::map<std::string, Function> pipeline_functions(const std::vector<Halide::Func> &outputs) {
    std::map<std::string, Function> env;
    for (const Halide::Func &out : outputs) {
        for (const auto &kv : find_transitive_calls(out.function())) env.emplace(kv);
    }
    return env;
}

std::map<std::string, Function> pipeline_functions(const HalideProgram &program) {
    std::vector<Halide::Func> outputs;
    for (const ProgramOutput &out : program.outputs) outputs.push_back(out.func);
    return pipeline_functions(outputs);
}

namespace {
// The `$N` suffix Halide gave `name` (0 when there is none).
long halide_suffix(const std::string &name) {
    size_t at = name.rfind('$');
    if (at == std::string::npos || at + 1 == name.size()) return 0;
    long n = 0;
    for (size_t i = at + 1; i < name.size(); i++) {
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return 0;
        n = std::min(n * 10 + (name[i] - '0'), 1000000000L);
    }
    return n;
}
}  // namespace

std::map<std::string, Function> functions_by_base_name(const HalideProgram &program) {
    std::map<std::string, Function> out;
    for (const auto &kv : pipeline_functions(program)) {
        std::string base = halide_base_name(kv.first);
        auto it = out.find(base);
        if (it == out.end()) out.emplace(base, kv.second);
        else if (halide_suffix(kv.first) < halide_suffix(it->second.name())) it->second = kv.second;
    }
    return out;
}

std::string input_viewed_by(const HalideProgram &program, const Function &f) {
    if (!f.updates().empty() || f.definition().values().size() != 1) return "";
    const auto *c = f.definition().values()[0].as<Halide::Internal::Call>();
    if (!c || c->args.size() != f.args().size()) return "";
    for (size_t i = 0; i < c->args.size(); i++) {
        const auto *v = c->args[i].as<Halide::Internal::Variable>();
        if (!v || v->name != f.args()[i]) return "";
    }
    if (c->call_type == Halide::Internal::Call::Halide && c->func.defined()) {
        return input_viewed_by(program, Function(c->func));  // the ImageParam's `NAME_im`
    }
    for (const ProgramInput &in : program.inputs) {
        if (c->call_type == Halide::Internal::Call::Image && c->param.defined() && c->param.name() == in.param.name()) {
            return in.param.name();
        }
    }
    return "";
}

std::vector<Function> called_functions(const Function &f) {
    class Calls : public IRVisitor {
    public:
        std::vector<Function> called;

    private:
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide && op->func.defined()) called.emplace_back(op->func);
            IRVisitor::visit(op);
        }
    } calls;
    f.accept(&calls);
    return calls.called;
}

Halide::Target hls_lowering_target() {
    Halide::Target t(Halide::Target::Linux, Halide::Target::X86, 64);
    return t.with_feature(Halide::Target::NoAsserts)
        .with_feature(Halide::Target::NoBoundsQuery)
        .with_feature(Halide::Target::NoRuntime)
        .with_feature(Halide::Target::StrictFloat);
}

void bind_static_shapes(const HalideProgram &program) {
    for (const ProgramInput &in : program.inputs) {
        Parameter p = in.param;
        int stride = 1;
        for (size_t d = 0; d < in.shape.size(); d++) {
            int dim = static_cast<int>(d);
            p.set_min_constraint(dim, 0);
            p.set_extent_constraint(dim, in.shape[d]);
            p.set_stride_constraint(dim, stride);
            stride *= in.shape[d];
        }
    }
    for (const ProgramOutput &out : program.outputs) {
        Halide::Func f = out.func;
        int64_t stride = 1;
        for (size_t d = 0; d < out.shape.size(); d++) {
            f.output_buffer().dim(static_cast<int>(d)).set_bounds(0, out.shape[d]).set_stride(static_cast<int>(stride));
            stride *= out.shape[d];
        }
    }
}

LoweredProgram lower_for_hls(const HalideProgram &program, HlsTarget target) {
    check_program(program, target);
    bind_static_shapes(program);

    LoweredProgram result;
    result.name = program.name;
    std::vector<Halide::Argument> arguments;
    std::map<std::string, const ProgramInput *> inputs;
    for (const ProgramInput &in : program.inputs) {
        arguments.emplace_back(in.param.name(), Halide::Argument::InputBuffer, in.param.type(),
                               in.param.dimensions(), Halide::ArgumentEstimates());
        inputs[in.param.name()] = &in;
    }
    std::vector<Halide::Func> outputs;
    std::map<std::string, const ProgramOutput *> output_specs;
    for (const ProgramOutput &out : program.outputs) {
        outputs.push_back(out.func);
        output_specs[out.func.name()] = &out;
    }

    Halide::Module module("", hls_lowering_target());
    SerializeParallelLoops parallel(program);
    try {
        Halide::Pipeline pipeline(outputs);
        for (const Halide::Argument &a : pipeline.infer_arguments()) {
            if (a.is_scalar()) {
                throw Error("program '" + program.name + "' has a scalar parameter '" + a.name +
                            "'; scalar kernel parameters are not supported yet (bind it to a constant)");
            }
            if (!inputs.count(a.name)) {
                throw Error("program '" + program.name + "' reads buffer '" + a.name +
                            "', which is not one of its declared inputs (its shape is unknown)");
            }
        }
        module = pipeline.compile_to_module(arguments, program.name, hls_lowering_target());
    } catch (const Halide::Error &e) {
        throw Error("Halide rejected program '" + program.name + "': " + std::string(e.what()));
    }

    const LoweredFunc *fn = nullptr;
    for (const LoweredFunc &f : module.functions()) {
        if (f.name == program.name) fn = &f;
    }
    if (!fn) throw std::logic_error("lower_for_hls: lowered module has no function " + program.name);

    for (const LoweredArgument &a : fn->args) {
        KernelArg arg;
        arg.name = a.name;
        arg.type = a.type;
        if (a.kind == Halide::Argument::InputScalar) {
            throw Error("program '" + program.name + "' has a scalar parameter '" + a.name +
                        "'; scalar kernel parameters are not supported yet (bind it to a constant)");
        }
        arg.is_output = a.kind == Halide::Argument::OutputBuffer;
        if (arg.is_output) {
            arg.shape = to_int64(output_specs.at(a.name)->shape);
        } else {
            auto it = inputs.find(a.name);
            if (it == inputs.end()) {
                throw Error("program '" + program.name + "' reads buffer '" + a.name +
                            "', which is not one of its declared inputs (its shape is unknown)");
            }
            arg.shape = to_int64(it->second->shape);
            arg.constant = it->second->constant;
        }
        result.args.push_back(arg);
    }

    Stmt body = parallel.mark_parallel(StripBufferQueries(result.args).mutate(fn->body));
    body = simplify(body);
    body = lower_intrinsics(body);
    body = simplify(body);
    body = lower_halide_math(body);

    VerifyHlsReady verify(target == HlsTarget::Bambu);
    body.accept(&verify);
    if (!verify.problem.empty()) {
        throw Error("program '" + program.name + "' cannot be compiled to HLS: " + verify.problem);
    }
    result.body = body;
    return result;
}

}  // namespace flowhls
