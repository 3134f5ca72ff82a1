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

FilterGraph LoweringMemo::extract(const HalideProgram &program, HlsTarget target) {
    const std::string key = lowering_key(program.directives.transforms(), target);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = graphs_.find(key);
        if (it != graphs_.end()) {
            hits_++;
            return it->second;
        }
    }
    FilterGraph graph = extract_program(program, target);
    std::lock_guard<std::mutex> lock(mutex_);
    graphs_.emplace(key, graph);
    return graph;
}

int64_t LoweringMemo::hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
}

size_t LoweringMemo::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return graphs_.size();
}

}  // namespace flowhls
