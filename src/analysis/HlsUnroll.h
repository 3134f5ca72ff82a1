// HLS unroll directives materialized as body copies, for analyses that count per-iteration accesses.
#pragma once

#include "graph/FilterGraph.h"

#include <map>
#include <string>

namespace flowhls {

/// Copies of a loop body an analysis materializes at most (loops beyond it stay loops; the
/// exploration asks for up to as many, src/dse/Space.h's kMaxCopies).
constexpr int64_t kMaxUnrollCopies = 1024;

/// Contract: returns `body` with the HLS unroll directives of `directives` applied as copies,
/// the way the HLS tool replicates loop bodies (the result is for analysis, never emitted).
/// A loop unrolled by U with a constant trip T keeps its name and becomes a loop of ceil(T / U)
/// iterations from 0 whose body holds U copies with the variable replaced by
/// min + U * v + u (copies guarded by `min + U * v + u < min + T` when U does not divide T);
/// a complete unroll (or U >= T) becomes the T copies. Loops inside a loop with a pipeline
/// directive are unrolled completely (Vitis HLS unrolls every loop inside a pipelined one).
/// Loops without a constant trip, or whose copies would make more than `max_copies`
/// replicas of a statement, stay loops. Pure.
Halide::Internal::Stmt apply_hls_unroll(const Halide::Internal::Stmt &body,
                                        const std::map<std::string, LoopDirective> &directives,
                                        int64_t max_copies = kMaxUnrollCopies);

/// The replication an HLS directive asks of loop `name` with trip `trip`: 1 (none), U, or
/// `trip` for a complete unroll (U is clamped to the trip).
int64_t hls_unroll_factor(const std::map<std::string, LoopDirective> &directives, const std::string &name,
                          int64_t trip);

}  // namespace flowhls
