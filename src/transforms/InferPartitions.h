// Pass infer-partitions: ARRAY_PARTITION of arrays read or written several times per pipeline iteration.
#pragma once

#include "transforms/Pass.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls {

/// Contract: for every loop with a pipeline directive, takes the accesses one iteration makes
/// (with the HLS unroll directives applied as copies, and loops inside the pipelined loop
/// unrolled completely as Vitis HLS does) and groups each array's indices by constant
/// difference. An array (intermediate, kernel argument on a bram port, ROM, URAM-resident weight or filter local;
/// not scalars, streams or m_axi/axis arguments, which live off chip) that needs more than the memory's 1 read + 1 write port per iteration gets an
/// inferred partition (ArrayPartition::inferred, with the accesses as the reason):
/// complete for arrays of at most 64 elements whose accesses span it; cyclic with the smallest
/// factor that leaves at most one read and one write per bank when the offsets span at most
/// 64 elements; block when the offsets are a row stride apart and every access is proved to
/// stay in its own block; otherwise none, with the reason. Partitions the user gave
/// (enabled, not inferred) and those another pass chose for its own locals (line buffers) are
/// never changed. Changes no filter body.
PassResult infer_partitions(FilterGraph &graph);

/// Contract: the cyclic factors of `factors` (in their order; at least 2) that serve `filter`'s
/// accesses to the array `array` (`size` elements) as infer_partitions requires of its own
/// choice: no bank needs more than 1 read and 1 write per iteration of any pipelined loop (or
/// what repeated accesses to one element need anyway). An array no pipelined loop of `filter`
/// accesses is served by every factor. Pure.
std::vector<int64_t> serving_cyclic_factors(const Filter &filter, const std::string &array, int64_t size,
                                            const std::vector<int64_t> &factors);

/// Contract: whether `partition` (any kind, reshaped or not) serves `filter`'s accesses to the
/// array `array` (`size` elements) as infer_partitions requires of its own choice: no bank
/// (no word of a reshape) needs more than 1 read and 1 write per iteration of any pipelined
/// loop (or what repeated accesses to one element need anyway); true when no pipelined loop
/// of `filter` accesses it. Pure.
bool partition_serves(const Filter &filter, const std::string &array, int64_t size, const ArrayPartition &partition);

}  // namespace flowhls
