// HIDA's ablation on a program's design model: naive, IA (two weightings), CA, IA + CA.
#include "driver/Ablation.h"
#include "support/Text.h"

#include "dse/Parallelize.h"
#include "flowhls/Error.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace flowhls {

const std::vector<std::string> kAblationStrategies = {"naive", "ia-ops", "ia", "ca", "ia+ca"};

bool AblationRow::operator==(const AblationRow &o) const {
    return factor == o.factor && strategy == o.strategy && interval == o.interval && samples_per_s == o.samples_per_s &&
           dsp == o.dsp && banks == o.banks && partitioned_buffers == o.partitioned_buffers &&
           bottleneck == o.bottleneck;
}

bool AblationTable::operator==(const AblationTable &o) const {
    return program == o.program && clock_mhz == o.clock_mhz && nodes == o.nodes && base_interval == o.base_interval &&
           base_dsp == o.base_dsp && rows == o.rows;
}

namespace {

// The model with every node's intensity replaced by its modelled latency at factor 1.
dse::DesignModel weighted_by_latency(const dse::BuiltModel &built) {
    dse::DesignModel m = built.model;
    for (size_t i = 0; i < m.nodes.size(); ++i) m.nodes[i].intensity = dse::node_latency(m.nodes[i], built.costs[i], {});
    return m;
}

// Prices parallelization `p` of `built`'s model.
AblationRow price(const dse::BuiltModel &built, const dse::Parallelization &p, double clock_mhz) {
    AblationRow r;
    for (size_t i = 0; i < built.model.nodes.size(); ++i) {
        const std::vector<int64_t> &u = p.unroll[i];
        int64_t latency = dse::node_latency(built.model.nodes[i], built.costs[i], u);
        if (latency > r.interval) {
            r.interval = latency;
            r.bottleneck = built.model.nodes[i].name + " [";
            for (size_t l = 0; l < u.size(); ++l) r.bottleneck += (l ? "," : "") + std::to_string(u[l]);
            r.bottleneck += "]";
        }
        int64_t copies = 1;
        for (int64_t f : u) copies *= f;
        r.dsp += copies * built.costs[i].dsp;
    }
    r.banks = p.banks();
    for (const dse::BufferPartition &b : p.partitions) r.partitioned_buffers += b.banks() > 1 ? 1 : 0;
    r.samples_per_s = r.interval > 0 ? clock_mhz * 1e6 / static_cast<double>(r.interval) : 0.0;
    return r;
}

}  // namespace

AblationTable run_ablation(const std::string &program, const dse::BuiltModel &model, const AblationOptions &options) {
    AblationTable t;
    t.program = program;
    t.clock_mhz = options.clock_mhz;
    t.nodes = static_cast<int64_t>(model.model.nodes.size());
    dse::ParallelizeOptions one;
    one.intensity_aware = one.connectedness_aware = false;
    AblationRow base = price(model, dse::parallelize(model.model, one), options.clock_mhz);
    t.base_interval = base.interval;
    t.base_dsp = base.dsp;
    dse::DesignModel by_latency = weighted_by_latency(model);
    for (int64_t factor : options.factors) {
        for (const std::string &s : kAblationStrategies) {
            dse::ParallelizeOptions o;
            o.max_parallel_factor = factor;
            o.intensity_aware = s == "ia-ops" || s == "ia" || s == "ia+ca";
            o.connectedness_aware = s == "ca" || s == "ia+ca";
            const dse::DesignModel &m = s == "ia-ops" ? model.model : by_latency;
            AblationRow r = price(model, dse::parallelize(m, o), options.clock_mhz);
            r.factor = factor;
            r.strategy = s;
            t.rows.push_back(r);
        }
    }
    return t;
}

std::string ablation_text(const AblationTable &t) {
    std::string out = "flowhls bench --ablation " + t.program + ": HIDA's parallelization ablation, " +
                      std::to_string(t.nodes) + " nodes, " + format_number(t.clock_mhz, "%g") +
                      " MHz\nModel ESTIMATES (closed form: interval = largest node latency = iterations / copies x II "
                      "+ depth;\nnot the QoR estimator, not synthesis). Factor: copies of the body the most demanding "
                      "node gets.\nAt factor 1: interval " +
                      std::to_string(t.base_interval) + " cycles, DSP " + std::to_string(t.base_dsp) + ".\n\n";
    out += pad_text("factor", 6) + "  " + pad_text("strategy", 8, true) + pad_text("interval", 14) + pad_text("samples/s", 12) +
           pad_text("vs naive", 9) + pad_text("DSP", 8) + pad_text("banks", 8) + pad_text("part.bufs", 10) + "  bottleneck\n";
    int64_t naive = 0;
    for (const AblationRow &r : t.rows) {
        if (r.strategy == "naive") naive = r.interval;
        double speedup = r.interval > 0 ? static_cast<double>(naive) / static_cast<double>(r.interval) : 0.0;
        out += pad_text(std::to_string(r.factor), 6) + "  " + pad_text(r.strategy, 8, true) + pad_text(std::to_string(r.interval), 14) +
               pad_text(format_number(r.samples_per_s, "%.2f"), 12) + pad_text(format_number(speedup, "%.2fx"), 9) +
               pad_text(std::to_string(r.dsp), 8) + pad_text(std::to_string(r.banks), 8) +
               pad_text(std::to_string(r.partitioned_buffers), 10) + "  " + r.bottleneck + "\n";
    }
    out += "\nStrategies: naive = every node the factor, each alone; ia-ops = shared by iterations x operators;\n"
           "ia = shared by the modelled latency at factor 1; ca = every node the factor, divisible with its\n"
           "neighbours' and the fewest banks together; ia+ca = both (HIDA). vs naive: interval of naive / this.\n";
    return out;
}

std::string ablation_json(const AblationTable &t) {
    nlohmann::json j;
    j["estimate"] = "closed-form model (src/dse/BuildModel.h), not synthesis";
    j["program"] = t.program;
    j["clock_mhz"] = t.clock_mhz;
    j["nodes"] = t.nodes;
    j["base_interval"] = t.base_interval;
    j["base_dsp"] = t.base_dsp;
    j["rows"] = nlohmann::json::array();
    for (const AblationRow &r : t.rows) {
        j["rows"].push_back({{"factor", r.factor},
                             {"strategy", r.strategy},
                             {"interval", r.interval},
                             {"samples_per_s", r.samples_per_s},
                             {"dsp", r.dsp},
                             {"banks", r.banks},
                             {"partitioned_buffers", r.partitioned_buffers},
                             {"bottleneck", r.bottleneck}});
    }
    return j.dump(2) + "\n";
}

AblationTable ablation_from_json(const std::string &text) {
    try {
        nlohmann::json j = nlohmann::json::parse(text);
        AblationTable t;
        t.program = j.at("program").get<std::string>();
        t.clock_mhz = j.at("clock_mhz").get<double>();
        t.nodes = j.at("nodes").get<int64_t>();
        t.base_interval = j.at("base_interval").get<int64_t>();
        t.base_dsp = j.at("base_dsp").get<int64_t>();
        for (const nlohmann::json &x : j.at("rows")) {
            AblationRow r;
            r.factor = x.at("factor").get<int64_t>();
            r.strategy = x.at("strategy").get<std::string>();
            r.interval = x.at("interval").get<int64_t>();
            r.samples_per_s = x.at("samples_per_s").get<double>();
            r.dsp = x.at("dsp").get<int64_t>();
            r.banks = x.at("banks").get<int64_t>();
            r.partitioned_buffers = x.at("partitioned_buffers").get<int64_t>();
            r.bottleneck = x.at("bottleneck").get<std::string>();
            t.rows.push_back(r);
        }
        return t;
    } catch (const nlohmann::json::exception &e) {
        throw Error(std::string("not an ablation table: ") + e.what());
    }
}

}  // namespace flowhls
