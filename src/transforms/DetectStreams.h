// Pass detect-streams: intermediate buffers proven to be FIFOs become streams.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: when the main filter is a dataflow region, marks every intermediate buffer that
/// stream_verdict proves to be written and read once, in the same order, as a stream, and
/// records for every intermediate array why it is a stream or a (ping-pong) buffer. Without
/// dataflow every intermediate stays an array. The accesses of a stream get index 0 (a FIFO
/// has no address), or, when its producer writes it in an HLS-unrolled loop
/// (stream_lanes_of), the index of its lane (a stream of several FIFOs, Buffer::stream_lanes);
/// the index computations left unused are for the dead-code run after it.
/// Without `fifo_channels` (targets without hls::stream) nothing becomes a stream and the
/// reason says so. User directives: a buffer with a stream directive must pass stream_verdict
/// inside a dataflow region (else flowhls::Error with the verdict's reason; on a target without
/// FIFOs it stays an array, reported as not applied); a ping_pong directive keeps it an array;
/// an axis interface directive must pass argument_stream_verdict (else flowhls::Error).
PassResult detect_streams(FilterGraph &graph, bool fifo_channels);

/// The FIFOs of a stream (Buffer::stream_lanes, ::stream_lane_stride).
struct StreamLanes {
    int64_t lanes = 1, stride = 1;
};

/// Contract: the lanes the stream `buffer` takes from its producer `producer`: when every store
/// to it lies in a loop the HLS tool unrolls by U > 1 (the innermost such loop, constant trip)
/// whose variable moves the store's index (lets resolved) by the same constant S != 0, U
/// lanes of stride |S|, so that the U copies of one iteration write U distinct FIFOs (element
/// i in FIFO (i / |S|) mod U); else one lane. Pure.
StreamLanes stream_lanes_of(const Filter &producer, const std::string &buffer);

/// The accesses of the stream `buffer` in `body` with index 0 (a FIFO has no address), or,
/// with several lanes, the index of the element's FIFO: (index / stride) mod lanes, lets
/// resolved and simplified with the bounds of the loops around the access (a constant in each
/// copy of a loop unrolled along the lanes).
Halide::Internal::Stmt drop_stream_index(const Halide::Internal::Stmt &body, const std::string &buffer,
                                         StreamLanes lanes = {});

}  // namespace flowhls
