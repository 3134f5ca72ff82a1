// compile() never changes the caller's program: compiled twice in one process with different
// options it gives the bytes of separate processes, and the caller's pipeline still runs.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Examples.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

// Every file under `dir`, relative path -> contents.
std::map<std::string, std::string> files_of(const std::string &dir) {
    std::map<std::string, std::string> out;
    for (const auto &e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::read_file(e.path().string());
    }
    return out;
}

// Two programs (conv_relu under two schedules; parallel is for Bambu only), each compiled more than once with different
// targets and options, interleaved: every project is the bytes `flowhls compile` writes in a
// process of its own.
TEST(CompileIsPure, ProgramsCompiledRepeatedlyGiveTheBytesOfSeparateProcesses) {
    test::TempDir dir;
    std::map<std::string, HalideProgram> programs;
    for (const char *schedule : {"parallel", "root"}) programs[schedule] = build_example("conv_relu", schedule);
    struct Config {
        const char *name, *schedule;
        HlsTarget target;
        uint64_t seed;
        const char *device;
        double clock;
        std::string cli;
    };
    const std::vector<Config> configs = {
        {"parallel_bambu", "parallel", HlsTarget::Bambu, 1, "xc7z020", 100.0, "-t bambu"},
        {"root_vitis", "root", HlsTarget::Vitis, 1, "xc7z020", 100.0, ""},
        {"parallel_bambu_seed", "parallel", HlsTarget::Bambu, 7, "xcu280", 200.0,
         "-t bambu --seed 7 --device xcu280 --clock 200"},
        {"root_bambu", "root", HlsTarget::Bambu, 3, "xc7z020", 150.0, "-t bambu --seed 3 --clock 150"},
        {"root_vitis_seed", "root", HlsTarget::Vitis, 5, "xczu9eg", 250.0, "--seed 5 --device xczu9eg --clock 250"},
        {"parallel_bambu_again", "parallel", HlsTarget::Bambu, 1, "xc7z020", 100.0, "-t bambu"},
    };
    for (const Config &c : configs) {
        CompileOptions o;
        o.verify_each = true;
        o.target = c.target;
        o.seed = c.seed;
        o.device = c.device;
        o.clock_mhz = c.clock;
        o.output_dir = dir / (std::string("api_") + c.name);
        compile(programs.at(c.schedule), o);
        std::string out;
        std::string cli = std::string("compile -e conv_relu -s ") + c.schedule + " " + c.cli + " -o " +
                          (dir / (std::string("cli_") + c.name));
        ASSERT_EQ(test::run_flowhls(cli, &out), 0) << out;
    }
    for (const Config &c : configs) {
        std::map<std::string, std::string> api = files_of(dir / (std::string("api_") + c.name));
        std::map<std::string, std::string> cli = files_of(dir / (std::string("cli_") + c.name));
        ASSERT_EQ(api.size(), cli.size()) << c.name;
        ASSERT_GT(api.size(), 5u) << c.name;
        for (const auto &kv : api) EXPECT_EQ(kv.second, cli[kv.first]) << c.name << ": " << kv.first;
    }
}

TEST(CompileIsPure, TheCallersPipelineStillRunsAtOtherSizes) {
    test::TempDir dir;
    HalideProgram program = build_example("brighten_blur", "root");
    CompileOptions o;
    o.verify_each = true;
    o.output_dir = dir / "out";
    compile(program, o);
    // No shape was bound on the caller's parameters or output buffers.
    Halide::Internal::Parameter in = program.inputs[0].param;
    EXPECT_FALSE(in.extent_constraint(0).defined());
    EXPECT_FALSE(program.outputs[0].func.output_buffer().parameter().extent_constraint(0).defined());
    // The caller's own JIT run on a smaller image works (65x65 -> 64x64 was compiled).
    Halide::Buffer<uint16_t> image(17, 17);
    image.fill(3);
    in.set_buffer(image);
    Halide::Buffer<uint16_t> result = program.outputs[0].func.realize({16, 16});
    in.set_buffer(Halide::Buffer<>());
    EXPECT_EQ(result(5, 5), 6);  // (3 * 2) averaged over a 2x2 window
}

}  // namespace
}  // namespace flowhls
