// How the loop nests of two nodes line up through a buffer they share (HIDA's connectedness
// analysis: permutation and scaling maps), and the order nodes are parallelized in.
#pragma once

#include "dse/DesignModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// An exact ratio of two strides; 0/1 where loops do not line up.
struct Ratio {
    int64_t num = 0, den = 1;
    bool operator==(const Ratio &o) const { return num * o.den == o.num * den; }
};

/// Two nodes connected through `buffer`. The source writes it (or, for a buffer both only
/// read, is the earlier node); per buffer dimension the loop of each node that walks it
/// lines up with the other's.
struct Connection {
    int source = 0, target = 0;
    std::string buffer;
    /// Per source loop: the target loop it lines up with, -1 if none (and the reverse).
    std::vector<int> source_to_target, target_to_source;
    /// Per source loop: source stride / target stride in the shared dimension (and the
    /// reverse); A[i] written by the source and read as A[2 i] by the target gives 1/2.
    std::vector<Ratio> source_to_target_scale, target_to_source_scale;
};

/// Contract: every pair of nodes accessing one buffer, for every buffer of `m`, in buffer
/// then node order. In a dimension several loops of one node index (a window `oy + ky`), the
/// loop with the largest trip count stands for the node. Pure.
std::vector<Connection> connections(const DesignModel &m);

/// Per node, the number of other nodes it is connected to.
std::vector<int> connectedness(const DesignModel &m, const std::vector<Connection> &c);

/// The order to parallelize nodes in: most connected first (a node fixed early constrains
/// more of the others), higher intensity as the tie-breaker, then model order.
std::vector<int> parallelization_order(const DesignModel &m, const std::vector<Connection> &c);

/// The unroll factors `fixed` of one end of `c` (the target if `from_target`, else the
/// source) seen from the other end's loops: multiplied by the scaling map and permuted by
/// the permutation map. Per loop of the other node, the factor its own must divide or be a
/// multiple of; 0 where nothing lines up or the scaled factor is not an integer.
std::vector<int64_t> map_factors(const Connection &c, bool from_target, const std::vector<int64_t> &fixed);

} // namespace flowhls::dse
