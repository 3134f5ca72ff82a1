// Pass line-buffers: stencil consumers read their input through a line buffer and a window.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: with FIFO channels in a dataflow region, every intermediate buffer that is not a
/// stream but that analyze_line_buffer shows is read as a sliding window (or a shifted crop)
/// in the producer's order is turned into a stream: its consumer's loop nest is replaced by a
/// loop over the buffer's elements in the producer's order that reads one element per
/// iteration, shifts it into a rows x cols window of registers (a local, completely
/// partitioned) through rows - 1 line buffers (a local, one bank per row), and runs the old
/// loop body, with every read of the buffer replaced by its window register, whenever a
/// window is complete (its loop variables recomputed from the position). The buffer records
/// the plan (Buffer::line_buffer, for the token simulation) and why; a directive on the old
/// innermost loop moves to the new one. Buffers it cannot transform keep their channel and
/// the reason says why not. A ping_pong directive on the buffer keeps it as it is. What the
/// rewrite leaves unused is for the dead-code run after it.
PassResult line_buffers(FilterGraph &graph, bool fifo_channels);

}  // namespace flowhls
