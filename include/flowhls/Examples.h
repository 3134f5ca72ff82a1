// Public entry point: the bundled example pipelines and their schedules.
#pragma once

#include "flowhls/HalideProgram.h"

#include <string>
#include <vector>

namespace flowhls {

/// Description of one bundled example.
struct ExampleInfo {
    std::string name;
    std::string description;
    /// Named schedules; the first is the default. Any example also accepts "random:SEED".
    std::vector<std::string> schedules;
    /// Problem sizes (PolyBench dataset names: mini, small, medium), the default first; empty
    /// when the example has one fixed size.
    std::vector<std::string> sizes;
};

/// All bundled examples, sorted by name.
std::vector<ExampleInfo> list_examples();

/// Builds a fresh copy of example `name` at problem size `size` ("" = the default size) with
/// `schedule` applied ("" = the default schedule; "random:SEED" = a random legal schedule
/// drawn from SEED). Throws flowhls::Error for an unknown example, schedule or size.
HalideProgram build_example(const std::string &name, const std::string &schedule = "",
                            const std::string &size = "");

}  // namespace flowhls
