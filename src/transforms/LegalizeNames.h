// Pass legalize-names: C-legal, unique and stable names for everything that gets printed.
#pragma once

#include "transforms/Pass.h"

namespace flowhls {

/// Contract: renames the kernel, filter functions, buffers, filter locals, loop variables
/// and let variables so that each is a C identifier, is not a C/C++ keyword or a name the
/// generated code uses, and is unique in its scope (buffers and functions globally; locals
/// and variables within their filter). Names depend only on the graph, so output is stable.
/// Loop variables (and so the emitted loop labels L_<var>) keep only the dimension part of
/// Halide's "func.sN.dim" name ("conv.s1.conv_r$x" becomes r_x), suffixed _2, _3... where
/// that repeats within the filter.
PassResult legalize_names(FilterGraph &graph);

/// `name` made C-legal: characters outside [A-Za-z0-9_] become '_', runs of '_' collapse,
/// a leading digit gets a 'v' prefix.
std::string c_identifier(const std::string &name);

}  // namespace flowhls
