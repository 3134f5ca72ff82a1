// The design-space exploration as the command line runs it: shared by `dse` and `compile --dse`.
#pragma once

#include "dse/Search.h"
#include "dse/Space.h"
#include "flowhls/Compiler.h"

#include <string>

namespace flowhls::cli {

/// How to explore (besides the program and the compile options points are evaluated with).
struct DseSettings {
    std::string budget;  ///< --budget text ("" = 80% of every resource)
    uint64_t seed = 1;
    int max_points = 40;
    /// Threads estimating a point's filters (CompileOptions::estimate_threads); above 1 and with
    /// `prefetch`, the search's next point is also lowered on a thread of its own while the
    /// current one is evaluated (dse::SearchOptions::prefetch). The points and the choice do
    /// not depend on either; the lowerings started ahead and not used move Halide's name
    /// counters (graph dumps made later in the process number their temporaries differently).
    int threads = 2;
    bool prefetch = true;
};

/// An exploration's results.
struct DseOutcome {
    dse::DesignSpace space;
    dse::SearchResult result;
    Device device;
    Resources budget;
    double seconds = 0.0;  ///< wall time of the exploration (never written to files)
};

/// Contract: explores `program`'s design space, each point estimated as compile() with
/// `options` would (dumps and logs off), with a progress bar on stderr when it is a terminal.
/// Throws flowhls::Error for a bad budget, when no point compiles, and "budget too small: ..."
/// naming what the smallest design explored needs when no point fits the budget.
DseOutcome explore_program(const HalideProgram &program, const CompileOptions &options, const DseSettings &settings);

/// The frontier as a table labelled as estimates (the chosen point marked).
std::string frontier_table(const DseOutcome &outcome);

/// The schedule.json text of point `point` of `outcome`, `base` (the user's directives) first.
std::string point_schedule_json(const DseOutcome &outcome, int point, const HlsSchedule &base);

/// The `dse` sections compile --dse adds to the project (report.txt, README.md, report.json).
void describe_choice(const DseOutcome &outcome, const std::string &seed_text, CompileOptions &options);

}  // namespace flowhls::cli
