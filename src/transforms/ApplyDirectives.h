// Pass apply-directives: the user's HLS directives (HlsSchedule) resolved against the filter graph.
#pragma once

#include "flowhls/Directives.h"
#include "transforms/Pass.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// What apply-directives applies.
struct DirectiveOptions {
    /// The directives, in the order given (a later one overrides an earlier one on the same loop).
    std::vector<Directive> directives;
    /// Other names of Funcs and arguments (HalideProgram::directive_aliases).
    std::map<std::string, std::string> aliases;
};

/// Contract: runs on the graph as extracted (Halide names: loops `FUNC.sN.VAR[.SPLIT]`, buffers
/// and filters named by Func, kernel arguments by ImageParam / output Func) and records each
/// directive where later passes and the emitters read it: pipeline/unroll in
/// Filter::directives (inferred = false) of the filter containing the loop, partition in
/// Buffer::partition / LocalBuffer::partition translated to the flattened array, stream and
/// ping_pong in Buffer::channel_request / requested_depth, interface in Buffer::interface,
/// dataflow in FilterGraph::dataflow_disabled, inline in Filter::inline_function, dataflow_loop
/// in LoopDirective::dataflow of each loop of that name whose body produces locals (the block
/// copies computed at it; other stages' loops of that name are left alone) and in those
/// locals' LocalBuffer::ping_pong_loop. Changes no
/// filter body. Throws flowhls::Error naming the directive's origin for an unknown Func, loop,
/// argument or region (listing those that exist) and for a directive its target cannot take.
PassResult apply_directives(FilterGraph &graph, const DirectiveOptions &options);

}  // namespace flowhls
