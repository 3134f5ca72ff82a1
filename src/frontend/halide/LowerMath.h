// Halide's float32 exp/log/pow, expanded the way Halide's CPU code generator expands them.
#pragma once

#include <Halide.h>

namespace flowhls {

/// Contract: replaces calls to exp_f32, log_f32 and pow_f32 by the polynomial expansions
/// Halide's CPU code generator uses for them (halide_exp, halide_log, and pow built from
/// both), wrapped in strict_float so no later simplification changes them. The generated C
/// therefore computes exactly what the Halide JIT computes, with plain arithmetic an HLS tool
/// can synthesize. Other math functions are left as calls (they map to the C library, as in
/// the JIT).
Halide::Internal::Stmt lower_halide_math(const Halide::Internal::Stmt &s);

}  // namespace flowhls
