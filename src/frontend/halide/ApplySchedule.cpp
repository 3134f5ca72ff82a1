// apply_loop_schedule: split/reorder/fuse/unroll/compute_at/store_at/compute_root/reorder_storage/in by name.
#include "frontend/halide/ApplySchedule.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "support/Names.h"
#include "support/Text.h"
#include "transforms/LegalizeNames.h"

#include <map>

namespace flowhls {

namespace {

using Halide::Internal::Dim;
using Halide::Internal::Function;

std::string join(const std::vector<std::string> &names) {
    std::string s;
    for (const std::string &n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

class Applier {
public:
    explicit Applier(HalideProgram &program)
        : funcs_(pipeline_functions(program)), by_base_(functions_by_base_name(program)),
          aliases_(program.directive_aliases), program_(program) {}

    void apply(const LoopTransform &t) {
        Halide::Func f(resolve(t, t.func));
        try {
            switch (t.kind) {
            case LoopTransform::Kind::Split:
                stage(t, f).split(loop(t, f, t.stage, t.loop), named(t, f, t.outer, t.loop),
                                  named(t, f, t.inner, t.loop), t.factor, t.tail);
                break;
            case LoopTransform::Kind::Reorder: {
                std::vector<Halide::VarOrRVar> order;
                for (const std::string &l : t.loops) order.push_back(loop(t, f, t.stage, l));
                stage(t, f).reorder(order);
                break;
            }
            case LoopTransform::Kind::Fuse: {
                Halide::VarOrRVar inner = loop(t, f, t.stage, t.inner), outer = loop(t, f, t.stage, t.outer);
                stage(t, f).fuse(inner, outer, Halide::VarOrRVar(t.fused, inner.is_rvar && outer.is_rvar));
                break;
            }
            case LoopTransform::Kind::Unroll: stage(t, f).unroll(loop(t, f, t.stage, t.loop), t.factor, t.tail); break;
            case LoopTransform::Kind::ComputeAt:
            case LoopTransform::Kind::StoreAt: {
                Halide::Func at(resolve(t, t.at_func));
                int at_stage = t.stage < 0 ? static_cast<int>(at.function().updates().size()) : t.stage;
                Halide::LoopLevel level(at, loop(t, at, at_stage, t.at_loop), t.stage);
                if (t.kind == LoopTransform::Kind::ComputeAt) f.compute_at(level);
                else f.store_at(level);
                break;
            }
            case LoopTransform::Kind::In: {
                Halide::Func copy = input_func(t, f).in(f);
                Halide::Func at(resolve(t, t.at_func));
                int at_stage = t.stage < 0 ? static_cast<int>(at.function().updates().size()) : t.stage;
                copy.compute_at(Halide::LoopLevel(at, loop(t, at, at_stage, t.at_loop), t.stage));
                break;
            }
            case LoopTransform::Kind::ComputeRoot: f.compute_root(); break;
            case LoopTransform::Kind::ReorderStorage: {
                std::vector<Halide::Var> dims;
                std::vector<std::string> args = f.function().args();
                for (const std::string &d : t.loops) {
                    if (std::find(args.begin(), args.end(), d) == args.end()) {
                        fail(t, "Func '" + f.name() + "' has no dimension '" + d + "' (its dimensions: " + join(args) + ")");
                    }
                    dims.emplace_back(d);
                }
                f.reorder_storage(dims);
                break;
            }
            }
        } catch (const Halide::Error &e) {
            fail(t, "Halide refuses the " + loop_transform_name(t.kind) + ": " + one_line(e.what()));
        }
    }

private:
    std::map<std::string, Function> funcs_;
    std::map<std::string, Function> by_base_;  // functions_by_base_name
    const std::map<std::string, std::string> &aliases_;
    const HalideProgram &program_;

    [[noreturn]] void fail(const LoopTransform &t, const std::string &what) const { throw Error(t.origin + ": " + what); }

    // The Func `name` stands for: the Func of that exact name (the C++ API names Funcs so), else
    // the Func an alias (ONNX node name) maps to, else the Func of that base name (a schedule
    // file written by another process names `tmp$1` as `tmp`).
    Function resolve(const LoopTransform &t, const std::string &name) const {
        auto it = funcs_.find(name);
        if (it != funcs_.end()) return it->second;
        auto alias = aliases_.find(name);
        std::string target = alias != aliases_.end() ? alias->second : name;
        if ((it = funcs_.find(target)) != funcs_.end()) return it->second;
        if ((it = by_base_.find(halide_base_name(target))) != by_base_.end()) return it->second;
        std::vector<std::string> names;
        for (const auto &kv : funcs_) names.push_back(kv.first);
        fail(t, "unknown Func '" + name + "' (the program's Funcs: " + join(names) + ")");
    }

    // The loops (Halide's variable paths, innermost first) of stage `s` of `f`.
    std::vector<Dim> dims(const LoopTransform &t, const Halide::Func &f, int s) const {
        const Function &fn = f.function();
        int stages = 1 + static_cast<int>(fn.updates().size());
        if (s < 0 || s >= stages) {
            fail(t, "Func '" + f.name() + "' has no stage " + std::to_string(s) + " (stages: 0 = the pure definition" +
                        (stages == 2 ? ", 1 = its update"
                                     : stages > 2 ? ", 1.." + std::to_string(stages - 1) + " = its updates" : "") +
                        ")");
        }
        const auto &all = s == 0 ? fn.definition().schedule().dims() : fn.update(s - 1).schedule().dims();
        std::vector<Dim> out;
        for (const Dim &d : all) {
            if (d.var != Halide::Var::outermost().name()) out.push_back(d);
        }
        return out;
    }

    Halide::Stage stage(const LoopTransform &t, Halide::Func &f) const {
        dims(t, f, t.stage);  // checks the stage exists
        return t.stage == 0 ? Halide::Stage(f) : f.update(t.stage - 1);
    }

    // The loop of stage `s` of `f` the user called `name`, as Halide wants it named.
    Halide::VarOrRVar loop(const LoopTransform &t, const Halide::Func &f, int s, const std::string &name) const {
        std::vector<std::string> names;
        for (const Dim &d : dims(t, f, s)) {
            if (loop_name_matches(d.var, name)) {
                std::string rvar = name + "$x";  // a one-dimensional RDom's variable
                bool dollar = name.find('$') == std::string::npos && d.var.size() >= rvar.size() &&
                              d.var.compare(d.var.size() - rvar.size(), rvar.size(), rvar) == 0;
                return Halide::VarOrRVar(dollar ? name + "$x" : name, d.is_rvar());
            }
            names.push_back(d.var);
        }
        fail(t, "Func '" + f.name() + "' stage " + std::to_string(s) + " has no loop '" + name + "' (its loops, innermost first: " +
                    join(names) + ")");
    }

    // The Func through which `reader` reads kernel input `t.input` (a view of it, as the ONNX
    // importer's `VALUE_in` or the ImageParam's `NAME_im`, input_viewed_by): the input named as
    // the parameter, as its C identifier, or by ONNX name (weights are `w_NAME`).
    Halide::Func input_func(const LoopTransform &t, const Halide::Func &reader) const {
        std::vector<std::string> read;
        for (const Function &g : called_functions(reader.function())) {
            std::string p = input_viewed_by(program_, g);
            if (p.empty() || std::find(read.begin(), read.end(), p) != read.end()) continue;
            read.push_back(p);
            for (const std::string &n : {t.input, "w_" + t.input}) {
                if (n == p || c_identifier(n) == c_identifier(p)) return Halide::Func(g);
            }
        }
        fail(t, "Func '" + reader.name() + "' reads no kernel input '" + t.input + "' (it reads: " + join(read) + ")");
    }

    // A new loop `name` made from `from` (a reduction loop's parts are reduction loops).
    Halide::VarOrRVar named(const LoopTransform &t, const Halide::Func &f, const std::string &name,
                            const std::string &from) const {
        return Halide::VarOrRVar(name, loop(t, f, t.stage, from).is_rvar);
    }
};

}  // namespace

void apply_loop_schedule(HalideProgram &program) {
    if (program.directives.transforms().empty()) return;
    Applier applier(program);
    for (const LoopTransform &t : program.directives.transforms()) applier.apply(t);
}

}  // namespace flowhls
