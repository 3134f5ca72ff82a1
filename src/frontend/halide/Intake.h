// Intake of Halide programs: validation, binding of static shapes and lowering for HLS.
#pragma once

#include "flowhls/HalideProgram.h"
#include "flowhls/Target.h"

#include <Halide.h>

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// A kernel argument: an input or output buffer with its static shape.
struct KernelArg {
    std::string name;
    Halide::Type type;
    /// Extent per dimension, innermost first (minimums are 0, storage is dense).
    std::vector<int64_t> shape;
    bool is_output = false;
    /// Contents of a constant input (weights); undefined for other arguments.
    Halide::Buffer<> constant;
};

/// The lowered, cleaned-up body of a program and its arguments.
struct LoweredProgram {
    std::string name;
    Halide::Internal::Stmt body;
    std::vector<KernelArg> args;
};

/// Every Func the outputs depend on (the outputs included), by name.
std::map<std::string, Halide::Internal::Function> pipeline_functions(const std::vector<Halide::Func> &outputs);
/// The same for a program's outputs.
std::map<std::string, Halide::Internal::Function> pipeline_functions(const HalideProgram &program);
/// The same keyed by base name (`tmp$1` -> `tmp`, support/Names' halide_base_name), the name the
/// extracted filters carry: Halide numbers a Func `tmp$1` when the process made a `tmp` before,
/// so only the base name is the same in every process. Where two Funcs share a base name, the
/// one Halide made first (the smaller `$N`) has it.
std::map<std::string, Halide::Internal::Function> functions_by_base_name(const HalideProgram &program);

/// The kernel input of `program` that Func `f` is a plain view of (its only definition reads
/// the input's parameter at f's own arguments, directly or through such views: the
/// ImageParam's `NAME_im`, the ONNX importer's `VALUE_in`), by parameter name; "" otherwise.
std::string input_viewed_by(const HalideProgram &program, const Halide::Internal::Function &f);

/// The Funcs `f` calls (Halide calls in any of its definitions), once per call site, in the
/// order Halide's Function::accept visits them.
std::vector<Halide::Internal::Function> called_functions(const Halide::Internal::Function &f);

/// Rejects what HLS cannot express for `target` (extern stages, vectorize/parallel/GPU
/// schedules, missing or non-positive shapes, unsupported types), naming the Func and the
/// feature. Throws flowhls::Error.
void check_program(const HalideProgram &program, HlsTarget target);

/// The fixed target flowhls lowers with (no asserts, no bounds queries, no runtime, strict
/// float), independent of the host so output is deterministic.
Halide::Target hls_lowering_target();

/// Binds every input and output dimension to its static extent (min 0, dense strides).
/// Idempotent.
void bind_static_shapes(const HalideProgram &program);

/// Contract: checks `program` (check_program), binds its shapes, lowers it with Halide and
/// removes what is CPU-specific (asserts, buffer intrinsics, lets of strides and mins) with
/// constants substituted (thesis 4.3.1). Throws flowhls::Error on anything HLS cannot express.
LoweredProgram lower_for_hls(const HalideProgram &program, HlsTarget target);

}  // namespace flowhls
