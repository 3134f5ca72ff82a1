// run_reference: random inputs and the Halide JIT's outputs of a program.
#include "frontend/halide/Reference.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/JitTarget.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace flowhls {

namespace {

// splitmix64: small, fast and fully specified, so data is identical on every platform.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    uint64_t state;
};

template <typename T>
void fill(Halide::Buffer<> &buf, SplitMix64 &rng, double low, double high) {
    T *data = static_cast<T *>(buf.data());
    size_t n = buf.number_of_elements();
    for (size_t i = 0; i < n; i++) {
        if constexpr (std::is_floating_point_v<T>) {
            data[i] = static_cast<T>(low + (high - low) * rng.uniform());
        } else {
            int64_t lo = static_cast<int64_t>(std::ceil(low)), hi = static_cast<int64_t>(std::floor(high));
            uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
            data[i] = static_cast<T>(lo + static_cast<int64_t>(rng.next() % span));
        }
    }
}


// A JIT context whose allocations start filled with one byte value, so that reads of
// storage the pipeline never wrote show up as results that depend on that value.
struct PoisonContext : Halide::JITUserContext {
    unsigned char poison = 0;
};

void *poisoned_malloc(Halide::JITUserContext *ctx, size_t size) {
    size_t rounded = (size + 127) / 128 * 128;
    void *p = std::aligned_alloc(128, rounded == 0 ? 128 : rounded);
    if (p) std::memset(p, static_cast<PoisonContext *>(ctx)->poison, size);
    return p;
}

void poisoned_free(Halide::JITUserContext *, void *p) { std::free(p); }

bool same_bits(const Halide::Buffer<> &a, const Halide::Buffer<> &b) {
    return a.size_in_bytes() == b.size_in_bytes() && std::memcmp(a.data(), b.data(), a.size_in_bytes()) == 0;
}

}  // namespace

bool same_outputs(const ReferenceData &a, const ReferenceData &b) {
    if (a.outputs.size() != b.outputs.size()) return false;
    for (size_t i = 0; i < a.outputs.size(); i++) {
        if (!same_bits(a.outputs[i], b.outputs[i])) return false;
    }
    return true;
}

std::vector<Halide::Buffer<>> random_inputs(const HalideProgram &program, uint64_t seed) {
    std::vector<Halide::Buffer<>> out;
    for (size_t i = 0; i < program.inputs.size(); i++) {
        const ProgramInput &in = program.inputs[i];
        if (in.constant.defined()) {
            out.push_back(in.constant);
            continue;
        }
        Halide::Buffer<> buf(in.param.type(), in.shape);
        SplitMix64 rng(seed * 0x100000001b3ull + i);
        Halide::Type t = in.param.type();
        if (t == Halide::Float(32)) fill<float>(buf, rng, in.low, in.high);
        else if (t == Halide::Float(64)) fill<double>(buf, rng, in.low, in.high);
        else if (t == Halide::Int(8)) fill<int8_t>(buf, rng, in.low, in.high);
        else if (t == Halide::Int(16)) fill<int16_t>(buf, rng, in.low, in.high);
        else if (t == Halide::Int(32)) fill<int32_t>(buf, rng, in.low, in.high);
        else if (t == Halide::Int(64)) fill<int64_t>(buf, rng, in.low, in.high);
        else if (t == Halide::UInt(8)) fill<uint8_t>(buf, rng, in.low, in.high);
        else if (t == Halide::UInt(16)) fill<uint16_t>(buf, rng, in.low, in.high);
        else if (t == Halide::UInt(32)) fill<uint32_t>(buf, rng, in.low, in.high);
        else if (t == Halide::UInt(64)) fill<uint64_t>(buf, rng, in.low, in.high);
        else throw Error("input '" + in.param.name() + "' has a type random data cannot be drawn for");
        out.push_back(buf);
    }
    return out;
}

ReferenceData run_reference(const HalideProgram &program, const std::vector<Halide::Buffer<>> &inputs) {
    bind_static_shapes(program);
    ReferenceData data;
    data.inputs = inputs;
    std::vector<Halide::Func> funcs;
    std::vector<Halide::Buffer<>> second;
    for (const ProgramOutput &out : program.outputs) {
        funcs.push_back(out.func);
        data.outputs.emplace_back(out.func.output_types()[0], out.shape);
        second.emplace_back(out.func.output_types()[0], out.shape);
    }
    for (size_t i = 0; i < program.inputs.size(); i++) {
        Halide::Internal::Parameter p = program.inputs[i].param;
        p.set_buffer(inputs.at(i));
    }
    Halide::Pipeline pipeline(funcs);
    Halide::Target target = jit_target();
    std::string failure;
    // Two runs whose temporary storage starts with different contents must agree.
    bool consistent = true;
    try {
        PoisonContext zeros, ones;
        ones.poison = 0xff;
        for (PoisonContext *ctx : {&zeros, &ones}) {
            ctx->handlers.custom_malloc = poisoned_malloc;
            ctx->handlers.custom_free = poisoned_free;
        }
        Halide::Realization r(data.outputs);
        pipeline.realize(&zeros, r, target);
        Halide::Realization r2(second);
        pipeline.realize(&ones, r2, target);
        for (size_t i = 0; i < second.size(); i++) consistent &= same_bits(data.outputs[i], second[i]);
    } catch (const Halide::Error &e) {
        failure = e.what();
    }
    for (const ProgramInput &in : program.inputs) {
        Halide::Internal::Parameter p = in.param;
        p.set_buffer(Halide::Buffer<>());
    }
    if (!failure.empty()) {
        throw Error("the Halide JIT reference of '" + program.name + "' failed: " + failure);
    }
    if (!consistent) {
        throw Error("the schedule of '" + program.name +
                    "' reads storage it never wrote: Halide's JIT gives different results depending on the initial "
                    "contents of memory, so there is no reference to verify against; change the schedule");
    }
    return data;
}

}  // namespace flowhls
