// Pass inline-expr-lets: removes Let expressions so every expression prints as C.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: substitutes every Let *expression* into its body in every filter, so that
/// expressions contain no bindings (C expressions cannot declare variables). LetStmts are
/// kept. Semantics are unchanged (Halide expressions are pure).
PassResult inline_expr_lets(FilterGraph &graph);

}  // namespace flowhls
