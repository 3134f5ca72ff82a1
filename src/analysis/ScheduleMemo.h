// The filter schedules a design-space exploration's points compute, shared by the filters
// whose body and scheduling context are the same (a point usually changes one or a few filters).
#pragma once

#include "analysis/LoopScheduler.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace flowhls {

/// Contract: the text of everything besides the body that decides what schedule_filter gives
/// for a filter: every field of every array of `context` named in `accessed` (schedule_filter
/// reads an array only by the name of an access to it: a filter's context lists every buffer of
/// a sequential design, whose partitions other filters' unrolls change), of every loop
/// directive, the proven integer widths, the fixed-point widths and `options`' scheduling
/// fields (not `threads`: the schedule does not depend on it), each length-prefixed so that
/// different contexts never give the same text. Pure. A field added to ArrayInfo,
/// ArrayPartition, LoopDirective, FilterContext or QorOptions must be added here.
std::string schedule_context_key(const FilterContext &context, const QorOptions &options,
                                 const std::set<std::string> &accessed);

/// schedule_filter's results keyed by schedule_context_key (the arrays of names_in(body):
/// every buffer it loads, stores or allocates) and the filter's body before its HLS unrolls
/// (apply_hls_unroll reads only the body and the directives, which are in the key), compared
/// structurally (Halide's IRDeepCompare: node kinds, types, names, values). Serves
/// ONE device (it is not in the key): the points of one exploration. Owned by the caller;
/// safe to share between threads (a schedule two threads miss at once is computed twice, the
/// same result).
class ScheduleMemo {
public:
    /// Contract: schedule_filter(apply_hls_unroll(body, *context.directives) (body itself
    /// without directives), context, device, options), from the memo when an equal key is in
    /// it, else computed and stored. Throws as schedule_filter does (failures are not stored).
    FilterSchedule schedule(const Halide::Internal::Stmt &body, const FilterContext &context, const Device &device,
                            const QorOptions &options);
    /// Lookups that found a schedule, and schedules computed (for tests and timing notes).
    int64_t hits() const;
    int64_t computed() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::map<Halide::Internal::Stmt, FilterSchedule, Halide::Internal::IRDeepCompare>> schedules_;
    int64_t hits_ = 0, computed_ = 0;
};

}  // namespace flowhls
