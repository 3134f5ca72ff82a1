// Pass infer-directives: HLS loop directives where none are given (innermost loops pipelined).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: every innermost serial loop of every filter (a loop containing no other loop)
/// that has no directive yet gets `pipeline II=1`, marked as inferred. Changes no filter body.
PassResult infer_directives(FilterGraph &graph);

}  // namespace flowhls
