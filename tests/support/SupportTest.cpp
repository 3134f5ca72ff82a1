// Tests of src/support: one-line messages, sizes without overflow, SHA-256, path problems,
// the output directory (stale staging directories, parents created, the manifest).
#include "TestSupport.h"
#include "flowhls/Error.h"
#include "support/OutputDir.h"
#include "support/Paths.h"
#include "support/Sha256.h"
#include "support/Sizes.h"
#include "support/Text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

TEST(Text, OneLineFoldsBreaksAndEscapesControlBytes) {
    EXPECT_EQ(one_line("a\n  b\r\n\tc"), "a b c");
    EXPECT_EQ(one_line("x \x1b[31mred\x07"), "x \\x1b[31mred\\x07");
    EXPECT_EQ(one_line("tab\there  \n"), "tab here");
    EXPECT_EQ(one_line(std::string("nul\0end", 7)), "nul\\x00end");
    EXPECT_EQ(one_line("caf\xc3\xa9"), "caf\xc3\xa9");          // valid UTF-8 stays
    EXPECT_EQ(one_line("bad\xff\xc3("), "bad\\xff\\xc3(");     // invalid bytes are escaped
    EXPECT_EQ(one_line("\xed\xa0\x80"), "\\xed\\xa0\\x80");    // a UTF-16 surrogate is not UTF-8
}

TEST(Sizes, ProductsNeverOverflow) {
    EXPECT_EQ(checked_bytes({2, 3, 4}, 4, 1000), 96);
    EXPECT_EQ(checked_bytes({int64_t(1) << 40, int64_t(1) << 40, 0}, 4, 1000), 0);
    EXPECT_EQ(checked_bytes({int64_t(1) << 40, int64_t(1) << 40}, 4, kMaxTensorBytes), -1);
    EXPECT_EQ(checked_bytes({-1, 4}, 4, 1000), -1);
    EXPECT_EQ(checked_bytes({1000, 1000}, 4, 1000), -1);
    int64_t out = 0;
    EXPECT_FALSE(checked_multiply(std::numeric_limits<int64_t>::max(), 2, &out));
    EXPECT_EQ(parse_byte_size("8G"), int64_t(8) << 30);
    EXPECT_EQ(parse_byte_size("512M"), int64_t(512) << 20);
    EXPECT_EQ(parse_byte_size("1000"), 1000);
    for (const char *bad : {"", "G", "12Q", "-1", "1.5G", "99999999999999999999", "9999999999T"}) {
        EXPECT_EQ(parse_byte_size(bad), -1) << bad;
    }
    EXPECT_EQ(byte_size_text(812), "812 bytes");
    EXPECT_EQ(byte_size_text(int64_t(3) << 30), "3.0 GB");
    EXPECT_GT(default_memory_budget(), 0);
}

TEST(Sha256, KnownDigests) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    return "";
}

TEST(Paths, EachKindOfProblemHasItsOwnWords) {
    test::TempDir dir;
    std::ofstream(dir / "file") << "x";
    EXPECT_EQ(error_of([&] { require_regular_file(dir / "missing", "model"); }),
              "cannot read model '" + (dir / "missing") + "': no such file");
    EXPECT_EQ(error_of([&] { require_regular_file(dir.path(), "model"); }),
              "cannot read model '" + dir.path() + "': it is a directory, not a file");
    EXPECT_EQ(error_of([] { require_regular_file("/dev/null", "model"); }),
              "cannot read model '/dev/null': it is a character device, not a regular file");
    EXPECT_EQ(error_of([&] { require_regular_file(dir / "file/x", "model"); }),
              "cannot read model '" + (dir / "file/x") + "': '" + (dir / "file") + "' is a regular file, not a directory");
    EXPECT_EQ(error_of([&] { require_directory(dir / "file", "test data directory"); }),
              "test data directory '" + (dir / "file") + "': it is a regular file, not a directory");
    EXPECT_EQ(error_of([&] { require_directory(dir / "nothing", "test data directory"); }),
              "test data directory '" + (dir / "nothing") + "': no such directory");
    EXPECT_EQ(error_of([&] { read_file_bytes(dir / "file", "model", 0); }),
              "cannot read model '" + (dir / "file") + "': it holds 1 bytes, more than the limit of 0 bytes");
}

TEST(OutputDir, AFailedRunRemovesTheParentsItCreated) {
    test::TempDir dir;
    {
        OutputDir out(dir / "a/b/c/out");
        out.write("x.txt", "x");
        EXPECT_TRUE(fs::exists(dir / "a/b/c"));
    }
    EXPECT_TRUE(fs::is_empty(dir.path()));
    fs::create_directories(dir / "keep");
    {
        OutputDir out(dir / "keep/new/out");
    }
    EXPECT_TRUE(fs::exists(dir / "keep"));
    EXPECT_FALSE(fs::exists(dir / "keep/new"));
}

TEST(OutputDir, StaleStagingOfADeadProcessIsRemoved) {
    test::TempDir dir;
    // A staging directory whose writer has died (a pid that is not running), one from before a
    // reboot, and one of this live process.
    fs::create_directories(dir / ".out.tmp-AAAAAA/data");
    std::ofstream(dir / ".out.tmp-AAAAAA/.flowhls-staging") << "flowhls staging directory\npid 999999999\nboot x\nstart 1\n";
    fs::create_directories(dir / ".other.tmp-BBBBBB.old");
    std::ofstream(dir / ".other.tmp-BBBBBB.old/.flowhls-staging") << "flowhls staging directory\npid 1\nboot old-boot\nstart 1\n";
    fs::create_directories(dir / ".mine.tmp-CCCCCC");
    {
        OutputDir live(dir / "mine");
        fs::path staging = live.staging_path();
        fs::copy_file(staging / kStagingMarker, dir / ".mine.tmp-CCCCCC/.flowhls-staging");
        fs::create_directories(dir / ".user.tmp-notours");  // not the staging pattern: kept
        OutputDir out(dir / "out");
        out.write("a.txt", "a");
        out.commit();
        EXPECT_FALSE(fs::exists(dir / ".out.tmp-AAAAAA"));
        EXPECT_FALSE(fs::exists(dir / ".other.tmp-BBBBBB.old"));
        EXPECT_TRUE(fs::exists(dir / ".mine.tmp-CCCCCC")) << "a live process's staging directory was removed";
        EXPECT_TRUE(fs::exists(dir / ".user.tmp-notours"));
        EXPECT_TRUE(fs::exists(staging));
    }
}

TEST(OutputDir, TheMarkerListsWhatWasWritten) {
    test::TempDir dir;
    {
        OutputDir out(dir / "p");
        out.write("Makefile", "all:\n");
        out.write("include/x.h", "int x;\n");
        out.commit();
    }
    std::map<std::string, std::string> files = read_project_manifest(dir / "p");
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files.at("Makefile"), sha256_hex("all:\n"));
    EXPECT_EQ(files.at("include/x.h"), sha256_hex("int x;\n"));
    EXPECT_FALSE(fs::exists(fs::path(dir / "p") / kStagingMarker));
    EXPECT_THROW(OutputDir(dir / "p").write("../escape", "x"), std::logic_error);
}

}  // namespace
}  // namespace flowhls
