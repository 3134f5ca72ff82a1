// Internal registry of the bundled examples: algorithm builders and named schedules.
#pragma once

#include "flowhls/HalideProgram.h"

#include <functional>
#include <string>
#include <vector>

namespace flowhls {

/// A named schedule of an example.
struct ExampleSchedule {
    std::string name;
    std::string description;
    /// Applies the schedule to a freshly built algorithm (Halide schedule and HLS directives).
    std::function<void(HalideProgram &)> apply;
    /// When set, the schedule's own formulation of the algorithm, built instead of the
    /// example's (a corpus design that computes the same kernel in another operation order or
    /// with another dataflow structure); it must be verified against the JIT like any other.
    std::function<HalideProgram(const std::string &size)> algorithm = nullptr;
};

/// One bundled example.
struct ExampleDef {
    std::string name;
    std::string description;
    /// Problem sizes the algorithm can be built at (PolyBench's dataset names), the default
    /// first; empty when the example has one fixed size.
    std::vector<std::string> sizes;
    /// Builds a fresh, unscheduled copy of the algorithm at `size` (one of `sizes`, or "" for
    /// an example with one fixed size).
    std::function<HalideProgram(const std::string &size)> algorithm;
    /// Named schedules; the first is the default.
    std::vector<ExampleSchedule> schedules;
};

/// Every bundled example (image pipelines and tensor kernels).
const std::vector<ExampleDef> &example_registry();

/// Image pipelines: brighten_blur, gaussian, harris, unsharp, upsample.
std::vector<ExampleDef> image_examples();
/// Tensor kernels: gemm, 2mm, conv_relu.
std::vector<ExampleDef> tensor_examples();
/// The PolyBench/C 4.2 kernels pb_* (MINI, SMALL and MEDIUM datasets).
std::vector<ExampleDef> polybench_examples();
/// The Stream-HLS blocks of the calibration corpus shls_* (schedules opt1, opt2).
std::vector<ExampleDef> streamhls_examples();

/// The Func called `name` among the stages of `program` (throws std::logic_error if absent).
Halide::Func stage(const HalideProgram &program, const std::string &name);

/// The stages of `program` a schedule may place: every Func but the outputs and the
/// implicit wrappers of ImageParams, sorted by name.
std::vector<Halide::Func> schedulable_stages(const HalideProgram &program);

/// Schedules every stage that is not an output compute_root().
void schedule_all_root(const HalideProgram &program);

/// Applies a random legal schedule (split, reorder, unroll, compute_at/store_at/root/inline)
/// drawn from `seed` to a fresh copy of `def`'s algorithm at `size` and returns it. Candidates
/// that Halide or flowhls reject are redrawn; the sequence depends only on `seed`.
HalideProgram random_schedule(const ExampleDef &def, uint64_t seed, const std::string &size);

}  // namespace flowhls
