// How a pass of the optimization pipeline describes itself (flowhls passes, --disable-pass).
#pragma once

#include <string>

namespace flowhls {

/// One entry of the pass pipeline, in the order the passes run.
struct PassDescription {
    /// The name --dump-after, --disable-pass and `flowhls opt --pass` take. A pass may run
    /// more than once (dead-code); every run has this name.
    std::string name;
    std::string summary;
    /// Code generation depends on this run: --disable-pass does not skip it.
    bool required = false;
};

}  // namespace flowhls
