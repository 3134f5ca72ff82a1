// infer_directives: innermost loops pipelined with target II 1 (the default a user can override).
#include "transforms/InferDirectives.h"

#include <map>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// The serial loops that contain no other loop, each with its enclosing serial loops
// (outermost first); the constant trip counts of the serial loops.
class InnermostLoops : public IRVisitor {
public:
    std::vector<std::vector<std::string>> nests;
    std::map<std::string, int64_t> trips;

private:
    using IRVisitor::visit;
    int inner_loops_seen = 0;
    std::vector<std::string> enclosing;
    void visit(const For *op) override {
        int before = inner_loops_seen;
        bool serial = op->for_type == ForType::Serial;
        if (serial) enclosing.push_back(op->name);
        if (const auto *extent = op->extent.as<IntImm>(); serial && extent) trips[op->name] = extent->value;
        op->body.accept(this);
        bool innermost = inner_loops_seen == before;
        if (innermost && serial) nests.push_back(enclosing);
        if (serial) enclosing.pop_back();
        inner_loops_seen++;
    }
};

// Whether `d` unrolls its loop completely: an unroll without a factor, or one by at least the
// loop's constant trip count (`trips`), after which no loop is left to pipeline.
bool unrolled_completely(const LoopDirective &d, const std::string &loop, const std::map<std::string, int64_t> &trips) {
    if (d.unroll == kUnrollComplete) return true;
    auto trip = trips.find(loop);
    return d.unroll > 0 && trip != trips.end() && d.unroll >= trip->second;
}

// A user pipeline (a target II) on a loop also unrolled completely, which leaves no loop to
// pipeline: moved to the nearest enclosing loop that stays a loop, when that one has no
// pipeline, so the II shares the operators of the unrolled copies there (the exploration's
// reshape of LeNet-5's conv2 at `u10/j16/ii7`, ox's trip 10: its `kx` nest pipelined at II 7
// with 160 copies, 23 units, instead of no pipeline at all: 23,303 -> 10,595 cycles, estimates).
bool move_unrolled_pipelines(Filter &f, const InnermostLoops &loops) {
    bool changed = false;
    for (const std::vector<std::string> &nest : loops.nests) {
        for (size_t i = nest.size(); i-- > 1;) {
            auto it = f.directives.find(nest[i]);
            if (it == f.directives.end() || it->second.pipeline_ii <= 0 || it->second.inferred ||
                it->second.pipeline_inferred || !unrolled_completely(it->second, nest[i], loops.trips)) {
                continue;
            }
            size_t j = i;
            while (j-- > 0) {
                auto outer = f.directives.find(nest[j]);
                if (outer == f.directives.end() || !unrolled_completely(outer->second, nest[j], loops.trips)) break;
            }
            if (j >= i) continue;  // wrapped: every enclosing loop unrolled completely
            LoopDirective &target = f.directives[nest[j]];
            if (target.pipeline_ii > 0) continue;
            target.pipeline_ii = it->second.pipeline_ii;
            it->second.pipeline_ii = 0;
            changed = true;
        }
    }
    return changed;
}

}  // namespace

PassResult infer_directives(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        InnermostLoops loops;
        f.body.accept(&loops);
        result.changed |= move_unrolled_pipelines(f, loops);
        for (const std::vector<std::string> &nest : loops.nests) {
            const std::string &name = nest.back();
            auto it = f.directives.find(name);
            // A pipelined enclosing loop unrolls this one in the HLS tool: nothing to add.
            bool inside_pipeline = false;
            for (size_t i = 0; i + 1 < nest.size(); i++) {
                auto outer = f.directives.find(nest[i]);
                inside_pipeline |= outer != f.directives.end() && outer->second.pipeline_ii > 0;
            }
            if (inside_pipeline) continue;
            if (it == f.directives.end()) {
                LoopDirective d;
                d.pipeline_ii = 1;
                d.inferred = true;
                f.directives[name] = d;
                result.changed = true;
                continue;
            }
            LoopDirective &user = it->second;
            if (user.pipeline_ii > 0 || user.inferred) continue;
            bool complete = unrolled_completely(user, name, loops.trips);
            if (user.unroll > 0 && !complete) {
                // Partially unrolled: the unrolled body is pipelined.
                user.pipeline_ii = 1;
                user.pipeline_inferred = true;
                result.changed = true;
                continue;
            }
            if (!complete) continue;
            // Completely unrolled: the nearest enclosing loop that stays a loop is pipelined,
            // unless the user gave it a directive.
            for (size_t i = nest.size() - 1; i-- > 0;) {
                auto outer = f.directives.find(nest[i]);
                if (outer != f.directives.end() && unrolled_completely(outer->second, nest[i], loops.trips)) continue;
                if (outer == f.directives.end()) {
                    LoopDirective d;
                    d.pipeline_ii = 1;
                    d.inferred = true;
                    f.directives[nest[i]] = d;
                    result.changed = true;
                } else if (outer->second.unroll > 0 && outer->second.pipeline_ii == 0) {
                    // Partially unrolled around completely unrolled loops (an unroll-and-jam):
                    // the unrolled body, jammed copies included, is pipelined.
                    outer->second.pipeline_ii = 1;
                    outer->second.pipeline_inferred = true;
                    result.changed = true;
                }
                break;
            }
        }
    }
    return result;
}

}  // namespace flowhls
