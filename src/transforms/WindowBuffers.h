// Pass window-buffers: a consumer reads a map written rows outermost through a ring of rows.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: with FIFO channels in a dataflow region, every intermediate buffer that is not a
/// stream but that analyze_window_buffer shows is read as a prefix-ordered sliding window of
/// rows of the producer's order (a convolution or pool whose producer writes pixels row by
/// row, channels inside: HWC order) is turned into a stream: its consumer gets a local ring of
/// ring_rows x width x channels words; at the start of each iteration of its row loop it copies
/// the rows that iteration newly needs from the FIFO into the ring, replaying the producer's
/// loops inside a row (so element i read is element i written), and every read of element
/// channel * plane + row * width + column becomes a read of ring element
/// channel * ring_rows * width + (row mod ring_rows) * width + column, addressed without a
/// division (the oldest row's slot is carried across row iterations in a one-element local);
/// rows no iteration reads are copied after the row loop, so the FIFO is read whole. When the
/// producer writes the buffer in an HLS-unrolled loop the stream takes its lanes
/// (stream_lanes_of) and the copy's loop over them is unrolled the same way. Padding stays as the consumer
/// computes it (clamped reads, selects). The buffer records the plan (Buffer::window_buffer,
/// for the token simulation and the reports) and why. Buffers it cannot transform keep their
/// channel. A ping_pong directive on the buffer keeps it as it is. The index computations the
/// rewrite leaves unused are for the dead-code run after it.
PassResult window_buffers(FilterGraph &graph, bool fifo_channels);

}  // namespace flowhls
