// balance_streams: FIFO depths from a token-level simulation of the dataflow graph.
#include "transforms/BalanceStreams.h"
#include "analysis/TokenSim.h"

#include <map>

namespace flowhls {

PassResult balance_streams(FilterGraph &g) {
    PassResult result;
    std::map<std::string, int64_t> depth, size;
    for (const Buffer &b : g.buffers) {
        if (!b.stream) continue;
        depth[b.name] = kStreamDepth;
        size[b.name] = b.size();
    }
    std::string verdict;
    if (!depth.empty()) {
        std::map<std::string, int64_t> initial = depth;
        TokenSimResult r = simulate_tokens(g, depth);
        while (r.deadlock && !r.full_streams.empty()) {
            bool grew = false;
            for (const std::string &s : r.full_streams) {
                int64_t d = std::min(depth[s] * 2, size[s]);
                grew |= d != depth[s];
                depth[s] = d;
            }
            if (!grew) break;
            r = simulate_tokens(g, depth);
        }
        if (r.deadlock) {
            verdict = "deadlock that no FIFO depth resolves:";
            for (const std::string &line : r.blocked) verdict += " " + line + ";";
        } else {
            // Smallest depth of each enlarged stream that still completes.
            for (auto &entry : depth) {
                if (entry.second == initial[entry.first]) continue;
                int64_t lo = initial[entry.first], hi = entry.second;
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    entry.second = mid;
                    if (simulate_tokens(g, depth).deadlock) lo = mid + 1;
                    else hi = mid;
                }
                entry.second = hi;
            }
            int enlarged = 0;
            for (auto &entry : depth) enlarged += entry.second != initial[entry.first];
            verdict = "no deadlock (" + std::to_string(depth.size()) + " stream(s), " + std::to_string(enlarged) +
                      " deepened to balance reconvergent paths)";
        }
    }
    for (Buffer &b : g.buffers) {
        if (!b.stream) continue;
        result.changed |= b.stream_depth != depth[b.name];
        b.stream_depth = depth[b.name];
    }
    result.changed |= verdict != g.token_check;
    g.token_check = verdict;
    return result;
}

}  // namespace flowhls
