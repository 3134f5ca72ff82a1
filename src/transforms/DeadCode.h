// Pass dead-code: unused computations, buffers and filters removed.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: removes LetStmts whose variable is never used, stores to local buffers that are
/// never loaded (and those locals), statements without effect (constant evaluations, empty
/// loops and ifs), and intermediate buffers no filter reads: their stores are removed,
/// and a filter left writing nothing is removed, until nothing changes. Kernel outputs are
/// always kept.
PassResult dead_code(FilterGraph &graph);

}  // namespace flowhls
