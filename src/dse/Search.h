// Deterministic design-space exploration: naive and throughput-balanced starts, then a
// neighbourhood search on the Pareto frontier, every point evaluated by the caller's estimator.
#pragma once

#include "analysis/Device.h"
#include "analysis/QorEstimator.h"
#include "dse/Pareto.h"
#include "dse/Space.h"

#include <functional>
#include <string>
#include <vector>

namespace flowhls::dse {

/// Evaluates a point: the QoR estimate of the program compiled with `schedule`. Throws
/// flowhls::Error when the program does not compile with it (the point is then recorded as
/// failed, with the message).
using Evaluator = std::function<DesignEstimate(const HlsSchedule &schedule)>;

struct SearchOptions {
    /// Seed of the neighbourhood search's choices (splitmix64).
    uint64_t seed = 1;
    /// Most points evaluated (the naive point included).
    int max_points = 40;
    /// What a design may use: points over it are explored but never chosen.
    Resources budget;
    /// The choice takes, among the points that fit within this fraction of the smallest
    /// interval of a point that fits, the one with the fewest DSPs: a design 0.1% faster for
    /// ten times the DSPs is not the better one.
    double interval_tolerance = 0.01;
    /// Evaluations reserved for the trim step (trim_reserve): the steps before it stop that
    /// many points short of max_points.
    int trim_points = 8;
    /// Called after each evaluation with the number of points evaluated (null: nothing).
    std::function<void(int evaluated)> progress;
    /// Told, before a point is evaluated, the schedule of the point the search evaluates after
    /// it unless the first one's figures change the course (the next target of a balanced or
    /// jam series, the "reduction outside" point, the neighbourhood's next pick if the point
    /// leaves the frontier as it is): the caller may start preparing it (lowering it on another
    /// thread). Null: nothing. The search and its results do not depend on it.
    std::function<void(const HlsSchedule &schedule)> prefetch;
};

/// One evaluated point.
struct EvaluatedPoint {
    PointChoices choices;
    /// How the search reached it: "naive", "balanced", "jam", "mix", "hwc",
    /// "hwc balanced", "hwc jam", "neighbour of 3", "fill of 5", "trim of 7".
    std::string origin;
    bool ok = false;      ///< compiled; `error` says why not
    std::string error;
    int64_t interval = 0, latency = 0;
    double throughput = 0.0;
    Resources total;
    double dsp_efficiency = 0.0;
    bool fits = false;    ///< within the budget
    bool pareto = false;  ///< on the frontier of the points that compiled
    /// The slowest filter (latency) of the design, "" when none.
    std::string bottleneck;
    Objectives objectives() const { return {interval, total.dsp, total.bram18k, total.lut}; }
};

struct SearchResult {
    std::vector<EvaluatedPoint> points;  ///< in evaluation order; points[0] is the naive point
    /// The chosen point: among the points that fit with an interval within
    /// SearchOptions::interval_tolerance of the smallest such interval, the one with the fewest
    /// DSPs, ties to the smaller interval, then to the earlier point; -1 when none fits.
    int chosen = -1;
};

/// Contract: explores `space` with `evaluate`, deterministically for a seed: (1) the naive
/// point (all knobs at their default); (2) the "reduction outside" order everywhere it exists;
/// (3) throughput-balanced points: for targets T = W/2, W/4, ... (W the slowest filter's
/// latency), each filter takes its faster order and the smallest unroll factor that brings its
/// latency to T, so the parallelism is shared in proportion to each filter's work (HIDA's
/// intensity-aware rule), until a point exceeds the DSP budget or does not lower the interval;
/// nodes are given factors most connected first, the factor of each loop indexing a dimension
/// of a shared buffer dividing or a multiple of the factor of the loop of an already fixed
/// node indexing the same dimension (DesignSpace::links), and the buffer's partition serving
/// both (the larger factor per dimension) within kMaxUnroll banks; (4) unroll-and-jam points
/// ("jam"): the same targets with parallelism unroll x jam (at most kMaxUnroll; deeper jams
/// first among equal parallelism) until a point exceeds the budget, then at most 6 bisection
/// steps of the target between the last point that fitted and the first that did not;
/// (4b) per-filter mixes ("mix"): per target with a balanced and a jam point, each node takes
/// the choice of the point where its filter was faster; (4c) the streaming layout ("hwc",
/// "hwc jam"), when some node offers the order "hwc" and the budget binds (no point fits, or
/// one over the budget is faster than every one that fits): every such node in "hwc" without
/// unroll or jam, then the balanced and the jam series in those orders; (5)
/// ScaleHLS-style neighbourhood search: repeatedly a frontier point (one that fits when some
/// does) is picked with splitmix64 and its unevaluated neighbour on its slowest filter (one
/// unroll step up), or a random neighbour (one node one unroll or jam step up or down, or its
/// order flipped between "default" and "reduction outside", never into or out of "hwc"; never
/// beyond kMaxUnroll in all), is evaluated; until options.max_points - trim_reserve(options)
/// points or no frontier point has unevaluated neighbours; (5b) the fill ("fill of N"), with at
/// most half the reserved points: from the point the choice takes, the filters slowest first,
/// each one's next parallelism up (unroll x jam, each factor at most kMaxUnroll, the product at
/// most 2 x kMaxUnroll: infer-partitions' row banks), the first step whose predicted DSPs (the
/// filter's scaled by its parallelism, or traded against another filter's) fit the budget is
/// evaluated and kept when the point fits and its interval drops, then again from the point kept; (6) the trim ("trim of N"), with
/// the rest of the reserved points: from the point the choice takes, repeatedly the step predicted to save
/// the most DSPs -- one node's unroll or jam one step down, or, at unroll and jam 1, its
/// pipelined loop's II raised (Choice::ii) -- among those whose filter's predicted latency stays
/// within the choice's interval limit (the parallelism of a filter far below the interval
/// gains nothing), is evaluated and kept when the point fits, its interval stays within that
/// limit and its DSPs drop (first every node's step at once; when that point runs over the
/// limit, the steps whose filter stayed within it, at once, the others rejected). Marks the
/// frontier and the chosen point. Pure apart from `evaluate`.
SearchResult explore(const DesignSpace &space, const Evaluator &evaluate, const SearchOptions &options);

/// Contract: every evaluated point as CSV, one row per point in evaluation order (header
/// `point,origin,status,interval,latency,samples_per_s,dsp,bram18k,uram,lut,ff,dsp_efficiency,
/// fits,pareto,knobs`); figures are estimates. Deterministic. Pure.
std::string pareto_csv(const DesignSpace &space, const SearchResult &result);

/// The evaluations of max_points the trim step keeps for itself: min(trim_points,
/// max_points / 4), at least 0.
int trim_reserve(const SearchOptions &options);

/// The splitmix64 generator (one step: advances `state`, returns the next value).
uint64_t splitmix64(uint64_t &state);

}  // namespace flowhls::dse
