// apply_directives: the user's HLS directives resolved by name and recorded in the filter graph.
#include "transforms/ApplyDirectives.h"
#include "flowhls/Error.h"
#include "support/Names.h"

#include <algorithm>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

struct LoopRef {
    int filter = 0;
    std::string name;
    ForType type = ForType::Serial;
};

// Every loop of every filter body, in order.
class CollectLoops : public IRVisitor {
public:
    explicit CollectLoops(int filter) : filter(filter) {}
    std::vector<LoopRef> loops;

private:
    using IRVisitor::visit;
    int filter;
    void visit(const For *op) override {
        loops.push_back({filter, op->name, op->for_type});
        IRVisitor::visit(op);
    }
};

// "f.s0.x.xi" -> {"f", "x.xi"}; {"", ""} if the name has no ".sN." stage part.
std::pair<std::string, std::string> split_loop_name(const std::string &name) {
    HalideLoopName parts;
    if (!split_halide_loop_name(name, parts)) return {"", ""};
    return {parts.func, parts.var};
}

// The Funcs produced directly in the body of loop `loop` of `body` (ProducerConsumer nodes not
// inside a nested loop or branch).
std::set<std::string> body_producers(const Stmt &body, const std::string &loop) {
    class Find : public IRVisitor {
    public:
        explicit Find(const std::string &loop) : loop(loop) {}
        std::set<std::string> names;

    private:
        using IRVisitor::visit;
        const std::string &loop;
        void visit(const For *op) override {
            if (op->name == loop) collect(op->body);
            else IRVisitor::visit(op);
        }
        void collect(const Stmt &s) {
            if (const Block *b = s.as<Block>()) {
                collect(b->first);
                collect(b->rest);
            } else if (const LetStmt *l = s.as<LetStmt>()) {
                collect(l->body);
            } else if (const Allocate *a = s.as<Allocate>()) {
                collect(a->body);
            } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
                if (pc->is_producer) names.insert(pc->name);
                collect(pc->body);
            }
        }
    } find(loop);
    body.accept(&find);
    return find.names;
}

std::string join(const std::set<std::string> &names) {
    std::string s;
    for (const std::string &n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

class Applier {
public:
    Applier(FilterGraph &graph, const DirectiveOptions &options) : g(graph), options(options) {
        for (size_t i = 0; i < g.filters.size(); i++) {
            CollectLoops c(static_cast<int>(i));
            g.filters[i].body.accept(&c);
            loops.insert(loops.end(), c.loops.begin(), c.loops.end());
            funcs.insert(g.filters[i].name);
            for (const LocalBuffer &l : g.filters[i].locals) funcs.insert(l.name);
        }
        for (const LoopRef &l : loops) {
            std::string f = split_loop_name(l.name).first;
            if (f.empty()) continue;
            funcs.insert(f);
            funcs.insert(halide_base_name(f));  // `tmp$1`'s loops are also `tmp`'s (another process's name)
        }
        for (const Buffer &b : g.buffers) funcs.insert(b.name);
    }

    PassResult run() {
        PassResult result;
        // An array partitioned in several dimensions is translated once all its directives are
        // known, so that their order does not matter.
        for (const Directive &d : options.directives) {
            if (d.kind == Directive::Kind::Partition && funcs.count(d.target)) expected[d.target]++;
        }
        for (const Directive &d : options.directives) {
            apply(d);
            result.changed = true;
        }
        // Checked once all are applied, so the order of the directives does not matter.
        for (const Buffer &b : g.buffers) {
            bool arg = b.kind == BufferKind::Input || b.kind == BufferKind::Output;
            if (arg && b.partition.enabled && b.interface.mode != InterfaceMode::Bram) {
                throw Error(partitioned.at(b.name) + ": kernel argument '" + b.name + "' has an " +
                            interface_mode_name(b.interface.mode) +
                            " interface; only an argument with a bram interface (on-chip memory the caller "
                            "attaches) can be partitioned: add interface " + b.name + " bram");
            }
        }
        return result;
    }

private:
    FilterGraph &g;
    const DirectiveOptions &options;
    std::vector<LoopRef> loops;
    std::set<std::string> funcs;
    // Array (buffer or local storage) -> origin of the first partition directive applied to it.
    std::map<std::string, std::string> partitioned;
    // Array -> the partition directives applied to it, in order.
    std::map<std::string, std::vector<Directive>> partitions;
    // Array -> how many partition directives name it directly (aliases are counted as met).
    std::map<std::string, int> expected;

    [[noreturn]] void fail(const Directive &d, const std::string &what) const { throw Error(d.origin + ": " + what); }

    // The Func / argument name the directive's target stands for.
    std::string resolve(const Directive &d) const {
        if (funcs.count(d.target)) return d.target;
        auto alias = options.aliases.find(d.target);
        if (alias != options.aliases.end() && funcs.count(alias->second)) return alias->second;
        fail(d, "unknown Func '" + d.target + "' (Funcs with loops or storage in the design: " + join(funcs) + ")");
    }

    void apply(const Directive &d) {
        switch (d.kind) {
        case Directive::Kind::Pipeline:
        case Directive::Kind::Unroll: return apply_loop(d);
        case Directive::Kind::Partition: return apply_partition(d);
        case Directive::Kind::Stream:
        case Directive::Kind::PingPong: return apply_channel(d);
        case Directive::Kind::Interface: return apply_interface(d);
        case Directive::Kind::Dataflow: return apply_dataflow(d);
        case Directive::Kind::Inline: return apply_inline(d);
        case Directive::Kind::DataflowLoop: return apply_dataflow_loop(d);
        }
    }

    void apply_loop(const Directive &d) {
        std::string func = resolve(d);
        // The loops of the Func of that exact name; where there are none, those of the Funcs of
        // that base name.
        bool exact = false;
        for (const LoopRef &l : loops) exact = exact || split_loop_name(l.name).first == func;
        std::set<std::string> vars;
        int matched = 0;
        for (const LoopRef &l : loops) {
            auto parts = split_loop_name(l.name);
            if (exact ? parts.first != func : halide_base_name(parts.first) != func) continue;
            vars.insert(parts.second);
            if (!loop_name_matches(parts.second, d.loop)) continue;
            if (l.type != ForType::Serial) {
                fail(d, "loop '" + l.name + "' is not a serial loop (its Halide schedule makes it parallel)");
            }
            LoopDirective &ld = g.filters[l.filter].directives[l.name];
            ld.inferred = false;
            if (d.kind == Directive::Kind::Pipeline) ld.pipeline_ii = static_cast<int>(d.value);
            else ld.unroll = d.value == 0 ? kUnrollComplete : d.value;
            matched++;
        }
        if (matched) return;
        if (vars.empty()) {
            fail(d, "Func '" + func + "' has no loops in the design (it is inlined into its consumers, or unrolled or "
                    "vectorized completely by its Halide schedule)");
        }
        fail(d, "Func '" + func + "' has no loop '" + d.loop + "' (its loops: " + join(vars) +
                    "; loops unrolled or vectorized by the Halide schedule no longer exist)");
    }

    // The partition `d` asks for, on the flattened array of a Func with `dims`.
    ArrayPartition translate(const Directive &d, const std::string &name, std::vector<int64_t> dims, int64_t size) {
        ArrayPartition p;
        p.enabled = true;
        p.inferred = false;
        int n = static_cast<int>(dims.size());
        std::string kind = partition_kind_name(d.partition);
        if (d.dim < 0) {
            p.kind = PartitionKind::Complete;
            p.reason = "directive: complete partition of the whole array";
            return p;
        }
        if (dims.empty()) {
            fail(d, "the storage of '" + name + "' has extents that are not compile-time constants; only a complete "
                    "partition of the whole array (no dimension) applies to it");
        }
        if (d.dim >= n) {
            fail(d, "'" + name + "' has " + std::to_string(n) + " dimension(s); there is no dimension " +
                        std::to_string(d.dim));
        }
        int64_t extent = dims[d.dim];
        if (d.partition != PartitionKind::Complete && (d.value > extent || extent % d.value != 0)) {
            fail(d, "a " + kind + " factor of " + std::to_string(d.value) + " does not divide the extent " +
                        std::to_string(extent) + " of dimension " + std::to_string(d.dim) + " of '" + name + "'");
        }
        std::string what = kind + (d.partition == PartitionKind::Complete ? "" : " " + std::to_string(d.value)) +
                           " partition of dimension " + std::to_string(d.dim);
        if (n == 1) {
            p.kind = d.partition;
            p.factor = d.partition == PartitionKind::Complete ? 0 : d.value;
            p.reason = "directive: " + what;
            return p;
        }
        const std::string flat = " (buffers are flattened to one dimension)";
        if (d.dim == 0) {
            if (d.partition == PartitionKind::Block) {
                fail(d, "a block partition of dimension 0 of '" + name + "' cannot be expressed on its flattened array" +
                            flat + ": the elements of one block are not contiguous; use a cyclic or complete partition "
                                   "of dimension 0, or a block partition of the outermost dimension " +
                            std::to_string(n - 1));
            }
            // Element i of the flattened array has index i mod extent in dimension 0.
            p.kind = PartitionKind::Cyclic;
            p.factor = d.partition == PartitionKind::Complete ? extent : d.value;
            p.reason = "directive: " + what + ", as cyclic " + std::to_string(p.factor) + " of the flattened array";
            return p;
        }
        // A cyclic partition of another dimension than 0 (Vitis's rows of a matrix), or a complete
        // one of a middle dimension: the array keeps its shape, partitioned in that dimension.
        bool middle = d.dim != n - 1;
        if (d.partition == PartitionKind::Cyclic || (middle && d.partition == PartitionKind::Complete)) {
            return multi_dimensional({d}, name, dims);
        }
        if (!middle) {
            // The outermost index is i / (size / extent): blocks of whole slices.
            p.kind = PartitionKind::Block;
            p.factor = d.partition == PartitionKind::Complete ? extent : d.value;
            p.reason = "directive: " + what + ", as block " + std::to_string(p.factor) + " of the flattened array";
            return p;
        }
        (void)size;
        fail(d, "a block partition of the middle dimension " + std::to_string(d.dim) + " of '" + name +
                    "' cannot be expressed on its flattened array" + flat +
                    ": a middle dimension can be partitioned cyclically or completely (the array keeps its shape)");
    }

    // The partition of several dimensions the directives `ds` (one per dimension) ask for on an
    // array of extents `dims`: the array keeps its shape, each dimension cyclic or complete.
    ArrayPartition multi_dimensional(const std::vector<Directive> &ds, const std::string &name,
                                     const std::vector<int64_t> &dims) {
        ArrayPartition p;
        p.enabled = true;
        p.inferred = false;
        p.kind = PartitionKind::Cyclic;
        p.factor = 1;
        p.shape = dims;
        std::string what;
        for (const Directive &d : ds) {
            int n = static_cast<int>(dims.size());
            if (d.dim < 0 || d.dim >= n) {
                fail(d, "'" + name + "' is partitioned in several dimensions, each named: " +
                            (d.dim < 0 ? std::string("a complete partition of the whole array")
                                       : "dimension " + std::to_string(d.dim) + " (it has " + std::to_string(n) + ")") +
                            " cannot be combined with another partition of it");
            }
            if (d.partition == PartitionKind::Block) {
                fail(d, "a block partition of dimension " + std::to_string(d.dim) + " of '" + name +
                            "' together with a partition of another dimension is not supported (cyclic and complete "
                            "partitions of several dimensions are; docs/directives.md)");
            }
            for (const DimensionPartition &e : p.dims) {
                if (e.dim == d.dim) {
                    fail(d, "dimension " + std::to_string(d.dim) + " of '" + name + "' is already partitioned (" +
                                partitioned.at(name) + ")");
                }
            }
            int64_t extent = dims[d.dim];
            if (d.partition == PartitionKind::Cyclic && (d.value > extent || extent % d.value != 0)) {
                fail(d, "a cyclic factor of " + std::to_string(d.value) + " does not divide the extent " +
                            std::to_string(extent) + " of dimension " + std::to_string(d.dim) + " of '" + name + "'");
            }
            DimensionPartition e;
            e.dim = d.dim;
            e.kind = d.partition;
            e.factor = d.partition == PartitionKind::Complete ? extent : d.value;
            p.dims.push_back(e);
            p.factor *= e.factor;
        }
        std::sort(p.dims.begin(), p.dims.end(),
                  [](const DimensionPartition &a, const DimensionPartition &b) { return a.dim < b.dim; });
        for (const DimensionPartition &e : p.dims) {
            what += (what.empty() ? "" : ", ") + partition_kind_name(e.kind) +
                    (e.kind == PartitionKind::Complete ? "" : " " + std::to_string(e.factor)) + " of dimension " +
                    std::to_string(e.dim);
        }
        p.reason = "directive: " + what + " (" + std::to_string(p.factor) + " banks; the array keeps its shape)";
        return p;
    }

    // The partition the directives given so far on `name` ask for.
    ArrayPartition partition_of(const std::string &name, const std::vector<int64_t> &dims, int64_t size) {
        const std::vector<Directive> &ds = partitions.at(name);
        if (ds.size() == 1) return translate(ds.front(), name, dims, size);
        if (dims.empty()) {
            fail(ds.back(), "the storage of '" + name + "' has extents that are not compile-time constants; it cannot "
                            "be partitioned in several dimensions");
        }
        return multi_dimensional(ds, name, dims);
    }

    void apply_partition(const Directive &d) {
        std::string name = resolve(d);
        // Several partitions of one array: one per dimension (Vitis's dim=1, dim=2 on one array).
        if (!partitioned.count(name)) partitioned[name] = d.origin;
        partitions[name].push_back(d);
        auto count = expected.find(name);
        if (count != expected.end() && static_cast<int>(partitions[name].size()) < count->second) return;
        for (Buffer &b : g.buffers) {
            if (b.name != name) continue;
            bool arg = b.kind != BufferKind::Intermediate;
            b.partition = partition_of(name, arg ? b.shape : b.dims, b.size());
            return;
        }
        for (Filter &f : g.filters) {
            for (LocalBuffer &l : f.locals) {
                if (l.name != name) continue;
                l.partition = partition_of(name, l.dims, l.size);
                return;
            }
        }
        fail(d, "Func '" + name + "' has no storage of its own (it is inlined, or is an output computed into the "
                "kernel argument); partition a stored Func or a kernel argument");
    }

    void apply_channel(const Directive &d) {
        std::string name = resolve(d);
        const char *what = d.kind == Directive::Kind::Stream ? "stream" : "ping_pong";
        for (Buffer &b : g.buffers) {
            if (b.name != name) continue;
            if (b.kind != BufferKind::Intermediate) {
                fail(d, std::string(what) + " applies to buffers between filters; '" + name + "' is a " +
                            buffer_kind_name(b.kind) + (b.kind == BufferKind::Constant ? "" : " kernel argument") +
                            " (use interface for arguments)");
            }
            b.channel_request = d.kind == Directive::Kind::Stream ? ChannelRequest::Stream : ChannelRequest::PingPong;
            b.requested_depth = d.kind == Directive::Kind::Stream ? d.value : 0;
            return;
        }
        for (const Filter &f : g.filters) {
            for (const LocalBuffer &l : f.locals) {
                if (l.name == name) {
                    fail(d, std::string(what) + " applies to buffers between filters; '" + name +
                                "' is storage local to filter " + f.name + " (computed inside it)");
                }
            }
        }
        fail(d, std::string(what) + " applies to buffers between filters; Func '" + name + "' has no buffer");
    }

    void apply_interface(const Directive &d) {
        std::set<std::string> args(g.args.begin(), g.args.end());
        std::string name = args.count(d.target) ? d.target : "";
        auto alias = options.aliases.find(d.target);
        if (name.empty() && alias != options.aliases.end() && args.count(alias->second)) name = alias->second;
        if (name.empty()) {
            bool rom = g.has_buffer(d.target) && g.buffer(d.target).kind == BufferKind::Constant;
            fail(d, "'" + d.target + "' is not a kernel argument" +
                        (rom ? " (it is a constant held in on-chip ROM; see --weights)" : "") +
                        " (arguments: " + join(args) + ")");
        }
        Buffer &b = g.buffer(name);
        b.interface.mode = d.mode;
        b.interface.bundle = d.bundle;
        b.interface.inferred = false;
        b.channel = d.mode == InterfaceMode::MAxi ? ChannelKind::OffChip : ChannelKind::Port;
    }

    void apply_dataflow(const Directive &d) {
        if (d.target != g.name) fail(d, "unknown region '" + d.target + "' (the kernel's top function is '" + g.name + "')");
        g.dataflow_disabled = !d.enable;
    }

    // A loop whose body is a dataflow region: the locals its body's producers write (the block
    // copies computed at it) become its ping-pong buffers.
    void apply_dataflow_loop(const Directive &d) {
        std::string func = resolve(d);
        int matched = 0;
        for (const LoopRef &l : loops) {
            auto parts = split_loop_name(l.name);
            if (parts.first != func && halide_base_name(parts.first) != func) continue;
            if (!loop_name_matches(parts.second, d.loop)) continue;
            Filter &f = g.filters[l.filter];
            std::set<std::string> produced = body_producers(f.body, l.name);
            int copies = 0;
            for (LocalBuffer &b : f.locals) {
                if (!produced.count(b.name) || b.scalar) continue;
                b.ping_pong_loop = l.name;
                copies++;
            }
            // Another stage's loop of that name (a jam's split initialization) copies nothing.
            if (copies == 0) continue;
            LoopDirective &ld = f.directives[l.name];
            ld.dataflow = true;
            matched++;
        }
        if (!matched) {
            fail(d, "Func '" + func + "' has no loop '" + d.loop + "' that computes a local buffer in its body (a "
                    "dataflow loop needs a block copy, an `in` copy computed at it, to overlap with the rest of its body)");
        }
    }

    void apply_inline(const Directive &d) {
        std::string name = resolve(d);
        std::set<std::string> filters;
        for (Filter &f : g.filters) {
            filters.insert(f.name);
            // A filter is named by its Func's base name (Halide's "D_out$1" is filter D_out).
            if (f.name == name || f.name == halide_base_name(name)) {
                f.inline_function = true;
                return;
            }
        }
        // A Func whose name Halide made unique (tmp$1) computes the filter its loops are in.
        for (const LoopRef &l : loops) {
            if (split_loop_name(l.name).first != name) continue;
            g.filters[l.filter].inline_function = true;
            return;
        }
        fail(d, "Func '" + name + "' is not a filter (a compute_root Func with its own function); filters: " +
                    join(filters));
    }
};

}  // namespace

PassResult apply_directives(FilterGraph &graph, const DirectiveOptions &options) {
    return Applier(graph, options).run();
}

}  // namespace flowhls
