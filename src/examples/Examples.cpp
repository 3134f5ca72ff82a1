// The example registry and the public list_examples/build_example entry points.
#include "examples/ExampleRegistry.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "frontend/halide/Intake.h"
#include "support/Names.h"

#include <algorithm>

namespace flowhls {

using namespace Halide::Internal;

const std::vector<ExampleDef> &example_registry() {
    static const std::vector<ExampleDef> all = [] {
        std::vector<ExampleDef> v = image_examples();
        for (ExampleDef &d : tensor_examples()) v.push_back(std::move(d));
        for (ExampleDef &d : polybench_examples()) v.push_back(std::move(d));
        for (ExampleDef &d : streamhls_examples()) v.push_back(std::move(d));
        std::sort(v.begin(), v.end(), [](const ExampleDef &a, const ExampleDef &b) { return a.name < b.name; });
        return v;
    }();
    return all;
}

Halide::Func stage(const HalideProgram &program, const std::string &name) {
    for (const ProgramOutput &out : program.outputs) {
        if (halide_base_name(out.func.name()) == name) return out.func;
    }
    for (auto &kv : pipeline_functions(program)) {
        if (halide_base_name(kv.first) == name) return Halide::Func(kv.second);
    }
    throw std::logic_error("example " + program.name + " has no stage " + name);
}

std::vector<Halide::Func> schedulable_stages(const HalideProgram &program) {
    std::set<std::string> skip;
    for (const ProgramOutput &out : program.outputs) skip.insert(out.func.name());
    // ImageParam's implicit wrapper Func ("<name>_im") stays inlined: it is the input itself.
    for (const ProgramInput &in : program.inputs) skip.insert(in.param.name() + "_im");
    std::vector<Halide::Func> stages;
    for (auto &kv : pipeline_functions(program)) {
        if (!skip.count(kv.first) && !skip.count(halide_base_name(kv.first))) stages.emplace_back(kv.second);
    }
    return stages;
}

void schedule_all_root(const HalideProgram &program) {
    for (Halide::Func f : schedulable_stages(program)) f.compute_root();
}

std::vector<ExampleInfo> list_examples() {
    std::vector<ExampleInfo> out;
    for (const ExampleDef &d : example_registry()) {
        ExampleInfo info{d.name, d.description, {}, d.sizes};
        for (const ExampleSchedule &s : d.schedules) info.schedules.push_back(s.name);
        out.push_back(info);
    }
    return out;
}

HalideProgram build_example(const std::string &name, const std::string &schedule, const std::string &size) {
    const ExampleDef *def = nullptr;
    std::string names;
    for (const ExampleDef &d : example_registry()) {
        if (d.name == name) def = &d;
        names += (names.empty() ? "" : ", ") + d.name;
    }
    if (!def) throw Error("unknown example '" + name + "' (examples: " + names + ")");
    if (def->sizes.empty() && !size.empty()) {
        throw Error("example '" + name + "' has one fixed size (no size '" + size + "')");
    }
    if (!def->sizes.empty() && !size.empty() &&
        std::find(def->sizes.begin(), def->sizes.end(), size) == def->sizes.end()) {
        std::string sizes;
        for (const std::string &s : def->sizes) sizes += (sizes.empty() ? "" : ", ") + s;
        throw Error("example '" + name + "' has no size '" + size + "' (sizes: " + sizes + ")");
    }
    const std::string chosen = size.empty() && !def->sizes.empty() ? def->sizes.front() : size;
    if (schedule.rfind("random:", 0) == 0) {
        std::string digits = schedule.substr(7);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) {
            throw Error("schedule '" + schedule + "': expected random:SEED with a decimal SEED");
        }
        return random_schedule(*def, std::stoull(digits), chosen);
    }
    std::string schedules;
    for (const ExampleSchedule &s : def->schedules) {
        if (schedule.empty() || s.name == schedule) {
            HalideProgram p = s.algorithm ? s.algorithm(chosen) : def->algorithm(chosen);
            s.apply(p);
            return p;
        }
        schedules += s.name + ", ";
    }
    throw Error("example '" + name + "' has no schedule '" + schedule + "' (schedules: " + schedules + "random:SEED)");
}

}  // namespace flowhls
