// infer_directives: innermost loops pipelined with target II 1 (the default a user can override).
#include "transforms/InferDirectives.h"

namespace flowhls {

using namespace Halide::Internal;

namespace {

// Names of the serial loops that contain no other loop.
class InnermostLoops : public IRVisitor {
public:
    std::vector<std::string> names;

private:
    using IRVisitor::visit;
    int inner_loops_seen = 0;
    void visit(const For *op) override {
        int before = inner_loops_seen;
        op->body.accept(this);
        bool innermost = inner_loops_seen == before;
        if (innermost && op->for_type == ForType::Serial) names.push_back(op->name);
        inner_loops_seen++;
    }
};

}  // namespace

PassResult infer_directives(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        InnermostLoops loops;
        f.body.accept(&loops);
        for (const std::string &name : loops.names) {
            if (f.directives.count(name)) continue;
            LoopDirective d;
            d.pipeline_ii = 1;
            d.inferred = true;
            f.directives[name] = d;
            result.changed = true;
        }
    }
    return result;
}

}  // namespace flowhls
