// The corpus designs flowhls reproduces (example + schedule) and those it does not, with why.
#include "driver/CorpusDesigns.h"
#include "flowhls/Error.h"

namespace flowhls {

namespace {

// The plain Vitis sources accumulate into their array arguments (tmp[i][j] += ...), which
// scalar-replacement would keep in a register instead.
const std::vector<std::string> kInMemory = {"scalar-replacement"};

}  // namespace

const std::vector<CorpusReproduction> &corpus_reproductions() {
    static const std::vector<CorpusReproduction> all = {
        {"polybench/vitis/default/2mm", "pb_2mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/3mm", "pb_3mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/atax", "pb_atax", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/bicg", "pb_bicg", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gemm", "pb_gemm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gesummv", "pb_gesummv", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/mvt", "pb_mvt", "baseline", "medium", kInMemory, ""},
    };
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
