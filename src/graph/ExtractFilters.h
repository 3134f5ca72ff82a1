// Filter extraction: lowered Halide IR -> FilterGraph (thesis 4.3.1).
#pragma once

#include "frontend/halide/Intake.h"
#include "graph/FilterGraph.h"

namespace flowhls {

/// Contract: turns the lowered body into a FilterGraph. Every root-level `produce` becomes a
/// filter (in execution order) whose body is its loop nest; root-level allocations become
/// intermediate buffers, or locals of the one filter that uses them; allocations inside a
/// filter are hoisted to its function scope with a constant (upper-bound) size. Kernel
/// arguments become input/output buffers, constant inputs (weights) Constant buffers (ROMs,
/// until place-weights decides), in the program's argument order. Throws flowhls::Error for IR that has no filter
/// form (dynamic allocation sizes, unexpected root-level statements).
FilterGraph extract_filters(const LoweredProgram &program);

}  // namespace flowhls
