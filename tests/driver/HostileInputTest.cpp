// Hostile input never crashes flowhls: every case of the regression corpus (fuzz/regression,
// written by fuzz/generate.py) and every abused option is one `flowhls: error:` line and exit
// code 2 with nothing left behind, or, for the valid edge cases, a passing C simulation.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(FLOWHLS_SOURCE_DIR) + "/fuzz/regression";

// Files of the corpus under `kind`, sorted (a directory with a model counts as its model).
std::vector<std::string> corpus(const std::string &kind) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(kCorpus + "/" + kind, ec)) {
        if (e.is_directory()) files.push_back((e.path() / "model.onnx").string());
        else files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string case_name(const ::testing::TestParamInfo<std::string> &info) {
    fs::path p(info.param);
    std::string name = p.filename() == "model.onnx" ? p.parent_path().filename().string() : p.stem().string();
    std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

// The lines of `out` starting with `prefix`.
int lines_starting(const std::string &out, const std::string &prefix) {
    std::istringstream in(out);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
    return n;
}

// Entries of `dir` other than `expected`.
std::vector<std::string> leftovers(const std::string &dir, const std::vector<std::string> &expected) {
    std::vector<std::string> extra;
    for (const fs::directory_entry &e : fs::directory_iterator(dir)) {
        std::string name = e.path().filename().string();
        if (std::find(expected.begin(), expected.end(), name) == expected.end()) extra.push_back(name);
    }
    return extra;
}

// Runs flowhls with `args` and checks the contract for bad input.
void expect_refused(const std::string &args, const test::TempDir &dir, const std::vector<std::string> &mine) {
    std::string out;
    int rc = test::run_flowhls(args, &out);
    EXPECT_EQ(rc, 2) << args << "\n" << out;
    EXPECT_EQ(lines_starting(out, "flowhls: error: "), 1) << args << "\n" << out;
    EXPECT_EQ(out.find("internal error"), std::string::npos) << out;
    EXPECT_EQ(out.find("Halide"), std::string::npos) << out;
    for (char c : out) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << "control byte in: " << out;
    EXPECT_EQ(leftovers(dir.path(), mine), std::vector<std::string>()) << args;
}

class InvalidModel : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidModel, IsRefused) {
    test::TempDir dir;
    expect_refused("compile '" + GetParam() + "' --max-memory 64M -o " + (dir / "out/p"), dir, {});
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidModel, ::testing::ValuesIn(corpus("invalid")), case_name);

class InvalidTestData : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidTestData, IsRefusedByCompileAndCsim) {
    test::TempDir dir;
    expect_refused("compile " + kCorpus + "/relu4.onnx --inputs '" + GetParam() + "' -o " + (dir / "p"), dir, {});
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidTestData, ::testing::ValuesIn(corpus("data")), case_name);

class InvalidDirectives : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidDirectives, AreRefused) {
    test::TempDir dir;
    expect_refused("compile -e gemm --directives '" + GetParam() + "' -o " + (dir / "p"), dir, {});
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidDirectives, ::testing::ValuesIn(corpus("directives")), case_name);

// Valid models at the edges (integer division by zero and INT_MIN / -1 folded, in test data
// and in random inputs; long chains of views): compiled and simulated under the sanitizers.
class EdgeModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EdgeModel, CompilesAndSimulatesUnderSanitizers) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile '" + GetParam() + "' -o " + (dir / "p") + " --csim --sanitize", &out), 0)
        << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_EQ(leftovers(dir.path(), {"p"}), std::vector<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Corpus, EdgeModel, ::testing::ValuesIn(corpus("valid")), case_name);

// Option values and paths a user can get wrong: fuzz/regression/options.txt, one command per
// line with {out} (an output directory), {tmp} (the test's directory), {file} (a regular file
// in it), {relu} (a valid model) and '' (an empty argument).
std::vector<std::string> option_cases() {
    std::ifstream in(kCorpus + "/options.txt");
    std::vector<std::string> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') cases.push_back(line);
    }
    return cases;
}

std::string substitute(std::string text, const std::string &key, const std::string &value) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
        text.replace(at, key.size(), value);
    }
    return text;
}

class AbusedOption : public ::testing::TestWithParam<std::string> {};

TEST_P(AbusedOption, IsRefused) {
    test::TempDir dir;
    std::ofstream(dir / "file") << "not a directory\n";
    std::string args = GetParam();
    args = substitute(args, "{out}", dir / "out");
    args = substitute(args, "{tmp}", dir.path());
    args = substitute(args, "{file}", dir / "file");
    args = substitute(args, "{relu}", kCorpus + "/relu4.onnx");
    expect_refused(args, dir, {"file"});
}

INSTANTIATE_TEST_SUITE_P(Corpus, AbusedOption, ::testing::ValuesIn(option_cases()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return "line" + std::to_string(info.index);
                         });

}  // namespace
}  // namespace flowhls
