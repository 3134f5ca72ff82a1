// qor_text / qor_json: printers of a DesignEstimate.
#include "emit/QorReport.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace flowhls {

namespace {

std::string percent(int64_t used, int64_t capacity) {
    if (capacity <= 0) return used > 0 ? "n/a" : "0%";
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(used) / static_cast<double>(capacity) << "%";
    return os.str();
}

struct Row {
    const char *name;
    int64_t used, capacity;
};

std::vector<Row> rows(const DesignEstimate &e, const Device &d) {
    std::vector<Row> r = {{"DSP", e.total.dsp, d.capacity.dsp},
                          {"BRAM18K", e.total.bram18k, d.capacity.bram18k},
                          {"LUT", e.total.lut, d.capacity.lut},
                          {"FF", e.total.ff, d.capacity.ff}};
    // UltraRAM only on the parts that have it.
    if (d.capacity.uram > 0) r.insert(r.begin() + 2, {"URAM", e.total.uram, d.capacity.uram});
    return r;
}

}  // namespace

std::string qor_text(const DesignEstimate &e, const Device &d) {
    std::ostringstream os;
    os << "QoR estimate for " << d.part << " (" << d.board << ") at " << d.clock_mhz << " MHz"
       << " (model: innermost loops pipelined, perfect nests flattened)\n\n";
    os << std::left << std::setw(28) << "filter / loop" << std::right << std::setw(10) << "trip" << std::setw(6) << "II"
       << std::setw(12) << "latency" << std::setw(7) << "DSP" << std::setw(9) << "BRAM18K" << std::setw(9) << "LUT"
       << std::setw(9) << "FF" << "\n";
    for (const FilterEstimate &f : e.filters) {
        os << std::left << std::setw(28) << f.name << std::right << std::setw(10) << "" << std::setw(6) << ""
           << std::setw(12) << f.latency << std::setw(7) << f.resources.dsp << std::setw(9) << f.resources.bram18k
           << std::setw(9) << f.resources.lut << std::setw(9) << f.resources.ff << "\n";
        for (const LoopEstimate &l : f.loops) {
            std::string name = "  " + l.name + (l.flattened_levels > 1 ? " (x" + std::to_string(l.flattened_levels) + " flat)" : "");
            os << std::left << std::setw(28) << name << std::right << std::setw(10) << l.trip << std::setw(6)
               << (l.pipelined ? std::to_string(l.ii) : "-") << std::setw(12) << l.latency << "\n";
            if (l.pipelined && l.ii > 1) os << "      II set by " << l.ii_reason << "\n";
        }
    }
    if (!e.channels.empty()) {
        os << "\nChannels:\n";
        for (const ChannelEstimate &c : e.channels) {
            os << "  " << std::left << std::setw(26) << c.name << std::setw(11) << c.kind << std::right << std::setw(9)
               << c.words << " words" << std::setw(6) << c.bram18k << " BRAM18K"
               << (c.uram > 0 || c.kind == "uram-resident" ? ", " + std::to_string(c.uram) + " URAM" : "") << "\n";
            if (!c.reason.empty()) os << "      " << c.reason << "\n";
        }
    }
    os << "\nTotals:\n";
    bool fits = true;
    std::string over;
    for (const Row &r : rows(e, d)) {
        os << "  " << std::left << std::setw(8) << r.name << std::right << std::setw(10) << r.used << " of "
           << std::setw(9) << r.capacity << "  " << percent(r.used, r.capacity) << "\n";
        if (r.used > r.capacity) {
            fits = false;
            over += std::string(over.empty() ? "" : ", ") + r.name + " by " + std::to_string(r.used - r.capacity);
        }
    }
    os << "  latency   " << e.latency << " cycles (" << std::setprecision(4)
       << static_cast<double>(e.latency) / d.clock_mhz << " us)\n";
    os << "  interval  " << e.interval << " cycles" << (e.dataflow ? " (dataflow: the slowest filter)" : " (sequential)")
       << "\n";
    if (e.first_call_cycles > 0) {
        os << "  first call +" << e.first_call_cycles
           << " cycles (copying the URAM-resident weights from their m_axi ports; later calls skip it)\n";
    }
    os << "  throughput " << std::setprecision(6) << e.throughput << " samples/s\n";
    os << "  DSP efficiency " << std::fixed << std::setprecision(1) << 100.0 * e.dsp_efficiency
       << "% (MAC/cycle achieved over the MACs the DSPs in use could do)\n";
    os << (fits ? "  fits the device\n" : "  DOES NOT FIT the device: exceeds " + over + "\n");
    return os.str();
}

std::string qor_json(const DesignEstimate &e, const Device &d) {
    nlohmann::ordered_json j;
    j["device"] = {{"part", d.part}, {"board", d.board}, {"clock_mhz", d.clock_mhz}};
    j["model"] = {{"pipeline_innermost", true}, {"flatten_perfect_nests", true}};
    nlohmann::ordered_json filters = nlohmann::ordered_json::array();
    for (const FilterEstimate &f : e.filters) {
        nlohmann::ordered_json loops = nlohmann::ordered_json::array();
        for (const LoopEstimate &l : f.loops) {
            loops.push_back({{"name", l.name},
                             {"trip", l.trip},
                             {"pipelined", l.pipelined},
                             {"flattened_levels", l.flattened_levels},
                             {"depth", l.depth},
                             {"ii", l.ii},
                             {"ii_reason", l.ii_reason},
                             {"latency", l.latency}});
        }
        nlohmann::ordered_json ops = nlohmann::ordered_json::object();
        for (const auto &kv : f.operations) ops[kv.first] = kv.second;
        filters.push_back({{"name", f.name},
                           {"latency", f.latency},
                           {"loops", loops},
                           {"operations", ops},
                           {"resources",
                            {{"dsp", f.resources.dsp},
                             {"bram18k", f.resources.bram18k},
                             {"lut", f.resources.lut},
                             {"ff", f.resources.ff}}}});
    }
    j["filters"] = filters;
    nlohmann::ordered_json channels = nlohmann::ordered_json::array();
    for (const ChannelEstimate &c : e.channels) {
        channels.push_back(
            {{"name", c.name}, {"kind", c.kind}, {"words", c.words}, {"bram18k", c.bram18k}, {"reason", c.reason}});
        // UltraRAM blocks: of a resident weight, or of a channel bind-uram bound (a ping-pong's copies).
        if (c.uram > 0 || c.kind == "uram-resident") channels.back()["uram"] = c.uram;
    }
    j["channels"] = channels;
    nlohmann::ordered_json total = nlohmann::ordered_json::object();
    bool fits = true;
    for (const Row &r : rows(e, d)) {
        total[r.name] = {{"used", r.used}, {"capacity", r.capacity}};
        fits = fits && r.used <= r.capacity;
    }
    j["design"] = {{"dataflow", e.dataflow},
                   {"latency_cycles", e.latency},
                   {"interval_cycles", e.interval},
                   {"throughput_per_s", e.throughput},
                   {"dsp_efficiency", e.dsp_efficiency},
                   {"resources", total},
                   {"fits", fits}};
    // The URAM-resident weights' copy on the first call (not in the interval nor the latency).
    if (e.first_call_cycles > 0) j["design"]["first_call_cycles"] = e.first_call_cycles;
    return j.dump(2) + "\n";
}

}  // namespace flowhls
