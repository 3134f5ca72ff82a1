// apply_hls_unroll: HLS unroll directives (and loops inside pipelines) turned into body copies.
#include "analysis/HlsUnroll.h"

#include <algorithm>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

class Unroller : public IRMutator {
public:
    Unroller(const std::map<std::string, LoopDirective> &directives, int64_t max_copies)
        : directives(directives), max_copies(max_copies) {}

private:
    using IRMutator::visit;
    const std::map<std::string, LoopDirective> &directives;
    int64_t max_copies;
    // Replicas of the current statement made by the enclosing unrolls.
    int64_t replicas = 1;
    // Inside a loop with a pipeline directive.
    bool in_pipeline = false;

    Stmt visit(const For *op) override {
        auto it = directives.find(op->name);
        bool pipelined = it != directives.end() && it->second.pipeline_ii > 0;
        const IntImm *extent = op->extent.as<IntImm>();
        int64_t trip = extent ? std::max<int64_t>(extent->value, 0) : -1;
        int64_t copies = 1;
        if (trip > 0) {
            copies = in_pipeline ? trip : hls_unroll_factor(directives, op->name, trip);
            if (copies * replicas > max_copies) copies = 1;
        }
        int64_t saved_replicas = replicas;
        bool saved_pipeline = in_pipeline;
        replicas *= copies;
        in_pipeline = in_pipeline || pipelined;
        Stmt body = mutate(op->body);
        replicas = saved_replicas;
        in_pipeline = saved_pipeline;
        if (copies == 1) {
            if (body.same_as(op->body)) return op;
            return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
        }
        Expr v = Variable::make(Halide::Int(32), op->name);
        int64_t iterations = (trip + copies - 1) / copies;
        std::vector<Stmt> out;
        for (int64_t u = 0; u < copies; u++) {
            Expr position = iterations == 1 ? Expr(static_cast<int>(u)) : v * static_cast<int>(copies) + static_cast<int>(u);
            Stmt copy = substitute(op->name, simplify(op->min + position), body);
            if (trip % copies != 0) copy = IfThenElse::make(position < static_cast<int>(trip), copy);
            out.push_back(copy);
        }
        Stmt unrolled = Block::make(out);
        if (iterations == 1) return unrolled;
        return For::make(op->name, 0, static_cast<int>(iterations), op->for_type, op->device_api, unrolled);
    }
};

}  // namespace

int64_t hls_unroll_factor(const std::map<std::string, LoopDirective> &directives, const std::string &name,
                          int64_t trip) {
    auto it = directives.find(name);
    if (it == directives.end() || it->second.unroll == 0) return 1;
    if (it->second.unroll == kUnrollComplete) return std::max<int64_t>(trip, 1);
    return std::max<int64_t>(1, std::min(it->second.unroll, std::max<int64_t>(trip, 1)));
}

Stmt apply_hls_unroll(const Stmt &body, const std::map<std::string, LoopDirective> &directives, int64_t max_copies) {
    if (!body.defined()) return body;
    return Unroller(directives, max_copies).mutate(body);
}

}  // namespace flowhls
