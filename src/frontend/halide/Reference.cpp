// run_reference: random inputs and the Halide JIT's outputs of a program.
#include "frontend/halide/Reference.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"

#include <cmath>

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


}  // namespace

std::vector<Halide::Buffer<>> random_inputs(const HalideProgram &program, uint64_t seed) {
    std::vector<Halide::Buffer<>> out;
    for (size_t i = 0; i < program.inputs.size(); i++) {
        const ProgramInput &in = program.inputs[i];
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
    for (const ProgramOutput &out : program.outputs) {
        funcs.push_back(out.func);
        data.outputs.emplace_back(out.func.output_types()[0], out.shape);
    }
    for (size_t i = 0; i < program.inputs.size(); i++) {
        Halide::ImageParam p = program.inputs[i].param;
        p.set(inputs.at(i));
    }
    Halide::Pipeline pipeline(funcs);
    Halide::Target target = Halide::get_host_target().with_feature(Halide::Target::StrictFloat);
    std::string failure;
    try {
        Halide::Realization r(data.outputs);
        pipeline.realize(r, target);
    } catch (const Halide::Error &e) {
        failure = e.what();
    }
    for (const ProgramInput &in : program.inputs) {
        Halide::ImageParam p = in.param;
        p.reset();
    }
    if (!failure.empty()) {
        throw Error("the Halide JIT reference of '" + program.name + "' failed: " + failure);
    }
    return data;
}

}  // namespace flowhls
