// verify_graph: the invariants of a FilterGraph, checked after every pass with --verify-each.
#pragma once

#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// What the verifier may assume about the graph besides the invariants that always hold.
struct VerifyOptions {
    /// Names are final (legalize-names has run): the kernel, functions, buffers, locals and
    /// every name bound in a body are C identifiers, and each name is bound once per filter
    /// and differs from the global names.
    bool c_identifiers = false;
};

/// Contract: returns every violated invariant of `graph` (empty: valid), each naming where
/// (buffer, filter) and what. Always checked: unique non-empty buffer, filter and local
/// names; the kernel arguments are exactly the input and output buffers, inputs first;
/// buffer shapes positive (intermediates one-dimensional), ROM contents of the buffer's type
/// and size; Filter::reads/writes and Buffer::producers/consumers equal to what the bodies
/// load and store (recompute_edges); inputs and ROMs never stored to; loads and stores of
/// the element type of their buffer; every variable bound where it is used; streams written
/// by one filter and read by one later filter; scalar buffers and returned values of one
/// element; line-buffer plans naming their consumer and its locals; loop directives naming
/// loops of their filter; no access provably outside its buffer (an unconditional access in
/// loops of constant bounds whose index is a monotone function of each loop variable, so
/// its interval is exact). Pure analysis.
std::vector<std::string> verify_graph(const FilterGraph &graph, const VerifyOptions &options = VerifyOptions());

/// An access that provably leaves its buffer.
struct OutOfBoundsAccess {
    std::string filter, buffer;
    bool store = false;
    /// The index as written, and the interval it takes in the loops around it.
    std::string index;
    int64_t low = 0, high = 0;
    /// Elements of the buffer.
    int64_t size = 0;
};

/// Contract: the accesses of every filter that are unconditional, in loops of constant
/// bounds, at an index monotone in each loop variable (so its interval is exact) and that
/// reach outside their buffer. Pure analysis; verify_graph reports them.
std::vector<OutOfBoundsAccess> out_of_bounds_accesses(const FilterGraph &graph);

/// Runs verify_graph and throws std::logic_error (an internal error) listing the problems,
/// "invalid filter graph after pass 'NAME': ...", when there are any.
void check_graph(const FilterGraph &graph, const VerifyOptions &options, const std::string &after_pass);

/// Whether `name` is a C identifier (letters, digits, underscores, not starting with a digit).
bool is_c_identifier(const std::string &name);

}  // namespace flowhls
