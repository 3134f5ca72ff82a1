// Names as users wrote them (Halide appends "$N" to Func names it has seen before) and fresh names.
#pragma once

#include <functional>
#include <set>
#include <string>

namespace flowhls {

/// `name` without the "$N" suffixes Halide adds to make repeated Func names unique in a
/// process ("blur$3.s0.x" -> "blur.s0.x"); Halide's own "$n" markers are kept.
std::string halide_base_name(const std::string &name);

/// Halide's loop name `FUNC.sN.VAR` ("blur$1.s0.x.xi") taken apart.
struct HalideLoopName {
    std::string func;  ///< as Halide wrote it ("blur$1")
    int stage = 0;
    std::string var;   ///< the variable path ("x.xi")
};

/// Contract: splits `name` at its first ".sN." part (N decimal digits; a stage beyond 1e6 is
/// not a stage); false, `out` unchanged, for a name of another form. Pure.
bool split_halide_loop_name(const std::string &name, HalideLoopName &out);

/// Whether Halide's loop variable path `var` ("x.xi", "k$x") is the loop a user called `loop`
/// (in a directive or schedule): `var` is `loop` or ends in "." + `loop`; a name without "$"
/// also matches a one-dimensional RDom's `loop$x`; a trailing ".rebased" (Halide's name of a loop whose
/// minimum is not 0) is ignored.
bool loop_name_matches(const std::string &var, const std::string &loop);

/// A name not `taken`: `base` itself, else `base` + `separator` + N for the first N from
/// `first` on that is free. The one way passes make new names.
std::string fresh_name(const std::string &base, const std::function<bool(const std::string &)> &taken, int first = 2,
                       const std::string &separator = "_");

/// fresh_name against the set `taken`, into which the new name is inserted.
std::string fresh_name(const std::string &base, std::set<std::string> &taken, int first = 2,
                       const std::string &separator = "_");

}  // namespace flowhls
