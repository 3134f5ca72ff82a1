// isolated_copy: a HalideProgram that shares no mutable Halide object with the caller's.
#pragma once

#include "flowhls/HalideProgram.h"

namespace flowhls {

/// Contract: a copy of `program` whose Funcs are a deep copy of the caller's Function graph
/// (Halide's deep_copy: definitions and schedules) and whose input and output buffer
/// Parameters are new objects with the same names, types, dimensions and constraints, so that
/// binding shapes, rewriting schedules or binding buffers on the copy (what lowering and the
/// JIT reference do) leaves the caller's program as it was. Data buffers (weights, test
/// data) are shared: nothing writes them. Pure.
HalideProgram isolated_copy(const HalideProgram &program);

}  // namespace flowhls
