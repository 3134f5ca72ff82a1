// check_emittable: the legality checks of emission, run before anything is printed or written.
#pragma once

#include "emit/KernelEmitter.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <Halide.h>

#include <set>
#include <string>

namespace flowhls {

/// Contract: throws flowhls::Error (the message names the construct) for the first thing in
/// `s` the printer cannot express in `dialect`: types without a C spelling, vector code where
/// the dialect has no vectors (or vector values outside a vector statement), shuffles and
/// vector reductions, predicated scalar loads and stores, parallel loops the dialect cannot
/// print, unsupported calls, and expression or statement kinds C has no form for. `scalars`
/// and `streams` are the buffers printed as variables and FIFOs (their loads drop the index).
/// What passes prints with CPrinter without an error. Read-only.
void check_printable(const Halide::Internal::Stmt &s, const CDialect &dialect,
                     const std::set<std::string> &scalars = {}, const std::set<std::string> &streams = {});

/// Contract: check_printable for one scalar expression. Read-only.
void check_printable(const Halide::Expr &e, const CDialect &dialect);

/// Contract: throws flowhls::Error for the first thing in `graph` (after the pass pipeline)
/// emit_kernel cannot print in `style`: every buffer's and local's element type, then every
/// filter body (check_printable). A graph that passes emits without a legality error. Read-only.
void check_emittable(const FilterGraph &graph, const KernelStyle &style);

/// Contract: check_emittable in the kernel style of `target` (vitis_kernel_style,
/// bambu_kernel_style); the driver runs it before any file is written. Read-only.
void check_emittable(const FilterGraph &graph, HlsTarget target);

}  // namespace flowhls
