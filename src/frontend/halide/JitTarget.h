// The target of every run of Halide's JIT (reference outputs, constant folding).
#pragma once

#include <Halide.h>

namespace flowhls {

/// The host with strict_float, so the arithmetic is the one written. Without Halide 14's
/// avx512_sapphirerapids feature, which it also detects on AMD Zen 4/5 (AVX512-VNNI and BF16)
/// and which makes LLVM emit AVX512-FP16 instructions those processors do not have (SIGILL).
Halide::Target jit_target();

}  // namespace flowhls
