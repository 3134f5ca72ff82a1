// assign_precision: which filters of a float model compute in fixed point (--precision).
#pragma once

#include "flowhls/Precision.h"
#include "graph/FilterGraph.h"

#include <cstdint>
#include <map>
#include <string>

namespace flowhls {

/// Contract: sets Filter::fixed of every filter of `g` that writes a float buffer to the
/// format `p` gives its ONNX node (precision_of; filters without a node, the copies passes
/// make, take the model's format). Throws flowhls::Error when an override names neither a node
/// nor an op type of the graph's filters. Deterministic.
void assign_precision(FilterGraph &g, const PrecisionOptions &p);

/// Contract: the buffers of `g` that hold fixed-point data, with the filter whose data format
/// they are stored in: the intermediate float buffers a filter with Filter::fixed writes, and
/// the float ROMs such a filter reads (the first such reader's). Kernel arguments stay float.
/// Empty when no filter is fixed. Pure.
std::map<std::string, const Filter *> fixed_buffers(const FilterGraph &g);

/// The integer of value `v` in format `f` (v * 2^F rounded half to even, saturated; NaN the
/// largest): the bits of the ap_fixed AMD's conversion (AP_RND_CONV, AP_SAT) gives.
int64_t fixed_raw(const FixedFormat &f, double v);

/// Bits of one element of buffer `b` as stored: its fixed format's width (fixed_buffers),
/// else its type's.
int stored_bits(const FilterGraph &g, const Buffer &b);

}  // namespace flowhls
