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

/// How a consumer can read a buffer through a line buffer (see LineBufferPlan).
struct LineBufferAnalysis {
    bool found = false;
    std::string reason;  ///< why not, when not found
    LineBufferPlan plan;  ///< geometry
    /// A loop around the consumer's reads, outermost first, and what it walks: 'p' planes,
    /// 'y' rows, 'x' columns of the buffer, '1' nothing (one iteration).
    struct NestLoop {
        std::string name;
        int64_t min = 0, extent = 1;
        char role = '1';
    };
    std::vector<NestLoop> loops;
    /// Buffer index of the window's top-left element, in the loop variables.
    Halide::Expr corner;
};

/// Contract: the buffer is an intermediate with one producer writing every element once in
/// order (planes x height x width, the producer's two innermost moving loops giving width and
/// height) and one later consumer whose reads of it are all unconditional, in one perfect loop
/// nest, at constant distances from each other (the window); each loop of the nest with more
/// than one iteration moves the window by one column, one row or one plane, in that order
/// from the inside, and no window crosses a row or plane edge. Then every read is the window
/// element (row, col) of a corner that walks the consumer's region in the producer's order.
/// One read (a shifted, cropped in-order read) is a 1x1 window. Pure analysis.
LineBufferAnalysis analyze_line_buffer(const FilterGraph &graph, const Buffer &buffer);

}  // namespace flowhls
