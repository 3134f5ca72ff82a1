// jit_target: the host target for Halide's JIT, without features the host lacks.
#include "frontend/halide/JitTarget.h"

namespace flowhls {

Halide::Target jit_target() {
    Halide::Target t = Halide::get_host_target().with_feature(Halide::Target::StrictFloat);
    return t.without_feature(Halide::Target::AVX512_SapphireRapids);
}

}  // namespace flowhls
