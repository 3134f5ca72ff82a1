// Pass three-address: every statement a single operation on named temporaries (thesis 4.2).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: rewrites every filter so that each LetStmt value, Store value and Evaluate is
/// one operation (or call) whose operands are variables or constants, and each Load/Store
/// index, loop bound and if condition is a variable or constant; sub-expressions become
/// LetStmts on fresh temporaries "_N" placed just before the statement that uses them.
/// The lazy branches of if_then_else() are left nested. Semantics are unchanged.
PassResult three_address(FilterGraph &graph);

}  // namespace flowhls
