// The filter graphs a design-space exploration's points extract, shared by the points whose
// loop transformations are the same (most points change only HLS directives: unrolls, IIs).
#pragma once

#include "flowhls/Target.h"
#include "flowhls/Directives.h"
#include "flowhls/HalideProgram.h"
#include "graph/FilterGraph.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
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
/// exploration); safe to share between threads.
class LoweringMemo {
public:
    /// Contract: extract_program(program, target), from the memo when a graph of an equal
    /// lowering_key is in it (byte-identical: extraction and the passes read no Halide
    /// numbering that legalize-names does not replace), else computed and stored. A program
    /// that does not lower throws every time (failures are not stored).
    FilterGraph extract(const HalideProgram &program, HlsTarget target);
    /// Lookups that found a graph, and graphs stored (for tests and timing notes).
    int64_t hits() const;
    size_t size() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, FilterGraph> graphs_;
    int64_t hits_ = 0;
};

}  // namespace flowhls
