// Stream legality of a channel: proven from loop nests and affine indices, not guessed.
#pragma once

#include "graph/FilterGraph.h"

#include <string>

namespace flowhls {

/// Whether an intermediate buffer can be a FIFO, and why (or why not).
struct StreamVerdict {
    bool stream = false;
    std::string reason;
};

/// Contract: a buffer is a stream when exactly one filter writes it with a single
/// unconditional store and exactly one later filter reads it with a single unconditional
/// load, and each access, as a function of its enclosing loops (constant bounds), has an
/// affine index equal to the loops' linearized iteration counter — so element i is the i-th
/// written and the i-th read, every element exactly once. The reason names the loop, the
/// coefficient or the access that breaks this. Pure analysis.
StreamVerdict stream_verdict(const FilterGraph &graph, const Buffer &buffer);

/// Contract: a kernel argument can be an AXI4-Stream port when an input is read (and not
/// written) by exactly one filter with a single unconditional load, or an output is written
/// (and not read) by exactly one filter with a single unconditional store, at the affine index
/// stream_verdict requires: every element once, in storage order. The reason says what breaks
/// this. Pure analysis.
StreamVerdict argument_stream_verdict(const FilterGraph &graph, const Buffer &argument);

/// A consumer reading a sliding window over a buffer written in order.
struct SlidingWindow {
    bool found = false;
    int64_t rows = 0, cols = 0;  ///< window extent
    int64_t row_width = 0;       ///< elements per row of the buffer (the producer's inner extent)
    /// Storage a unified-buffer implementation needs: (rows - 1) lines and rows x cols
    /// window registers.
    int64_t line_words() const { return (rows - 1) * row_width; }
    int64_t window_words() const { return rows * cols; }
    std::string reason;  ///< why it is not a sliding window, when not found
};

/// Contract: the buffer has one producer writing it in order (as stream_verdict requires)
/// and one later consumer whose loads are all unconditional, at indices that differ from each
/// other by constants, the smallest of them moving with the consumer's loops like the
/// producer's row-major layout (rows of `row_width` elements). The offsets give the window.
/// Pure analysis.
SlidingWindow sliding_window(const FilterGraph &graph, const Buffer &buffer);

}  // namespace flowhls
