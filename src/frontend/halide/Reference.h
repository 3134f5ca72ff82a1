// Reference outputs of a Halide program from Halide's JIT, on seeded random inputs.
#pragma once

#include "flowhls/HalideProgram.h"

#include <cstdint>
#include <vector>

namespace flowhls {

/// Inputs and outputs of one reference run, in program order.
struct ReferenceData {
    std::vector<Halide::Buffer<>> inputs;
    std::vector<Halide::Buffer<>> outputs;
};

/// Fills a buffer of each input's type and shape with values drawn uniformly from
/// [low, high] by a generator seeded with `seed` (same values on every platform).
std::vector<Halide::Buffer<>> random_inputs(const HalideProgram &program, uint64_t seed);

/// Contract: realizes `program` with Halide's JIT for the host (strict float, so the
/// arithmetic is the one written) on `inputs`, with the program's schedule and static
/// shapes. It runs twice, with temporary storage initially all-zero and all-one bytes, and
/// the two results must agree. Throws flowhls::Error with Halide's message if the pipeline
/// fails (for example when it reads outside an input's bounds) or if the two runs differ
/// (the schedule reads storage it never wrote).
ReferenceData run_reference(const HalideProgram &program, const std::vector<Halide::Buffer<>> &inputs);

/// Whether two reference runs produced bit-identical outputs.
bool same_outputs(const ReferenceData &a, const ReferenceData &b);

}  // namespace flowhls
