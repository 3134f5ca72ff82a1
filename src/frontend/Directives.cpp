// HlsSchedule (the HLS co-language's C++ API) and its JSON file form.
#include "flowhls/Directives.h"
#include "flowhls/Error.h"
#include "support/Paths.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <set>
#include <sstream>

namespace flowhls {

using nlohmann::json;

namespace {

std::string api_origin(const std::string &call) { return "C++ API: " + call; }

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

    void entry(const std::string &target, const json &e) {
        keys(e, target, {"pipeline", "unroll", "partition", "stream", "ping_pong", "inline", "interface", "dataflow"});
        for (auto it = e.begin(); it != e.end(); ++it) {
            const std::string &key = it.key();
            const json &v = it.value();
            std::string where = target + "." + key;
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

HlsSchedule read_directives_json(const std::string &path) { return ScheduleReader(path).read(); }

HlsSchedule parse_directives_json(const std::string &text, const std::string &path) {
    return ScheduleReader(path).parse(text);
}

}  // namespace flowhls
