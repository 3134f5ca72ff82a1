// load_device: parses an embedded devices/*.json entry at a clock frequency.
#include "analysis/Device.h"
#include "flowhls/Error.h"
#include "support/EmbeddedFiles.h"

#include <nlohmann/json.hpp>

namespace flowhls {

const OperatorCost &Device::op(const std::string &name) const {
    auto it = operators.find(name);
    if (it == operators.end()) throw std::logic_error("device " + part + " has no operator " + name);
    return it->second;
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
    for (const auto &kv : j.at("operators").items()) {
        OperatorCost c;
        c.dsp = kv.value().at("dsp");
        c.lut = kv.value().at("lut");
        c.ff = kv.value().at("ff");
        // The first entry whose clock reaches the requested one; the deepest beyond the table.
        const auto &lat = kv.value().at("latency");
        c.latency = lat.back().at(1);
        for (const auto &entry : lat) {
            if (clock_mhz <= entry.at(0).get<double>()) {
                c.latency = entry.at(1);
                break;
            }
        }
        d.operators[kv.key()] = c;
    }
    return d;
}

}  // namespace flowhls
