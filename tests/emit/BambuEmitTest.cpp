// Tests of the PandA-Bambu side of emission: device names, run_bambu.sh, the co-simulation
// testbench and the measured section of the reports.
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "analysis/Device.h"
#include "emit/bambu/BambuDevices.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/bambu/BambuReport.h"
#include "emit/testbench/TestbenchEmitter.h"
#include "flowhls/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

bool known(const std::string &name) {
    const std::vector<std::string> &all = bambu_characterized_devices();
    return std::find(all.begin(), all.end(), name) != all.end();
}

TEST(BambuDevices, LibraryPartsMapToCharacterizedDevices) {
    EXPECT_EQ(bambu_device_name(load_device("xc7z020", 100)), "xc7z020-1clg484-VVD");
    EXPECT_EQ(bambu_device_name(load_device("xcu280", 100)), "xcu280-2Lfsvh2892-VVD");
    // Bambu's own names pass unchanged, in both spellings it accepts.
    Device d = load_device("xc7z020", 100);
    d.bambu_device = "xc7a100t-1csg324-VVD";
    EXPECT_EQ(bambu_device_name(d), "xc7a100t-1csg324-VVD");
    d.bambu_device = "xc7z045,-2,ffg900,VVD";
    EXPECT_EQ(bambu_device_name(d), "xc7z045-2ffg900-VVD");
    // Another speed grade of a characterized die is not the same timing: refused.
    d.bambu_device = "xc7z020,-2,clg400,VVD";
    EXPECT_THROW(bambu_device_name(d), Error);
    for (const std::string &name : bambu_characterized_devices()) EXPECT_TRUE(known(name));
}

TEST(BambuDevices, UnknownPartIsRefusedWithTheClosest) {
    for (const char *part : {"xczu9eg", "xcu250", "xcvu9p"}) {
        try {
            bambu_device_name(load_device(part, 100));
            ADD_FAILURE() << part << " was accepted";
        } catch (const Error &e) {
            std::string m = e.what();
            EXPECT_NE(m.find(std::string("no characterization of part ") + part), std::string::npos) << m;
            EXPECT_NE(m.find("the closest are xcu280-2Lfsvh2892-VVD"), std::string::npos) << m;
            EXPECT_NE(m.find("Parts of the device library it can target: xc7z020, xcu280"), std::string::npos) << m;
        }
    }
    std::vector<std::string> near = closest_bambu_devices("xc7z010-1clg400", 2);
    ASSERT_EQ(near.size(), 2u);
    EXPECT_EQ(near[0], "xc7z020-1clg484-VVD");
    EXPECT_EQ(closest_bambu_devices("LFE5U-45F", 1).at(0).rfind("LFE5U", 0), 0u);
}

TEST(BambuDevices, CompileRefusesAnUnknownPartAndWritesNothing) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile -e gemm --target bambu --device xczu9eg -o " + (dir / "p"), &out), 2) << out;
    EXPECT_NE(out.find("flowhls: error: PandA-Bambu has no characterization of part xczu9eg"), std::string::npos) << out;
    EXPECT_TRUE(fs::is_empty(dir.path()));
    // The Vitis target is not concerned.
    EXPECT_EQ(test::run_flowhls("compile -e gemm --device xczu9eg -o " + (dir / "v"), &out), 0) << out;
}

HalideProgram two_inputs() {
    Halide::ImageParam a(Halide::Float(32), 1, "a"), b(Halide::UInt(8), 2, "b");
    Halide::Var x("x"), y("y");
    Halide::Func out("out");
    out(x) = a(x) * Halide::cast<float>(b(x, 0));
    return HalideProgram{"pair", {{a, {16}, 0.0, 1.0}, {b, {16, 3}, 0.0, 255.0}}, {{out, {16}}}};
}

TEST(BambuEmitter, ScriptIsTheBambuCommandLine) {
    ProjectSettings s;
    s.target = HlsTarget::Bambu;
    s.bambu_device = "xcu280-2Lfsvh2892-VVD";
    s.clock_mhz = 250;
    std::vector<EmittedFile> files = emit_bambu_files(test::prepared_graph(two_inputs(), false, {}, HlsTarget::Bambu), s);
    const EmittedFile &script = files.back();
    ASSERT_EQ(script.path, "run_bambu.sh");
    EXPECT_TRUE(script.executable);
    const std::string &t = script.contents;
    EXPECT_EQ(t.rfind("#!/bin/sh\n", 0), 0u);
    EXPECT_NE(t.find("BAMBU=${BAMBU:-bambu}"), std::string::npos) << t;
    EXPECT_NE(t.find("exec \"$BAMBU\" ../kernel.c --top-fname=pair --std=c99 -I.. -I../include"), std::string::npos) << t;
    EXPECT_EQ(t.find(" -std=c99"), std::string::npos) << "Bambu aborts on -std=c99";
    EXPECT_NE(t.find("--clock-period=4 --device-name=xcu280-2Lfsvh2892-VVD"), std::string::npos) << t;
    EXPECT_NE(t.find("--generate-tb=../tb.c --tb-arg=../data --simulate --simulator=VERILATOR"), std::string::npos) << t;
    EXPECT_EQ(t.find("--generate-interface"), std::string::npos) << t;
}

TEST(BambuEmitter, TestbenchGivesBambuEveryArraySize) {
    ProjectSettings s;
    s.target = HlsTarget::Bambu;
    FilterGraph g = test::prepared_graph(two_inputs(), false, {}, HlsTarget::Bambu);
    std::string tb = emit_project_files(g, s).at(0).contents;
    size_t guard = tb.find("#ifdef __BAMBU_SIM__\n    m_param_alloc(0, sizeof tb_in_a);\n"
                           "    m_param_alloc(1, sizeof tb_in_b);\n    m_param_alloc(2, sizeof tb_out_out);\n#endif\n"
                           "    pair(tb_in_a, tb_in_b, tb_out_out);\n");
    EXPECT_NE(guard, std::string::npos) << tb;
    EXPECT_NE(tb.find("#include <mdpi/mdpi_user.h>"), std::string::npos);
    // The Vitis testbench has none of it.
    s.target = HlsTarget::Vitis;
    std::string vitis = emit_project_files(test::prepared_graph(two_inputs()), s).at(0).contents;
    EXPECT_EQ(vitis.find("BAMBU"), std::string::npos) << vitis;
}

TEST(BambuEmitter, CompiledProjectHasARunnableScript) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e gaussian --target bambu -o " + (dir / "g"), &out), 0) << out;
    fs::perms p = fs::status(dir / "g/run_bambu.sh").permissions();
    EXPECT_NE(p & fs::perms::owner_exec, fs::perms::none);
    EXPECT_NE(test::read_file(dir / "g/run_bambu.sh").find("--device-name=xc7z020-1clg484-VVD"), std::string::npos);
    // Without Bambu the script says so (exit 127) instead of failing obscurely.
    EXPECT_EQ(test::run_shell("env PATH=/nonexistent BAMBU=/nonexistent/bambu /bin/sh " + (dir / "g/run_bambu.sh"), &out),
              127);
    EXPECT_NE(out.find("PandA-Bambu (/nonexistent/bambu) not found"), std::string::npos) << out;
}

TEST(BambuReport, MeasuredBesideTheEstimate) {
    SynthResult r;
    r.passed = true;
    r.verdict = "PASS: RTL co-simulation in Verilator, 1 output(s) match the reference (200 cycles)";
    r.seconds = 42;
    r.measured.bambu_version = "PandA 2024.10 - Revision 683d87153-main";
    r.measured.verilator_version = "Verilator 5.006 2023-01-22";
    r.measured.device = "xc7z020-1clg484-VVD";
    r.measured.clock_period_ns = 10;
    r.measured.cycles = 200;
    r.measured.lut = 1000;
    r.measured.ff = 500;
    r.measured.dsp = 3;
    r.measured.bram18k = 2;
    r.measured.fmax_mhz = 101.66;
    r.measured.testbench_lines = {"  output o: 4 values, 0 mismatches, bit-exact", "PASS: 1 output(s) match the reference"};
    SynthEstimate e{250, "Bambu model"};
    std::string text = synth_report_text(r, e);
    EXPECT_EQ(text.rfind(std::string(kSynthSectionTitle) +
                             " (measured by PandA-Bambu 2024.10 - Revision 683d87153-main + Verilator 5.006 2023-01-22)",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find("cycles (RTL simulation)      200   (flowhls estimate, Bambu model: 250, +25.0%)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("LUT 1000  FF 500  DSP 3  BRAM18K 2"), std::string::npos) << text;
    EXPECT_NE(text.find("101.7 MHz"), std::string::npos) << text;
    EXPECT_NE(text.find("    output o: 4 values"), std::string::npos) << text;
    nlohmann::json j = synth_report_json(r, e);
    EXPECT_EQ(j["cycles"], 200);
    EXPECT_EQ(j["resources"]["DSP"], 3);
    EXPECT_EQ(j["estimate"]["latency_cycles"], 250);
    EXPECT_EQ(j["tool"], "PandA-Bambu 2024.10 - Revision 683d87153-main + Verilator 5.006 2023-01-22");
    std::string html = synth_report_html(r, e);
    EXPECT_EQ(html.rfind("<section id=\"measured\">", 0), 0u);
    EXPECT_NE(html.find("<td>200</td><td>250 +25.0%</td>"), std::string::npos) << html;
}

}  // namespace
}  // namespace flowhls
