// HlsSchedule (the HLS co-language's C++ API) and its JSON file form.
#include "flowhls/Directives.h"
#include "flowhls/Error.h"
#include "support/Paths.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace flowhls {

using nlohmann::json;

namespace {

std::string api_origin(const std::string &call) { return "C++ API: " + call; }

// Halide's tail strategies by their JSON names.
const std::vector<std::pair<std::string, Halide::TailStrategy>> &tail_strategies() {
    static const std::vector<std::pair<std::string, Halide::TailStrategy>> names = {
        {"auto", Halide::TailStrategy::Auto},
        {"guard_with_if", Halide::TailStrategy::GuardWithIf},
        {"shift_inwards", Halide::TailStrategy::ShiftInwards},
        {"round_up", Halide::TailStrategy::RoundUp},
        {"predicate", Halide::TailStrategy::Predicate},
        {"predicate_loads", Halide::TailStrategy::PredicateLoads},
        {"predicate_stores", Halide::TailStrategy::PredicateStores},
    };
    return names;
}

// The keys of a target's entry that hold directives (in the sorted order the JSON form keeps
// them), and those that hold loop transformations, in the order a target's are applied: `in`
// last, so that a copy can be computed at a loop the Func's own `schedule` made (the block loop
// of a jam inside a helper).
const std::vector<std::string> kDirectiveKeys = {"dataflow",  "dataflow_loop", "inline", "interface", "partition",
                                                 "ping_pong", "pipeline",      "stream", "unroll"};
const std::vector<std::string> kTransformKeys = {"compute_at", "compute_root", "schedule", "storage", "store_at", "in"};

std::string directive_key(Directive::Kind kind) {
    switch (kind) {
    case Directive::Kind::Pipeline: return "pipeline";
    case Directive::Kind::Unroll: return "unroll";
    case Directive::Kind::Partition: return "partition";
    case Directive::Kind::Stream: return "stream";
    case Directive::Kind::PingPong: return "ping_pong";
    case Directive::Kind::Interface: return "interface";
    case Directive::Kind::Dataflow: return "dataflow";
    case Directive::Kind::Inline: return "inline";
    case Directive::Kind::DataflowLoop: return "dataflow_loop";
    }
    return "?";
}

// The entry key a transformation is written under ("schedule" for the per-stage ones).
std::string transform_key(LoopTransform::Kind kind) {
    switch (kind) {
    case LoopTransform::Kind::ComputeAt: return "compute_at";
    case LoopTransform::Kind::StoreAt: return "store_at";
    case LoopTransform::Kind::ComputeRoot: return "compute_root";
    case LoopTransform::Kind::ReorderStorage: return "storage";
    case LoopTransform::Kind::In: return "in";
    default: return "schedule";
    }
}

size_t key_rank(const std::vector<std::string> &keys, const std::string &key) {
    return static_cast<size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
}

// `items` stably sorted by target, then by the key they are written under: the order
// parse_directives_json(write_schedule_json(s)) gives them.
template <typename T, typename TargetOf, typename KeyOf>
std::vector<T> canonical(std::vector<T> items, const std::vector<std::string> &keys, TargetOf target_of,
                         KeyOf key_of) {
    std::stable_sort(items.begin(), items.end(), [&](const T &a, const T &b) {
        const std::string &ta = target_of(a), &tb = target_of(b);
        if (ta != tb) return ta < tb;
        return key_rank(keys, key_of(a)) < key_rank(keys, key_of(b));
    });
    return items;
}

std::vector<Directive> canonical_directives(const HlsSchedule &s) {
    return canonical(
        s.directives(), kDirectiveKeys, [](const Directive &d) -> const std::string & { return d.target; },
        [](const Directive &d) { return directive_key(d.kind); });
}

std::vector<LoopTransform> canonical_transforms(const HlsSchedule &s) {
    return canonical(
        s.transforms(), kTransformKeys, [](const LoopTransform &t) -> const std::string & { return t.func; },
        [](const LoopTransform &t) { return transform_key(t.kind); });
}

// Reads one JSON schedule; every error names the file and the key path.
class ScheduleReader {
public:
    explicit ScheduleReader(std::string path) : path_(std::move(path)) {}

    HlsSchedule read() { return parse(read_file_bytes(path_, "directives file", 16 << 20)); }

    HlsSchedule parse(const std::string &text) {
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::exception &e) {  // syntax errors, numbers that overflow
            throw Error("directives file '" + path_ + "' is not valid JSON: " + one_line(e.what()));
        }
        if (!doc.is_object()) fail("", "expected an object keyed by Func, kernel argument or kernel name");
        try {
            for (auto it = doc.begin(); it != doc.end(); ++it) entry(it.key(), it.value());
        } catch (const json::exception &e) {
            fail("", one_line(e.what()));
        }
        return schedule_;
    }

private:
    std::string path_;
    HlsSchedule schedule_;

    [[noreturn]] void fail(const std::string &where, const std::string &what) const {
        throw Error("directives file '" + path_ + "'" + (where.empty() ? "" : ", " + where) + ": " + what);
    }
    std::string origin(const std::string &where) const { return path_ + ": " + where; }

    // An integer in [lo, hi].
    int64_t integer(const json &v, const std::string &where, int64_t lo, int64_t hi) const {
        if (!v.is_number_integer()) fail(where, "expected an integer, got " + std::string(v.type_name()));
        int64_t n = v.get<int64_t>();
        if (n < lo || n > hi) {
            fail(where, "expected an integer " + (hi == std::numeric_limits<int64_t>::max()
                                                      ? "of at least " + std::to_string(lo)
                                                      : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]") +
                            ", got " + std::to_string(n));
        }
        return n;
    }
    bool boolean(const json &v, const std::string &where) const {
        if (!v.is_boolean()) fail(where, "expected true or false, got " + std::string(v.type_name()));
        return v.get<bool>();
    }
    std::string string(const json &v, const std::string &where) const {
        if (!v.is_string()) fail(where, "expected a string, got " + std::string(v.type_name()));
        return v.get<std::string>();
    }
    // Checks that object `v` has only `allowed` keys and every key of `required`.
    void keys(const json &v, const std::string &where, const std::set<std::string> &allowed,
              const std::set<std::string> &required = {}) const {
        if (!v.is_object()) fail(where, "expected an object, got " + std::string(v.type_name()));
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!allowed.count(it.key())) {
                std::string list;
                for (const std::string &k : allowed) list += (list.empty() ? "" : ", ") + k;
                fail(where + "." + it.key(), "unknown key (allowed: " + list + ")");
            }
        }
        for (const std::string &k : required) {
            if (!v.contains(k)) fail(where, "missing key '" + k + "'");
        }
    }
    // A list of objects (a single object is accepted as a list of one).
    std::vector<std::pair<std::string, json>> items(const json &v, const std::string &where) const {
        std::vector<std::pair<std::string, json>> out;
        if (v.is_object()) {
            out.emplace_back(where, v);
        } else if (v.is_array()) {
            for (size_t i = 0; i < v.size(); i++) out.emplace_back(where + "[" + std::to_string(i) + "]", v[i]);
        } else {
            fail(where, "expected a list of objects, got " + std::string(v.type_name()));
        }
        return out;
    }

    // A non-empty name.
    std::string name(const json &v, const std::string &where) const {
        std::string n = string(v, where);
        if (n.empty()) fail(where, "empty name");
        return n;
    }
    // A non-empty list of distinct loop or dimension names.
    std::vector<std::string> names(const json &v, const std::string &where) const {
        if (!v.is_array() || v.empty()) fail(where, "expected a non-empty list of loop names");
        std::vector<std::string> out;
        for (size_t i = 0; i < v.size(); i++) {
            std::string n = name(v[i], where + "[" + std::to_string(i) + "]");
            if (std::find(out.begin(), out.end(), n) != out.end()) fail(where, "'" + n + "' is listed twice");
            out.push_back(n);
        }
        return out;
    }
    Halide::TailStrategy tail(const json &v, const std::string &where) const {
        std::string n = string(v, where);
        std::string list;
        for (const auto &t : tail_strategies()) {
            if (t.first == n) return t.second;
            list += (list.empty() ? "" : ", ") + t.first;
        }
        fail(where, "unknown tail strategy '" + n + "' (" + list + ")");
    }

    // One step of a "schedule" list: {"stage": K, "split" | "reorder" | "fuse" | "unroll": ...}.
    LoopTransform step(LoopTransform t, const json &v, const std::string &where) const {
        keys(v, where, {"stage", "split", "reorder", "fuse", "unroll"});
        if (v.contains("stage")) t.stage = static_cast<int>(integer(v["stage"], where + ".stage", 0, 64));
        int primitives = 0;
        for (const char *k : {"split", "reorder", "fuse", "unroll"}) primitives += v.contains(k) ? 1 : 0;
        if (primitives != 1) fail(where, "expected exactly one of split, reorder, fuse, unroll");
        if (v.contains("split")) {
            std::string w = where + ".split";
            const json &p = v["split"];
            keys(p, w, {"loop", "outer", "inner", "factor", "tail"}, {"loop", "outer", "inner", "factor"});
            t.kind = LoopTransform::Kind::Split;
            t.loop = name(p["loop"], w + ".loop");
            t.outer = name(p["outer"], w + ".outer");
            t.inner = name(p["inner"], w + ".inner");
            if (t.outer == t.inner) fail(w, "the outer and inner loops need different names");
            t.factor = static_cast<int>(integer(p["factor"], w + ".factor", 2, 1 << 20));
            if (p.contains("tail")) t.tail = tail(p["tail"], w + ".tail");
        } else if (v.contains("reorder")) {
            t.kind = LoopTransform::Kind::Reorder;
            t.loops = names(v["reorder"], where + ".reorder");
            if (t.loops.size() < 2) fail(where + ".reorder", "a reorder needs at least two loops");
        } else if (v.contains("fuse")) {
            std::string w = where + ".fuse";
            const json &p = v["fuse"];
            keys(p, w, {"inner", "outer", "fused"}, {"inner", "outer", "fused"});
            t.kind = LoopTransform::Kind::Fuse;
            t.inner = name(p["inner"], w + ".inner");
            t.outer = name(p["outer"], w + ".outer");
            t.fused = name(p["fused"], w + ".fused");
        } else {
            std::string w = where + ".unroll";
            const json &p = v["unroll"];
            keys(p, w, {"loop", "factor", "tail"}, {"loop", "factor"});
            t.kind = LoopTransform::Kind::Unroll;
            t.loop = name(p["loop"], w + ".loop");
            t.factor = static_cast<int>(integer(p["factor"], w + ".factor", 2, 1024));
            if (p.contains("tail")) t.tail = tail(p["tail"], w + ".tail");
        }
        return t;
    }

    // A loop-transformation key of `target`'s entry.
    void transform(const std::string &target, const std::string &key, const json &v, const std::string &where) {
        LoopTransform t;
        t.func = target;
        t.origin = origin(where);
        if (key == "schedule") {
            if (!v.is_array()) fail(where, "expected a list of steps, got " + std::string(v.type_name()));
            for (size_t i = 0; i < v.size(); i++) {
                std::string w = where + "[" + std::to_string(i) + "]";
                LoopTransform s = t;
                s.origin = origin(w);
                schedule_.add(step(s, v[i], w));
            }
        } else if (key == "compute_at" || key == "store_at") {
            keys(v, where, {"func", "loop", "stage"}, {"func", "loop"});
            t.kind = key == "compute_at" ? LoopTransform::Kind::ComputeAt : LoopTransform::Kind::StoreAt;
            t.at_func = name(v["func"], where + ".func");
            t.at_loop = name(v["loop"], where + ".loop");
            t.stage = -1;
            if (v.contains("stage")) t.stage = static_cast<int>(integer(v["stage"], where + ".stage", 0, 64));
            schedule_.add(t);
        } else if (key == "in") {
            for (auto &item : items(v, where)) {
                const json &p = item.second;
                const std::string &w = item.first;
                keys(p, w, {"input", "func", "loop", "stage"}, {"input", "func", "loop"});
                LoopTransform c = t;
                c.origin = origin(w);
                c.kind = LoopTransform::Kind::In;
                c.input = name(p["input"], w + ".input");
                c.at_func = name(p["func"], w + ".func");
                c.at_loop = name(p["loop"], w + ".loop");
                c.stage = -1;
                if (p.contains("stage")) c.stage = static_cast<int>(integer(p["stage"], w + ".stage", 0, 64));
                schedule_.add(c);
            }
        } else if (key == "compute_root") {
            t.kind = LoopTransform::Kind::ComputeRoot;
            if (boolean(v, where)) schedule_.add(t);
        } else if (key == "storage") {
            t.kind = LoopTransform::Kind::ReorderStorage;
            t.loops = names(v, where);
            schedule_.add(t);
        }
    }

    void entry(const std::string &target, const json &e) {
        std::set<std::string> allowed(kDirectiveKeys.begin(), kDirectiveKeys.end());
        allowed.insert(kTransformKeys.begin(), kTransformKeys.end());
        keys(e, target, allowed);
        for (const std::string &key : kTransformKeys) {
            if (e.contains(key)) transform(target, key, e.at(key), target + "." + key);
        }
        for (auto it = e.begin(); it != e.end(); ++it) {
            const std::string &key = it.key();
            const json &v = it.value();
            std::string where = target + "." + key;
            if (key_rank(kTransformKeys, key) < kTransformKeys.size()) continue;  // above, in order
            Directive d;
            d.target = target;
            d.origin = origin(where);
            if (key == "pipeline" || key == "unroll") {
                bool pipeline = key == "pipeline";
                for (auto &item : items(v, where)) {
                    Directive l = d;
                    l.origin = origin(item.first);
                    keys(item.second, item.first, {"loop", pipeline ? "ii" : "factor"}, {"loop"});
                    l.kind = pipeline ? Directive::Kind::Pipeline : Directive::Kind::Unroll;
                    l.loop = string(item.second["loop"], item.first + ".loop");
                    if (l.loop.empty()) fail(item.first + ".loop", "empty loop name");
                    const char *value_key = pipeline ? "ii" : "factor";
                    l.value = pipeline ? 1 : 0;
                    if (item.second.contains(value_key)) {
                        l.value = integer(item.second[value_key], item.first + "." + value_key, pipeline ? 1 : 0,
                                          1 << 20);
                    }
                    schedule_.add(l);
                }
            } else if (key == "partition") {
                for (auto &item : items(v, where)) {
                    Directive p = d;
                    p.origin = origin(item.first);
                    p.kind = Directive::Kind::Partition;
                    keys(item.second, item.first, {"dim", "type", "factor"}, {"type"});
                    std::string type = string(item.second["type"], item.first + ".type");
                    if (type == "cyclic") p.partition = PartitionKind::Cyclic;
                    else if (type == "block") p.partition = PartitionKind::Block;
                    else if (type == "complete") p.partition = PartitionKind::Complete;
                    else fail(item.first + ".type", "unknown partition type '" + type + "' (cyclic, block, complete)");
                    p.dim = -1;
                    if (item.second.contains("dim")) p.dim = static_cast<int>(integer(item.second["dim"], item.first + ".dim", 0, 15));
                    if (p.partition == PartitionKind::Complete) {
                        if (item.second.contains("factor")) fail(item.first + ".factor", "a complete partition takes no factor");
                    } else {
                        if (!item.second.contains("factor")) fail(item.first, "missing key 'factor'");
                        if (p.dim < 0) fail(item.first, "missing key 'dim' (only a complete partition may omit it)");
                        p.value = integer(item.second["factor"], item.first + ".factor", 2, 1 << 20);
                    }
                    schedule_.add(p);
                }
            } else if (key == "stream") {
                d.kind = Directive::Kind::Stream;
                if (v.is_boolean()) {
                    if (!v.get<bool>()) continue;
                } else {
                    keys(v, where, {"depth"});
                    if (v.contains("depth")) d.value = integer(v["depth"], where + ".depth", 1, 1 << 24);
                }
                schedule_.add(d);
            } else if (key == "ping_pong" || key == "inline") {
                d.kind = key == "inline" ? Directive::Kind::Inline : Directive::Kind::PingPong;
                if (boolean(v, where)) schedule_.add(d);
            } else if (key == "dataflow_loop") {
                for (auto &item : items(v, where)) {
                    Directive l = d;
                    l.origin = origin(item.first);
                    keys(item.second, item.first, {"loop"}, {"loop"});
                    l.kind = Directive::Kind::DataflowLoop;
                    l.loop = string(item.second["loop"], item.first + ".loop");
                    if (l.loop.empty()) fail(item.first + ".loop", "empty loop name");
                    schedule_.add(l);
                }
            } else if (key == "dataflow") {
                d.kind = Directive::Kind::Dataflow;
                d.enable = boolean(v, where);
                schedule_.add(d);
            } else if (key == "interface") {
                d.kind = Directive::Kind::Interface;
                std::string mode;
                if (v.is_string()) {
                    mode = v.get<std::string>();
                } else {
                    keys(v, where, {"mode", "bundle"}, {"mode"});
                    mode = string(v["mode"], where + ".mode");
                    if (v.contains("bundle")) d.bundle = string(v["bundle"], where + ".bundle");
                }
                if (mode == "m_axi") d.mode = InterfaceMode::MAxi;
                else if (mode == "axis") d.mode = InterfaceMode::Axis;
                else if (mode == "bram") d.mode = InterfaceMode::Bram;
                else fail(where + ".mode", "unknown interface mode '" + mode + "' (m_axi, axis, bram)");
                if (!d.bundle.empty() && d.mode != InterfaceMode::MAxi) fail(where + ".bundle", "only m_axi interfaces take a bundle");
                schedule_.add(d);
            }
        }
    }
};

}  // namespace

std::string partition_kind_name(PartitionKind kind) {
    switch (kind) {
    case PartitionKind::Cyclic: return "cyclic";
    case PartitionKind::Block: return "block";
    case PartitionKind::Complete: return "complete";
    }
    return "?";
}

std::string interface_mode_name(InterfaceMode mode) {
    switch (mode) {
    case InterfaceMode::MAxi: return "m_axi";
    case InterfaceMode::Axis: return "axis";
    case InterfaceMode::Bram: return "bram";
    }
    return "?";
}

HlsSchedule &HlsSchedule::pipeline(const Halide::Func &func, const Halide::Var &loop, int ii) {
    return pipeline_loop(func, loop.name(), ii);
}

HlsSchedule &HlsSchedule::pipeline(const Halide::Func &func, const Halide::RVar &loop, int ii) {
    return pipeline_loop(func, loop.name(), ii);
}

HlsSchedule &HlsSchedule::pipeline_loop(const Halide::Func &func, const std::string &loop, int ii) {
    if (ii < 1) throw Error("pipeline(" + func.name() + ", " + loop + "): the II must be at least 1");
    Directive d;
    d.kind = Directive::Kind::Pipeline;
    d.target = func.name();
    d.loop = loop;
    d.value = ii;
    d.origin = api_origin("pipeline(" + func.name() + ", " + loop + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::unroll(const Halide::Func &func, const Halide::Var &loop, int factor) {
    return unroll_loop(func, loop.name(), factor);
}

HlsSchedule &HlsSchedule::unroll(const Halide::Func &func, const Halide::RVar &loop, int factor) {
    return unroll_loop(func, loop.name(), factor);
}

HlsSchedule &HlsSchedule::unroll_loop(const Halide::Func &func, const std::string &loop, int factor) {
    if (factor < 0) throw Error("unroll(" + func.name() + ", " + loop + "): the factor must be 0 (complete) or positive");
    Directive d;
    d.kind = Directive::Kind::Unroll;
    d.target = func.name();
    d.loop = loop;
    d.value = factor;
    d.origin = api_origin("unroll(" + func.name() + ", " + loop + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::partition(const Halide::Func &func, int dim, PartitionKind kind, int factor) {
    return partition(func.name(), dim, kind, factor);
}

HlsSchedule &HlsSchedule::partition(const Halide::ImageParam &param, int dim, PartitionKind kind, int factor) {
    return partition(param.name(), dim, kind, factor);
}

HlsSchedule &HlsSchedule::partition(const std::string &name, int dim, PartitionKind kind, int factor) {
    std::string call = "partition(" + name + ", " + std::to_string(dim) + ", " + partition_kind_name(kind) + ")";
    if (kind != PartitionKind::Complete && factor < 2) throw Error(call + ": a cyclic or block partition needs a factor of at least 2");
    if (kind != PartitionKind::Complete && dim < 0) throw Error(call + ": only a complete partition may take dimension -1 (the whole array)");
    Directive d;
    d.kind = Directive::Kind::Partition;
    d.target = name;
    d.dim = dim;
    d.partition = kind;
    d.value = kind == PartitionKind::Complete ? 0 : factor;
    d.origin = api_origin(call);
    return add(d);
}

HlsSchedule &HlsSchedule::stream(const Halide::Func &func, int depth) {
    if (depth < 0) throw Error("stream(" + func.name() + "): the depth must be 0 (computed) or positive");
    Directive d;
    d.kind = Directive::Kind::Stream;
    d.target = func.name();
    d.value = depth;
    d.origin = api_origin("stream(" + func.name() + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::ping_pong(const Halide::Func &func) {
    Directive d;
    d.kind = Directive::Kind::PingPong;
    d.target = func.name();
    d.origin = api_origin("ping_pong(" + func.name() + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::interface(const Halide::ImageParam &param, InterfaceMode mode, const std::string &bundle) {
    return interface(param.name(), mode, bundle);
}

HlsSchedule &HlsSchedule::interface(const Halide::Func &output, InterfaceMode mode, const std::string &bundle) {
    return interface(output.name(), mode, bundle);
}

HlsSchedule &HlsSchedule::interface(const std::string &arg, InterfaceMode mode, const std::string &bundle) {
    std::string call = "interface(" + arg + ", " + interface_mode_name(mode) + ")";
    if (!bundle.empty() && mode != InterfaceMode::MAxi) throw Error(call + ": only m_axi interfaces take a bundle");
    Directive d;
    d.kind = Directive::Kind::Interface;
    d.target = arg;
    d.mode = mode;
    d.bundle = bundle;
    d.origin = api_origin(call);
    return add(d);
}

HlsSchedule &HlsSchedule::dataflow(const std::string &region, bool enable) {
    Directive d;
    d.kind = Directive::Kind::Dataflow;
    d.target = region;
    d.enable = enable;
    d.origin = api_origin("dataflow(" + region + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::dataflow_loop(const Halide::Func &func, const std::string &loop) {
    Directive d;
    d.kind = Directive::Kind::DataflowLoop;
    d.target = func.name();
    d.loop = loop;
    d.origin = api_origin("dataflow_loop(" + func.name() + ", " + loop + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::inline_filter(const Halide::Func &func) {
    Directive d;
    d.kind = Directive::Kind::Inline;
    d.target = func.name();
    d.origin = api_origin("inline_filter(" + func.name() + ")");
    return add(d);
}

HlsSchedule &HlsSchedule::add(Directive directive) {
    directives_.push_back(std::move(directive));
    return *this;
}

HlsSchedule &HlsSchedule::add(LoopTransform transform) {
    transforms_.push_back(std::move(transform));
    return *this;
}

HlsSchedule &HlsSchedule::append(const HlsSchedule &other) {
    for (const Directive &d : other.directives_) directives_.push_back(d);
    for (const LoopTransform &t : other.transforms_) transforms_.push_back(t);
    return *this;
}

namespace {

LoopTransform api_transform(LoopTransform::Kind kind, const Halide::Func &func, int stage, const std::string &call) {
    if (stage < 0) throw Error(call + ": the stage must be 0 (the pure definition) or an update's number");
    LoopTransform t;
    t.kind = kind;
    t.func = func.name();
    t.stage = stage;
    t.origin = api_origin(call);
    return t;
}

}  // namespace

HlsSchedule &HlsSchedule::split(const Halide::Func &func, const std::string &loop, const std::string &outer,
                                const std::string &inner, int factor, int stage, Halide::TailStrategy tail) {
    std::string call = "split(" + func.name() + ", " + loop + ")";
    if (factor < 2) throw Error(call + ": the factor must be at least 2");
    if (outer.empty() || inner.empty() || outer == inner) throw Error(call + ": the outer and inner loops need two names");
    LoopTransform t = api_transform(LoopTransform::Kind::Split, func, stage, call);
    t.loop = loop;
    t.outer = outer;
    t.inner = inner;
    t.factor = factor;
    t.tail = tail;
    return add(t);
}

HlsSchedule &HlsSchedule::reorder(const Halide::Func &func, const std::vector<std::string> &loops, int stage) {
    std::string call = "reorder(" + func.name() + ")";
    if (loops.size() < 2) throw Error(call + ": a reorder needs at least two loops");
    LoopTransform t = api_transform(LoopTransform::Kind::Reorder, func, stage, call);
    t.loops = loops;
    return add(t);
}

HlsSchedule &HlsSchedule::fuse(const Halide::Func &func, const std::string &inner, const std::string &outer,
                               const std::string &fused, int stage) {
    LoopTransform t = api_transform(LoopTransform::Kind::Fuse, func, stage, "fuse(" + func.name() + ", " + inner + ", " + outer + ")");
    t.inner = inner;
    t.outer = outer;
    t.fused = fused;
    return add(t);
}

HlsSchedule &HlsSchedule::halide_unroll(const Halide::Func &func, const std::string &loop, int factor, int stage) {
    std::string call = "halide_unroll(" + func.name() + ", " + loop + ")";
    if (factor < 2) throw Error(call + ": the factor must be at least 2");
    LoopTransform t = api_transform(LoopTransform::Kind::Unroll, func, stage, call);
    t.loop = loop;
    t.factor = factor;
    return add(t);
}

HlsSchedule &HlsSchedule::compute_at(const Halide::Func &func, const Halide::Func &at, const std::string &loop,
                                     int at_stage) {
    LoopTransform t = api_transform(LoopTransform::Kind::ComputeAt, func, 0,
                                    "compute_at(" + func.name() + ", " + at.name() + ", " + loop + ")");
    t.at_func = at.name();
    t.at_loop = loop;
    t.stage = at_stage;
    return add(t);
}

HlsSchedule &HlsSchedule::copy_in(const Halide::Func &func, const std::string &input, const Halide::Func &at,
                                  const std::string &loop, int at_stage) {
    LoopTransform t = api_transform(LoopTransform::Kind::In, func, 0,
                                    "copy_in(" + func.name() + ", " + input + ", " + at.name() + ", " + loop + ")");
    t.input = input;
    t.at_func = at.name();
    t.at_loop = loop;
    t.stage = at_stage;
    return add(t);
}

HlsSchedule &HlsSchedule::store_at(const Halide::Func &func, const Halide::Func &at, const std::string &loop,
                                   int at_stage) {
    LoopTransform t = api_transform(LoopTransform::Kind::StoreAt, func, 0,
                                    "store_at(" + func.name() + ", " + at.name() + ", " + loop + ")");
    t.at_func = at.name();
    t.at_loop = loop;
    t.stage = at_stage;
    return add(t);
}

HlsSchedule &HlsSchedule::compute_root(const Halide::Func &func) {
    return add(api_transform(LoopTransform::Kind::ComputeRoot, func, 0, "compute_root(" + func.name() + ")"));
}

HlsSchedule &HlsSchedule::reorder_storage(const Halide::Func &func, const std::vector<std::string> &dims) {
    std::string call = "reorder_storage(" + func.name() + ")";
    if (dims.size() < 2) throw Error(call + ": a storage order needs at least two dimensions");
    LoopTransform t = api_transform(LoopTransform::Kind::ReorderStorage, func, 0, call);
    t.loops = dims;
    return add(t);
}

bool Directive::operator==(const Directive &o) const {
    return kind == o.kind && target == o.target && loop == o.loop && value == o.value && dim == o.dim &&
           partition == o.partition && mode == o.mode && bundle == o.bundle && enable == o.enable;
}

bool LoopTransform::operator==(const LoopTransform &o) const {
    return kind == o.kind && func == o.func && stage == o.stage && loops == o.loops && loop == o.loop &&
           outer == o.outer && inner == o.inner && fused == o.fused && at_func == o.at_func && at_loop == o.at_loop &&
           factor == o.factor && tail == o.tail && input == o.input;
}

bool HlsSchedule::operator==(const HlsSchedule &o) const {
    return canonical_directives(*this) == canonical_directives(o) && canonical_transforms(*this) == canonical_transforms(o);
}

std::string loop_transform_name(LoopTransform::Kind kind) {
    switch (kind) {
    case LoopTransform::Kind::Split: return "split";
    case LoopTransform::Kind::Reorder: return "reorder";
    case LoopTransform::Kind::Fuse: return "fuse";
    case LoopTransform::Kind::Unroll: return "unroll";
    default: return transform_key(kind);
    }
}

std::string tail_strategy_name(Halide::TailStrategy tail) {
    for (const auto &t : tail_strategies()) {
        if (t.second == tail) return t.first;
    }
    return "";
}

namespace {

// The JSON value of one directive (an item of its key's list, or the key's value).
json directive_json(const Directive &d) {
    switch (d.kind) {
    case Directive::Kind::Pipeline: return {{"loop", d.loop}, {"ii", d.value}};
    case Directive::Kind::Unroll: return {{"loop", d.loop}, {"factor", d.value}};
    case Directive::Kind::Partition: {
        json p = {{"type", partition_kind_name(d.partition)}};
        if (d.dim >= 0) p["dim"] = d.dim;
        if (d.partition != PartitionKind::Complete) p["factor"] = d.value;
        return p;
    }
    case Directive::Kind::Stream: return d.value == 0 ? json(true) : json{{"depth", d.value}};
    case Directive::Kind::PingPong:
    case Directive::Kind::Inline: return true;
    case Directive::Kind::Dataflow: return d.enable;
    case Directive::Kind::DataflowLoop: return {{"loop", d.loop}};
    case Directive::Kind::Interface:
        if (d.bundle.empty()) return interface_mode_name(d.mode);
        return {{"mode", interface_mode_name(d.mode)}, {"bundle", d.bundle}};
    }
    return nullptr;
}

json transform_json(const LoopTransform &t) {
    json p;
    switch (t.kind) {
    case LoopTransform::Kind::Split:
        p = {{"loop", t.loop}, {"outer", t.outer}, {"inner", t.inner}, {"factor", t.factor}};
        break;
    case LoopTransform::Kind::Unroll: p = {{"loop", t.loop}, {"factor", t.factor}}; break;
    case LoopTransform::Kind::Fuse: p = {{"inner", t.inner}, {"outer", t.outer}, {"fused", t.fused}}; break;
    case LoopTransform::Kind::Reorder:
    case LoopTransform::Kind::ReorderStorage: p = t.loops; break;
    case LoopTransform::Kind::ComputeAt:
    case LoopTransform::Kind::StoreAt:
        p = {{"func", t.at_func}, {"loop", t.at_loop}};
        if (t.stage >= 0) p["stage"] = t.stage;
        return p;
    case LoopTransform::Kind::In:
        p = {{"input", t.input}, {"func", t.at_func}, {"loop", t.at_loop}};
        if (t.stage >= 0) p["stage"] = t.stage;
        return p;
    case LoopTransform::Kind::ComputeRoot: return true;
    }
    if (t.kind == LoopTransform::Kind::ReorderStorage) return p;
    if ((t.kind == LoopTransform::Kind::Split || t.kind == LoopTransform::Kind::Unroll) &&
        t.tail != Halide::TailStrategy::Auto) {
        std::string tail = tail_strategy_name(t.tail);
        if (tail.empty()) throw Error("write_schedule_json: " + t.origin + ": a tail strategy the file form has no name for");
        p["tail"] = tail;
    }
    json step = {{loop_transform_name(t.kind), p}};
    if (t.stage != 0) step["stage"] = t.stage;
    return step;
}

bool is_list_key(const std::string &key) {
    return key == "pipeline" || key == "unroll" || key == "partition" || key == "schedule" || key == "in" ||
           key == "dataflow_loop";
}

}  // namespace

std::string write_schedule_json(const HlsSchedule &schedule) {
    // target -> key -> values (several only for list keys).
    std::map<std::string, std::map<std::string, std::vector<json>>> entries;
    for (const Directive &d : canonical_directives(schedule)) entries[d.target][directive_key(d.kind)].push_back(directive_json(d));
    for (const LoopTransform &t : canonical_transforms(schedule)) entries[t.func][transform_key(t.kind)].push_back(transform_json(t));
    std::string out = "{";
    const char *sep = "\n";
    for (const auto &target : entries) {
        out += sep + std::string("  ") + json(target.first).dump() + ": {";
        const char *ksep = "\n";
        for (const auto &key : target.second) {
            out += ksep + std::string("    ") + json(key.first).dump() + ": ";
            if (is_list_key(key.first)) {
                out += "[";
                for (size_t i = 0; i < key.second.size(); i++) out += (i ? ",\n      " : "\n      ") + key.second[i].dump();
                out += "\n    ]";
            } else {
                if (key.second.size() > 1) {
                    throw Error("write_schedule_json: '" + target.first + "' has " + std::to_string(key.second.size()) +
                                " '" + key.first + "' entries; the file form holds one");
                }
                out += key.second[0].dump();
            }
            ksep = ",\n";
        }
        out += "\n  }";
        sep = ",\n";
    }
    out += entries.empty() ? "}\n" : "\n}\n";
    return out;
}

HlsSchedule read_directives_json(const std::string &path) { return ScheduleReader(path).read(); }

HlsSchedule parse_directives_json(const std::string &text, const std::string &path) {
    return ScheduleReader(path).parse(text);
}

}  // namespace flowhls
