// Pass trivial-buffers: one-element buffers become scalars or function results (thesis 4.3).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: marks every one-element local buffer as a scalar variable, and every
/// one-element intermediate buffer written by a single filter that writes nothing else as a
/// scalar that this filter returns as its function value and its consumers take by value.
/// Kernel arguments keep their array form (they are interfaces).
PassResult trivial_buffers(FilterGraph &graph);

}  // namespace flowhls
