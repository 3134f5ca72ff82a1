// Tests of the HLS co-language: the C++ API, the JSON file form, apply-directives and emission.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Directives.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

void write(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// The JSON equivalent of gemm's hls_unroll schedule (applied to its root schedule).
const char *kGemmJson = R"({
  "prod": {"unroll": [{"loop": "k"}]},
  "A": {"interface": "bram", "partition": [{"dim": 0, "type": "complete"}]},
  "B": {"interface": {"mode": "bram"}, "partition": {"dim": 1, "type": "complete"}}
})";

TEST(Directives, ApiDirectivesBecomeVitisPragmas) {
    test::TempDir dir;
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "g";
    compile(build_example("gemm", "hls_unroll"), o);
    std::string k = test::read_file(dir / "g/kernel.cpp");
    EXPECT_TRUE(has(k, "#pragma HLS INTERFACE bram port=A\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS INTERFACE bram port=B\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS INTERFACE m_axi port=C offset=slave bundle=gmem2 depth=1024\n")) << k;
    // Complete partition of dimension 0 (extent 32) = cyclic 32; of the outermost = block 32.
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=A type=cyclic factor=32 dim=1\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=B type=block factor=32 dim=1\n")) << k;
    // The k loop is unrolled completely and not pipelined; the enclosing i loop is pipelined.
    EXPECT_TRUE(has(k, " k_x++) {\n#pragma HLS UNROLL\n")) << k;
    EXPECT_TRUE(has(k, " i++) {\n#pragma HLS PIPELINE II=1\n")) << k;
    std::string report = test::read_file(dir / "g/report.txt");
    EXPECT_TRUE(has(report, "applied: complete unroll of loop k_x (filter compute_prod)")) << report;
}

TEST(Directives, JsonFileGivesTheSameProjectAsTheApi) {
    test::TempDir dir;
    write(dir / "d.json", kGemmJson);
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example gemm --schedule hls_unroll -o " + (dir / "api"), &out), 0) << out;
    ASSERT_EQ(test::run_flowhls("compile --example gemm --schedule root --directives " + (dir / "d.json") + " -o " +
                                    (dir / "json"),
                                &out),
              0)
        << out;
    for (const char *f : {"kernel.cpp", "kernel.h", "tb.cpp", "report.txt", "graph.txt"}) {
        EXPECT_EQ(test::read_file(dir / ("api/" + std::string(f))), test::read_file(dir / ("json/" + std::string(f))))
            << f;
    }
}

TEST(Directives, JsonReaderParsesEveryKind) {
    test::TempDir dir;
    write(dir / "d.json", R"({"f": {"pipeline": [{"loop": "x", "ii": 2}], "unroll": {"loop": "y", "factor": 4},
        "partition": [{"dim": 0, "type": "cyclic", "factor": 4}, {"type": "complete"}], "stream": {"depth": 8},
        "ping_pong": true, "inline": true, "interface": {"mode": "m_axi", "bundle": "in"}},
        "k": {"dataflow": false}})");
    HlsSchedule s = read_directives_json(dir / "d.json");
    ASSERT_EQ(s.directives().size(), 9u);
    int pipelines = 0, partitions = 0;
    for (const Directive &d : s.directives()) {
        if (d.kind == Directive::Kind::Pipeline) {
            pipelines++;
            EXPECT_EQ(d.loop, "x");
            EXPECT_EQ(d.value, 2);
        }
        if (d.kind == Directive::Kind::Partition) partitions++;
        if (d.kind == Directive::Kind::Stream) {
            EXPECT_EQ(d.value, 8);
        }
        if (d.kind == Directive::Kind::Interface) {
            EXPECT_EQ(d.bundle, "in");
        }
        if (d.kind == Directive::Kind::Dataflow) {
            EXPECT_EQ(d.target, "k");
            EXPECT_FALSE(d.enable);
        }
        EXPECT_TRUE(has(d.origin, "d.json")) << d.origin;
    }
    EXPECT_EQ(pipelines, 1);
    EXPECT_EQ(partitions, 2);
}

struct ErrorCase {
    const char *json;
    const char *program;
    const char *message;
};

TEST(Directives, BadDirectivesExitWithTwoAndWriteNothing) {
    const ErrorCase cases[] = {
        {R"({"nope": {"pipeline": [{"loop": "x"}]}})", "--example gemm", "unknown Func 'nope' (Funcs with loops"},
        {R"({"prod": {"pipeline": [{"loop": "zz"}]}})", "--example gemm", "Func 'prod' has no loop 'zz' (its loops: i, j, k$x"},
        {R"({"prod": {"pipeline": [)", "--example gemm", "is not valid JSON"},
        {R"({"prod": {"pipelin": []}})", "--example gemm", "prod.pipelin: unknown key (allowed:"},
        {R"({"prod": {"unroll": [{"loop": "i", "factor": "2"}]}})", "--example gemm", "prod.unroll[0].factor: expected an integer"},
        {R"({"prod": {"stream": true}})", "--example gemm --schedule root", "stream directive: buffer 'prod' cannot be a FIFO"},
        {R"({"A": {"interface": "axis"}})", "--example gemm --schedule root",
         "kernel argument 'A' cannot be an AXI4-Stream (axis) port: the read in prod repeats every element"},
        {R"({"A": {"partition": [{"dim": 0, "type": "cyclic", "factor": 2}]}})", "--example gemm --schedule root",
         "only an argument with a bram interface"},
        {R"({"prod": {"partition": [{"dim": 0, "type": "block", "factor": 2}]}})", "--example gemm --schedule root",
         "cannot be expressed on its flattened array"},
        {R"({"A": {"interface": "bram", "partition": [{"dim": 0, "type": "cyclic", "factor": 2}, {"dim": 0, "type": "complete"}]}})",
         "--example gemm --schedule root", "A.partition[1]: dimension 0 of 'A' is already partitioned ("},
        {R"({"A": {"interface": "bram", "partition": [{"dim": 0, "type": "cyclic", "factor": 2}, {"dim": 1, "type": "block", "factor": 2}]}})",
         "--example gemm --schedule root",
         "A.partition[1]: a block partition of dimension 1 of 'A' together with a partition of another dimension is not "
         "supported"},
        {R"({"A": {"interface": "bram", "partition": [{"type": "complete"}, {"dim": 1, "type": "cyclic", "factor": 2}]}})",
         "--example gemm --schedule root", "a complete partition of the whole array cannot be combined"},
        {R"({"kernel": {"dataflow": false}})", "--example gemm", "unknown region 'kernel' (the kernel's top function is 'gemm')"},
    };
    test::TempDir dir;
    for (const ErrorCase &c : cases) {
        write(dir / "d.json", c.json);
        std::string out;
        int rc = test::run_flowhls(
            std::string("compile ") + c.program + " --directives " + (dir / "d.json") + " -o " + (dir / "out"), &out);
        EXPECT_EQ(rc, 2) << c.json << "\n" << out;
        EXPECT_TRUE(has(out, c.message)) << c.json << "\n" << out;
        EXPECT_FALSE(fs::exists(dir / "out")) << c.json;
    }
}

TEST(Directives, StreamDepthAndPingPongAreHonoured) {
    test::TempDir dir;
    write(dir / "d.json", R"({"blur_x": {"stream": {"depth": 5}}, "sharpen": {"ping_pong": true}})");
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example unsharp --schedule root --directives " + (dir / "d.json") + " -o " +
                                    (dir / "u") + " --csim",
                                &out),
              0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    std::string k = test::read_file(dir / "u/kernel.cpp");
    EXPECT_TRUE(has(k, "#pragma HLS STREAM variable=blur_x depth=5\n")) << k;
    EXPECT_TRUE(has(k, "    float sharpen[")) << k;
    std::string graph = test::read_file(dir / "u/graph.txt");
    EXPECT_TRUE(has(graph, "channel: ping-pong \"ping-pong: ping_pong directive\"")) << graph;
}

// Compiles gemm's root schedule with the directives `json` into dir/g, simulates it (it must
// pass) and returns the kernel source.
std::string simulated_gemm_kernel(const test::TempDir &dir, const std::string &json) {
    write(dir / "d.json", json);
    std::string out;
    int rc = test::run_flowhls(
        "compile --example gemm --schedule root --directives " + (dir / "d.json") + " -o " + (dir / "g") + " --csim", &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    return test::read_file(dir / "g/kernel.cpp");
}

// Partitions of two dimensions of one array (any order): the array keeps its shape in the
// kernel, gets one pragma per dimension, and simulates bit-exact.
TEST(Directives, TwoDimensionalPartitionKeepsTheShapeAndSimulates) {
    test::TempDir dir;
    std::string k = simulated_gemm_kernel(dir, R"({"A": {"interface": "bram", "partition": [{"dim": 1, "type": "cyclic", "factor": 2},
        {"dim": 0, "type": "complete"}]}})");
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=A type=complete dim=2\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=A type=cyclic factor=2 dim=1\n")) << k;
    EXPECT_TRUE(has(k, "const float A[")) << k;
    EXPECT_TRUE(has(k, "][")) << k;
}

// A cyclic partition of the rows alone (the outermost dimension) cannot be expressed on the
// flattened array: the array keeps its shape, partitioned in that dimension only.
TEST(Directives, CyclicPartitionOfTheRowsKeepsTheShapeAndSimulates) {
    test::TempDir dir;
    std::string k = simulated_gemm_kernel(
        dir, R"({"A": {"interface": "bram", "partition": [{"dim": 1, "type": "cyclic", "factor": 4}]}})");
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=A type=cyclic factor=4 dim=1\n")) << k;
    EXPECT_FALSE(has(k, "variable=A type=cyclic factor=4 dim=2")) << k;
    EXPECT_TRUE(has(k, "const float A[32][32]")) << k;
    EXPECT_TRUE(has(test::read_file(dir / "g/graph.txt"), "cyclic 4 of dimension 1 (4 banks; the array keeps its shape)"));
}

TEST(Directives, DataflowOffRemovesThePragmaAndSaysWhy) {
    test::TempDir dir;
    write(dir / "d.json", R"({"unsharp": {"dataflow": false}})");
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example unsharp --schedule root --directives " + (dir / "d.json") + " -o " +
                                    (dir / "u"),
                                &out),
              0)
        << out;
    std::string k = test::read_file(dir / "u/kernel.cpp");
    EXPECT_FALSE(has(k, "#pragma HLS DATAFLOW")) << k;
    EXPECT_FALSE(has(k, "hls::stream")) << k;
    EXPECT_TRUE(has(k, "Sequential (no dataflow): the dataflow directive turns the dataflow region of unsharp off")) << k;
}

TEST(Directives, OnnxModelKeyedByNodeAndValueNamesSimulates) {
    test::TempDir dir;
    write(dir / "d.json", R"({
      "/conv1/Conv": {"pipeline": [{"loop": "oy"}]},
      "conv1_op": {"unroll": [{"loop": "kx"}]},
      "/conv1/Conv_output_0": {"stream": {"depth": 4}},
      "/Relu": {"ping_pong": true, "partition": [{"dim": 0, "type": "cyclic", "factor": 4}]},
      "fc1": {"inline": true}})");
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile " + std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx --directives " +
                                    (dir / "d.json") + " -o " + (dir / "l") + " --csim",
                                &out),
              0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    std::string k = test::read_file(dir / "l/kernel.cpp");
    EXPECT_TRUE(has(k, " oy++) {\n#pragma HLS PIPELINE II=1\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS STREAM variable=conv1 depth=4\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=Relu type=cyclic factor=4 dim=1\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS INLINE\n")) << k;
}

// An unroll factor that does not divide the trip (issue 14): pb_mvt SMALL's row loop (trip 120)
// unrolled by 7 by hand, inside the reduction. The HLS tool unrolls it with exit checks; the
// estimate prices ceil(120 / 7) = 18 iterations of 7 copies (the last guarded); infer-partitions
// banks the arrays cyclic 7 (not a divisor of 120: fine for Vitis); C-sim passes for Vitis and
// PandA-Bambu (`#pragma GCC unroll 7`).
TEST(Directives, NonDivisorUnrollByHandPassesCsim) {
    test::TempDir dir;
    write(dir / "d.json", R"({"x1_out": {"schedule": [{"reorder": ["i", "j"], "stage": 1}],
                              "unroll": [{"loop": "i", "factor": 7}]}})");
    std::string out;
    const std::string program = "compile --example pb_mvt --size small --directives " + (dir / "d.json");
    ASSERT_EQ(test::run_flowhls(program + " --csim -o " + (dir / "v"), &out), 0) << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    std::string k = test::read_file(dir / "v/kernel.cpp");
    EXPECT_TRUE(has(k, "i_2 < 120; i_2++) {\n#pragma HLS PIPELINE II=1\n#pragma HLS UNROLL factor=7\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS ARRAY_PARTITION variable=x1_out type=cyclic factor=7 dim=1\n")) << k;
    std::string report = test::read_file(dir / "v/report.txt");
    EXPECT_TRUE(has(report, "applied: unroll factor 7 of loop i_2 (filter compute_x1_out)")) << report;
    EXPECT_TRUE(std::regex_search(report, std::regex(R"(\n  i +18 +1 )"))) << report;  // the copy loop
    EXPECT_TRUE(std::regex_search(report, std::regex(R"(\n  j_x \(x2 flat\) +2160 +1 )"))) << report;  // 120 x 18
    ASSERT_EQ(test::run_flowhls(program + " -t bambu --csim -o " + (dir / "b"), &out), 0) << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    EXPECT_TRUE(has(test::read_file(dir / "b/kernel.c"), "#pragma GCC unroll 7\n"));
}

TEST(Directives, BambuAppliesUnrollAndListsTheRest) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example gemm --schedule hls_unroll -t bambu -o " + (dir / "b") + " --csim", &out), 0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    std::string k = test::read_file(dir / "b/kernel.c");
    EXPECT_TRUE(has(k, "#pragma GCC unroll 65534\n")) << k;
    EXPECT_FALSE(has(k, "#pragma HLS")) << k;
    std::string report = test::read_file(dir / "b/report.txt");
    EXPECT_TRUE(has(report, "applied: complete unroll of loop k_x (filter compute_prod) (#pragma GCC unroll)"))
        << report;
    EXPECT_TRUE(has(report, "not applied by PandA-Bambu: partition of A:")) << report;

    write(dir / "d.json", R"({"sharpen": {"pipeline": [{"loop": "y", "ii": 2}], "inline": true},
                              "blur_x": {"stream": {}}, "input": {"interface": {"mode": "m_axi", "bundle": "in"}},
                              "sharpened": {"interface": "axis"}})");
    ASSERT_EQ(test::run_flowhls("compile --example unsharp --schedule root -t bambu --directives " + (dir / "d.json") +
                                    " -o " + (dir / "u") + " --csim",
                                &out),
              0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    report = test::read_file(dir / "u/report.txt");
    EXPECT_TRUE(has(report, "not applied by PandA-Bambu: pipeline II=2 of loop y")) << report;
    EXPECT_TRUE(has(report, "not applied by PandA-Bambu: stream blur_x (no FIFOs; it stays an array)")) << report;
    k = test::read_file(dir / "u/kernel.c");
    EXPECT_TRUE(has(k, "static inline __attribute__((always_inline)) void compute_sharpen(")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS interface port=input mode=m_axi offset=direct bundle=in\n")) << k;
    EXPECT_TRUE(has(k, "#pragma HLS interface port=sharpened mode=axis\n")) << k;
    EXPECT_TRUE(has(test::read_file(dir / "u/run_bambu.sh"), "--generate-interface=INFER"));
}

TEST(Directives, AxisOnAnInOrderOutputIsAccepted) {
    test::TempDir dir;
    write(dir / "d.json", R"({"sharpened": {"interface": "axis"}})");
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example unsharp --schedule root --directives " + (dir / "d.json") + " -o " +
                                    (dir / "u") + " --csim",
                                &out),
              0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
    EXPECT_TRUE(has(test::read_file(dir / "u/kernel.cpp"), "#pragma HLS INTERFACE axis port=sharpened\n"));
}

TEST(Directives, ExampleScheduleSimulates) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile --example gemm --schedule hls_unroll -o " + (dir / "g") + " --csim", &out), 0)
        << out;
    EXPECT_TRUE(has(out, "csim: PASS")) << out;
}

}  // namespace
}  // namespace flowhls
