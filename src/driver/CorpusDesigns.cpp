// The corpus designs flowhls reproduces (example + schedule) and those it does not, with why.
#include "driver/CorpusDesigns.h"
#include "flowhls/Error.h"

namespace flowhls {

namespace {

// The corpus designs accumulate in arrays (the plain Vitis sources in their array arguments,
// Stream-HLS in arrays local to each node: acc[i][j] += ...), which scalar-replacement would keep
// in a register instead, and load every operand in the innermost loop, which hoist-invariants
// would move out of it (the nest would no longer be perfect, and Vitis would not flatten it).
// They read their arguments where they use them (or copy them in nodes of their own, which the
// examples reproduce), not through the load filters buffer-inputs would add. They bind no
// storage: their shallow banks stay where Vitis put them, not in the LUT RAM bind-lutram
// would ask for.
const std::vector<std::string> kInMemory = {"scalar-replacement", "hoist-invariants", "buffer-inputs", "bind-lutram"};

}  // namespace

const std::vector<CorpusReproduction> &corpus_reproductions() {
    static const std::vector<CorpusReproduction> vitis = {
        {"polybench/vitis/default/2mm", "pb_2mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/3mm", "pb_3mm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/atax", "pb_atax", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/bicg", "pb_bicg", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gemm", "pb_gemm", "baseline", "medium", kInMemory, ""},
        {"polybench/vitis/default/gesummv", "pb_gesummv", "baseline_fused", "medium", kInMemory, ""},
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
            v.push_back({std::string("mlps/streamhls/opt") + opt + "/ResMLP", "shls_resmlp", std::string("opt") + opt,
                         "", kInMemory, ""});
            v.push_back({std::string("transformers/streamhls/opt") + opt + "/FeedForward", "shls_feedforward",
                         std::string("opt") + opt, "", kInMemory, ""});
            v.push_back({std::string("mlps/streamhls/opt") + opt + "/Autoencoder", "shls_autoencoder",
                         std::string("opt") + opt, "", kInMemory,
                         "the last layer's sigmoid computes exp as Halide's polynomial expansion (what the JIT "
                         "computes, bit for bit: ten multiplies, nine adds, a floor and clamps), where the corpus "
                         "source calls Vitis's exp core; that node's DSP, LUT and FF differ by construction (left "
                         "out of the LUT/FF cost fit)",
                         false});
            v.push_back({std::string("transformers/streamhls/opt") + opt + "/MultiHeadSelfAttention1", "shls_mhsa",
                         std::string("opt") + opt, "", kInMemory,
                         "the softmax's exp is Halide's polynomial expansion (as the Autoencoder's sigmoid), where the "
                         "corpus calls Vitis's exp core: that node's DSP, LUT and FF differ by construction (left out "
                         "of the LUT/FF cost fit); the corpus nodes writing two or three FIFOs are flowhls fork "
                         "filters (the input's fork is the corpus's first node; the scaled scores and the exponentials "
                         "each add one fork node, whose loops shift the per-loop pairing by trip count in the softmax: "
                         "the row sum's II 4 loop is listed beside another node's)",
                         false});
        }
        v.push_back({"cnns/streamhls/opt1/ResidualBlock", "shls_residual_block", "opt1", "", kInMemory, ""});
        v.push_back({"cnns/streamhls/opt1/DepthwiseSeparableConvBlock", "shls_depthwise_separable_block", "opt1", "",
                     kInMemory, ""});
        return v;
    }();
    static const std::vector<CorpusReproduction> all = [] {
        std::vector<CorpusReproduction> v = vitis;
        v.insert(v.end(), streamhls.begin(), streamhls.end());
        v.insert(v.end(), blocks.begin(), blocks.end());
        for (const char *k : {"bicg", "gemm", "gesummv", "mvt", "2mm", "3mm"}) {
            v.push_back({std::string("polybench/hida/default/") + k, std::string("pb_") + k, "hida", "medium",
                         kInMemory, ""});
        }
        const std::string t2p = "the ScaleHLS source binds its arguments to true dual-port RAMs (ram_t2p_bram), "
                                "which the co-language cannot express; flowhls's design uses the default ports";
        for (const char *k : {"bicg", "gemm", "mvt", "2mm", "3mm"}) {
            v.push_back({std::string("polybench/scalehls/default/") + k, std::string("pb_") + k, "scalehls", "medium",
                         kInMemory, t2p});
        }
        v.push_back({"polybench/hida/default/atax", "pb_atax", "hida", "medium", kInMemory, ""});
        v.push_back({"polybench/scalehls/default/atax", "pb_atax", "scalehls", "medium", kInMemory,
                     t2p + " (its local tmp too: 15 BRAM18K in Vitis, where flowhls's 26-word banks are not "
                           "block RAM)"});
        v.push_back({"polybench/scalehls/default/gesummv", "pb_gesummv", "scalehls", "medium", kInMemory,
                     t2p + "; and before the last column pair the source stores y[i] + B[i][j0] x[j0], dropping "
                           "B[i][j1] x[j1] (a ScaleHLS miscompilation), where flowhls's design stores the whole "
                           "sum through the same select"});
        return v;
    }();
    return all;
}

const std::vector<CorpusGap> &corpus_gaps() {
    static const std::vector<CorpusGap> all = [] {
        std::vector<CorpusGap> v;
        // Every ScaleHLS and HIDA PolyBench design of the corpus is reproduced (corpus_designs).
        const std::string opt3 =
            "the Stream-HLS opt3 design unrolls its nodes into arrays of FIFOs (hls::stream v[4][11]) with "
            "two-dimensional array partitions; flowhls has one FIFO per buffer";
        for (const char *k : {"atax", "bicg", "gemm", "gesummv", "k2mm", "k3mm", "mvt"}) {
            v.push_back({std::string("polybench/streamhls/opt3_2560dsp/") + k, opt3});
        }
        for (const char *d : {"cnns/streamhls/opt3/DepthwiseSeparableConvBlock", "cnns/streamhls/opt3/ResidualBlock",
                              "mlps/streamhls/opt3/Autoencoder", "mlps/streamhls/opt3/ResMLP",
                              "synthetic/streamhls/opt3/k7mmseq_balanced", "synthetic/streamhls/opt3/k7mmseq_unbalanced",
                              "transformers/streamhls/opt3/FeedForward",
                              "transformers/streamhls/opt3/MultiHeadSelfAttention1"}) {
            v.push_back({d, opt3});
        }
        const std::string cnn_opt2 =
            "the Stream-HLS opt2 CNN design streams the padded input through each convolution node, which walks "
            "the padded frame in one flattened pipeline (x, y, kx, ky, c: 114 x 114 x 9 x 8 iterations for the "
            "depthwise block), copies each input element into a local frame array when kx = ky = 0 and "
            "accumulates only where x, y >= 2 (a line-buffer-like nest, the output two rows and columns behind "
            "the input); the shls_* nodes copy their operands in a loop of their own before computing, and the "
            "guarded accumulation would be an RDom with a where clause over the shifted domain: that "
            "formulation, and whether flowhls flattens such a guarded nest at II 1 as Vitis does, is not written "
            "or checked yet";
        for (const char *d : {"cnns/streamhls/opt2/DepthwiseSeparableConvBlock", "cnns/streamhls/opt2/ResidualBlock"}) {
            v.push_back({d, cnn_opt2});
        }
        return v;
    }();
    return all;
}

std::string library_part(const std::string &vitis_part) {
    if (vitis_part.rfind("xcu280", 0) == 0) return "xcu280";
    if (vitis_part.rfind("xcu200", 0) == 0) return "xcvu9p";
    throw Error("no part of the device library stands for corpus part '" + vitis_part + "'");
}

}  // namespace flowhls
