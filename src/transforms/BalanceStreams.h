// Pass balance-streams: FIFO depths that keep reconvergent paths from deadlocking (HIDA opt. 2).
#pragma once

#include "transforms/Pass.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace flowhls {

/// The depths and verdicts balance_streams computed, keyed by balance_streams_key (everything
/// the pass and the token simulation read from the graph, written out in full: equal keys give
/// equal results). The points of a design-space exploration that differ only in unrolls, jams
/// or IIs have the same streams, counts and buffer plans, so one simulation series serves
/// them all. Owned by the caller (the exploration); safe to share between threads.
class BalanceMemo {
public:
    struct Entry {
        std::map<std::string, int64_t> depth;
        std::string verdict;
    };
    /// The entry of `key`, if any, copied into `out`.
    bool find(const std::string &key, Entry *out) const;
    void insert(const std::string &key, const Entry &entry);
    /// Lookups that found an entry, and entries (for tests and timing notes).
    int64_t hits() const;
    size_t size() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
    mutable int64_t hits_ = 0;
};

/// Contract: the text of everything balance_streams and simulate_tokens read from `graph`
/// (filter names; per buffer its name, kind, shape, channel, producers, consumers, depths and
/// line- and window-buffer plans). Pure.
std::string balance_streams_key(const FilterGraph &graph);

/// Contract: with every stream at the default depth, runs the token-level simulation of the
/// graph (simulate_tokens); while it deadlocks, doubles the depth of each stream whose
/// producer is blocked on it (up to the stream's element count), then lowers each enlarged
/// depth to the smallest that still completes (the initial depth first, then a binary search;
/// other depths fixed). Sets Buffer::stream_depth and FilterGraph::token_check (the verdict,
/// with the depths). Changes no filter body. A stream with a depth from a stream directive
/// (Buffer::requested_depth) starts at that depth and is never changed; if the simulation then
/// deadlocks while computed depths would complete, throws flowhls::Error naming the stream and
/// the depth it needs. With `memo`, a graph whose balance_streams_key is in it takes the
/// stored depths and verdict (byte-identical to computing them), and a computed result that
/// throws nothing is stored.
PassResult balance_streams(FilterGraph &graph, BalanceMemo *memo = nullptr);

}  // namespace flowhls
