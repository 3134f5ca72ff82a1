// Pass infer-directives: HLS loop directives where none are given (innermost loops pipelined).
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: every innermost serial loop of every filter (a loop containing no other loop)
/// that has no directive yet gets `pipeline II=1`, marked as inferred. An innermost loop the
/// user only unrolled by a factor is pipelined too (LoopDirective::pipeline_inferred); when
/// the user unrolled it completely, the nearest enclosing loop that is not completely unrolled
/// gets the inferred pipeline instead if it has no directive, or if its only directive is a
/// partial unroll (an unroll-and-jam: the unrolled body with the jammed copies is the
/// pipeline stage; LoopDirective::pipeline_inferred). A user pipeline on a loop also unrolled
/// completely (no loop left to pipeline) moves, with its II, to the nearest enclosing loop that
/// is not completely unrolled, when that loop has no pipeline. Any other loop with a user
/// pipeline is left alone, and so is an innermost loop inside a pipelined loop (the HLS tool
/// unrolls it). Changes no filter body.
PassResult infer_directives(FilterGraph &graph);

}  // namespace flowhls
