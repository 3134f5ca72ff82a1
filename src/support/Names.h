// Names as users wrote them: Halide appends "$N" to Func names it has seen before.
#pragma once

#include <string>

namespace flowhls {

/// `name` without the "$N" suffixes Halide adds to make repeated Func names unique in a
/// process ("blur$3.s0.x" -> "blur.s0.x"); Halide's own "$n" markers are kept.
std::string halide_base_name(const std::string &name);

}  // namespace flowhls
