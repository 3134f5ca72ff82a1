// load_device: parses an embedded devices/*.json entry at a clock frequency.
#include "analysis/Device.h"
#include "flowhls/Error.h"
#include "support/EmbeddedFiles.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace flowhls {

const OperatorCost &Device::op(const std::string &name) const {
    auto it = operators.find(name);
    if (it == operators.end()) throw std::logic_error("device " + part + " has no operator " + name);
    return it->second;
}

ControlCost Device::control_cost(const std::string &name) const {
    auto it = control.find(name);
    return it == control.end() ? ControlCost() : it->second;
}

std::vector<std::string> device_names() {
    std::vector<std::string> names;
    for (const EmbeddedFile &f : device_files()) names.push_back(f.path.substr(0, f.path.size() - 5));
    return names;
}

Device load_device(const std::string &name, double clock_mhz) {
    if (!(clock_mhz > 0.0 && clock_mhz <= 1000.0)) {
        throw Error("clock " + std::to_string(clock_mhz) + " MHz is outside (0, 1000] MHz");
    }
    const EmbeddedFile *file = nullptr;
    std::string known;
    for (const EmbeddedFile &f : device_files()) {
        if (f.path == name + ".json") file = &f;
        known += (known.empty() ? "" : ", ") + f.path.substr(0, f.path.size() - 5);
    }
    if (!file) throw Error("unknown device '" + name + "' (devices: " + known + ")");
    nlohmann::json j = nlohmann::json::parse(file->contents);
    Device d;
    d.part = j.at("part");
    d.board = j.at("board");
    d.family = j.at("family");
    d.vitis_part = j.at("vitis_part");
    d.bambu_device = j.at("bambu_device");
    d.clock_mhz = clock_mhz;
    const auto &r = j.at("resources");
    d.capacity = {r.at("dsp"), r.at("bram18k"), r.at("uram"), r.at("lut"), r.at("ff")};
    const auto &m = j.at("memory");
    d.read_ports = m.at("read_ports");
    d.write_ports = m.at("write_ports");
    d.bram18k_bits = m.at("bram18k_bits");
    d.register_threshold_bits = m.at("register_threshold_bits");
    if (m.contains("uram_words")) {
        d.uram_words = m.at("uram_words");
        d.uram_bits = m.at("uram_bits");
        d.uram_min_bram18k = m.at("uram_min_bram18k");
    }
    if (j.contains("offchip")) {
        const auto &o = j.at("offchip");
        d.offchip_kind = o.at("kind");
        d.offchip_channels = o.at("channels");
        d.offchip_bandwidth_gbps = o.at("bandwidth_gbps");
        d.offchip_read_latency_ns = o.at("read_latency_ns");
    }
    if (j.contains("control")) {
        for (const auto &kv : j.at("control").items()) d.control[kv.key()] = {kv.value().at("lut"), kv.value().at("ff")};
    }
    for (const auto &kv : j.at("operators").items()) {
        OperatorCost c;
        c.dsp = kv.value().at("dsp");
        c.lut = kv.value().at("lut");
        c.ff = kv.value().at("ff");
        // The first entry whose clock reaches the requested one; the deepest beyond the table.
        auto at_clock = [&](const nlohmann::json &table, int beyond) {
            for (const auto &entry : table) {
                if (clock_mhz <= entry.at(0).get<double>()) return entry.at(1).get<int>();
            }
            return beyond;
        };
        const auto &lat = kv.value().at("latency");
        c.latency = at_clock(lat, lat.back().at(1).get<int>());
        c.recurrence_latency = c.latency;
        if (kv.value().contains("recurrence_latency")) {
            c.recurrence_latency = std::min(c.latency, at_clock(kv.value().at("recurrence_latency"), c.latency));
        }
        d.operators[kv.key()] = c;
    }
    return d;
}

}  // namespace flowhls
