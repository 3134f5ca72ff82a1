// Unroll factors per node under one overall parallel factor (HIDA's IA + CA parallelization).
#include "dse/Parallelize.h"

#include "dse/Connectedness.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace flowhls::dse {

namespace {

std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> out;
    for (int64_t d = 1; d * d <= n; ++d) {
        if (n % d) continue;
        out.push_back(d);
        if (d * d != n) out.push_back(n / d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Every product of one divisor per trip count that is at most `limit`, ascending.
std::set<int64_t> products_up_to(const std::vector<int64_t> &trips, int64_t limit) {
    std::set<int64_t> s = {1};
    for (int64_t t : trips) {
        std::set<int64_t> next;
        for (int64_t p : s) {
            for (int64_t d : divisors(t)) {
                if (p * d > limit) break;
                next.insert(p * d);
            }
        }
        s = std::move(next);
    }
    return s;
}

// Every vector u with u[l] dividing trips[l] and the product `pf`, in lexicographic order.
void factorizations(const std::vector<int64_t> &trips, size_t l, int64_t left, std::vector<int64_t> &u,
                    std::vector<std::vector<int64_t>> &out) {
    if (l == trips.size()) {
        if (left == 1) out.push_back(u);
        return;
    }
    for (int64_t d : divisors(trips[l])) {
        if (left % d) continue;
        u[l] = d;
        factorizations(trips, l + 1, left / d, u, out);
    }
    u[l] = 1;
}

int64_t lcm_capped(int64_t a, int64_t b, int64_t cap) {
    int64_t l = std::lcm(a, b);
    return cap > 0 ? std::min(l, cap) : l;
}

const std::vector<int64_t> &shape_of(const DesignModel &m, const std::string &buffer) {
    static const std::vector<int64_t> none;
    for (const DseBuffer &b : m.buffers) {
        if (b.name == buffer) return b.shape;
    }
    return none;
}

using Partitions = std::map<std::string, std::vector<int64_t>>;

// Adds the partition `p` of one access to `parts` (lcm per dimension, capped at the extent).
void merge(Partitions &parts, const std::string &buffer, const std::vector<int64_t> &p,
           const std::vector<int64_t> &shape) {
    std::vector<int64_t> &q = parts[buffer];
    if (q.size() < p.size()) q.resize(p.size(), 1);
    for (size_t d = 0; d < p.size(); ++d) q[d] = lcm_capped(q[d], p[d], d < shape.size() ? shape[d] : 0);
}

int64_t banks_of(const Partitions &parts) {
    int64_t total = 0;
    for (const auto &[name, f] : parts) {
        (void)name;
        total += std::accumulate(f.begin(), f.end(), int64_t(1), std::multiplies<int64_t>());
    }
    return total;
}

// The ranking of one candidate: smaller is better.
struct Rank {
    int64_t reduction = 0, banks = 0, largest = 0;
    std::vector<int64_t> unroll;
    bool operator<(const Rank &o) const {
        if (reduction != o.reduction) return reduction < o.reduction;
        if (banks != o.banks) return banks < o.banks;
        if (largest != o.largest) return largest < o.largest;
        return unroll > o.unroll; // larger factors on outer loops first
    }
};

class Parallelizer {
public:
    Parallelizer(const DesignModel &m, const ParallelizeOptions &o) : m_(m), o_(o), links_(connections(m)) {}

    Parallelization run() {
        Parallelization r;
        size_t n = m_.nodes.size();
        r.parallel_factor.assign(n, 1);
        r.unroll.resize(n);
        if (o_.connectedness_aware) {
            r.order = parallelization_order(m_, links_);
        } else {
            r.order.resize(n);
            std::iota(r.order.begin(), r.order.end(), 0);
        }
        fixed_.assign(n, false);
        for (int i : r.order) {
            const DseNode &node = m_.nodes[size_t(i)];
            r.parallel_factor[size_t(i)] = parallel_factor(node, target(node));
            r.unroll[size_t(i)] = choose(i, r.parallel_factor[size_t(i)], r.unroll);
            for (const DseAccess &a : node.accesses) {
                const auto &shape = shape_of(m_, a.buffer);
                merge(fixed_parts_, a.buffer, access_partition(a, r.unroll[size_t(i)], shape), shape);
            }
            fixed_[size_t(i)] = true;
        }
        for (const DseBuffer &b : m_.buffers) {
            auto it = fixed_parts_.find(b.name);
            std::vector<int64_t> f = it == fixed_parts_.end() ? std::vector<int64_t>(b.shape.size(), 1) : it->second;
            r.partitions.push_back({b.name, f});
        }
        return r;
    }

private:
    static std::vector<int64_t> trips(const DseNode &node) {
        std::vector<int64_t> t;
        for (const DseLoop &l : node.loops) t.push_back(std::max<int64_t>(1, l.trip));
        return t;
    }

    // The smallest product of divisors of the pure loops' trips reaching `target` when they can
    // reach it (copies of a reduction loop lengthen the accumulation chain instead of adding
    // work); else all the pure loops' trips times the smallest product of divisors of the
    // reduction loops' trips reaching the rest.
    static int64_t parallel_factor(const DseNode &node, int64_t target) {
        std::vector<int64_t> pure, reduction;
        for (const DseLoop &l : node.loops) (l.reduction ? reduction : pure).push_back(std::max<int64_t>(1, l.trip));
        int64_t f = feasible_parallel_factor(pure, target);
        if (f >= target) return f;
        return f * feasible_parallel_factor(reduction, (target + f - 1) / f);
    }

    int64_t target(const DseNode &node) const {
        const DseNode *top = nullptr;
        for (const DseNode &x : m_.nodes) {
            if (!top || x.intensity > top->intensity) top = &x;
        }
        int64_t most = std::max<int64_t>(1, o_.max_parallel_factor);
        if (!o_.intensity_aware || !top || top->intensity <= 0) return most;
        // Shares of the factor the most intense node actually gets (its target rounded up to
        // what its trips allow), so the others reach its interval.
        long double share = (long double)parallel_factor(*top, most) * (long double)node.intensity /
                            (long double)top->intensity;
        return std::max<int64_t>(1, int64_t(std::ceil(share - 1e-9L)));
    }

    // Whether `u` stays divisible, loop by loop, with the factors of every fixed node that
    // shares a buffer with node `i`.
    bool legal(int i, const std::vector<int64_t> &u, const std::vector<std::vector<int64_t>> &unroll) const {
        for (const Connection &c : links_) {
            bool is_source = c.source == i, is_target = c.target == i;
            int other = is_source ? c.target : c.source;
            if ((!is_source && !is_target) || !fixed_[size_t(other)]) continue;
            std::vector<int64_t> need = map_factors(c, is_source, unroll[size_t(other)]);
            for (size_t l = 0; l < u.size() && l < need.size(); ++l) {
                if (need[l] > 0 && need[l] % u[l] != 0 && u[l] % need[l] != 0) return false;
            }
        }
        return true;
    }

    Rank rank(int i, const std::vector<int64_t> &u) const {
        const DseNode &node = m_.nodes[size_t(i)];
        Rank r;
        r.unroll = u;
        r.reduction = 1;
        for (size_t l = 0; l < u.size(); ++l) {
            if (node.loops[l].reduction) r.reduction *= u[l];
            r.largest = std::max(r.largest, u[l]);
        }
        Partitions parts;
        for (const DseAccess &a : node.accesses) {
            const auto &shape = shape_of(m_, a.buffer);
            if (o_.connectedness_aware && !parts.count(a.buffer)) {
                auto fixed = fixed_parts_.find(a.buffer);
                if (fixed != fixed_parts_.end()) parts[a.buffer] = fixed->second;
            }
            merge(parts, a.buffer, access_partition(a, u, shape), shape);
        }
        r.banks = banks_of(parts);
        return r;
    }

    std::vector<int64_t> choose(int i, int64_t pf, const std::vector<std::vector<int64_t>> &unroll) const {
        std::vector<int64_t> t = trips(m_.nodes[size_t(i)]);
        std::set<int64_t> reachable = products_up_to(t, pf);
        // The most copies of independent work (copies / copies of reduction loops), then the
        // most copies, then the rank; a product below the best independent work cannot win.
        std::vector<int64_t> best(t.size(), 1);
        int64_t best_work = 0, best_copies = 0;
        Rank best_rank;
        for (auto p = reachable.rbegin(); p != reachable.rend() && *p > best_work; ++p) {
            std::vector<std::vector<int64_t>> all;
            std::vector<int64_t> u(t.size(), 1);
            factorizations(t, 0, *p, u, all);
            for (const auto &c : all) {
                if (o_.connectedness_aware && !legal(i, c, unroll)) continue;
                Rank r = rank(i, c);
                int64_t work = *p / r.reduction;
                if (work > best_work || (work == best_work && *p == best_copies && r < best_rank)) {
                    best = c, best_work = work, best_copies = *p, best_rank = r;
                }
            }
        }
        return best;
    }

    const DesignModel &m_;
    const ParallelizeOptions &o_;
    std::vector<Connection> links_;
    std::vector<bool> fixed_;
    Partitions fixed_parts_;
};

} // namespace

Parallelization parallelize(const DesignModel &m, const ParallelizeOptions &o) { return Parallelizer(m, o).run(); }

int64_t BufferPartition::banks() const {
    return std::accumulate(factors.begin(), factors.end(), int64_t(1), std::multiplies<int64_t>());
}

int64_t Parallelization::banks() const {
    int64_t total = 0;
    for (const BufferPartition &p : partitions) total += p.banks();
    return total;
}

std::vector<int64_t> access_partition(const DseAccess &a, const std::vector<int64_t> &unroll,
                                      const std::vector<int64_t> &shape) {
    std::vector<int64_t> out;
    for (size_t d = 0; d < a.coef.size(); ++d) {
        int64_t span = 1, single = 1;
        int unrolled = 0;
        for (size_t l = 0; l < a.coef[d].size() && l < unroll.size(); ++l) {
            int64_t c = a.coef[d][l] < 0 ? -a.coef[d][l] : a.coef[d][l];
            if (c == 0 || unroll[l] <= 1) continue;
            ++unrolled;
            span += c * (unroll[l] - 1);
            single = c * unroll[l];
        }
        int64_t f = unrolled == 0 ? 1 : unrolled == 1 ? single : span;
        if (d < shape.size() && shape[d] > 0) f = std::min(f, shape[d]);
        out.push_back(f);
    }
    return out;
}

int64_t feasible_parallel_factor(const std::vector<int64_t> &trips, int64_t target) {
    const int64_t saturated = int64_t(1) << 40;
    int64_t most = 1;
    for (int64_t t : trips) most = t > 0 && most > saturated / t ? saturated : most * std::max<int64_t>(1, t);
    if (target >= most) return most;
    // A product of divisors first reaches `target` at some loop; the smallest such crossing
    // (times 1 for the loops after it) is the answer.
    int64_t best = most;
    std::set<int64_t> s = {1};
    for (int64_t t : trips) {
        std::set<int64_t> next;
        for (int64_t p : s) {
            for (int64_t d : divisors(std::max<int64_t>(1, t))) {
                if (p * d >= target) {
                    best = std::min(best, p * d);
                    break;
                }
                next.insert(p * d);
            }
        }
        s = std::move(next);
    }
    return best;
}

} // namespace flowhls::dse
