// The corpus designs flowhls reproduces (example + schedule) and those it does not, with why.
#include "driver/CorpusDesigns.h"
#include "flowhls/Error.h"

namespace flowhls {

namespace {

// The corpus designs accumulate in arrays (the plain Vitis sources in their array arguments,
// Stream-HLS in arrays local to each node: acc[i][j] += ...), which scalar-replacement would keep
// in a register instead, and load every operand in the innermost loop, which hoist-invariants
// would move out of it (the nest would no longer be perfect, and Vitis would not flatten it).
const std::vector<std::string> kInMemory = {"scalar-replacement", "hoist-invariants"};

}  // namespace

const std::vector<CorpusReproduction> &corpus_reproductions() {
    static const std::vector<CorpusReproduction> vitis = {
        {"polybench/vitis/default/2mm", "pb_2mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/3mm", "pb_3mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/atax", "pb_atax", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/bicg", "pb_bicg", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gemm", "pb_gemm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gesummv", "pb_gesummv", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/mvt", "pb_mvt", "baseline", "medium", kInMemory, ""},
    };
    static const std::vector<CorpusReproduction> streamhls = [] {
        std::vector<CorpusReproduction> v;
        for (const char *opt : {"1", "2"}) {
            for (const char *k : {"atax", "bicg", "gemm", "gesummv", "k2mm", "k3mm", "mvt"}) {
                std::string kernel = std::string(k) == "k2mm" ? "2mm" : std::string(k) == "k3mm" ? "3mm" : k;
                v.push_back({std::string("polybench/streamhls/opt") + opt + "_2560dsp/" + k, "pb_" + kernel,
                             std::string("streamhls_opt") + opt, "medium", kInMemory, ""});
            }
        }
        return v;
    }();
    static const std::vector<CorpusReproduction> blocks = [] {
        std::vector<CorpusReproduction> v;
        for (const char *opt : {"1", "2"}) {
            for (const char *b : {"k7mmseq_balanced", "k7mmseq_unbalanced"}) {
                v.push_back({std::string("synthetic/streamhls/opt") + opt + "/" + b, std::string("shls_") + b,
                             std::string("opt") + opt, "", kInMemory, ""});
            }
        }
        return v;
    }();
    static const std::vector<CorpusReproduction> all = [] {
        std::vector<CorpusReproduction> v = vitis;
        v.insert(v.end(), streamhls.begin(), streamhls.end());
        v.insert(v.end(), blocks.begin(), blocks.end());
        return v;
    }();
    return all;
}

const std::vector<CorpusGap> &corpus_gaps() {
    static const std::vector<CorpusGap> all = {};
    return all;
}

std::string library_part(const std::string &vitis_part) {
    if (vitis_part.rfind("xcu280", 0) == 0) return "xcu280";
    if (vitis_part.rfind("xcu200", 0) == 0) return "xcvu9p";
    throw Error("no part of the device library stands for corpus part '" + vitis_part + "'");
}

}  // namespace flowhls
