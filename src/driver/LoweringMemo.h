// The filter graphs a design-space exploration's points extract, shared by the points whose
// loop transformations are the same (most points change only HLS directives: unrolls, IIs).
#pragma once

#include "flowhls/Target.h"
#include "flowhls/Directives.h"
#include "flowhls/HalideProgram.h"
#include "graph/FilterGraph.h"

#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace flowhls {

/// Contract: the text of everything that decides what lowering a program gives, besides its
/// Funcs: the target and every field of every loop transformation, in order (the origin too:
/// it is in the errors), each field length-prefixed so that different lists never give the same
/// text. HLS directives are not in it: lowering does not read them. Pure.
std::string lowering_key(const std::vector<LoopTransform> &transforms, HlsTarget target);

/// Contract: the filter graph of `program` as compile() extracts it: its loop transformations
/// applied to an isolated copy, lowered for `target` (lower_for_hls), extract_filters. Throws
/// flowhls::Error like compile().
FilterGraph extract_program(const HalideProgram &program, HlsTarget target);

/// The graphs extract_program gave, keyed by lowering_key. Serves ONE program (its Funcs are
/// not in the key): the points of one exploration, which differ only in their schedules. A
/// graph holds immutable IR, so a copy is a graph of its own. Owned by the caller (the
/// exploration); safe to share between threads. Lowerings of isolated copies (each with its
/// own Funcs and parameters) may run at once: Halide's unique-name counters are atomic, and
/// the graphs do not depend on their numbering (as for the memo's hits).
class LoweringMemo {
public:
    /// Contract: extract_program(program, target), from the memo when a graph of an equal
    /// lowering_key is in it (byte-identical: extraction and the passes read no Halide
    /// numbering that legalize-names does not replace), else computed and stored. A program
    /// that does not lower throws every time (failures are not stored).
    /// A lowering another thread is computing (prefetch) is waited for, not repeated.
    FilterGraph extract(const HalideProgram &program, HlsTarget target);
    /// Contract: starts extract(program, target) on a thread of its own (a guess at a point
    /// the exploration may ask for next: a later extract of the same key waits for it instead
    /// of lowering again) unless the key is in the memo or being computed; first waits for the
    /// prefetch started before. Its failure is dropped (the later extract lowers again and
    /// throws). What extract returns does not depend on prefetches: only when it runs.
    void prefetch(const HalideProgram &program, HlsTarget target);
    /// Waits for the prefetch running, if any. The destructor does too.
    void wait();
    ~LoweringMemo();
    /// Lookups that found a graph (computed or being computed), and graphs stored (for tests
    /// and timing notes).
    int64_t hits() const;
    size_t size() const;
    /// Prefetches started (lowerings on a thread of their own).
    int64_t prefetched() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_future<FilterGraph>> graphs_;
    int64_t hits_ = 0;
    int64_t prefetched_ = 0;
    std::thread prefetching_;
    /// The entry of `key`, when there is none a promise the caller must fulfil (`own` set).
    std::shared_future<FilterGraph> entry(const std::string &key, std::promise<FilterGraph> &promise, bool &own);
    /// Lowers into `promise`; on failure removes `key`'s entry and passes the error on.
    void fill(const std::string &key, const HalideProgram &program, HlsTarget target, std::promise<FilterGraph> &promise);
};

}  // namespace flowhls
