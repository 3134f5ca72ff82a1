// infer_directives: innermost loops pipelined with target II 1 (the default a user can override).
#include "transforms/InferDirectives.h"

namespace flowhls {

using namespace Halide::Internal;

namespace {

// The serial loops that contain no other loop, each with its enclosing serial loops
// (outermost first).
class InnermostLoops : public IRVisitor {
public:
    std::vector<std::vector<std::string>> nests;

private:
    using IRVisitor::visit;
    int inner_loops_seen = 0;
    std::vector<std::string> enclosing;
    void visit(const For *op) override {
        int before = inner_loops_seen;
        bool serial = op->for_type == ForType::Serial;
        if (serial) enclosing.push_back(op->name);
        op->body.accept(this);
        bool innermost = inner_loops_seen == before;
        if (innermost && serial) nests.push_back(enclosing);
        if (serial) enclosing.pop_back();
        inner_loops_seen++;
    }
};

}  // namespace

PassResult infer_directives(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        InnermostLoops loops;
        f.body.accept(&loops);
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
            if (user.unroll > 0) {
                // Partially unrolled: the unrolled body is pipelined.
                user.pipeline_ii = 1;
                user.pipeline_inferred = true;
                result.changed = true;
                continue;
            }
            if (user.unroll != kUnrollComplete) continue;
            // Completely unrolled: the nearest enclosing loop that stays a loop is pipelined,
            // unless the user gave it a directive.
            for (size_t i = nest.size() - 1; i-- > 0;) {
                auto outer = f.directives.find(nest[i]);
                if (outer != f.directives.end() && outer->second.unroll == kUnrollComplete) continue;
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
