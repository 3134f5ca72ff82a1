// Pass trivial-buffers: one-element buffers become scalars or function results (thesis 4.3).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: marks every one-element local buffer as a scalar variable. Without
/// `dataflow_target` (Bambu's sequential top), also every one-element intermediate buffer
/// written by a single filter that writes nothing else becomes a scalar that this filter
/// returns as its function value and its consumers take by value. With it (Vitis), such a
/// buffer stays a one-element channel like any intermediate: a function value would make the
/// top an illegal dataflow region and run every filter in sequence (a softmax's max and sum).
/// Kernel arguments keep their array form (they are interfaces).
PassResult trivial_buffers(FilterGraph &graph, bool dataflow_target);

}  // namespace flowhls
