// Pass detect-streams: intermediate buffers proven to be FIFOs become streams.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: when the main filter is a dataflow region, marks every intermediate buffer that
/// stream_verdict proves to be written and read once, in the same order, as a stream, and
/// records for every intermediate array why it is a stream or a (ping-pong) buffer. Without
/// dataflow every intermediate stays an array. The accesses of a stream get index 0 (a FIFO
/// has no address); the index computations left unused are for the dead-code run after it.
/// Without `fifo_channels` (targets without hls::stream) nothing becomes a stream and the
/// reason says so. User directives: a buffer with a stream directive must pass stream_verdict
/// inside a dataflow region (else flowhls::Error with the verdict's reason; on a target without
/// FIFOs it stays an array, reported as not applied); a ping_pong directive keeps it an array;
/// an axis interface directive must pass argument_stream_verdict (else flowhls::Error).
PassResult detect_streams(FilterGraph &graph, bool fifo_channels);

/// The accesses of the stream `buffer` in `body` with index 0 (a FIFO has no address).
Halide::Internal::Stmt drop_stream_index(const Halide::Internal::Stmt &body, const std::string &buffer);

}  // namespace flowhls
