// Pass pad-margins: padded reads of an intermediate array without their clamps, the array given a margin.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: for an intermediate array (constant Buffer::dims) read by padded reads
/// `select(inside, B[clamp(x, lo, hi)], pad)` (the ONNX frontend's padded_at) whose copies in one
/// loop body (HLS unroll directives applied as copies, apply_hls_unroll) are a constant apart
/// only once the clamps are removed, and that read it more often than its memory's read ports
/// serve in the initiation interval of the enclosing pipeline (1 where none is given: a reader
/// whose clamped reads fit the ports anyway keeps its clamps, and the array may stay a ring),
/// gives the array a margin per dimension as wide as the
/// unclamped indices reach past it: every store and load index is rewritten to the enlarged
/// layout (coordinates shifted by the margin), and the clamp of a read is dropped where the
/// enclosing select's condition proves the coordinate inside (so the margin, never written, is
/// only read where the select discards the value). Every access index must decompose into one
/// affine coordinate per dimension (each proved within its extent), else the array is left
/// alone. Records the margin in Buffer::margin. Changes nothing else.
PassResult pad_margins(FilterGraph &graph);

}  // namespace flowhls
