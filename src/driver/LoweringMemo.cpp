// The filter graphs a design-space exploration's points extract, shared by equal loop schedules.
#include "driver/LoweringMemo.h"
#include "frontend/halide/ApplySchedule.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/ProgramCopy.h"
#include "graph/ExtractFilters.h"

namespace flowhls {

namespace {

void put(std::string &key, const std::string &field) { key += std::to_string(field.size()) + ":" + field; }
void put(std::string &key, int64_t number) { put(key, std::to_string(number)); }

}  // namespace

std::string lowering_key(const std::vector<LoopTransform> &transforms, HlsTarget target) {
    std::string key;
    put(key, static_cast<int64_t>(target));
    put(key, static_cast<int64_t>(transforms.size()));
    for (const LoopTransform &t : transforms) {
        put(key, static_cast<int64_t>(t.kind));
        put(key, t.func);
        put(key, t.stage);
        put(key, static_cast<int64_t>(t.loops.size()));
        for (const std::string &l : t.loops) put(key, l);
        for (const std::string *s : {&t.loop, &t.outer, &t.inner, &t.fused, &t.at_func, &t.at_loop, &t.input, &t.origin}) {
            put(key, *s);
        }
        put(key, t.factor);
        put(key, static_cast<int64_t>(t.tail));
    }
    return key;
}

FilterGraph extract_program(const HalideProgram &program, HlsTarget target) {
    HalideProgram copy = isolated_copy(program);
    apply_loop_schedule(copy);
    return extract_filters(lower_for_hls(copy, target));
}

std::shared_future<FilterGraph> LoweringMemo::entry(const std::string &key, std::promise<FilterGraph> &promise,
                                                    bool &own) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = graphs_.find(key);
    own = it == graphs_.end();
    if (!own) {
        hits_++;
        return it->second;
    }
    std::shared_future<FilterGraph> f = promise.get_future().share();
    graphs_.emplace(key, f);
    return f;
}

void LoweringMemo::fill(const std::string &key, const HalideProgram &program, HlsTarget target,
                        std::promise<FilterGraph> &promise) {
    try {
        promise.set_value(extract_program(program, target));
    } catch (...) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            graphs_.erase(key);
        }
        promise.set_exception(std::current_exception());
    }
}

FilterGraph LoweringMemo::extract(const HalideProgram &program, HlsTarget target) {
    const std::string key = lowering_key(program.directives.transforms(), target);
    std::promise<FilterGraph> promise;
    bool own = false;
    std::shared_future<FilterGraph> graph = entry(key, promise, own);
    if (own) {
        fill(key, program, target, promise);
        return graph.get();
    }
    try {
        return graph.get();
    } catch (...) {
        // A prefetch that failed: lowered again here, so that the error is this point's.
        return extract(program, target);
    }
}

void LoweringMemo::prefetch(const HalideProgram &program, HlsTarget target) {
    wait();
    const std::string key = lowering_key(program.directives.transforms(), target);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (graphs_.count(key)) return;
    }
    auto promise = std::make_shared<std::promise<FilterGraph>>();
    bool own = false;
    entry(key, *promise, own);
    if (!own) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        prefetched_++;
    }
    prefetching_ = std::thread([this, key, program, target, promise] { fill(key, program, target, *promise); });
}

void LoweringMemo::wait() {
    if (prefetching_.joinable()) prefetching_.join();
}

LoweringMemo::~LoweringMemo() { wait(); }

int64_t LoweringMemo::hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
}

int64_t LoweringMemo::prefetched() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return prefetched_;
}

size_t LoweringMemo::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return graphs_.size();
}

}  // namespace flowhls
