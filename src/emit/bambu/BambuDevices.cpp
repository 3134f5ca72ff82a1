// bambu_device_name: maps a part of the device library to a device PandA-Bambu characterized.
#include "emit/bambu/BambuDevices.h"

#include "flowhls/Error.h"
#include "support/Text.h"

#include <algorithm>
#include <cctype>

namespace flowhls {

namespace {

// A Xilinx device name split into die ("xc7z020"), speed grade ("1", "2L") and package
// ("clg484"); `vivado` for the "-VVD" (Vivado-characterized) flavour. Other vendors' names
// are kept whole in `die`.
struct DeviceName {
    std::string die, speed, package;
    bool vivado = false;
};

bool xilinx(const std::string &name) { return name.rfind("xc", 0) == 0; }

DeviceName split(std::string name) {
    DeviceName d;
    if (name.find(',') != std::string::npos) {  // "xc7z020,-1,clg400,VVD"
        std::vector<std::string> parts = split_fields(name, ',');
        d.die = parts[0];
        if (parts.size() > 1) d.speed = parts[1].substr(parts[1].rfind('-', 0) == 0 ? 1 : 0);
        if (parts.size() > 2) d.package = parts[2];
        d.vivado = parts.size() > 3 && parts[3] == "VVD";
        return d;
    }
    if (!xilinx(name)) {
        d.die = name;
        return d;
    }
    const std::string vvd = "-VVD";
    if (name.size() > vvd.size() && name.compare(name.size() - vvd.size(), vvd.size(), vvd) == 0) {
        d.vivado = true;
        name.resize(name.size() - vvd.size());
    }
    size_t dash = name.find('-');
    d.die = name.substr(0, dash);
    if (dash == std::string::npos) return d;
    std::string rest = name.substr(dash + 1);  // "1clg484", "2Lfsvh2892", "1clg484-YOSYS"
    size_t i = 0;
    while (i < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[i])) || std::isupper(static_cast<unsigned char>(rest[i])))) i++;
    d.speed = rest.substr(0, i);
    d.package = rest.substr(i);
    return d;
}

// Xilinx generation of a die: "4", "5", "6", "7", "us" (UltraScale), "us+" (UltraScale+).
std::string generation(const std::string &die) {
    if (!xilinx(die) || die.size() < 3) return "";
    if (std::isdigit(static_cast<unsigned char>(die[2]))) return std::string(1, die[2]);
    if (die.rfind("xczu", 0) == 0 || die.rfind("xcu", 0) == 0 || die.back() == 'p') return "us+";
    return "us";
}

// Series letter: z (Zynq), a (Artix), k (Kintex), v (Virtex), u (Alveo).
char series(const std::string &die) {
    if (!xilinx(die) || die.size() < 3) return 0;
    size_t i = 2;
    while (i < die.size() && std::isdigit(static_cast<unsigned char>(die[i]))) i++;
    return i < die.size() ? die[i] : 0;
}

double similarity(const DeviceName &want, const std::string &candidate) {
    DeviceName c = split(candidate);
    double score = 0.0;
    if (xilinx(want.die) == xilinx(c.die)) score += 100.0;
    if (!generation(want.die).empty() && generation(want.die) == generation(c.die)) score += 50.0;
    if (series(want.die) && series(want.die) == series(c.die)) score += 10.0;
    if (!want.speed.empty() && want.speed == c.speed) score += 5.0;
    size_t common = 0;
    while (common < want.die.size() && common < c.die.size() && want.die[common] == c.die[common]) common++;
    score += static_cast<double>(common);
    if (c.vivado) score += 0.5;
    return score;
}

std::string join(const std::vector<std::string> &names) {
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
    return s;
}

}  // namespace

const std::vector<std::string> &bambu_characterized_devices() {
    static const std::vector<std::string> devices = {
        "5CSEMA5F31C6",         "5SGXEA7N2F45C1",        "EP2C70F896C6",          "EP2C70F896C6-R",
        "EP4SGX530KH40C2",      "LFE335EA8FN484C",       "LFE5U85F8BG756C",       "LFE5UM85F8BG756C",
        "nx1h140tsp",           "nx1h35S",               "nx2h540tsc",            "xc4vlx100-10ff1513",
        "xc5vlx110t-1ff1136",   "xc5vlx330t-2ff1738",    "xc5vlx50-3ff1153",      "xc6vlx240t-1ff1156",
        "xc7a100t-1csg324-VVD", "xc7vx330t-1ffg1157",    "xc7vx485t-2ffg1761-VVD", "xc7vx690t-3ffg1930-VVD",
        "xc7z020-1clg484",      "xc7z020-1clg484-VVD",   "xc7z020-1clg484-YOSYS-VVD", "xc7z045-2ffg900-VVD",
        "xcku060-3ffva1156-VVD", "xcu280-2Lfsvh2892-VVD", "xcu55c-2Lfsvh2892-VVD",
    };
    return devices;
}

std::vector<std::string> closest_bambu_devices(const std::string &name, size_t count) {
    DeviceName want = split(name);
    std::vector<std::pair<double, std::string>> ranked;
    for (const std::string &d : bambu_characterized_devices()) ranked.push_back({-similarity(want, d), d});
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < ranked.size() && i < count; i++) out.push_back(ranked[i].second);
    return out;
}

namespace {

// The Bambu device for `device`, or "" when Bambu has none of its die.
std::string matching_device(const Device &device) {
    const std::vector<std::string> &known = bambu_characterized_devices();
    const std::string &given = device.bambu_device.empty() ? device.part : device.bambu_device;
    if (std::find(known.begin(), known.end(), given) != known.end()) return given;
    DeviceName want = split(given);
    if (want.die.empty()) want.die = device.part;
    // The same die and speed grade in a characterized package (Vivado flavour preferred).
    std::string same_die;
    for (const std::string &d : known) {
        DeviceName c = split(d);
        if (c.die != want.die || (!want.speed.empty() && c.speed != want.speed) || c.package.find('-') != std::string::npos) {
            continue;
        }
        if (same_die.empty() || (c.vivado && !split(same_die).vivado)) same_die = d;
    }
    return same_die;
}

}  // namespace

std::string bambu_device_name(const Device &device) {
    std::string name = matching_device(device);
    if (!name.empty()) return name;
    std::vector<std::string> usable;
    for (const std::string &part : device_names()) {
        if (!matching_device(load_device(part, device.clock_mhz)).empty()) usable.push_back(part);
    }
    const std::string &given = device.bambu_device.empty() ? device.part : device.bambu_device;
    throw Error("PandA-Bambu has no characterization of part " + device.part + " ('" + given +
                "'): it synthesizes only for the devices it characterized; the closest are " +
                join(closest_bambu_devices(given)) + ". Parts of the device library it can target: " + join(usable));
}

}  // namespace flowhls
