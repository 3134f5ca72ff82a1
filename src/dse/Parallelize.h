// Unroll factors per node under one overall parallel factor: HIDA's intensity-aware (IA) and
// connectedness-aware (CA) parallelization, and the cyclic partitions the factors imply.
#pragma once

#include "dse/DesignModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

struct ParallelizeOptions {
    /// The parallel factor (copies of the loop body) of the most intense node.
    int64_t max_parallel_factor = 1;
    /// Share parallelism by intensity: a node gets the most intense node's parallel factor
    /// (max_parallel_factor rounded up to what its trips allow) x its intensity / the largest
    /// intensity, so all nodes reach about the same interval. Off: every node gets
    /// max_parallel_factor.
    bool intensity_aware = true;
    /// Parallelize the most connected nodes first and keep each node's factors divisible with
    /// those of the nodes already fixed that share a buffer with it (in both directions after
    /// the permutation and scaling maps), choosing among legal factors the ones whose
    /// partitions combined with the fixed nodes' need the fewest banks. Off: each node is
    /// parallelized alone, in model order, counting only its own banks.
    bool connectedness_aware = true;
};

/// Cyclic partition factor per buffer dimension (1: not partitioned).
struct BufferPartition {
    std::string buffer;
    std::vector<int64_t> factors;
    int64_t banks() const;
};

struct Parallelization {
    /// The order nodes were parallelized in.
    std::vector<int> order;
    /// Per node: the parallel factor it was given (its target rounded up to a product of
    /// divisors of its pure loops' trips when those reach it, else all the pure loops' trips
    /// times the reduction loops' divisors that reach it)
    /// and its unroll factor per loop (their product, unless no legal factors reach it: then
    /// the largest legal product below).
    std::vector<int64_t> parallel_factor;
    std::vector<std::vector<int64_t>> unroll;
    /// Per buffer of the model: the partition every node's accesses need together.
    std::vector<BufferPartition> partitions;
    int64_t banks() const;
};

/// Contract: unroll factors for every node of `m` (each dividing its loop's trip count) and
/// the buffer partitions they need, following `o`. Among legal factor vectors whose product
/// is at most a node's parallel factor the choice is, in order: the most independent copies
/// (the product over the unrolling of reduction loops: each copy of a reduction loop lengthens
/// the accumulation chain instead), the larger product, the fewest banks, the most balanced
/// (smallest largest factor), the larger factors on outer loops. Deterministic and pure.
Parallelization parallelize(const DesignModel &m, const ParallelizeOptions &o);

/// The cyclic partition one access needs when its node's loops are unrolled by `unroll`: per
/// dimension, stride x factor for one unrolled loop, the span of the unrolled indices for
/// several, 1 for none; at most the dimension's extent when `shape` gives it.
std::vector<int64_t> access_partition(const DseAccess &a, const std::vector<int64_t> &unroll,
                                      const std::vector<int64_t> &shape);

/// The smallest product of divisors of `trips` (one per loop) that is at least `target`,
/// or the largest product there is when none reaches it.
int64_t feasible_parallel_factor(const std::vector<int64_t> &trips, int64_t target);

} // namespace flowhls::dse
