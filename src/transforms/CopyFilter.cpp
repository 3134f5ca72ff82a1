// rename_buffer / fresh_graph_name / intermediate_like / copy_filter: the copies passes insert.
#include "transforms/CopyFilter.h"
#include "support/Names.h"

#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Loads (and optionally stores) of one buffer renamed.
class RenameBuffer : public IRMutator {
public:
    RenameBuffer(std::string from, std::string to, bool stores) : from_(std::move(from)), to_(std::move(to)), stores_(stores) {}

private:
    using IRMutator::visit;
    std::string from_, to_;
    bool stores_;
    Expr visit(const Load *op) override {
        if (op->name != from_) return IRMutator::visit(op);
        return Load::make(op->type, to_, mutate(op->index), Halide::Buffer<>(), Halide::Internal::Parameter(),
                          mutate(op->predicate), op->alignment);
    }
    Stmt visit(const Store *op) override {
        if (!stores_ || op->name != from_) return IRMutator::visit(op);
        return Store::make(to_, mutate(op->value), mutate(op->index), Halide::Internal::Parameter(),
                           mutate(op->predicate), op->alignment);
    }
};

}  // namespace

Stmt rename_buffer(const Stmt &body, const std::string &from, const std::string &to, bool stores) {
    return RenameBuffer(from, to, stores).mutate(body);
}

std::string fresh_graph_name(const FilterGraph &g, const std::string &base) {
    std::set<std::string> taken;
    for (const Buffer &b : g.buffers) taken.insert(b.name);
    for (const Filter &f : g.filters) {
        taken.insert(f.name);
        taken.insert(f.function_name);
        for (const LocalBuffer &l : f.locals) taken.insert(l.name);
    }
    return fresh_name(base, taken);
}

Buffer intermediate_like(const Buffer &b, const std::string &name) {
    Buffer out;
    out.name = name;
    out.type = b.type;
    out.shape = {b.size()};
    out.kind = BufferKind::Intermediate;
    return out;
}

Filter copy_filter(const FilterGraph &g, const std::string &name, const Buffer &source,
                   const std::vector<std::string> &targets, int producer, const std::vector<RowLoop> &order) {
    Filter f;
    f.name = name;
    if (producer >= 0 && !g.filters[producer].onnx.values.empty()) {
        f.onnx.outputs = {g.filters[producer].onnx.values.front()};
    }
    f.function_name = fresh_graph_name(g, "compute_" + name);
    std::string i = name + "_i", v = name + "_v";
    Expr index = Variable::make(Halide::Int(32), i);
    Expr value = Variable::make(source.type, v);
    Stmt stores;
    for (auto it = targets.rbegin(); it != targets.rend(); ++it) {
        Stmt s = Store::make(*it, value, index, Halide::Internal::Parameter(), const_true(), ModulusRemainder());
        stores = stores.defined() ? Block::make(s, stores) : s;
    }
    Expr load = Load::make(source.type, source.name, index, Halide::Buffer<>(), Halide::Internal::Parameter(),
                           const_true(), ModulusRemainder());
    Stmt body = LetStmt::make(v, load, stores);
    if (order.empty()) {
        f.body = For::make(i, 0, static_cast<int>(source.size()), ForType::Serial, Halide::DeviceAPI::None, body);
        return f;
    }
    // The producer's order: loops i_0 (outermost), i_1, ... and the index they walk.
    Expr walk = Expr(0);
    for (size_t k = 0; k < order.size(); k++) {
        walk = walk + Variable::make(Halide::Int(32), i + "_" + std::to_string(k)) * static_cast<int>(order[k].coefficient);
    }
    body = LetStmt::make(i, simplify(walk), body);
    for (size_t k = order.size(); k-- > 0;) {
        std::string loop = i + "_" + std::to_string(k);
        body = For::make(loop, 0, static_cast<int>(order[k].extent), ForType::Serial, Halide::DeviceAPI::None, body);
        // The producer's unroll too: a loop it unrolls along the lanes of a stream
        // (detect-streams) is read, and the copies written, a lane each per copy of the loop.
        if (order[k].unroll != 0) f.directives[loop].unroll = order[k].unroll;
    }
    f.body = body;
    return f;
}

}  // namespace flowhls
