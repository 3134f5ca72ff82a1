// line_buffers: a sliding-window consumer rewritten to stream its input through a line buffer.
#include "transforms/LineBuffers.h"
#include "ir/IRBuild.h"
#include "support/Names.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

#include "ir/IRQueries.h"
#include "analysis/StreamOrder.h"
#include "transforms/DetectStreams.h"

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Reads of the buffer replaced by their window register: the index, with the let-bound names
// it uses resolved, minus the window corner is row * width + col.
class ReadWindow : public IRMutator {
public:
    ReadWindow(const std::string &buffer, const LineBufferAnalysis &a, const std::string &window,
               const std::string &single)
        : buffer_(buffer), a_(a), window_(window), single_(single) {}
    bool failed = false;

private:
    using IRMutator::visit;
    std::string buffer_;
    const LineBufferAnalysis &a_;
    std::string window_, single_;
    LetBindings lets_;

    template <class LetNode> auto mutate_let(const LetNode *op) {
        Expr value = mutate(op->value);
        lets_.emplace_back(op->name, op->value);
        auto body = mutate(op->body);
        lets_.pop_back();
        return LetNode::make(op->name, value, body);
    }
    Stmt visit(const LetStmt *op) override { return mutate_let(op); }
    Expr visit(const Let *op) override { return mutate_let(op); }
    Expr visit(const Load *op) override {
        if (op->name != buffer_) return IRMutator::visit(op);
        std::optional<int64_t> rel = constant_int(simplify(resolve_lets(lets_, op->index) - a_.corner));
        const LineBufferPlan &p = a_.plan;
        if (!rel || *rel < 0 || *rel % p.width >= p.cols || *rel / p.width >= p.rows) {
            failed = true;
            return op;
        }
        if (!single_.empty()) return Variable::make(op->type, single_);
        return load(op->type, window_, int_const((*rel / p.width) * p.cols + *rel % p.width));
    }
};

// The consumer's loop nest (rooted at the loop `root`) replaced by the line-buffered loop.
class ReplaceNest : public IRMutator {
public:
    ReplaceNest(const std::string &root, std::function<Stmt(const For *)> build) : root_(root), build_(build) {}

private:
    using IRMutator::visit;
    std::string root_;
    std::function<Stmt(const For *)> build_;
    Stmt visit(const For *op) override {
        if (op->name == root_) return build_(op);
        return IRMutator::visit(op);
    }
};

struct Names {
    std::string plane, row, col, value, lines, window;
};

// The loop over the buffer's elements: read one, shift it into the window and the lines, run
// the old body when a window is complete.
Stmt line_buffered_nest(const For *root, const LineBufferAnalysis &a, const Buffer &b, const Names &n) {
    const LineBufferPlan &p = a.plan;
    // Lets between the loops of the nest, and its innermost body.
    std::vector<std::pair<std::string, Expr>> lets;
    Stmt s = root;
    for (size_t i = 0; i < a.loops.size(); i++) {
        const For *f = s.as<For>();
        if (!f || f->name != a.loops[i].name) throw std::logic_error("line-buffers: the loop nest changed");
        s = f->body;
        if (i + 1 == a.loops.size()) break;
        while (const LetStmt *let = s.as<LetStmt>()) {
            lets.emplace_back(let->name, let->value);
            s = let->body;
        }
    }
    Stmt body = s;
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = LetStmt::make(it->first, it->second, body);
    // The old loop variables from the position of the newest element.
    Expr plane = p.planes > 1 ? int_var(n.plane) : int_const(0);
    Expr row = int_var(n.row), col = int_var(n.col);
    std::vector<Expr> in_window;
    for (auto it = a.loops.rbegin(); it != a.loops.rend(); ++it) {
        Expr v = int_const(it->min);
        Expr at;
        int64_t first = 0, size = 1;
        if (it->role == 'x') at = col, first = p.first_col + p.cols - 1, size = p.width;
        if (it->role == 'y') at = row, first = p.first_row + p.rows - 1, size = p.height;
        if (it->role == 'p') at = plane, first = p.first_plane, size = p.planes;
        if (at.defined()) {
            v = simplify(v + (at - int_const(first)));
            // Bounds that the loop over the buffer already keeps are left out.
            if (first > 0) in_window.push_back(at >= int_const(first));
            if (first + it->extent < size) in_window.push_back(at < int_const(first + it->extent));
        }
        body = LetStmt::make(it->name, v, body);
    }
    // Rows (and planes) the consumer does not cover are read and dropped as well.
    if (p.out_rows == 1 && p.height > 1 && !std::any_of(a.loops.begin(), a.loops.end(), [](auto &l) {
            return l.role == 'y';
        })) {
        in_window.push_back(row == int_const(p.first_row + p.rows - 1));
    }
    if (p.out_planes == 1 && p.planes > 1 && !std::any_of(a.loops.begin(), a.loops.end(), [](auto &l) {
            return l.role == 'p';
        })) {
        in_window.push_back(plane == int_const(p.first_plane));
    }
    Expr ready;
    for (const Expr &c : in_window) ready = ready.defined() ? (ready && c) : c;
    if (ready.defined()) body = IfThenElse::make(ready, body);

    std::vector<Stmt> step;
    Expr value = Variable::make(b.type, n.value);
    if (!n.window.empty()) {
        auto win = [&](int64_t r, int64_t c) { return int_const(r * p.cols + c); };
        auto line = [&](int64_t r) { return simplify(int_const(r * p.width) + col); };
        for (int64_t r = 0; r < p.rows; r++) {
            for (int64_t c = 0; c + 1 < p.cols; c++) {
                step.push_back(store(n.window, load(b.type, n.window, win(r, c + 1)), win(r, c)));
            }
        }
        for (int64_t r = 0; r + 1 < p.rows; r++) {
            step.push_back(store(n.window, load(b.type, n.lines, line(r)), win(r, p.cols - 1)));
        }
        step.push_back(store(n.window, value, win(p.rows - 1, p.cols - 1)));
        // Each line is read once: the lines move up from the window's newest column.
        for (int64_t r = 0; r + 2 < p.rows; r++) {
            step.push_back(store(n.lines, load(b.type, n.window, win(r + 1, p.cols - 1)), line(r)));
        }
        if (p.rows > 1) step.push_back(store(n.lines, value, line(p.rows - 2)));
    }
    step.push_back(body);
    Expr index = simplify((plane * int_const(p.height) + row) * int_const(p.width) + col);
    Stmt loop = LetStmt::make(n.value, load(b.type, b.name, index), Block::make(step));
    loop = For::make(n.col, 0, int_const(p.width), ForType::Serial, Halide::DeviceAPI::None, loop);
    loop = For::make(n.row, 0, int_const(p.height), ForType::Serial, Halide::DeviceAPI::None, loop);
    if (p.planes > 1) {
        loop = For::make(n.plane, 0, int_const(p.planes), ForType::Serial, Halide::DeviceAPI::None, loop);
    }
    return loop;
}

std::string plan_text(const Filter &consumer, const LineBufferPlan &p) {
    std::string s = "stream through a line buffer in " + consumer.name + ": ";
    if (p.rows == 1 && p.cols == 1) return s + "a shifted read of the elements in order, the rest dropped";
    if (p.rows > 1) s += std::to_string(p.rows - 1) + " line(s) of " + std::to_string(p.width) + " words + ";
    return s + std::to_string(p.rows) + "x" + std::to_string(p.cols) + " window registers, one element per iteration";
}

// Rewrites the consumer of `b`; false (graph unchanged) if the result is not a proven stream.
bool apply(FilterGraph &g, Buffer &b, const LineBufferAnalysis &a) {
    Filter &f = g.filters[a.plan.consumer];
    const Stmt old_body = f.body;
    const std::map<std::string, LoopDirective> old_directives = f.directives;
    const std::vector<LocalBuffer> old_locals = f.locals;
    std::set<std::string> taken;
    {
        taken = names_in(f.body);
        for (const Buffer &other : g.buffers) taken.insert(other.name);
        for (const Filter &other : g.filters) {
            taken.insert(other.function_name);
            for (const LocalBuffer &l : other.locals) taken.insert(l.name);
        }
    }
    const LineBufferPlan &p = a.plan;
    Names n;
    n.plane = fresh_name(b.name + "_plane", taken, 1);
    n.row = fresh_name(b.name + "_row", taken, 1);
    n.col = fresh_name(b.name + "_col", taken, 1);
    n.value = fresh_name(b.name + "_in", taken, 1);
    bool single = p.rows == 1 && p.cols == 1;
    if (!single) n.window = fresh_name(b.name + "_window", taken, 1);
    if (p.rows > 1) n.lines = fresh_name(b.name + "_lines", taken, 1);

    ReadWindow reads(b.name, a, n.window, single ? n.value : "");
    Stmt body = reads.mutate(f.body);
    if (reads.failed) return false;
    body = ReplaceNest(a.loops.front().name, [&](const For *root) { return line_buffered_nest(root, a, b, n); })
               .mutate(body);
    f.body = body;
    // Directives of the old loops: the innermost one's moves to the new innermost loop.
    auto inner = f.directives.find(a.loops.back().name);
    if (inner != f.directives.end()) f.directives[n.col] = inner->second;
    for (const auto &l : a.loops) f.directives.erase(l.name);
    if (!n.lines.empty()) {
        LocalBuffer lines(n.lines, b.type, (p.rows - 1) * p.width);
        if (p.rows > 2) {
            lines.partition.enabled = lines.partition.inferred = true;
            lines.partition.kind = PartitionKind::Block;
            lines.partition.factor = p.rows - 1;
            lines.partition.reason = "line buffer: one bank per row, so every row is read and written each cycle";
        }
        f.locals.push_back(lines);
    }
    if (!n.window.empty()) {
        LocalBuffer window(n.window, b.type, p.rows * p.cols);
        window.partition.enabled = window.partition.inferred = true;
        window.partition.kind = PartitionKind::Complete;
        window.partition.reason = "window registers";
        f.locals.push_back(window);
    }
    recompute_edges(g);
    StreamVerdict v = stream_verdict(g, b);
    if (!v.stream) {
        f.body = old_body;
        f.directives = old_directives;
        f.locals = old_locals;
        recompute_edges(g);
        return false;
    }
    for (int id : {b.producers[0], b.consumers[0]}) g.filters[id].body = drop_stream_index(g.filters[id].body, b.name);
    b.line_buffer = p;
    b.line_buffer.lines = n.lines;
    b.line_buffer.window = n.window;
    b.line_buffer_words = p.words();
    b.channel = ChannelKind::LineBufferedStream;
    b.channel_reason = plan_text(f, p);
    return true;
}

}  // namespace

PassResult line_buffers(FilterGraph &graph, bool fifo_channels) {
    PassResult result;
    if (!fifo_channels || !graph.dataflow.legal) return result;
    for (size_t i = 0; i < graph.buffers.size(); i++) {
        Buffer &b = graph.buffers[i];
        if (b.kind != BufferKind::Intermediate || b.is_scalar() || b.is_stream()) continue;
        if (b.channel_request == ChannelRequest::PingPong || !b.margin.empty()) continue;
        LineBufferAnalysis a = analyze_line_buffer(graph, b);
        if (a.found && apply(graph, graph.buffers[i], a)) {
            result.changed = true;
            continue;
        }
        if (b.line_buffer_words > 0) {
            std::string why = a.found ? "the rewritten reads are not in order" : a.reason;
            b.channel_reason += "; no line buffer: " + why;
            result.changed = true;
        }
    }
    return result;
}

}  // namespace flowhls
