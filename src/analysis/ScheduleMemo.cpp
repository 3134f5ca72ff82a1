// The filter schedules a design-space exploration's points share (equal body and context).
#include "analysis/ScheduleMemo.h"
#include "analysis/HlsUnroll.h"
#include "ir/IRQueries.h"

#include <set>

namespace flowhls {

namespace {

void put(std::string &key, const std::string &field) { key += std::to_string(field.size()) + ":" + field; }
void put(std::string &key, int64_t number) { put(key, std::to_string(number)); }

void put_partition(std::string &key, const ArrayPartition &p) {
    put(key, p.enabled);
    put(key, static_cast<int64_t>(p.kind));
    put(key, p.factor);
    put(key, p.inferred);
    put(key, p.reason);
    put(key, static_cast<int64_t>(p.dims.size()));
    for (const DimensionPartition &d : p.dims) {
        put(key, d.dim);
        put(key, static_cast<int64_t>(d.kind));
        put(key, d.factor);
    }
    put(key, static_cast<int64_t>(p.shape.size()));
    for (int64_t s : p.shape) put(key, s);
    put(key, p.reshape);
}

}  // namespace

std::string schedule_context_key(const FilterContext &context, const QorOptions &options,
                                 const std::set<std::string> &accessed) {
    std::string key;
    put(key, options.pipeline_innermost);
    put(key, options.target_ii);
    put(key, options.flatten);
    int64_t arrays = 0;
    for (const auto &kv : context.arrays) arrays += accessed.count(kv.first);
    put(key, arrays);
    for (const auto &[name, a] : context.arrays) {
        if (!accessed.count(name)) continue;
        put(key, name);
        put(key, static_cast<int64_t>(a.kind));
        put_partition(key, a.partition);
        put(key, a.size);
        put(key, a.bits);
        put(key, a.axi_width_bits);
    }
    put(key, context.directives != nullptr);
    if (context.directives) {
        put(key, static_cast<int64_t>(context.directives->size()));
        for (const auto &[name, d] : *context.directives) {
            put(key, name);
            put(key, d.pipeline_ii);
            put(key, d.unroll);
            put(key, d.inferred);
            put(key, d.pipeline_inferred);
            put(key, d.dataflow);
        }
    }
    put(key, static_cast<int64_t>(context.value_bits.size()));
    for (const auto &[name, bits] : context.value_bits) {
        put(key, name);
        put(key, bits);
    }
    put(key, context.fixed_data_bits);
    put(key, context.fixed_acc_bits);
    return key;
}

FilterSchedule ScheduleMemo::schedule(const Halide::Internal::Stmt &body, const FilterContext &context,
                                      const Device &device, const QorOptions &options) {
    std::string key = schedule_context_key(context, options, names_in(body));
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = schedules_.find(key);
        if (it != schedules_.end()) {
            auto found = it->second.find(body);
            if (found != it->second.end()) {
                hits_++;
                return found->second;
            }
        }
    }
    Halide::Internal::Stmt unrolled = context.directives ? apply_hls_unroll(body, *context.directives) : body;
    FilterSchedule s = schedule_filter(unrolled, context, device, options);
    std::lock_guard<std::mutex> lock(mutex_);
    computed_++;
    schedules_[key].emplace(body, s);
    return s;
}

int64_t ScheduleMemo::hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
}

int64_t ScheduleMemo::computed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return computed_;
}

}  // namespace flowhls
