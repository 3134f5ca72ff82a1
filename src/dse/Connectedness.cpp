// How the loop nests of two nodes line up through a buffer they share.
#include "dse/Connectedness.h"

#include <algorithm>
#include <numeric>

namespace flowhls::dse {

namespace {

// The access of `node` to `buffer` that represents it: its store if `prefer_store` and it
// has one, else its first load, else its first access; null if it does not access it.
const DseAccess *representative(const DseNode &node, const std::string &buffer, bool prefer_store) {
    const DseAccess *first = nullptr, *load = nullptr, *store = nullptr;
    for (const DseAccess &a : node.accesses) {
        if (a.buffer != buffer) continue;
        if (!first) first = &a;
        if (a.store && !store) store = &a;
        if (!a.store && !load) load = &a;
    }
    if (prefer_store && store) return store;
    return load ? load : first;
}

// The loop that walks dimension `d` of `a` (the largest trip count among those with a
// non-zero stride), -1 if none.
int walking_loop(const DseNode &node, const DseAccess &a, size_t d) {
    int best = -1;
    if (d >= a.coef.size()) return best;
    for (size_t l = 0; l < a.coef[d].size() && l < node.loops.size(); ++l) {
        if (a.coef[d][l] == 0) continue;
        if (best < 0 || node.loops[l].trip > node.loops[size_t(best)].trip) best = int(l);
    }
    return best;
}

Ratio reduced(int64_t num, int64_t den) {
    if (den < 0) num = -num, den = -den;
    int64_t g = std::gcd(num < 0 ? -num : num, den);
    return g ? Ratio{num / g, den / g} : Ratio{};
}

bool stores(const DseNode &node, const std::string &buffer) {
    return std::any_of(node.accesses.begin(), node.accesses.end(),
                       [&](const DseAccess &a) { return a.store && a.buffer == buffer; });
}

bool accesses(const DseNode &node, const std::string &buffer) {
    return std::any_of(node.accesses.begin(), node.accesses.end(),
                       [&](const DseAccess &a) { return a.buffer == buffer; });
}

Connection connect(const DesignModel &m, int source, int target, const std::string &buffer) {
    const DseNode &s = m.nodes[size_t(source)], &t = m.nodes[size_t(target)];
    Connection c;
    c.source = source;
    c.target = target;
    c.buffer = buffer;
    c.source_to_target.assign(s.loops.size(), -1);
    c.target_to_source.assign(t.loops.size(), -1);
    c.source_to_target_scale.assign(s.loops.size(), Ratio{});
    c.target_to_source_scale.assign(t.loops.size(), Ratio{});
    const DseAccess *sa = representative(s, buffer, true), *ta = representative(t, buffer, false);
    for (size_t d = 0; d < std::min(sa->coef.size(), ta->coef.size()); ++d) {
        int ls = walking_loop(s, *sa, d), lt = walking_loop(t, *ta, d);
        if (ls < 0 || lt < 0) continue;
        int64_t cs = sa->coef[d][size_t(ls)], ct = ta->coef[d][size_t(lt)];
        c.source_to_target[size_t(ls)] = lt;
        c.target_to_source[size_t(lt)] = ls;
        c.source_to_target_scale[size_t(ls)] = reduced(cs, ct);
        c.target_to_source_scale[size_t(lt)] = reduced(ct, cs);
    }
    return c;
}

} // namespace

std::vector<Connection> connections(const DesignModel &m) {
    std::vector<Connection> out;
    for (const DseBuffer &b : m.buffers) {
        for (size_t i = 0; i < m.nodes.size(); ++i) {
            if (!accesses(m.nodes[i], b.name)) continue;
            for (size_t j = i + 1; j < m.nodes.size(); ++j) {
                if (!accesses(m.nodes[j], b.name)) continue;
                bool j_first = stores(m.nodes[j], b.name) && !stores(m.nodes[i], b.name);
                out.push_back(j_first ? connect(m, int(j), int(i), b.name) : connect(m, int(i), int(j), b.name));
            }
        }
    }
    return out;
}

std::vector<int> connectedness(const DesignModel &m, const std::vector<Connection> &c) {
    std::vector<std::vector<bool>> linked(m.nodes.size(), std::vector<bool>(m.nodes.size(), false));
    for (const Connection &e : c) {
        linked[size_t(e.source)][size_t(e.target)] = true;
        linked[size_t(e.target)][size_t(e.source)] = true;
    }
    std::vector<int> out;
    for (const auto &row : linked) out.push_back(int(std::count(row.begin(), row.end(), true)));
    return out;
}

std::vector<int> parallelization_order(const DesignModel &m, const std::vector<Connection> &c) {
    std::vector<int> degree = connectedness(m, c), order(m.nodes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (degree[size_t(a)] != degree[size_t(b)]) return degree[size_t(a)] > degree[size_t(b)];
        return m.nodes[size_t(a)].intensity > m.nodes[size_t(b)].intensity;
    });
    return order;
}

std::vector<int64_t> map_factors(const Connection &c, bool from_target, const std::vector<int64_t> &fixed) {
    const std::vector<int> &permutation = from_target ? c.source_to_target : c.target_to_source;
    const std::vector<Ratio> &scale = from_target ? c.target_to_source_scale : c.source_to_target_scale;
    std::vector<int64_t> out(permutation.size(), 0);
    for (size_t l = 0; l < permutation.size(); ++l) {
        int other = permutation[l];
        if (other < 0 || size_t(other) >= fixed.size() || size_t(other) >= scale.size()) continue;
        Ratio r = scale[size_t(other)];
        int64_t num = fixed[size_t(other)] * r.num;
        if (r.den == 0 || num % r.den != 0) continue;
        int64_t f = num / r.den;
        out[l] = f < 0 ? -f : f;
    }
    return out;
}

} // namespace flowhls::dse
