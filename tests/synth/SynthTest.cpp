// Tests of `flowhls synth` without PandA-Bambu: parsing a real Bambu run, finding Bambu, the
// command line, the whole flow with a stand-in for bambu, and scripts/install-bambu.sh.
#include "TestSupport.h"
#include "flowhls/Error.h"
#include "flowhls/Synth.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(FLOWHLS_SOURCE_DIR) + "/tests/synth/data/";

TEST(BambuLog, ReadsWhatARealRunMeasured) {
    // bambu.log and testbench.log of gaussian (root schedule) on PandA-Bambu 2024.10 + Verilator 5.006.
    SynthMeasurement m = parse_bambu_run(test::read_file(kData + "gaussian_bambu.log"),
                                         test::read_file(kData + "gaussian_testbench.log"),
                                         test::read_file(kData + "gaussian_brams.v"), "gaussian");
    EXPECT_EQ(m.bambu_version, "PandA 2024.10 - Revision 683d87153-main");
    EXPECT_EQ(m.cycles, 139510);
    EXPECT_EQ(m.lut, 6226);
    EXPECT_EQ(m.ff, 1521);
    EXPECT_EQ(m.dsp, 2);  // the float multiplier's; the top function reports none of its own
    EXPECT_NEAR(m.fmax_mhz, 101.662, 0.001);
    EXPECT_EQ(m.bram18k, 18);  // 66x66 and 64x66 floats: 9 blocks of 512 words each
    EXPECT_EQ(m.memory_bytes, 34320);
    EXPECT_EQ(m.testbench_verdict, "PASS: 1 output(s) match the reference");
    ASSERT_EQ(m.testbench_lines.size(), 2u);
    EXPECT_EQ(m.testbench_lines[0].rfind("  output blur_y: 4096 values, 0 mismatches", 0), 0u);
    EXPECT_TRUE(m.bambu_mismatches.empty());
    EXPECT_EQ(m.error, "");
}

TEST(BambuLog, ReadsFailures) {
    std::string log = "Version: PandA 2024.10 - Revision x\n"
                      "../kernel.c:3:5: error: use of undeclared identifier 'q'\n"
                      "error -> Front-end compiler returns an error during compilation 2\n";
    std::string tb = "error: Memory parameter 1 (5/16) mismatch with respect to gold reference.\n"
                     "  output o: 16 values, 1 mismatches, max abs error 1, max rel error 1, 1 values differ in bits\n"
                     "    first mismatch at index 4: got 1, expected 2\n"
                     "FAIL: 1 of 1 output(s) differ from the reference\n";
    SynthMeasurement m = parse_bambu_run(log, tb, "", "k");
    EXPECT_EQ(m.error, "error -> Front-end compiler returns an error during compilation 2");
    EXPECT_EQ(m.cycles, -1);
    EXPECT_EQ(m.bram18k, -1);
    ASSERT_EQ(m.bambu_mismatches.size(), 1u);
    EXPECT_EQ(m.testbench_verdict, "FAIL: 1 of 1 output(s) differ from the reference");
    EXPECT_EQ(m.testbench_lines.size(), 3u);
}

TEST(BambuLog, InfiniteMultiplexerAreaGivesALowerBound) {
    // What Bambu printed for LeNet-5 with its weights through m_axi arguments.
    std::string log = "  Module binding information for function lenet5:\n"
                      "    Estimated resources area (no Muxes and address logic): 30197\n"
                      "    Estimated area of MUX21: inf\n"
                      "    Total estimated area: inf\n"
                      "    Estimated number of DSPs: 8\n";
    SynthMeasurement m = parse_bambu_run(log, "", "", "lenet5");
    EXPECT_EQ(m.lut, 30197);
    EXPECT_TRUE(m.lut_lower_bound);
    EXPECT_EQ(m.dsp, 8);
    m = parse_bambu_run(test::read_file(kData + "gaussian_bambu.log"), "", "", "gaussian");
    EXPECT_FALSE(m.lut_lower_bound);
}

TEST(FindBambu, SaysHowToGetIt) {
    test::TempDir dir;
    try {
        find_bambu(dir / "nothing");
        ADD_FAILURE() << "accepted a missing bambu";
    } catch (const Error &e) {
        std::string m = e.what();
        EXPECT_NE(m.find("scripts/install-bambu.sh"), std::string::npos) << m;
        EXPECT_NE(m.find("AppImage"), std::string::npos) << m;
        EXPECT_NE(m.find("verilator"), std::string::npos) << m;
    }
    EXPECT_THROW(find_bambu(dir.path()), Error);  // a directory without bin/bambu
    fs::create_directories(dir / "root/bin");
    std::ofstream(dir / "root/bin/bambu") << "#!/bin/sh\n";
    EXPECT_THROW(find_bambu(dir / "root/bin/bambu"), Error);  // not executable
    fs::permissions(dir / "root/bin/bambu", fs::perms::owner_all);
    EXPECT_EQ(find_bambu(dir / "root"), fs::absolute(dir / "root/bin/bambu").string());
    EXPECT_EQ(find_bambu(dir / "root/bin/bambu"), fs::absolute(dir / "root/bin/bambu").string());
}

// A stand-in for bambu: prints the lines of Bambu's log flowhls reads, writes a Verilog file
// with one BRAM array, and runs the project's testbench compiled with gcc where Bambu would
// run it against the RTL.
std::string fake_bambu(const test::TempDir &dir) {
    std::string path = dir / "fake/bin/bambu";
    fs::create_directories(dir / "fake/bin");
    std::ofstream(path) << R"(#!/bin/sh
top=; tb=; arg=
for a in "$@"; do
  case $a in --top-fname=*) top=${a#*=};; --generate-tb=*) tb=${a#*=};; --tb-arg=*) arg=${a#*=};; esac
done
echo " ==  Bambu executed with: fake $*"
echo "                Version: PandA 2024.10 - Revision fake"
echo "  Scheduling Information of function $top:"
echo "    Estimated max frequency (MHz): 123.4"
echo "  Module binding information for function $top:"
echo "    Total estimated area: 777"
echo "    Estimated number of DSPs: 2"
echo "  Total number of flip-flops in function $top: 99"
printf 'module m;\n  ARRAY_1D_STD_BRAM_NN_SDS #(.n_elements(1024),\n    .data_size(32)) a (.x(y));\nendmodule\n' > "$top.v"
mkdir -p HLS_output/simulation
gcc -std=c99 -I.. -I../include ../kernel.c "$tb" -o tb -lm || exit 1
./tb "$arg" > HLS_output/simulation/testbench.log 2>&1; rc=$?
echo "  Total cycles             : 4321 cycles"
exit $rc
)";
    fs::permissions(path, fs::perms::owner_all);
    return path;
}

TEST(Synth, RunsTheScriptAndReportsWhatWasMeasured) {
    test::TempDir dir;
    std::string bambu = fake_bambu(dir), out;
    ASSERT_EQ(test::run_flowhls("compile -e gaussian --target bambu -o " + (dir / "g"), &out), 0) << out;
    nlohmann::json j = nlohmann::json::parse(test::read_file(dir / "g/report.json"));
    EXPECT_EQ(test::report_schema_problem(j), "");
    EXPECT_GT(j["bambu_estimate"]["latency_cycles"].get<int64_t>(), 0);
    EXPECT_EQ(j["bambu_estimate"]["filters"][1]["name"], "blur_x");
    EXPECT_EQ(test::run_flowhls("synth " + (dir / "g") + " --bambu " + bambu, &out), 0) << out;
    EXPECT_NE(out.find("synth: PASS: RTL co-simulation in Verilator, 1 output(s) match the reference (4321 cycles)"),
              std::string::npos)
        << out;
    std::string report = test::read_file(dir / "g/report.txt");
    EXPECT_NE(report.find("QoR estimate for xc7z020"), std::string::npos);  // the estimate stays
    EXPECT_NE(report.find("(measured by PandA-Bambu 2024.10 - Revision fake + Verilator"), std::string::npos) << report;
    EXPECT_NE(report.find("LUT 777  FF 99  DSP 2  BRAM18K 2"), std::string::npos) << report;
    EXPECT_NE(report.find("cycles (RTL simulation)      4321   (flowhls estimate, Bambu model: "), std::string::npos)
        << report;
    EXPECT_NE(report.find("output blur_y: 4096 values, 0 mismatches"), std::string::npos) << report;
    EXPECT_TRUE(fs::exists(dir / "g/bambu/bambu.log"));
    j = nlohmann::json::parse(test::read_file(dir / "g/report.json"));
    EXPECT_EQ(test::report_schema_problem(j), "");
    EXPECT_EQ(j["measured"]["cycles"], 4321);
    EXPECT_EQ(j["measured"]["passed"], true);
    EXPECT_EQ(j["measured"]["device"], "xc7z020-1clg484-VVD");
    EXPECT_GT(j["measured"]["estimate"]["latency_cycles"].get<int64_t>(), 0);
    EXPECT_EQ(j["measured"]["tool"].get<std::string>().rfind("PandA-Bambu 2024.10 - Revision fake + Verilator ", 0), 0u);
    EXPECT_EQ(j["measured"]["estimate"]["model"], "Bambu model");
    std::string html = test::read_file(dir / "g/report.html");
    EXPECT_NE(html.find("<section id=\"measured\">\n<h2>Measured by PandA-Bambu 2024.10 - Revision fake + Verilator "),
              std::string::npos)
        << html;

    // A second run replaces the section; a wrong reference fails with exit code 1.
    std::string expected = dir / "g/data/blur_y.expected.npy";
    std::string bytes = test::read_file(expected);
    bytes[bytes.size() - 2] ^= 0x40;
    std::ofstream(expected, std::ios::binary) << bytes;
    EXPECT_EQ(test::run_flowhls("synth " + (dir / "g") + " --bambu " + bambu, &out), 1) << out;
    EXPECT_NE(out.find("synth: FAIL: RTL co-simulation: 1 of 1 output(s) differ from the reference"), std::string::npos)
        << out;
    report = test::read_file(dir / "g/report.txt");
    EXPECT_EQ(report.find("PASS: RTL"), std::string::npos) << report;
    EXPECT_EQ(report.find("PandA-Bambu synthesis and RTL"), report.rfind("PandA-Bambu synthesis and RTL"));
    j = nlohmann::json::parse(test::read_file(dir / "g/report.json"));
    EXPECT_EQ(test::report_schema_problem(j), "");
    EXPECT_EQ(j["measured"]["passed"], false);
    html = test::read_file(dir / "g/report.html");
    EXPECT_EQ(html.find("<section id=\"measured\">"), html.rfind("<section id=\"measured\">"));
}

TEST(Synth, RefusesWhatItCannotRun) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e gemm --target bambu -o " + (dir / "b"), &out), 0) << out;
    // No bambu on PATH: exit 2 with the way to get it.
    EXPECT_EQ(test::run_shell("env PATH=/usr/bin:/bin " + std::string(FLOWHLS_BIN) + " synth " + (dir / "b"), &out), 2) << out;
    EXPECT_NE(out.find("flowhls: error: PandA-Bambu was not found"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("synth " + (dir / "b") + " --bambu " + (dir / "none"), &out), 2) << out;
    std::string bambu = fake_bambu(dir);
    // A Vitis project, or no project.
    ASSERT_EQ(test::run_flowhls("compile -e gemm -o " + (dir / "v"), &out), 0) << out;
    EXPECT_EQ(test::run_flowhls("synth " + (dir / "v") + " --bambu " + bambu, &out), 2) << out;
    EXPECT_NE(out.find("no run_bambu.sh): compile it with --target bambu"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("synth " + dir.path() + " --bambu " + bambu, &out), 2) << out;
    // compile --synth checks before compiling.
    EXPECT_EQ(test::run_flowhls("compile -e gemm --synth -o " + (dir / "x") + " --bambu " + bambu, &out), 2) << out;
    EXPECT_NE(out.find("--synth runs PandA-Bambu: compile with --target bambu"), std::string::npos) << out;
    EXPECT_EQ(test::run_flowhls("compile -e gemm --target bambu --synth -o " + (dir / "x") + " --bambu " + (dir / "none"),
                                &out),
              2)
        << out;
    EXPECT_FALSE(fs::exists(dir / "x"));
}

TEST(Synth, CompileWithSynth) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile -e brighten_blur --target bambu --csim --synth --bambu " + fake_bambu(dir) +
                                    " -o " + (dir / "b"),
                                &out),
              0)
        << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_NE(out.find("synth: PASS"), std::string::npos) << out;
    EXPECT_EQ(out.find("[synth "), std::string::npos) << out;  // stderr is not a terminal: no status line
}

TEST(Synth, ShowsWhatBambuDoesOnATerminal) {
    test::TempDir dir;
    std::string out, bambu = fake_bambu(dir);
    ASSERT_EQ(test::run_flowhls("compile -e gaussian --target bambu -o " + (dir / "g"), &out), 0) << out;
    // script(1) gives flowhls a terminal.
    ASSERT_EQ(test::run_shell("script -qec '" + std::string(FLOWHLS_BIN) + " synth " + (dir / "g") + " --bambu " + bambu +
                                  "' /dev/null",
                              &out),
              0)
        << out;
    for (const char *stage : {"] PandA-Bambu: front end (clang)", "] PandA-Bambu: scheduling gaussian",
                              "] PandA-Bambu: binding gaussian", "] writing Verilog, building the Verilator model",
                              "] RTL co-simulation finished"}) {
        EXPECT_NE(out.find(stage), std::string::npos) << stage << "\n" << out;
    }
    EXPECT_NE(out.find("[synth    0 s]"), std::string::npos) << out;
    EXPECT_NE(out.find("synth: PASS"), std::string::npos) << out;
}

TEST(BambuSweep, WritesTheMeasuredFiguresWithTheirOrigin) {
    test::TempDir dir;
    std::string out;
    std::string sweep = std::string(FLOWHLS_SOURCE_DIR) + "/bench/bambu-sweep.sh";
    ASSERT_EQ(test::run_shell(sweep + " --bambu " + fake_bambu(dir) + " --flowhls " + FLOWHLS_BIN + " --out " +
                                  (dir / "m.csv") + " --work " + (dir / "w") + " brighten_blur_root",
                              &out),
              0)
        << out;
    std::string csv = test::read_file(dir / "m.csv");
    EXPECT_EQ(csv.rfind("# Measured by flowhls synth (PandA-Bambu synthesis, Verilator RTL co-simulation): "
                        "PandA-Bambu 2024.10 - Revision fake + Verilator",
                        0),
              0u)
        << csv;
    EXPECT_NE(csv.find("\"inf\"); BRAM18K"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nname,rtl_vs_reference,cycles,lut,ff,dsp,bram18k,fmax_mhz,seconds,what,args,tool,device\n"
                       "brighten_blur_root,PASS,4321,777,99,2,2,123.4,"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",\"uint16 stencil\",\"-e brighten_blur -s root\",\"PandA-Bambu 2024.10 - Revision fake"),
              std::string::npos)
        << csv;
    // Nothing written beside the script (a quoting slip once made a stray file there).
    for (const fs::directory_entry &e : fs::directory_iterator(std::string(FLOWHLS_SOURCE_DIR))) {
        EXPECT_NE(e.path().filename().string().rfind("=", 0), 0u) << e.path();
    }
}

TEST(InstallBambuScript, ChecksItsArgumentsAndShowsTheRecipe) {
    std::string script = std::string(FLOWHLS_SOURCE_DIR) + "/scripts/install-bambu.sh", out;
    EXPECT_EQ(test::run_shell(script + " --help", &out), 0) << out;
    EXPECT_NE(out.find("Usage: scripts/install-bambu.sh [SRC_DIR]"), std::string::npos) << out;
    EXPECT_EQ(test::run_shell(script + " --bogus", &out), 2) << out;
    EXPECT_EQ(test::run_shell(script + " /nonexistent/src", &out), 2) << out;
    EXPECT_NE(out.find("source directory '/nonexistent/src' does not exist"), std::string::npos) << out;
    EXPECT_EQ(test::run_shell(script + " --jobs x", &out), 2) << out;
    test::TempDir dir;
    EXPECT_EQ(test::run_shell(script + " " + dir.path(), &out), 2) << out;  // not a Bambu tree
    EXPECT_NE(out.find("is not a PandA-bambu source tree"), std::string::npos) << out;
    std::ofstream(dir / "Makefile.init") << "";
    std::ofstream(dir / "configure.ac") << "";
    EXPECT_EQ(test::run_shell(script + " " + dir.path() + " --prefix " + (dir / "p") + " --dry-run", &out), 0) << out;
    for (const char *want : {"clang-16", "llvm-16", "gcc-multilib", "libc6-dev-i386", "libbdd0c2", "verilator", "libboost-all-dev",
                             "--with-clang16=/usr/bin/clang-16", "install-strip DESTDIR=" }) {
        EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
    }
    EXPECT_FALSE(fs::exists(dir / "p"));  // a dry run changes nothing
    // Without a source directory it clones upstream at the tested revision.
    EXPECT_EQ(test::run_shell(script + " --prefix " + (dir / "q") + " --dry-run", &out), 0) << out;
    EXPECT_NE(out.find("git clone --recurse-submodules https://github.com/ferrandi/PandA-bambu.git"), std::string::npos)
        << out;
    EXPECT_NE(out.find("checkout 683d87153"), std::string::npos) << out;
}

}  // namespace
}  // namespace flowhls
