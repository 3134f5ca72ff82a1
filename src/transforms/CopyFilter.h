// Copy filters and buffer renaming shared by the passes that insert copies (legalize-dataflow's
// forks and output copies, buffer-inputs' input loads).
#pragma once

#include "analysis/StreamOrder.h"
#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// Contract: `body` with the loads (and, with `stores`, the stores) of buffer `from` naming
/// buffer `to` instead; indices and predicates unchanged. Pure.
Halide::Internal::Stmt rename_buffer(const Halide::Internal::Stmt &body, const std::string &from,
                                     const std::string &to, bool stores);

/// Contract: `base` itself or `base` with the first free numeric suffix, free among the
/// graph's buffer, filter, function and local names. Pure.
std::string fresh_graph_name(const FilterGraph &graph, const std::string &base);

/// Contract: an intermediate buffer called `name` of `b`'s element type and size (one
/// dimension), with no producers or consumers yet (recompute_edges sets them). Pure.
Buffer intermediate_like(const Buffer &b, const std::string &name);

/// Contract: a filter called `name` whose body reads `source` once in order and writes each
/// element to every buffer of `targets`: in storage order (one serial loop `name`_i over its
/// size) or, with `order`, in the order those loops walk (`name`_i_0 outermost, ...: a
/// producer's transposed order), each with its RowLoop::unroll; its ONNX origin names the value filter `producer` (-1: none)
/// holds, not traced (a copy of it). Pure.
Filter copy_filter(const FilterGraph &graph, const std::string &name, const Buffer &source,
                   const std::vector<std::string> &targets, int producer, const std::vector<RowLoop> &order = {});

}  // namespace flowhls
