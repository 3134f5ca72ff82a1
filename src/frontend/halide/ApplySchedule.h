// apply_loop_schedule: the loop transformations of the co-language, applied to a program's Funcs.
#pragma once

#include "flowhls/HalideProgram.h"

namespace flowhls {

/// Contract: applies `program.directives.transforms()` in order to `program`'s Funcs with
/// Halide's scheduling primitives (split, reorder, fuse, unroll, compute_at, store_at,
/// compute_root, reorder_storage; `in`: the reader's view of a kernel input wrapped by Halide's
/// `in(reader)` and computed at a loop, or an error naming the inputs it reads). Funcs are named by Halide name or by a
/// `program.directive_aliases` name (ONNX node and value names, `NODE#acc`); loops by variable
/// name (the new loops of earlier splits included; `k` also names a one-dimensional RDom's
/// `k$x`). Changes the schedules of the program's Functions in place: call it on an
/// isolated_copy. Throws flowhls::Error naming the transformation's origin for an unknown
/// Func, stage, loop or dimension (listing what exists) and for whatever Halide refuses.
void apply_loop_schedule(HalideProgram &program);

}  // namespace flowhls
