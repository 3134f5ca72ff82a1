// The ordered pass pipeline that runs on the FilterGraph between extraction and emission.
#pragma once

#include "graph/FilterGraph.h"
#include "flowhls/Passes.h"
#include "transforms/ApplyDirectives.h"
#include "transforms/BindLutram.h"
#include "transforms/ReshapeBanks.h"
#include "transforms/BindUram.h"
#include "transforms/PlaceWeights.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

class BalanceMemo;

/// Options of one pipeline run.
struct PipelineOptions {
    /// Passes after which the graph is printed to `dump` ("all" = every pass).
    std::vector<std::string> dump_after;
    /// Passes that are skipped.
    std::vector<std::string> disabled;
    /// Log one line per pass (changed or not, wall time) to `log`.
    bool time_passes = false;
    /// The target has FIFO channels (hls::stream): detect-streams may use them.
    bool fifo_channels = false;
    /// The user's HLS directives (apply-directives).
    DirectiveOptions directives;
    /// Where weights go (place-weights).
    WeightOptions weights;
    /// Which banked local arrays go to UltraRAM (bind-uram).
    UramOptions uram;
    /// Which local arrays of shallow banks go to LUT RAM (bind-lutram).
    LutramOptions lutram;
    /// Which integer ROMs' banks are packed into wide words (reshape-banks).
    ReshapeOptions reshape;
    /// Run verify_graph on the input and after every pass; a violation is an internal error
    /// (std::logic_error) naming the pass after which it appeared. On in debug builds.
#ifdef NDEBUG
    bool verify_each = false;
#else
    bool verify_each = true;
#endif
    std::ostream *dump = nullptr;
    std::ostream *log = nullptr;
    /// balance-streams' results shared between compilations (a design-space exploration's
    /// points); null: every run simulates.
    BalanceMemo *balance_memo = nullptr;
};

/// The passes in the order they run.
std::vector<PassDescription> pipeline_passes();

/// Contract: runs every pass of pipeline_passes() that is not disabled, in order, on `graph`
/// (a required run of a pass is not skipped by disabling its name; the dead-code runs after
/// detect-streams and line-buffers only run when that pass changed the graph).
/// Throws flowhls::Error for an unknown pass name in the options, std::logic_error when
/// options.verify_each finds an invalid graph.
void run_pipeline(FilterGraph &graph, const PipelineOptions &options);

/// Contract: runs the passes named in `names`, in that order (a name may repeat), on `graph`,
/// as run_pipeline runs them (options.disabled is ignored): what `flowhls opt` does. Throws
/// flowhls::Error for an unknown pass name.
void run_passes(FilterGraph &graph, const std::vector<std::string> &names, const PipelineOptions &options);

}  // namespace flowhls
