// The trim steps of the exploration: lowering a filter's parallelism, or sharing its operators
// through a larger II, where its latency stays within the design's interval.
#include "dse/Trim.h"

#include <algorithm>

namespace flowhls::dse {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// One unroll or jam step down (kind 0 or 1).
bool step_down(const NodeKnobs &n, const Choice &c, int kind, const TrimNode &at, double limit,
               const KnownLatency &known, size_t node, Choice &t, TrimStep &out) {
    int &index = kind == 0 ? t.unroll : t.jam;
    if (index == 0) return false;
    index--;
    const int64_t ii = std::max(1, c.ii), par = total_unroll(n, c), lower = total_unroll(n, t);
    // The parallelism gains nothing when the filter's latency stays within the interval.
    out.predicted = ceil_div(at.latency * par, lower);
    int64_t measured = known ? known(node, t) : 0;
    if (measured > 0) out.predicted = measured;
    out.saving = at.dsp * (ceil_div(par, ii) - ceil_div(lower, ii)) / ceil_div(par, ii);
    return static_cast<double>(out.predicted) <= limit;
}

// The reshape (kind 2): parallelism p' >= p with an II k' sharing the operators.
bool reshape(const NodeKnobs &n, const Choice &c, const TrimNode &at, double limit, Choice &t, TrimStep &out) {
    const OrderOption &o = n.orders[c.order];
    if (o.unroll_loop.empty()) return false;
    const int64_t ii = std::max(1, c.ii), par = total_unroll(n, c), copies = std::max<int64_t>(1, at.copies);
    const int64_t units = ceil_div(copies, ii);
    int64_t best_units = units, best_par = 0;
    size_t jams = o.jams.empty() ? 1 : o.jams.size();
    for (size_t u = 0; u < o.factors.size(); u++) {
        for (size_t j = 0; j < jams; j++) {
            // A reduction jam's pipelined loop is r1 only when jammed (OrderOption::reduction_jam).
            if (o.reduction_jam && j == 0) continue;
            int64_t p = o.factors[u] * (o.jams.empty() ? 1 : o.jams[j]);
            if (p < par || p > kMaxReshapeUnroll) continue;
            // The largest II with latency x (par / p) x (k / ii) <= limit.
            double k_max = limit * static_cast<double>(p * ii) / static_cast<double>(at.latency * par);
            int64_t k = std::min<int64_t>(kMaxII, static_cast<int64_t>(k_max));
            if (k < 2 || (p == par && k <= ii)) continue;
            int64_t used = ceil_div(copies * p, par * k);
            if (used >= units) continue;  // no fewer operator units than now
            if (best_par == 0 || used < best_units || (used == best_units && p < best_par)) {
                best_units = used;
                best_par = p;
                t.unroll = static_cast<int>(u);
                t.jam = static_cast<int>(j);
                t.ii = static_cast<int>(k);
                out.predicted = ceil_div(at.latency * par * k, p * ii);
            }
        }
    }
    if (best_par == 0) return false;
    // The DSPs follow the operator units.
    out.saving = at.dsp - ceil_div(at.dsp * best_units, units);
    return true;
}

}  // namespace

bool trim_step(const DesignSpace &space, const PointChoices &from, size_t node, int kind, const TrimNode &at,
               double limit, const KnownLatency &known, TrimStep &out) {
    const NodeKnobs &n = space.nodes[node];
    const Choice &c = from[node];
    if (at.dsp <= 0 || at.latency <= 0) return false;
    out = TrimStep();
    out.choices = from;
    out.node = node;
    out.kind = kind;
    Choice &t = out.choices[node];
    bool ok = kind == 2 ? reshape(n, c, at, limit, t, out) : step_down(n, c, kind, at, limit, known, node, t, out);
    return ok && out.saving >= 2;
}

}  // namespace flowhls::dse
