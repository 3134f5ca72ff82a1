// Deterministic design-space exploration: naive and throughput-balanced starts, then a
// neighbourhood search on the Pareto frontier, every point evaluated by the caller's estimator.
#include "dse/Search.h"
#include "dse/Budget.h"
#include "dse/Trim.h"
#include "flowhls/Error.h"
#include "support/Text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace flowhls::dse {

namespace {

// The fill's limit on a filter's copies (unroll x jam; each factor still at most kMaxUnroll)
// while the other steps stop at kMaxUnroll: infer-partitions banks rows of a flattened array
// read by up to kMaxUnroll copies with a cyclic factor up to twice that, so pb_2mm's `u2/j60`
// gets 122 banks at II 1. The fill keeps a point only when its estimated interval drops, so a
// point whose partitions do not follow (its II rises) is not kept. Once the jam series showed
// that kMaxUnroll copies of every filter fit the DSP budget, every step goes up to kMaxCopies
// (Explorer::copies_).
constexpr int64_t kMaxFillUnroll = 2 * kMaxUnroll;

// Whether operator `op` takes DSPs on the parts' tables (devices/*.json): the float and
// double arithmetic and the integer multipliers, not the index adders or comparisons.
bool takes_dsps(const std::string &op) {
    static const std::set<std::string> kinds = {"fadd", "fmul", "fexp", "flog", "fcall", "dadd", "dmul"};
    return kinds.count(op) > 0 || op.rfind("imul", 0) == 0;
}

}  // namespace

int trim_reserve(const SearchOptions &options) {
    return std::max(0, std::min(options.trim_points, options.max_points / 4));
}

uint64_t splitmix64(uint64_t &state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

namespace {

// The exploration's state: the points evaluated so far, by choices.
class Explorer {
public:
    Explorer(const DesignSpace &space, const Evaluator &evaluate, const SearchOptions &options)
        : space_(space), evaluate_(evaluate), options_(options), rng_(options.seed),
          limit_(options.max_points - trim_reserve(options)) {}

    SearchResult run() {
        PointChoices naive(space_.nodes.size());
        PointChoices outside = naive;
        for (size_t i = 0; i < space_.nodes.size(); i++) outside[i].order = has_outside(space_.nodes[i]) ? 1 : 0;
        hint(outside, 1);
        add(naive, "naive");
        add(outside, "reduction outside");
        faster_orders();
        // Neither step-1 point fits: parallelism only adds to them, so the series without the
        // layout are skipped and the layout's come first (ResNet-18 224x224: its maps alone
        // need about 4x the BRAM budget).
        if (!layout_first()) {
            balanced_series("balanced");
            jam_series();
            mixed_series();
        }
        hwc_series();
        neighbourhood();
        limit_ = options_.max_points;
        per_map();
        ping_pong();
        fill(trim_reserve(options_) / 2);
        trim_over_budget();
        trim();
        mark_front_and_choice();
        return std::move(result_);
    }

private:
    const DesignSpace &space_;
    const Evaluator &evaluate_;
    const SearchOptions &options_;
    uint64_t rng_;
    SearchResult result_;
    std::set<std::string> seen_;
    std::set<size_t> exhausted_;  // points without unevaluated neighbours
    int limit_;                   // points the current step may bring the total to
    // A filter's copies (unroll x jam) at most, outside the fill: kMaxUnroll, kMaxCopies once
    // the jam series found every filter at its largest within kMaxUnroll and the point within
    // the budget (issue 14: pb_gemm at 2,560 DSPs stopped at 110 copies, 581 DSPs).
    int64_t copies_ = kMaxUnroll;
    int64_t fill_copies() const { return copies_ > kMaxUnroll ? copies_ : kMaxFillUnroll; }

    static std::string key(const PointChoices &c) {
        std::string k;
        for (const Choice &x : c) {
            k += std::to_string(x.order) + "." + std::to_string(x.unroll) + "." + std::to_string(x.jam) + "." +
                 std::to_string(x.ii) + (x.map ? "m" : "") + (x.ping_pong ? "p" : "") + ",";
        }
        return k;
    }
    // Whether node `n` offers the "reduction outside" order (orders[1], not the layout "hwc").
    static bool has_outside(const NodeKnobs &n) { return n.orders.size() > 1 && !n.orders[1].hwc; }
    bool full() const { return static_cast<int>(result_.points.size()) >= limit_; }
    // Tells options_.prefetch of `c`, a point the search may evaluate after `before` more
    // points, unless it was evaluated or the budget of points will be spent by then.
    void hint(const PointChoices &c, int before) const {
        if (!options_.prefetch || seen_.count(key(c)) || static_cast<int>(result_.points.size()) + before >= limit_) return;
        options_.prefetch(point_schedule(space_, c));
    }

    // Evaluates `c` unless it was evaluated already or the budget of points is spent; returns
    // whether it was evaluated now.
    bool add(const PointChoices &c, const std::string &origin) {
        if (full() || !seen_.insert(key(c)).second) return false;
        EvaluatedPoint p;
        p.choices = c;
        p.origin = origin;
        try {
            DesignEstimate e = evaluate_(point_schedule(space_, c));
            p.ok = true;
            p.interval = e.interval;
            p.latency = e.latency;
            p.throughput = e.throughput;
            p.total = e.total;
            p.dsp_efficiency = e.dsp_efficiency;
            p.fits = over_budget(e.total, options_.budget).empty();
            int64_t slowest = -1;
            for (const FilterEstimate &f : e.filters) {
                if (f.latency > slowest) {
                    slowest = f.latency;
                    p.bottleneck = f.name;
                }
                latency_[result_.points.size()][f.name] = f.latency;
                TrimNode &t = figures_[result_.points.size()][f.name];
                t.latency = f.latency;
                t.dsp = f.resources.dsp;
                for (const auto &op : f.operations) {
                    if (takes_dsps(op.first)) t.copies = std::max<int64_t>(t.copies, op.second);
                }
            }
        } catch (const Error &e) {
            p.error = e.what();
        }
        result_.points.push_back(std::move(p));
        if (options_.progress) options_.progress(static_cast<int>(result_.points.size()));
        return true;
    }

    // Latency of filter `filter` at point `p` (0 when unknown).
    int64_t latency(size_t p, const std::string &filter) const {
        auto it = latency_.find(p);
        if (it == latency_.end()) return 0;
        auto f = it->second.find(filter);
        return f == it->second.end() ? 0 : f->second;
    }
    std::map<size_t, std::map<std::string, int64_t>> latency_;
    std::map<size_t, std::map<std::string, TrimNode>> figures_;  // of each filter, per point

    // Whether the layout "hwc" is offered and neither step-1 point (naive, reduction outside)
    // compiled within the budget.
    bool layout_first() const {
        for (const EvaluatedPoint &p : result_.points) {
            if (!p.ok || p.fits) return false;
        }
        return offers_hwc();
    }
    // Whether some node offers the streaming layout "hwc".
    bool offers_hwc() const {
        for (const NodeKnobs &n : space_.nodes) {
            if (hwc_order(n) >= 0) return true;
        }
        return false;
    }

    // Each node's faster order (order_) and its latency there (work_) from points 0 and 1; the
    // throughput-balanced points (HIDA intensity-aware sharing, balanced_series) give every
    // filter parallelism proportional to its work so that the latencies meet one target.
    void faster_orders() {
        order_.assign(space_.nodes.size(), 0);
        work_.assign(space_.nodes.size(), 0);
        std::vector<int> &order = order_;
        std::vector<int64_t> &work = work_;
        int64_t slowest = 0;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            const std::string &f = space_.nodes[i].filter;
            int64_t w0 = result_.points[0].ok ? latency(0, f) : 0;
            int64_t w1 = result_.points.size() > 1 && result_.points[1].ok ? latency(1, f) : 0;
            bool outside = has_outside(space_.nodes[i]) && w1 > 0 && (w0 == 0 || w1 < w0);
            order[i] = outside ? 1 : 0;
            work[i] = outside ? w1 : w0;
            slowest = std::max(slowest, work[i]);
        }
        slowest_ = slowest;
    }

    // The balanced series in the orders order_ from the latencies work_: targets W/2, W/4, ...
    // (W = slowest_) without jams, until a point exceeds the DSP budget or does not lower the
    // interval.
    void balanced_series(const std::string &origin) {
        int64_t last_interval = 0;
        for (int64_t target = slowest_ / 2; target >= 1 && !full(); target /= 2) {
            bool maxed = true;
            PointChoices c = target_point(target, false, maxed);
            bool next_maxed = true;
            if (!maxed && target / 2 >= 1) hint(target_point(target / 2, false, next_maxed), 1);
            if (add(c, origin) && result_.points.back().ok) {
                const EvaluatedPoint &p = result_.points.back();
                // Smaller targets only take more DSPs once the budget is exceeded, or once the
                // interval stops improving (the slowest filter is at its largest factor).
                if (p.total.dsp > options_.budget.dsp || (last_interval > 0 && p.interval >= last_interval)) break;
                last_interval = p.interval;
            }
            if (maxed) break;
        }
    }

    std::vector<int> order_;       // per node, its faster order (faster_orders())
    std::vector<int64_t> work_;    // per node, its latency in that order without unrolls
    int64_t slowest_ = 0;          // the largest of work_

    // Nodes most connected first, then in space order (a node fixed early constrains more).
    std::vector<int> connected_order() const {
        std::vector<int> nodes(space_.nodes.size());
        for (size_t i = 0; i < nodes.size(); i++) nodes[i] = static_cast<int>(i);
        auto degree = [&](int i) {
            return static_cast<size_t>(i) < space_.connected.size() ? space_.connected[i].size() : size_t(0);
        };
        std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) { return degree(a) > degree(b); });
        return nodes;
    }

    // Whether node `i` at `mine` keeps the link rules with the nodes already `fixed` at `c`:
    // per dimension of a shared buffer the two loops' factors divide one another, and the
    // partition serving both (the larger factor per dimension) has at most copies_ banks.
    bool keeps_links(int i, const Choice &mine, const PointChoices &c, const std::vector<bool> &fixed) const {
        for (const DesignSpace::Link &l : space_.links) {
            int other = l.writer == i ? l.reader : l.reader == i ? l.writer : -1;
            if (other < 0 || !fixed[other]) continue;
            const std::vector<std::string> &vi = l.writer == i ? l.writer_vars : l.reader_vars;
            const std::vector<std::string> &vo = l.writer == i ? l.reader_vars : l.writer_vars;
            int64_t banks = 1;
            for (size_t d = 0; d < vi.size(); d++) {
                int64_t a = loop_factor(space_.nodes[i], mine, vi[d]);
                int64_t b = loop_factor(space_.nodes[other], c[other], vo[d]);
                if (a % b != 0 && b % a != 0) return false;
                banks *= std::max(a, b);
            }
            if (banks > copies_) return false;
        }
        return true;
    }

    // The point where every node takes its faster order and the smallest parallelism
    // (unroll x jam, at most copies_; jams only when `jam`) that brings its latency to
    // `target`, its factors dividing or multiples of those of the connected nodes fixed before
    // it; among equal parallelism the deeper jam. `maxed`: every node at its largest.
    PointChoices target_point(int64_t target, bool jam, bool &maxed) const {
        return target_point(target, std::vector<Mode>(space_.nodes.size(), jam ? Mode::Both : Mode::NoJam), maxed);
    }
    // Per node, the parallelism a series gives it: unroll and jam, unroll only, jam only.
    enum class Mode { Both, NoJam, NoUnroll };
    PointChoices target_point(int64_t target, const std::vector<Mode> &mode, bool &maxed) const {
        PointChoices c(space_.nodes.size());
        std::vector<bool> fixed(space_.nodes.size(), false);
        maxed = true;
        for (int i : connected_order()) {
            const OrderOption &o = space_.nodes[i].orders[order_[i]];
            int64_t need = (work_[i] + target - 1) / target;
            Choice best;
            best.order = order_[i];
            int64_t best_p = 0, best_j = 0, largest = 0;
            size_t jams = mode[i] != Mode::NoJam && !o.jams.empty() ? o.jams.size() : 1;
            size_t unrolls = mode[i] == Mode::NoUnroll && jams > 1 ? 1 : o.factors.size();
            for (size_t u = 0; u < unrolls; u++) {
                for (size_t j = 0; j < jams; j++) {
                    int64_t uf = o.factors[u], jf = o.jams.empty() ? 1 : o.jams[j], p = uf * jf;
                    if (p > copies_) continue;
                    largest = std::max(largest, p);
                    Choice mine;
                    mine.order = order_[i];
                    mine.unroll = static_cast<int>(u);
                    mine.jam = static_cast<int>(j);
                    if (!keeps_links(i, mine, c, fixed)) continue;
                    // Reaching `need` with the least parallelism; else the most.
                    bool better = best_p == 0 ||
                                  (p >= need ? (best_p < need || p < best_p || (p == best_p && jf > best_j))
                                             : (best_p < need && (p > best_p || (p == best_p && jf > best_j))));
                    if (better) {
                        best.unroll = static_cast<int>(u);
                        best.jam = static_cast<int>(j);
                        best_p = p;
                        best_j = jf;
                    }
                }
            }
            c[i] = best;
            fixed[i] = true;
            maxed = maxed && best_p == largest;
        }
        return c;
    }

    // Index of the evaluated point with choices `c`, -1 when none.
    int find(const PointChoices &c) const {
        for (size_t i = 0; i < result_.points.size(); i++) {
            if (result_.points[i].choices == c) return static_cast<int>(i);
        }
        return -1;
    }

    // Unroll-and-jam points: targets W/2, W/4, ... (as balanced_series, with jams) until a point
    // exceeds the DSP budget, then bisection of the target between the last point that fitted
    // and the first that did not (at most 6 steps), so the jams fill the budget. A node `allow`
    // leaves both kinds to, whose unrolls the points before showed not to pay (pays()) and whose
    // jams did not fail, takes jams only: an unroll that does not pay would otherwise win
    // wherever it is the smaller parallelism reaching the target (ResNet-18 224x224: conv1 `u7`,
    // its ring read at II 7, instead of `j8`, 119M cycles instead of 31M).
    void jam_series() { jam_series(std::vector<Mode>(space_.nodes.size(), Mode::Both), "jam"); }
    void jam_series(std::vector<Mode> allow, const std::string &origin) {
        for (size_t i = 0; i < allow.size(); i++) {
            if (allow[i] == Mode::Both && pays(i, false) == 0 && pays(i, true) != 0) allow[i] = Mode::NoUnroll;
        }
        bool any = false;
        for (size_t i = 0; i < order_.size(); i++) {
            any = any || (allow[i] != Mode::NoJam && space_.nodes[i].orders[order_[i]].jams.size() > 1);
        }
        if (!any || order_.empty()) return;
        int64_t fit = 0, over = 0, last_interval = 0;
        for (int64_t target = slowest_ / 2; target >= 1 && !full(); target /= 2) {
            bool maxed = true;
            PointChoices c = target_point(target, allow, maxed);
            bool next_maxed = true;
            if (!maxed && target / 2 >= 1) hint(target_point(target / 2, allow, next_maxed), 1);
            add(c, origin);
            int p = find(c);
            if (p < 0 || !result_.points[p].ok) break;
            if (!result_.points[p].fits) {
                over = target;
                break;
            }
            fit = target;
            // Every filter at its largest within kMaxUnroll copies and the point fits: the
            // budget allows more, so the series goes on (the same target first) to kMaxCopies.
            if (maxed && copies_ < kMaxCopies) {
                copies_ = kMaxCopies;
                last_interval = result_.points[p].interval;
                target *= 2;
                continue;
            }
            if (maxed || (last_interval > 0 && result_.points[p].interval >= last_interval)) return;
            last_interval = result_.points[p].interval;
        }
        for (int step = 0; step < 6 && fit > over + 1 && over > 0 && !full(); step++) {
            int64_t mid = over + (fit - over) / 2;
            bool maxed = true;
            PointChoices c = target_point(mid, allow, maxed);
            add(c, origin);
            int p = find(c);
            if (p < 0 || !result_.points[p].ok) return;
            (result_.points[p].fits ? fit : over) = mid;
        }
    }

    // Whether the parallelism of kind `jam` (jams, or unrolls without a jam) paid on node `i`
    // at some evaluated point that gave it some: its latency fell, by at least 3/4 of the
    // parallelism, against its latency without (work_). -1: no point gave it any.
    int pays(size_t i, bool jam) const {
        int verdict = -1;
        for (size_t p = 0; p < result_.points.size(); p++) {
            const Choice &c = result_.points[p].choices[i];
            int64_t par = total_unroll(space_.nodes[i], c), l = latency(p, space_.nodes[i].filter);
            if (!result_.points[p].ok || c.order != order_[i] || par <= 1 || (c.jam > 0) != jam || l <= 0) continue;
            bool paid = l < work_[i] && 4 * work_[i] >= 3 * par * l;
            verdict = std::max(verdict, paid ? 1 : 0);
        }
        return verdict;
    }

    // The mixed series ("mix"): as the jam series, but no jam on a node where jams did not pay
    // and unrolls did or are unknown, and no unroll where unrolls did not pay and jams did. Which parallelism pays depends on where a filter's
    // operands live: a jam reads one weight per output channel per cycle (bounded by the one
    // port of weights read through m_axi), an unroll of the pixel loop one input per pixel
    // (bounded by the port of a kernel input).
    void mixed_series() {
        std::vector<Mode> allow(space_.nodes.size(), Mode::Both);
        bool differs = false;
        for (size_t i = 0; i < allow.size(); i++) {
            int jam = pays(i, true), unroll = pays(i, false);
            if (jam == 0 && unroll != 0) allow[i] = Mode::NoJam;
            if (unroll == 0 && jam == 1) allow[i] = Mode::NoUnroll;
            differs = differs || allow[i] != Mode::Both;
        }
        if (differs) jam_series(allow, "mix");
    }

    // Whether the budget binds: no point fits, or some point over the budget is faster than
    // every point that fits.
    bool budget_binds() const {
        int64_t fit = -1, over = -1;
        for (const EvaluatedPoint &p : result_.points) {
            if (!p.ok) continue;
            int64_t &best = p.fits ? fit : over;
            if (best < 0 || p.interval < best) best = p.interval;
        }
        return fit < 0 || (over >= 0 && over < fit);
    }

    // The streaming-layout series ("hwc"), when some node offers the order "hwc" and the budget
    // binds (the whole ping-pong feature maps are what the layout saves): the point where
    // every node that has it takes "hwc" (the others their faster order), then the balanced and
    // the jam series in those orders, targets from the filters' latencies at that point. Whole model only:
    // one layout for every 4-D map, so that every convolution's producer writes HWC.
    void hwc_series() {
        if (!offers_hwc() || order_.empty() || full() || !budget_binds()) return;
        std::vector<int> order = order_;
        for (size_t i = 0; i < order.size(); i++) {
            if (hwc_order(space_.nodes[i]) >= 0) order[i] = hwc_order(space_.nodes[i]);
        }
        PointChoices start(space_.nodes.size());
        for (size_t i = 0; i < order.size(); i++) start[i].order = order[i];
        add(start, "hwc");
        int p = find(start);
        if (p < 0 || !result_.points[p].ok) return;
        std::vector<int> saved_order = order_;
        std::vector<int64_t> saved_work = work_;
        int64_t saved_slowest = slowest_;
        order_ = order;
        slowest_ = 0;
        for (size_t i = 0; i < order.size(); i++) {
            int64_t w = latency(static_cast<size_t>(p), space_.nodes[i].filter);
            if (w > 0) work_[i] = w;
            slowest_ = std::max(slowest_, work_[i]);
        }
        balanced_series("hwc balanced");
        jam_series(std::vector<Mode>(space_.nodes.size(), Mode::Both), "hwc jam");
        order_ = saved_order;
        work_ = saved_work;
        slowest_ = saved_slowest;
    }

    // The neighbours of point `p`: one node one unroll step up or down, or its order flipped
    // (the unroll factor kept as close as the other order allows). The first is the step up
    // on the point's slowest filter.
    std::vector<std::pair<PointChoices, bool>> neighbours(size_t p) const {
        std::vector<std::pair<PointChoices, bool>> out;
        const PointChoices &c = result_.points[p].choices;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            const NodeKnobs &n = space_.nodes[i];
            bool slowest = n.filter == result_.points[p].bottleneck;
            const std::vector<int64_t> &factors = n.orders[c[i].order].factors;
            const std::vector<int64_t> &jams = n.orders[c[i].order].jams;
            PointChoices up = c;
            up[i].unroll++;
            if (c[i].unroll + 1 < static_cast<int>(factors.size()) && total_unroll(n, up[i]) <= copies_) {
                out.insert(slowest ? out.begin() : out.end(), {up, slowest});
            }
            if (c[i].unroll > 0) {
                PointChoices down = c;
                down[i].unroll--;
                out.push_back({down, false});
            }
            PointChoices jam_up = c;
            jam_up[i].jam++;
            if (c[i].jam + 1 < static_cast<int>(jams.size()) && total_unroll(n, jam_up[i]) <= copies_) {
                out.push_back({jam_up, false});
            }
            if (c[i].jam > 0) {
                PointChoices jam_down = c;
                jam_down[i].jam--;
                out.push_back({jam_down, false});
            }
            if (has_outside(n) && !n.orders[c[i].order].hwc) {
                PointChoices flip = c;
                flip[i].order = 1 - c[i].order;
                const std::vector<int64_t> &other = n.orders[flip[i].order].factors;
                int64_t want = factors[c[i].unroll];
                size_t u = 0;
                while (u + 1 < other.size() && other[u + 1] <= want) u++;
                flip[i].unroll = static_cast<int>(u);
                // The jam kept as close as the other order allows, within copies_.
                const std::vector<int64_t> &other_jams = n.orders[flip[i].order].jams;
                int64_t want_jam = jams.empty() ? 1 : jams[c[i].jam];
                size_t j = 0;
                while (j + 1 < other_jams.size() && other_jams[j + 1] <= want_jam &&
                       other[u] * other_jams[j + 1] <= copies_) {
                    j++;
                }
                flip[i].jam = static_cast<int>(j);
                out.push_back({flip, false});
            }
        }
        return out;
    }

    // ScaleHLS-style: pick a frontier point, evaluate one of its unevaluated neighbours.
    void neighbourhood() {
        while (!full()) {
            PointChoices next;
            size_t parent = 0;
            if (!pick_neighbour(current_front(), seen_, rng_, exhausted_, next, parent)) return;
            if (options_.prefetch) {
                // The pick after this one if this point leaves the frontier as it is.
                std::set<std::string> seen = seen_;
                seen.insert(key(next));
                uint64_t rng = rng_;
                std::set<size_t> exhausted = exhausted_;
                PointChoices after;
                size_t after_parent = 0;
                if (pick_neighbour(current_front(), seen, rng, exhausted, after, after_parent)) hint(after, 1);
            }
            add(next, "neighbour of " + std::to_string(parent));
        }
    }

    // The neighbourhood's pick from the frontier `front`: a parent drawn from `rng` among the
    // points not in `exhausted` (which gains the parents drawn without a neighbour outside
    // `seen`), and one of its neighbours outside `seen`; false when every point is exhausted.
    bool pick_neighbour(const std::vector<size_t> &front, const std::set<std::string> &seen, uint64_t &rng,
                        std::set<size_t> &exhausted, PointChoices &next, size_t &parent) const {
        while (true) {
            std::vector<size_t> open;
            for (size_t p : front) {
                if (!exhausted.count(p)) open.push_back(p);
            }
            if (open.empty()) return false;
            parent = open[splitmix64(rng) % open.size()];
            std::vector<std::pair<PointChoices, bool>> all = neighbours(parent);
            std::vector<PointChoices> fresh;
            for (const auto &n : all) {
                if (!seen.count(key(n.first))) fresh.push_back(n.first);
            }
            if (fresh.empty()) {
                exhausted.insert(parent);
                continue;
            }
            // The slowest filter's step up first (when unevaluated) every other draw.
            bool guided = !all.empty() && all.front().second && !seen.count(key(all.front().first)) &&
                          splitmix64(rng) % 2 == 0;
            next = guided ? all.front().first : fresh[splitmix64(rng) % fresh.size()];
            return true;
        }
    }

    // The frontier of the points that compiled, restricted to those that fit when some do.
    std::vector<size_t> current_front() const {
        std::vector<size_t> ok, fitting;
        for (size_t i = 0; i < result_.points.size(); i++) {
            if (!result_.points[i].ok) continue;
            ok.push_back(i);
            if (result_.points[i].fits) fitting.push_back(i);
        }
        const std::vector<size_t> &pool = fitting.empty() ? ok : fitting;
        std::vector<Objectives> objectives;
        for (size_t i : pool) objectives.push_back(result_.points[i].objectives());
        std::vector<size_t> front;
        for (size_t i : pareto_front(objectives)) front.push_back(pool[i]);
        return front;
    }

    void mark_front_and_choice() {
        std::vector<size_t> ok;
        std::vector<Objectives> objectives;
        for (size_t i = 0; i < result_.points.size(); i++) {
            if (!result_.points[i].ok) continue;
            ok.push_back(i);
            objectives.push_back(result_.points[i].objectives());
        }
        for (size_t i : pareto_front(objectives)) result_.points[ok[i]].pareto = true;
        result_.chosen = choice();
    }

    // The largest interval the choice accepts: the smallest interval of a point that fits,
    // plus the tolerance (-1 when none fits).
    double choice_limit() const {
        int64_t fastest = -1;
        for (const EvaluatedPoint &p : result_.points) {
            if (p.ok && p.fits && (fastest < 0 || p.interval < fastest)) fastest = p.interval;
        }
        return fastest < 0 ? -1.0 : static_cast<double>(fastest) * (1.0 + options_.interval_tolerance);
    }

    // The choice (SearchResult::chosen) among the points evaluated so far, -1 when none fits.
    int choice() const {
        const double limit = choice_limit();
        int chosen = -1;
        for (size_t i = 0; i < result_.points.size(); i++) {
            const EvaluatedPoint &p = result_.points[i];
            if (!p.ok || !p.fits || static_cast<double>(p.interval) > limit) continue;
            if (chosen < 0) {
                chosen = static_cast<int>(i);
                continue;
            }
            const EvaluatedPoint &best = result_.points[chosen];
            if (p.total.dsp < best.total.dsp || (p.total.dsp == best.total.dsp && p.interval < best.interval)) {
                chosen = static_cast<int>(i);
            }
        }
        return chosen;
    }

    // The latency the points evaluated so far measured for a node at a choice (the last such
    // point's; 0: none), for the trim's predictions.
    KnownLatency known_latency() const {
        return [this](size_t node, const Choice &c) {
            int64_t l = 0;
            for (size_t p = 0; p < result_.points.size(); p++) {
                if (result_.points[p].ok && result_.points[p].choices[node] == c) l = latency(p, space_.nodes[node].filter);
            }
            return l;
        };
    }

    // The figures of node `i`'s filter at point `from` (empty when not recorded).
    TrimNode trim_node(size_t from, size_t i) const {
        auto d = figures_.find(from);
        if (d == figures_.end() || !d->second.count(space_.nodes[i].filter)) return TrimNode();
        return d->second.at(space_.nodes[i].filter);
    }

    // Node `i`'s trim steps (src/dse/Trim.cpp) of the kinds below `kinds` from point `from` at
    // `limit`, none in `rejected` or already evaluated.
    std::vector<TrimStep> node_steps(size_t from, size_t i, int kinds, double limit, const KnownLatency &known,
                                     const std::set<std::pair<size_t, int>> &rejected) const {
        const TrimNode at = trim_node(from, i);
        std::vector<TrimStep> out;
        for (int kind = 0; kind < kinds; kind++) {
            TrimStep step;
            if (rejected.count({i, kind}) || !trim_step(space_, result_.points[from].choices, i, kind, at, limit, known, step) ||
                seen_.count(key(step.choices))) {
                continue;
            }
            out.push_back(step);
        }
        return out;
    }

    // The trim steps from point `from`, best first: the largest predicted saving, ties to the
    // earlier node, then the kind; at most one per node, none in `rejected`.
    std::vector<TrimStep> trim_steps(size_t from, double limit, const std::set<std::pair<size_t, int>> &rejected) const {
        KnownLatency known = known_latency();
        std::vector<TrimStep> steps;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            TrimStep best;
            for (const TrimStep &step : node_steps(from, i, 3, limit, known, rejected)) {
                if (step.saving > best.saving) best = step;
            }
            if (best.saving > 0) steps.push_back(best);
        }
        std::stable_sort(steps.begin(), steps.end(), [](const TrimStep &a, const TrimStep &b) { return a.saving > b.saving; });
        return steps;
    }

    // The unroll and jam steps down (kinds 0 and 1) from point `from` that the predictions put
    // over the choice's limit, the smallest predicted latency first (ties: the larger saving),
    // at most one per node, none in `rejected`: what the trim tries with the points left once
    // no predicted step is (trim()).
    std::vector<TrimStep> unpromising_steps(size_t from, const std::set<std::pair<size_t, int>> &rejected) const {
        KnownLatency known = known_latency();
        std::vector<TrimStep> out;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            std::vector<TrimStep> steps = node_steps(from, i, 2, 1e18, known, rejected);
            auto nearest = std::min_element(steps.begin(), steps.end(), [](const TrimStep &a, const TrimStep &b) {
                return a.predicted < b.predicted;
            });
            if (nearest != steps.end()) out.push_back(*nearest);
        }
        std::stable_sort(out.begin(), out.end(), [](const TrimStep &a, const TrimStep &b) {
            return a.predicted < b.predicted || (a.predicted == b.predicted && a.saving > b.saving);
        });
        return out;
    }

    // Evaluates `c` as a trim of point `from`; returns the new point's index when it is kept
    // (it fits, its interval is within `limit`, its DSPs are below `from`'s), else -1.
    int try_trim(const PointChoices &c, int from, double limit) {
        const int64_t from_dsp = result_.points[from].total.dsp;
        if (!add(c, "trim of " + std::to_string(from))) return -1;
        const EvaluatedPoint &p = result_.points.back();
        bool kept = p.ok && p.fits && static_cast<double>(p.interval) <= limit && p.total.dsp < from_dsp;
        return kept ? static_cast<int>(result_.points.size() - 1) : -1;
    }

    // The unroll x jam combinations of node `i` in its order at `c` with a parallelism in
    // (lo, hi] (at most fill_copies(); callers other than the fill pass hi <= copies_), the
    // II dropped: by parallelism, `ascending` or not, ties to the deeper jam.
    std::vector<Choice> combinations(size_t i, const Choice &c, int64_t lo, int64_t hi, bool ascending) const {
        const NodeKnobs &n = space_.nodes[i];
        const OrderOption &o = n.orders[c.order];
        std::vector<Choice> out;
        for (size_t u = 0; u < o.factors.size(); u++) {
            for (size_t j = 0; j < std::max<size_t>(1, o.jams.size()); j++) {
                Choice t{c.order, static_cast<int>(u), static_cast<int>(j), 0, c.map && j > 0};
                t.ping_pong = c.ping_pong && offers_ping_pong(o, t);
                int64_t p = total_unroll(n, t);
                if (p > lo && p <= std::min(hi, fill_copies())) out.push_back(t);
            }
        }
        std::stable_sort(out.begin(), out.end(), [&](const Choice &x, const Choice &y) {
            int64_t px = total_unroll(n, x), py = total_unroll(n, y);
            if (px != py) return ascending ? px < py : px > py;
            return x.jam > y.jam;
        });
        return out;
    }

    // The DSPs point `from` gains when node `i` goes from `p` to `q` copies, in proportion to its
    // filter's. Inlined filters (DesignSpace::inline_nodes) share their operators: the total
    // follows the largest filter's, so only the part above the largest other filter counts
    // (pb_atax at 155 DSPs: y's u22 -> u28 adds 30 DSPs to its filter, none to the total of 153,
    // tmp's u30 needing more).
    int64_t raised_dsp(size_t from, size_t i, int64_t q, int64_t p) const {
        const int64_t mine = filter_dsp(from, i), more = mine * (q - p) / p;
        if (!space_.inline_nodes) return more;
        int64_t largest = 0;
        for (size_t k = 0; k < space_.nodes.size(); k++) largest = std::max(largest, k == i ? 0 : filter_dsp(from, k));
        return std::max<int64_t>(0, mine + more - std::max(largest, mine));
    }

    // The DSPs of node `i`'s filter at point `p` (0: unknown).
    int64_t filter_dsp(size_t p, size_t i) const {
        auto d = figures_.find(p);
        if (d == figures_.end() || !d->second.count(space_.nodes[i].filter)) return 0;
        return d->second.at(space_.nodes[i].filter).dsp;
    }

    // The fill's candidates from point `from`, best first: per node, slowest first, its next
    // parallelism up (those keeping at least its jam first, then the smallest above its own,
    // every combination of it, the deeper jam first), with the DSPs predicted in proportion; one that does not fit the budget trades:
    // the fastest other node whose largest lower parallelism saves the excess gives it up.
    std::vector<PointChoices> fill_candidates(size_t from, const std::set<size_t> &raised, const std::set<size_t> &idle) const {
        const PointChoices &at = result_.points[from].choices;
        std::vector<size_t> nodes(space_.nodes.size());
        for (size_t i = 0; i < nodes.size(); i++) nodes[i] = i;
        std::stable_sort(nodes.begin(), nodes.end(), [&](size_t a, size_t b) {
            return latency(from, space_.nodes[a].filter) > latency(from, space_.nodes[b].filter);
        });
        std::vector<PointChoices> out;
        for (size_t i : nodes) {
            if (at[i].ii > 0 || idle.count(i)) continue;
            const int64_t p = total_unroll(space_.nodes[i], at[i]);
            std::vector<Choice> up = combinations(i, at[i], p, fill_copies(), true);
            // A raise that keeps the node's jam first: trading the jam for a deeper unroll at the
            // next parallelism often loses (LeNet-5's conv2 at `j16`: `u5/j4` ran at 24,281 cycles
            // against 15,229; `u2/j16` halves them).
            const std::vector<int64_t> &jams = space_.nodes[i].orders[at[i].order].jams;
            auto jam_of = [&](const Choice &c) { return jams.empty() ? int64_t(1) : jams.at(c.jam); };
            std::stable_partition(up.begin(), up.end(), [&](const Choice &c) { return jam_of(c) >= jam_of(at[i]); });
            for (const Choice &c : up) {
                PointChoices next = at;
                next[i] = c;
                int64_t excess = result_.points[from].total.dsp + raised_dsp(from, i, total_unroll(space_.nodes[i], c), p) -
                                 options_.budget.dsp;
                for (auto k = nodes.rbegin(); excess > 0 && k != nodes.rend(); ++k) {
                    if (*k == i || at[*k].ii > 0 || raised.count(*k)) continue;
                    const int64_t pk = total_unroll(space_.nodes[*k], at[*k]), dk = filter_dsp(from, *k);
                    for (const Choice &d : combinations(*k, at[*k], 0, pk - 1, false)) {
                        if (dk * (pk - total_unroll(space_.nodes[*k], d)) / pk < excess) continue;
                        next[*k] = d;
                        excess = 0;
                        break;
                    }
                }
                if (excess <= 0 && !seen_.count(key(next))) {
                    out.push_back(next);
                    break;  // one candidate per node: its smallest raise that has one
                }
            }
        }
        return out;
    }

    // The helper per map ("map of N", Choice::map) from the chosen point, one evaluation: the
    // jammed nodes offering it whose filters are slower than every other filter (their weight
    // copies per block and row bind: ResNet-18 224x224 layer4) all take it at once. The point
    // is then a candidate of the choice like any other: it fits or not (the whole input maps
    // the helpers then read are ping-pong buffers instead of rings of rows).
    void per_map() {
        const int from = choice();
        if (from < 0 || full() || !latency_.count(static_cast<size_t>(from))) return;
        PointChoices next = result_.points[from].choices;
        std::set<std::string> offered;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            const OrderOption &o = space_.nodes[i].orders[next[i].order];
            if (next[i].jam > 0 && !o.map_at.empty() && !next[i].map) offered.insert(space_.nodes[i].filter);
        }
        int64_t others = 0;
        for (const auto &f : latency_.at(static_cast<size_t>(from))) {
            if (!offered.count(f.first)) others = std::max(others, f.second);
        }
        bool some = false;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            if (!offered.count(space_.nodes[i].filter) || latency(from, space_.nodes[i].filter) <= others) continue;
            next[i].map = true;
            some = true;
        }
        if (some) add(next, "map of " + std::to_string(from));
    }

    // The double-buffered block copies ("ping-pong of N", Choice::ping_pong), from the chosen
    // point: every node whose point copies blocks (offers_ping_pong) takes it at once, one
    // evaluation; when that point does not fit (each copy's buffer twice), the nodes whose
    // filters are slower than every other filter alone, one more. The copy of block b + 1 then
    // overlaps the computation with block b. The points are candidates of the choice like any
    // other, and the fill and the trim after it keep the double buffers.
    void ping_pong() {
        const int from = choice();
        if (from < 0 || full() || !latency_.count(static_cast<size_t>(from))) return;
        const PointChoices at = result_.points[from].choices;  // a copy: add() grows result_.points
        PointChoices all = at;
        std::set<std::string> offered;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            if (at[i].ping_pong || !offers_ping_pong(space_.nodes[i].orders[at[i].order], at[i])) continue;
            all[i].ping_pong = true;
            offered.insert(space_.nodes[i].filter);
        }
        if (offered.empty() || !add(all, "ping-pong of " + std::to_string(from))) return;
        if (result_.points.back().fits || full()) return;
        int64_t others = 0;
        for (const auto &f : latency_.at(static_cast<size_t>(from))) {
            if (!offered.count(f.first)) others = std::max(others, f.second);
        }
        PointChoices slow = at;
        bool some = false;
        for (size_t i = 0; i < space_.nodes.size(); i++) {
            if (!offered.count(space_.nodes[i].filter) || latency(from, space_.nodes[i].filter) <= others) continue;
            slow[i].ping_pong = true;
            some = true;
        }
        if (some && slow != all) add(slow, "ping-pong of " + std::to_string(from));
    }

    // The fill ("fill of N"), from the chosen point, with at most `points` evaluations: the DSPs
    // the choice leaves under the budget buy nothing, and the neighbourhood search, drawing at
    // random, may not have tried the steps that spend them (pb_mvt MEDIUM at 162 DSPs chose
    // u16/u10 at 132 DSPs; u16/u16 fits; pb_3mm's G needed F's parallelism). The first of
    // fill_candidates is evaluated and kept when the point fits and its interval drops; then
    // again from the point kept (or from the same point, the candidate now evaluated), until
    // no candidate is left or the points are spent.
    void fill(int points) {
        int current = choice();
        std::set<size_t> raised, idle;  // nodes the fill raised; nodes whose raise gained nothing
        for (int spent = 0; current >= 0 && spent < points && !full(); spent++) {
            const int64_t interval = result_.points[current].interval;
            std::vector<PointChoices> next = fill_candidates(current, raised, idle);
            if (next.empty() || !add(next[0], "fill of " + std::to_string(current))) return;
            const EvaluatedPoint &p = result_.points.back();
            std::vector<size_t> up;  // the nodes this candidate raised
            for (size_t i = 0; i < next[0].size(); i++) {
                const int64_t was = total_unroll(space_.nodes[i], result_.points[current].choices[i]);
                if (total_unroll(space_.nodes[i], next[0][i]) > was) up.push_back(i);
            }
            if (p.ok && p.fits && p.interval < interval) {
                current = static_cast<int>(result_.points.size() - 1);
                raised.insert(up.begin(), up.end());
            } else {
                idle.insert(up.begin(), up.end());  // not on the critical path, or its trade costs more
            }
        }
    }

    // The trim of the fastest point over the budget, when it is faster than the choice: every
    // node's best step at once (its interval as the limit), repeated from the result while it
    // stays over the budget and keeps the interval, at most half the reserve. The steps lower
    // DSPs and the block RAM of the banks unrolls and jams partition, so they can bring such a
    // point within the budget (ResNet-18 64x64: the "hwc jam" point at 1,665,313 cycles with
    // 3,558 BRAM18K, over the 3,456 of 80%, trims to 3,441). A point that fits is then a
    // candidate of the choice like any other, and trim() starts from the choice.
    void trim_over_budget() {
        int fastest = -1, chosen = choice();
        for (size_t i = 0; i < result_.points.size(); i++) {
            const EvaluatedPoint &p = result_.points[i];
            if (p.ok && !p.fits && (fastest < 0 || p.interval < result_.points[fastest].interval)) fastest = static_cast<int>(i);
        }
        if (fastest < 0 || (chosen >= 0 && result_.points[fastest].interval >= result_.points[chosen].interval)) return;
        const double limit = static_cast<double>(result_.points[fastest].interval) * (1.0 + options_.interval_tolerance);
        std::set<std::pair<size_t, int>> rejected;
        int current = fastest;
        for (int tries = 0; tries < std::max(1, trim_reserve(options_) / 2) && !full(); tries++) {
            std::vector<TrimStep> steps = trim_steps(current, limit, rejected);
            if (steps.empty()) return;
            PointChoices all = result_.points[current].choices;
            for (const TrimStep &s : steps) all[s.node] = s.choices[s.node];
            if (!add(all, "trim of " + std::to_string(current))) return;
            const EvaluatedPoint &p = result_.points.back();
            if (!p.ok || p.fits || static_cast<double>(p.interval) > limit) return;
            current = static_cast<int>(result_.points.size() - 1);
        }
    }

    // When every node's step at once (the last point evaluated, from `current`) ran over the
    // choice's limit: the steps whose filter's latency there stays within the limit, at once
    // (one more evaluation); the others are rejected (their prediction failed). MobileNet's
    // 27 convs: a few reshapes over the limit made the whole step fail, and one step at a time
    // the reserve kept 3 of 27 (ESTIMATES). Returns the kept point's index, or -1.
    int retry_trim(const std::vector<TrimStep> &steps, int current, std::set<std::pair<size_t, int>> &rejected) {
        const size_t last = result_.points.size() - 1;
        if (!result_.points[last].ok) return -1;
        const double limit = choice_limit();
        PointChoices some = result_.points[current].choices;
        size_t taken = 0;
        for (const TrimStep &s : steps) {
            int64_t l = latency(last, space_.nodes[s.node].filter);
            if (l > 0 && static_cast<double>(l) <= limit) {
                some[s.node] = s.choices[s.node];
                taken++;
            } else {
                rejected.insert({s.node, s.kind});
            }
        }
        if (taken == 0 || taken == steps.size()) return -1;
        return try_trim(some, current, limit);
    }

    // Every node's best step of `steps` at once from `current` (one evaluation), and when that
    // runs over the choice's limit, the steps that held (retry_trim); returns the kept point's
    // index, or -1 (the steps that failed then in `rejected`).
    int trim_all(const std::vector<TrimStep> &steps, int current, std::set<std::pair<size_t, int>> &rejected) {
        PointChoices all = result_.points[current].choices;
        for (const TrimStep &s : steps) all[s.node] = s.choices[s.node];
        const size_t before = result_.points.size();
        int kept = try_trim(all, current, choice_limit());
        if (kept < 0 && result_.points.size() > before && !full()) kept = retry_trim(steps, current, rejected);
        return kept;
    }

    // The trim ("trim of N"), from the chosen point: rounds of every node's best step at once
    // (one evaluation when the predictions hold, two with the retry), again from the point
    // kept while more than one step is left and a round keeps a point, then one step at a
    // time, the largest predicted saving first; a step is kept when the point fits, its
    // interval stays within the choice's limit and its DSPs drop; a step that fails is not
    // tried again. Until the points are spent or no step is left. The rounds (session 33):
    // MobileNet's first round left reshapes with room under the interval (blocks_2 at
    // `u4/j64/ii11`, 1.59M of 1.91M cycles) that the 3 points of the reserve, one step each,
    // did not reach (ESTIMATES). Once no step is predicted to hold, the points left try the
    // steps predicted not to, nearest first (unpromising_steps; session 34).
    void trim() {
        int current = choice();
        if (current < 0 || full()) return;
        std::set<std::pair<size_t, int>> rejected;
        bool rounds = true;
        while (current >= 0 && !full()) {
            const double limit = choice_limit();
            std::vector<TrimStep> steps = trim_steps(current, limit, rejected);
            if (steps.empty()) {
                // No step is predicted to keep the interval; with points left, the nearest of
                // those predicted not to, one at a time (a prediction is an estimate: hida_mlp's
                // fc2 from u16 to u8 keeps its latency, its block copies overlapped).
                steps = unpromising_steps(static_cast<size_t>(current), rejected);
                if (steps.empty()) return;
                rounds = false;
            }
            if (rounds && steps.size() > 1) {
                int kept = trim_all(steps, current, rejected);
                if (kept >= 0) {
                    current = kept;
                } else {
                    rounds = false;
                }
                continue;
            }
            int kept = try_trim(steps[0].choices, current, limit);
            if (kept >= 0) {
                current = kept;
            } else {
                rejected.insert({steps[0].node, steps[0].kind});
            }
        }
    }
};

std::string csv_field(const std::string &text) {
    bool quote = text.find_first_of(",\"\n") != std::string::npos;
    if (!quote) return text;
    std::string q = "\"";
    for (char c : text) {
        if (c == '"') q += '"';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

}  // namespace

SearchResult explore(const DesignSpace &space, const Evaluator &evaluate, const SearchOptions &options) {
    return Explorer(space, evaluate, options).run();
}

std::string pareto_csv(const DesignSpace &space, const SearchResult &result) {
    std::string csv = "point,origin,status,interval,latency,samples_per_s,dsp,bram18k,uram,lut,ff,dsp_efficiency,"
                      "fits,pareto,knobs\n";
    for (size_t i = 0; i < result.points.size(); i++) {
        const EvaluatedPoint &p = result.points[i];
        csv += std::to_string(i) + "," + csv_field(p.origin) + ",";
        if (!p.ok) {
            csv += csv_field("error: " + p.error) + ",,,,,,,,,,no,no," + csv_field(point_text(space, p.choices)) + "\n";
            continue;
        }
        csv += "ok," + std::to_string(p.interval) + "," + std::to_string(p.latency) + "," +
               format_number(p.throughput, "%.6g") + "," + std::to_string(p.total.dsp) + "," + std::to_string(p.total.bram18k) +
               "," + std::to_string(p.total.uram) + "," + std::to_string(p.total.lut) + "," +
               std::to_string(p.total.ff) + "," + format_number(p.dsp_efficiency, "%.4f") + "," + (p.fits ? "yes" : "no") +
               "," + (p.pareto ? "yes" : "no") + "," + csv_field(point_text(space, p.choices)) + "\n";
    }
    return csv;
}

}  // namespace flowhls::dse
