// balance_streams: FIFO depths from a token-level simulation of the dataflow graph.
#include "transforms/BalanceStreams.h"
#include "analysis/TokenSim.h"
#include "flowhls/Error.h"

#include <map>
#include <set>

namespace flowhls {

namespace {

struct Balance {
    std::map<std::string, int64_t> depth;
    TokenSimResult result;
};

// Doubles the depth of the full streams not in `fixed` until the simulation completes or
// nothing can grow, then shrinks each enlarged one to the smallest depth that still completes.
Balance balance(const FilterGraph &g, std::map<std::string, int64_t> depth, const std::map<std::string, int64_t> &size,
                const std::set<std::string> &fixed) {
    std::map<std::string, int64_t> initial = depth;
    TokenSimResult r = simulate_tokens(g, depth);
    while (r.deadlock && !r.full_streams.empty()) {
        bool grew = false;
        for (const std::string &s : r.full_streams) {
            if (fixed.count(s)) continue;
            int64_t d = std::min(depth[s] * 2, size.at(s));
            grew |= d != depth[s];
            depth[s] = d;
        }
        if (!grew) break;
        r = simulate_tokens(g, depth);
    }
    if (!r.deadlock) {
        for (auto &entry : depth) {
            if (entry.second == initial[entry.first]) continue;
            int64_t lo = initial[entry.first], hi = entry.second;
            // Most enlarged streams were full only on the way to the one that needed depth
            // (ResNet-18 at 224x224 in the streaming layout: 51 of 59 go back): one
            // simulation at the initial depth settles them, instead of a bisection each.
            entry.second = lo;
            if (!simulate_tokens(g, depth).deadlock) continue;
            lo++;
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                entry.second = mid;
                if (simulate_tokens(g, depth).deadlock) lo = mid + 1;
                else hi = mid;
            }
            entry.second = hi;
        }
    }
    return {depth, r};
}

// The depths and the verdict of `g`'s streams (the pass's work without the graph's update).
BalanceMemo::Entry compute_depths(const FilterGraph &g) {
    std::map<std::string, int64_t> depth, size;
    std::set<std::string> fixed;
    for (const Buffer &b : g.buffers) {
        if (!b.is_stream()) continue;
        depth[b.name] = b.requested_depth > 0 ? b.requested_depth : kStreamDepth;
        if (b.requested_depth > 0) fixed.insert(b.name);
        size[b.name] = b.size();
    }
    std::string verdict;
    if (!depth.empty()) {
        Balance r = balance(g, depth, size, fixed);
        if (r.result.deadlock && !fixed.empty()) {
            // Would computed depths complete? Then the user's depth is the cause.
            std::map<std::string, int64_t> free_depth = depth;
            for (const std::string &s : fixed) free_depth[s] = kStreamDepth;
            Balance free = balance(g, free_depth, size, {});
            if (!free.result.deadlock) {
                std::string which;
                for (const std::string &s : fixed) {
                    if (free.depth[s] > depth[s]) {
                        which += (which.empty() ? "" : ", ") + s + " (depth " + std::to_string(depth[s]) +
                                 ", needs " + std::to_string(free.depth[s]) + ")";
                    }
                }
                std::string blocked;
                for (const std::string &line : r.result.blocked) blocked += " " + line + ";";
                throw Error("stream directive: the FIFO depth given for " + which +
                            " deadlocks the dataflow region (token simulation:" + blocked +
                            "); give a larger depth or let flowhls compute it (depth 0)");
            }
        }
        depth = r.depth;
        if (r.result.deadlock) {
            verdict = "deadlock that no FIFO depth resolves:";
            for (const std::string &line : r.result.blocked) verdict += " " + line + ";";
        } else {
            int enlarged = 0;
            for (auto &entry : depth) {
                enlarged += entry.second != (fixed.count(entry.first) ? entry.second : kStreamDepth);
            }
            verdict = "no deadlock (" + std::to_string(depth.size()) + " stream(s), " + std::to_string(enlarged) +
                      " deepened to balance reconvergent paths" +
                      (fixed.empty() ? "" : ", " + std::to_string(fixed.size()) + " with the depth of a directive") + ")";
        }
    }
    return {depth, verdict};
}

void put_numbers(std::string &key, std::initializer_list<int64_t> numbers) {
    for (int64_t n : numbers) key += std::to_string(n) + ",";
}

}  // namespace

bool BalanceMemo::find(const std::string &key, Entry *out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return false;
    hits_++;
    *out = it->second;
    return true;
}

void BalanceMemo::insert(const std::string &key, const Entry &entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.emplace(key, entry);
}

int64_t BalanceMemo::hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
}

size_t BalanceMemo::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
}

std::string balance_streams_key(const FilterGraph &g) {
    std::string key;
    for (const Filter &f : g.filters) key += f.name + ";";
    for (const Buffer &b : g.buffers) {
        key += "\n" + b.name + ":";
        put_numbers(key, {static_cast<int64_t>(b.kind), static_cast<int64_t>(b.channel), b.stream_depth,
                          b.requested_depth});
        key += "s";
        for (int64_t e : b.shape) put_numbers(key, {e});
        key += "p";
        for (int p : b.producers) put_numbers(key, {p});
        key += "c";
        for (int c : b.consumers) put_numbers(key, {c});
        const LineBufferPlan &l = b.line_buffer;
        key += "l";
        put_numbers(key, {l.planes, l.height, l.width, l.rows, l.cols, l.first_plane, l.first_row, l.first_col,
                          l.out_planes, l.out_rows, l.out_cols, l.consumer});
        const WindowBufferPlan &w = b.window_buffer;
        key += "w";
        put_numbers(key, {w.height, w.width, w.channels, w.ring_rows, w.out_rows, w.stride, w.last_row, w.consumer});
    }
    return key;
}

PassResult balance_streams(FilterGraph &g, BalanceMemo *memo) {
    PassResult result;
    BalanceMemo::Entry e;
    std::string key = memo ? balance_streams_key(g) : std::string();
    if (!memo || !memo->find(key, &e)) {
        e = compute_depths(g);
        if (memo) memo->insert(key, e);
    }
    for (Buffer &b : g.buffers) {
        if (!b.is_stream()) continue;
        result.changed |= b.stream_depth != e.depth[b.name];
        b.stream_depth = e.depth[b.name];
    }
    result.changed |= e.verdict != g.token_check;
    g.token_check = e.verdict;
    return result;
}

}  // namespace flowhls
