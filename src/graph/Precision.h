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
/// make, take the model's format). An `auto<W>` format becomes fixed<W,I> chosen from
/// `p.calibration` (auto_fixed_format of the max |value| of the ONNX values the filter holds
/// and of its constant inputs; a copy takes its value's producer's format, the input load the
/// graph inputs' range). Throws flowhls::Error when an override names neither a node nor an op
/// type of the graph's filters, or an auto format has no measured range. Deterministic.
void assign_precision(FilterGraph &g, const PrecisionOptions &p);

/// " (--precision auto<16>: max |value| 1.2 over 1 calibration sample(s) and the weights; 3
/// integer bits including 1 of headroom)" for a format auto chose, "" for others. Pure.
std::string auto_choice_text(const FixedFormat &f);

/// The report.txt section listing each fixed-point filter's node, op and format (and for an
/// auto one the measured max |value|), and its sums' format (proven or the rule); "" when no
/// filter is fixed. Pure.
std::string precision_report_text(const FilterGraph &g);

/// The same as a JSON array (report.json's "precision"): filter, node, op, format, width,
/// integer, auto, and for auto ones max_abs and samples; sums (the sums' format), sums_proven
/// and, when proven, sums_max_abs. "[]" when none. Pure.
std::string precision_report_json(const FilterGraph &g);

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
