// Tests of the flowhls command line: listing, compile + csim, bad input, determinism.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

TEST(Cli, ExamplesListsNameFirst) {
    std::string out;
    ASSERT_EQ(test::run_flowhls("examples", &out), 0) << out;
    out = "\n" + out;
    for (const char *name : {"brighten_blur", "gaussian", "harris", "unsharp", "upsample", "gemm", "2mm", "conv_relu"}) {
        EXPECT_NE(out.find(std::string("\n") + name + "  schedules: root,linebuffer"), std::string::npos)
            << name << "\n" << out;
    }
}

TEST(Cli, CompileWithCsimPrintsProjectAndVerdict) {
    test::TempDir dir;
    std::string out;
    int rc = test::run_flowhls("compile --example gaussian --schedule linebuffer -o " + (dir / "g") + " --csim", &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("project:  " + (dir / "g")), std::string::npos) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    for (const char *f : {"kernel.cpp", "kernel.h", "tb.cpp", "Makefile", "run_hls.tcl", "README.md", "report.txt",
                          "graph.txt", "include/flowhls_math.h", "include/flowhls_tb.h", "include/csim/hls_stream.h",
                          "data/input.npy", "data/blur_y.expected.npy"}) {
        EXPECT_TRUE(fs::exists(dir / ("g/" + std::string(f)))) << f;
    }
    // Re-running csim on the directory works the same.
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "g"), &out), 0) << out;
}

TEST(Cli, BambuTargetWritesC99AndSimulates) {
    test::TempDir dir;
    std::string out;
    int rc = test::run_flowhls("compile -e conv_relu -s parallel --target bambu -o " + (dir / "b") + " --csim", &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    for (const char *f : {"kernel.c", "kernel.h", "tb.c", "Makefile", "run_bambu.sh", "include/flowhls_math.h"}) {
        EXPECT_TRUE(fs::exists(dir / ("b/" + std::string(f)))) << f;
    }
    EXPECT_FALSE(fs::exists(dir / "b/include/csim/hls_stream.h"));
    EXPECT_NE(test::read_file(dir / "b/kernel.c").find("#pragma omp for\n"), std::string::npos);
    EXPECT_NE(test::read_file(dir / "b/Makefile").find("-std=c99 -Wall -Wextra -Werror"), std::string::npos);
    EXPECT_EQ(test::run_flowhls("csim --sanitize " + (dir / "b"), &out), 0) << out;
    // Vectorized stages become loops over small arrays.
    rc = test::run_flowhls("compile -e gemm -s vectorized --target bambu -o " + (dir / "v") + " --csim", &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_NE(test::read_file(dir / "v/kernel.c").find("float _"), std::string::npos);
    EXPECT_NE(test::read_file(dir / "v/kernel.c").find("[8];"), std::string::npos);
}

TEST(Cli, CsimDetectsAWrongResult) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e upsample -o " + (dir / "u"), &out), 0) << out;
    // Corrupt the expected output: the simulation must fail with exit code 1.
    std::string ref = test::read_file(dir / "u/data/upsampled.expected.npy");
    ref[ref.size() - 1] ^= 1;
    std::ofstream(dir / "u/data/upsampled.expected.npy", std::ios::binary) << ref;
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "u"), &out), 1) << out;
    EXPECT_NE(out.find("csim: FAIL"), std::string::npos) << out;
    EXPECT_NE(out.find("1 mismatches"), std::string::npos) << out;
}

void expect_clean_failure(const std::string &args, const std::string &message, const test::TempDir &dir) {
    std::string out;
    EXPECT_EQ(test::run_flowhls(args, &out), 2) << out;
    EXPECT_NE(out.find("flowhls: error: " + message), std::string::npos) << out;
    // No partial output: the temp directory holds nothing but what the test made.
    for (const auto &e : fs::directory_iterator(dir.path())) {
        EXPECT_EQ(e.path().filename().string().rfind(".", 0), std::string::npos) << "left behind: " << e.path();
        EXPECT_NE(e.path().filename(), "out") << "left behind: " << e.path();
    }
}

// PandA-Bambu's sums are int64_t: a format is refused up front only when even its narrowest
// sums (2F + 1 bits) cannot fit; otherwise by the sums proven per filter. LeNet-5 at
// fixed<32,2> (F = 30): conv1's sums fit in fixed<64,4>, fc1's need 5 integer bits (65).
TEST(Cli, BambuRefusesSumsByTheirProvenWidth) {
    test::TempDir dir;
    const std::string lenet = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";
    expect_clean_failure("compile " + lenet + " --precision 'fixed<32,2>' -t bambu --device xc7z020 -o " + (dir / "out"),
                         "--precision gives ONNX node '/fc1/Gemm' fixed<32,2> on PandA-Bambu: its sums, fixed<65,5> "
                         "(proven from its weights and inputs, F = W - I), do not fit the 64 bits of int64_t",
                         dir);
    expect_clean_failure("compile " + lenet + " --precision 'fixed<32,0>' -t bambu --device xc7z020 -o " + (dir / "out"),
                         "--precision fixed<32,0> on PandA-Bambu: its sums need at least 2F + 1 = 65 bits", dir);
    // fixed<30,3>: the rule's sums (2F + I + 10 = 67 bits) were refused; the proven ones fit.
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile " + lenet + " --precision 'fixed<30,3>' -t bambu --device xc7z020 -o " + (dir / "w"),
                                &out),
              0)
        << out;
    EXPECT_NE(test::read_file(dir / "w/kernel.h").find("fc1_acc_t;  // its sums and intermediate values: fixed<60,6>"),
              std::string::npos);
}

TEST(Cli, ReportDevicesAndClock) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("devices", &out), 0) << out;
    EXPECT_EQ(out, "xc7z020\nxcu250\nxcu280\nxcvu9p\nxczu9eg\n");
    ASSERT_EQ(test::run_flowhls("compile -e gaussian --device xcu280 --clock 250 --report -o " + (dir / "g"), &out), 0)
        << out;
    EXPECT_NE(out.find("QoR estimate for xcu280 (U280) at 250 MHz"), std::string::npos) << out;
    EXPECT_NE(test::read_file(dir / "g/run_hls.tcl").find("set_part {xcu280-fsvh2892-2L-e}"), std::string::npos);
    EXPECT_NE(test::read_file(dir / "g/run_hls.tcl").find("create_clock -period 4 "), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "g/report.json"));
    ASSERT_EQ(test::run_flowhls("report " + (dir / "g"), &out), 0) << out;
    EXPECT_NE(out.find("flowhls report: kernel gaussian"), std::string::npos) << out;
    EXPECT_NE(out.find("QoR estimate for xcu280"), std::string::npos) << out;
    expect_clean_failure("compile -e gemm --device xc9000 -o " + (dir / "out"), "unknown device 'xc9000'", dir);
    EXPECT_EQ(test::run_flowhls("report " + dir.path(), &out), 2) << out;
}

TEST(Cli, HtmlReportIsSelfContainedWithTheGraph) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e gaussian -s root -o " + (dir / "g"), &out), 0) << out;
    std::string html = test::read_file(dir / "g/report.html");
    EXPECT_NE(html.find("<svg"), std::string::npos);
    for (const char *name : {"hw_input", "blur_x", "blur_y"}) EXPECT_NE(html.find(name), std::string::npos) << name;
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
}

TEST(Cli, BenchPrintsOwnAndPublishedFigures) {
    std::string out;
    // The published figures are built in: bench runs from any directory.
    ASSERT_EQ(test::run_flowhls("bench", &out), 0) << out;
    for (const char *name : {"brighten_blur", "gaussian", "harris", "unsharp", "upsample", "gemm", "2mm", "conv_relu"}) {
        EXPECT_NE(out.find(std::string("\n") + name + " "), std::string::npos) << name;
    }
    EXPECT_NE(out.find("PUBLISHED figures of other systems"), std::string::npos);
    EXPECT_NE(out.find("gaussian  27159"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("bench --reference /nonexistent", &out), 2) << out;
    ASSERT_EQ(test::run_flowhls(std::string("bench --reference ") + FLOWHLS_SOURCE_DIR + "/bench/reference", &out), 0)
        << out;
}

TEST(Cli, BenchCalibrationComparesWithVitis) {
    std::string out;
    ASSERT_EQ(test::run_flowhls("bench --calibration --design polybench/vitis/default/gemm", &out), 0) << out;
    EXPECT_NE(out.find("polybench/vitis/default/gemm  (pb_gemm baseline, medium)"), std::string::npos) << out;
    EXPECT_NE(out.find("latency 10610602 / "), std::string::npos) << out;  // Vitis's csynth figure
    EXPECT_NE(out.find("VITIS_LOOP_30_1 = "), std::string::npos) << out;
    EXPECT_NE(out.find("\nlatency          1 "), std::string::npos) << out;
    test::TempDir dir;
    std::string md = dir / "cal.md";
    {
        std::ofstream f(md);
        f << "# title\n<!-- calibration:begin -->\nold\n<!-- calibration:end -->\ntail\n";
    }
    ASSERT_EQ(test::run_flowhls("bench --calibration --design vitis/default/gemm --markdown " + md, &out), 0) << out;
    std::string text = test::read_file(md);
    EXPECT_EQ(text.find("old"), std::string::npos) << text;
    EXPECT_NE(text.find("| polybench/vitis/default/gemm | pb_gemm baseline |"), std::string::npos) << text;
    EXPECT_EQ(text.rfind("tail\n"), text.size() - 5) << text;
    EXPECT_EQ(test::run_flowhls("bench --markdown " + md, &out), 2) << out;
}

TEST(Cli, UnknownExample) {
    test::TempDir dir;
    expect_clean_failure("compile -e no_such -o " + (dir / "out"), "unknown example 'no_such'", dir);
}

TEST(Cli, UnknownSchedule) {
    test::TempDir dir;
    expect_clean_failure("compile -e gemm -s fastest -o " + (dir / "out"), "example 'gemm' has no schedule 'fastest'",
                         dir);
}

TEST(Cli, ProblemSizes) {
    test::TempDir dir;
    expect_clean_failure("compile -e pb_gemm --size huge -o " + (dir / "out"),
                         "example 'pb_gemm' has no size 'huge' (sizes: medium, small, mini)", dir);
    expect_clean_failure("compile -e gemm --size mini -o " + (dir / "out"), "example 'gemm' has one fixed size", dir);
    expect_clean_failure("compile -e pb_gemm -s hida --size mini -o " + (dir / "out"),
                         "pb_gemm's ScaleHLS/HIDA design tiles i by 4 and 10, j by 10 and k by 3: dataset mini", dir);
    expect_clean_failure("compile -e pb_atax -s hida --size small -o " + (dir / "out"),
                         "pb_atax's HIDA design tiles i by 30 and j by 10: dataset small (116 x 124)", dir);
    expect_clean_failure("compile -e pb_atax -s scalehls --size mini -o " + (dir / "out"),
                         "pb_atax's ScaleHLS design tiles i by 195 and j by 10: dataset mini (38 x 42)", dir);
    expect_clean_failure("compile -e pb_2mm -s scalehls --size mini -o " + (dir / "out"),
                         "pb_2mm's ScaleHLS design tiles i by 12, j and l by 10: dataset mini (16 x 18 x 22 x 24) is "
                         "not a multiple of them",
                         dir);
    expect_clean_failure("compile -e pb_3mm -s hida --size small -o " + (dir / "out"),
                         "pb_3mm's HIDA design tiles E by 12 x 10, F by 10 x 6, G by 9 x 6, k by 2 in F and G: dataset "
                         "small (40 x 50 x 60 x 70 x 80)",
                         dir);
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e pb_atax --size mini -o " + (dir / "atax") + " --csim", &out), 0) << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_NE(test::read_file(dir / "atax/kernel.cpp").find("float A[1596]"), std::string::npos);  // 38 x 42
    ASSERT_EQ(test::run_flowhls("examples", &out), 0);
    EXPECT_NE(out.find("pb_atax  schedules: baseline"), std::string::npos) << out;
    EXPECT_NE(out.find("sizes: medium,small,mini"), std::string::npos) << out;
}

TEST(Cli, UnsupportedScheduleDirective) {
    test::TempDir dir;
    expect_clean_failure("compile -e gemm -s vectorized -o " + (dir / "out"),
                         "Func 'prod': the vectorize directive on loop", dir);
    expect_clean_failure("compile -e conv_relu -s parallel -o " + (dir / "out"),
                         "Func 'relu': the parallel directive on loop 'c'", dir);
    expect_clean_failure("compile -e gaussian -s vectorized -o " + (dir / "out"),
                         "Func 'blur_x': the vectorize directive on loop", dir);
    expect_clean_failure("compile -e gemm --target quartus -o " + (dir / "out"), "unknown target 'quartus'", dir);
}

TEST(Cli, UnwritableOutputDirectory) {
    test::TempDir dir;
    std::ofstream(dir / "file") << "x";
    expect_clean_failure("compile -e gemm -o " + (dir / "file/out"), "cannot write output directory", dir);
    fs::remove(dir / "file");
}

TEST(Cli, RefusesToReplaceAForeignDirectory) {
    test::TempDir dir;
    fs::create_directories(dir / "mine");
    std::ofstream(dir / "mine/notes.txt") << "keep me";
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile -e gemm -o " + (dir / "mine"), &out), 2) << out;
    EXPECT_NE(out.find("was not created by flowhls"), std::string::npos) << out;
    EXPECT_EQ(test::read_file(dir / "mine/notes.txt"), "keep me");
}

TEST(Cli, DynamicShapeThroughTheApiLeavesNoOutput) {
    test::TempDir dir;
    HalideProgram p = test::small_program();
    p.inputs[0].shape.clear();
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "out";
    try {
        compile(p, o);
        FAIL() << "expected an error";
    } catch (const flowhls::Error &e) {
        EXPECT_NE(std::string(e.what()).find("dynamic shape"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(Cli, UnknownPassForDumpAfter) {
    test::TempDir dir;
    expect_clean_failure("compile -e gemm --dump-after nope -o " + (dir / "out"), "--dump-after: unknown pass 'nope'",
                         dir);
}

TEST(Cli, DumpGraphAndDumpAfter) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e brighten_blur --dump-graph --dump-after legalize-names --time-passes -o " +
                                    (dir / "o"),
                                &out),
              0)
        << out;
    EXPECT_NE(out.find("// ---- after extraction\ngraph brighten_blur"), std::string::npos) << out;
    EXPECT_NE(out.find("// ---- after legalize-names"), std::string::npos) << out;
    EXPECT_NE(out.find("pass check-dataflow"), std::string::npos) << out;
}

TEST(Cli, OutputIsDeterministic) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e conv_relu -s linebuffer -o " + (dir / "a"), &out), 0) << out;
    ASSERT_EQ(test::run_flowhls("compile -e conv_relu -s linebuffer -o " + (dir / "b"), &out), 0) << out;
    size_t files = 0;
    for (const auto &e : fs::recursive_directory_iterator(dir / "a")) {
        if (!e.is_regular_file()) continue;
        std::string rel = fs::relative(e.path(), dir / "a").string();
        EXPECT_EQ(test::read_file(e.path().string()), test::read_file(dir / ("b/" + rel))) << rel;
        files++;
    }
    EXPECT_GE(files, 10u);
    // Compiling again into the same directory replaces it.
    ASSERT_EQ(test::run_flowhls("compile -e gemm -o " + (dir / "a"), &out), 0) << out;
    EXPECT_FALSE(fs::exists(dir / "a/data/weights.npy"));
    EXPECT_TRUE(fs::exists(dir / "a/data/A.npy"));
}

}  // namespace
}  // namespace flowhls

namespace flowhls {
namespace {

std::string plugin_args() { return std::string("--plugin ") + FLOWHLS_TEST_PLUGIN + " "; }

TEST(CliGenerator, ListsRegisteredGenerators) {
    std::string out;
    ASSERT_EQ(test::run_flowhls("generators " + plugin_args(), &out), 0) << out;
    EXPECT_NE(out.find("test_blend\n"), std::string::npos) << out;
    EXPECT_NE(out.find("test_box_blur\n"), std::string::npos) << out;
}

TEST(CliGenerator, CompilesAndSimulatesWithStaticShapes) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile -g test_box_blur " + plugin_args() +
                                    "--param taps=5 --shape input=24x40 --shape output=24x36 -o " + (dir / "b") +
                                    " --csim",
                                &out),
              0)
        << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    // blur, output's copy and buffer-inputs' on-chip copy of the windowed input.
    EXPECT_NE(out.find("kernel:   test_box_blur, 3 filter(s): compute_input_load"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("compile -g test_blend " + plugin_args() +
                                    "--shape a=16x20 --shape b=16x20 --shape output=16x19 --name blend -o " +
                                    (dir / "c") + " --csim --sanitize",
                                &out),
              0)
        << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_NE(test::read_file(dir / "c/kernel.h").find("void blend(const uint8_t a[320], const uint8_t b[320], uint8_t output[304]);"),
              std::string::npos);
}

TEST(CliGenerator, DynamicShapeIsAnError) {
    test::TempDir dir;
    expect_clean_failure("compile -g test_box_blur " + plugin_args() + "--shape input=24x40 -o " + (dir / "out"),
                         "output 'output' has a dynamic shape (2 dimensions); give it with --shape output=NxN", dir);
    expect_clean_failure("compile -g test_box_blur " + plugin_args() + "--shape output=24x36 -o " + (dir / "out"),
                         "input 'input' has a dynamic shape", dir);
}

TEST(CliGenerator, BadShapesAndNames) {
    test::TempDir dir;
    expect_clean_failure("compile -g test_box_blur " + plugin_args() +
                             "--shape input=40 --shape output=24x36 -o " + (dir / "out"),
                         "input 'input' has 2 dimensions but --shape gives 1", dir);
    expect_clean_failure("compile -g test_box_blur " + plugin_args() +
                             "--shape input=24x4x0 --shape output=24x36 -o " + (dir / "out"),
                         "--shape input: extents must be positive", dir);
    expect_clean_failure("compile -g test_box_blur " + plugin_args() +
                             "--shape input=24x40 --shape output=24x36 --shape extra=3 -o " + (dir / "out"),
                         "--shape extra: generator 'test_box_blur' has no input or output with that name", dir);
    expect_clean_failure("compile -g no_such_generator " + plugin_args() + "-o " + (dir / "out"),
                         "unknown generator 'no_such_generator'", dir);
    expect_clean_failure("compile -g test_box_blur --plugin " + (dir / "missing.so") + " -o " + (dir / "out"),
                         "cannot load generator plugin", dir);
}

TEST(CliGenerator, InputReadOutsideItsShapeIsReported) {
    test::TempDir dir;
    // The blur reads 3 columns more than the output has; an input of the same width is too small.
    expect_clean_failure("compile -g test_box_blur " + plugin_args() +
                             "--shape input=24x36 --shape output=24x36 -o " + (dir / "out"),
                         "Func 'blur' reads input 'input' (shape 24x36, 864 elements) at elements 1 to 864", dir);
}

}  // namespace
}  // namespace flowhls
