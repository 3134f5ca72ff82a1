// Pass buffer-inputs: kernel inputs read out of order copied on chip by one burst read first.
#pragma once

#include "transforms/Pass.h"

#include <cstdint>

namespace flowhls {

/// What buffer-inputs decides with.
struct InputBufferOptions {
    /// The target builds a dataflow region (Vitis): the copy then overlaps the computation.
    /// Without one (Bambu's sequential top) the pass does nothing.
    bool dataflow_target = false;
    /// Bytes of block RAM of the part; the copies (two each: a ping-pong buffer) and the ROMs
    /// together must fit in half of it (the half place-weights fills with ROMs).
    int64_t bram_bytes = 0;
};

/// Contract: for every kernel input in external memory (ChannelKind::OffChip, an m_axi port)
/// read by exactly one filter, and not in the one order argument_stream_verdict accepts (every
/// element once, in storage order; e.g. a convolution's window or a matrix-vector product's
/// repeated reads), inserts a load filter `IN_load` before the other filters that reads the
/// input once in order (a burst) into a new intermediate `IN_buf` of its size, and makes the
/// consumer read `IN_buf` instead; later passes decide that buffer's channel (ping-pong array,
/// stream, line-buffered stream) and partitions like any intermediate's. Inputs are taken in
/// argument order while twice their bytes, with the ROMs' and the earlier copies', fit in half
/// of options.bram_bytes (so a weight place-weights made an argument, which did not fit in
/// what the ROMs left of that half, is never copied); an input that does not fit stays read
/// through its port. Nothing changes
/// without options.dataflow_target or when the dataflow directive turned the top's region off
/// (FilterGraph::dataflow_disabled). Inputs read by several filters are legalize-dataflow's
/// forks (which read them once in order already).
PassResult buffer_inputs(FilterGraph &graph, const InputBufferOptions &options);

}  // namespace flowhls
