// check_program: rejects Halide programs and schedules that HLS cannot express.
#include "frontend/halide/Intake.h"
#include "flowhls/Error.h"
#include "support/Names.h"

#include <cctype>
#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

bool is_c_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
}

// Whether values of type `t` can be stored in buffers and computed with in generated C++.
bool supported_type(Halide::Type t) {
    if (t.lanes() != 1) return false;
    if (t.is_float()) return t.bits() == 32 || t.bits() == 64;
    if (t.is_int() || t.is_uint()) return t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64;
    return false;
}

std::string describe_type(Halide::Type t) {
    std::ostringstream os;
    os << t;
    return os.str();
}

std::string loop_directive(ForType t) {
    switch (t) {
    case ForType::Parallel: return "parallel";
    case ForType::Vectorized: return "vectorize";
    case ForType::GPUBlock: return "gpu_blocks";
    case ForType::GPUThread: return "gpu_threads";
    case ForType::GPULane: return "gpu_lanes";
    case ForType::Extern: return "extern loop";
    default: return "";
    }
}

void check_stage(const Function &f, const Definition &def, int stage, HlsTarget target) {
    const std::string stage_name =
        stage == 0 ? "Func '" + halide_base_name(f.name()) + "'" : "Func '" + halide_base_name(f.name()) + "' update " + std::to_string(stage - 1);
    for (const Dim &d : def.schedule().dims()) {
        std::string directive = loop_directive(d.for_type);
        // Bambu maps parallel loops to #pragma omp for and vectors to small arrays.
        bool mapped = target == HlsTarget::Bambu &&
                      (d.for_type == ForType::Parallel || d.for_type == ForType::Vectorized);
        if (!directive.empty() && !mapped) {
            throw Error(stage_name + ": the " + directive + " directive on loop '" + d.var +
                        "' is not supported for the " + hls_target_name(target) +
                        " target; remove it from the schedule (use unroll for replicated work)");
        }
        if (d.device_api != Halide::DeviceAPI::None && d.device_api != Halide::DeviceAPI::Host) {
            throw Error(stage_name + ": loop '" + halide_base_name(d.var) +
                        "' is scheduled on a device (GPU/Hexagon/...); flowhls generates HLS code for the whole pipeline and does not accept device schedules");
        }
    }
    if (def.schedule().atomic()) {
        throw Error(stage_name + ": atomic() is not supported by flowhls");
    }
    if (!def.schedule().prefetches().empty()) {
        throw Error(stage_name + ": prefetch directives are not supported by flowhls");
    }
}

void check_function(Function f, HlsTarget target) {
    if (f.has_extern_definition()) {
        throw Error("Func '" + halide_base_name(f.name()) +
                    "' is an extern stage (define_extern); extern stages cannot be compiled to HLS");
    }
    for (Halide::Type t : f.output_types()) {
        if (!supported_type(t)) {
            throw Error("Func '" + halide_base_name(f.name()) + "' has type " + describe_type(t) +
                        ", which flowhls does not support (supported: int8-64, uint8-64, float32, float64)");
        }
    }
    if (f.schedule().memoized()) throw Error("Func '" + halide_base_name(f.name()) + "': memoize() is not supported by flowhls");
    if (f.schedule().async()) throw Error("Func '" + halide_base_name(f.name()) + "': async() is not supported by flowhls");
    Halide::MemoryType mt = f.schedule().memory_type();
    if (mt != Halide::MemoryType::Auto && mt != Halide::MemoryType::Heap && mt != Halide::MemoryType::Stack &&
        mt != Halide::MemoryType::Register) {
        throw Error("Func '" + halide_base_name(f.name()) + "': store_in() with a device memory type is not supported by flowhls");
    }
    check_stage(f, f.definition(), 0, target);
    for (size_t i = 0; i < f.updates().size(); i++) {
        check_stage(f, f.updates()[i], static_cast<int>(i) + 1, target);
    }
}

void check_shape(const std::string &what, const std::string &name, const std::vector<int> &shape,
                 int dims) {
    if (shape.empty() && dims > 0) {
        throw Error(what + " '" + name + "' has a dynamic shape: give the extent of each of its " +
                    std::to_string(dims) + " dimensions (flowhls needs static shapes)");
    }
    if (static_cast<int>(shape.size()) != dims) {
        throw Error(what + " '" + name + "' has " + std::to_string(dims) + " dimensions but a shape of " +
                    std::to_string(shape.size()) + " was given");
    }
    for (size_t i = 0; i < shape.size(); i++) {
        if (shape[i] <= 0) {
            throw Error(what + " '" + name + "' dimension " + std::to_string(i) + " has extent " +
                        std::to_string(shape[i]) + " (dynamic or empty); extents must be positive constants");
        }
    }
}

}  // namespace

void check_program(const HalideProgram &program, HlsTarget target) {
    if (!is_c_identifier(program.name)) {
        throw Error("kernel name '" + program.name + "' is not a C identifier");
    }
    if (program.outputs.empty()) throw Error("program '" + program.name + "' has no outputs");
    std::set<std::string> input_names;
    for (const ProgramInput &in : program.inputs) {
        if (!in.param.defined()) throw Error("program '" + program.name + "' has an undefined input");
        check_shape("input", in.param.name(), in.shape, in.param.dimensions());
        if (!supported_type(in.param.type())) {
            throw Error("input '" + in.param.name() + "' has type " + describe_type(in.param.type()) +
                        ", which flowhls does not support");
        }
        input_names.insert(in.param.name());
    }
    for (const ProgramOutput &out : program.outputs) {
        if (!out.func.defined()) throw Error("program '" + program.name + "' has an undefined output Func");
        check_shape("output", halide_base_name(out.func.name()), out.shape, out.func.dimensions());
        if (out.func.outputs() != 1) {
            throw Error("output Func '" + halide_base_name(out.func.name()) + "' returns a Tuple; tuple-valued outputs are not supported yet");
        }
    }
    for (const auto &kv : pipeline_functions(program)) check_function(kv.second, target);
}

}  // namespace flowhls
