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

/// How a consumer reads a buffer through a sliding window, and so through a line buffer (see
/// LineBufferPlan): the one window analysis, for detect-streams' storage estimate and for the
/// line-buffers rewrite.
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
    /// Whether the consumer reads a window of more than one element (not just one shifted,
    /// cropped in-order read).
    bool sliding() const { return found && plan.rows * plan.cols > 1; }
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
