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
/// written and the i-th read, every element exactly once. Also a stream: both accesses affine
/// with the same loops of more than one iteration (extents and coefficients, outermost first)
/// that visit every element once in an order that is not storage order (a producer and a
/// consumer both walking an NCHW map channels innermost). The reason names the loop, the
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

/// A loop of the producer's nest inside its row loop, outermost first: the elements of one row
/// it walks (coefficient of its variable in the write's element index).
struct RowLoop {
    int64_t extent = 1, coefficient = 0;
    /// The HLS unroll of the producer's loop (LoopDirective::unroll: 0 none, N, kUnrollComplete;
    /// set by permuted_write_order only), which a copy replaying the loops repeats.
    int64_t unroll = 0;
};

/// Contract: when the buffer's one producer writes it with a single unconditional affine store
/// that visits every element once but not in storage order (a transposed order: channels
/// innermost), its loops with more than one iteration, outermost first, each with the
/// producer's HLS unroll of it; else empty. Pure analysis.
std::vector<RowLoop> permuted_write_order(const FilterGraph &graph, const Buffer &buffer);

/// How a consumer reads a buffer through a ring of rows (see WindowBufferPlan): the analysis
/// window-buffers rewrites with.
struct WindowBufferAnalysis {
    bool found = false;
    std::string reason;  ///< why not, when not found
    WindowBufferPlan plan;
    /// The producer's moving loops inside its row loop, outermost first.
    std::vector<RowLoop> row_loops;
    /// The consumer's row loop (the outermost loop with more than one iteration around its reads).
    std::string row_loop;
    int64_t row_loop_min = 0;
};

/// Contract: the buffer is an intermediate (dims width x height x channels..., innermost first)
/// with one producer writing it once, unconditionally, rows outermost (its outermost moving
/// loop walks the rows; the loops inside it walk width x channels of one row, each element
/// once, in any order) and one later consumer whose reads of it (conditional or not) all lie
/// inside one row loop with more than one iteration, outside which every loop has one; the rows
/// iteration k reads (bounds of (index / width) % height over the inner loops) lie in
/// [lo(k), hi(k)], and the rows read before k may start, F(k) = max over k' <= k of hi(k'), is
/// min(stride * k + last_row, height - 1). Then a ring of max(F(k) - lo(k) + 1) rows (at least
/// stride and last_row + 1, so the rows copied in one iteration fit it too), filled
/// row by row in the producer's order at the start of each iteration, holds every row read: a
/// prefix-ordered sliding window of the producer's order. Found only when the ring is
/// smaller than the buffer. Pure analysis.
WindowBufferAnalysis analyze_window_buffer(const FilterGraph &graph, const Buffer &buffer);

}  // namespace flowhls
