// OutputDir: write into a temporary sibling directory, then rename into place.
#include "support/OutputDir.h"
#include "flowhls/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

const char *const kProjectMarker = ".flowhls-project";

namespace {

std::string errno_text() { return std::strerror(errno); }

}  // namespace

OutputDir::OutputDir(const std::string &final_path) {
    if (final_path.empty()) throw Error("no output directory given");
    fs::path p = fs::absolute(fs::path(final_path)).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    final_ = p.string();
    fs::path parent = p.parent_path();
    std::error_code ec;
    if (!fs::exists(parent, ec)) {
        fs::create_directories(parent, ec);
        if (ec) throw Error("cannot create output directory '" + final_path + "': " + ec.message());
    }
    if (!fs::is_directory(parent, ec)) {
        throw Error("cannot write output directory '" + final_path + "': '" + parent.string() + "' is not a directory");
    }
    if (fs::exists(p, ec)) {
        if (!fs::is_directory(p, ec)) {
            throw Error("cannot write output directory '" + final_path + "': a file with that name exists");
        }
        if (!fs::is_empty(p, ec) && !fs::exists(p / kProjectMarker, ec)) {
            throw Error("output directory '" + final_path +
                        "' exists and was not created by flowhls; remove it or choose another");
        }
    }
    std::string templ = (parent / ("." + p.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
        throw Error("cannot write output directory '" + final_path + "': " + errno_text());
    }
    staging_ = buf.data();
}

OutputDir::~OutputDir() {
    if (!committed_ && !staging_.empty()) {
        std::error_code ec;
        fs::remove_all(staging_, ec);
    }
}

void OutputDir::write(const std::string &relative, const std::string &contents) {
    fs::path path = fs::path(staging_) / relative;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) throw Error("cannot write '" + (fs::path(final_) / relative).string() + "': " + errno_text());
}

void OutputDir::commit() {
    write(kProjectMarker, "flowhls project directory; flowhls may replace it.\n");
    std::error_code ec;
    std::string old;
    if (fs::exists(final_, ec)) {
        old = staging_ + ".old";
        fs::rename(final_, old, ec);
        if (ec) throw Error("cannot replace output directory '" + final_ + "': " + ec.message());
    }
    fs::rename(staging_, final_, ec);
    if (ec) {
        if (!old.empty()) fs::rename(old, final_, ec);
        throw Error("cannot move output into '" + final_ + "': " + ec.message());
    }
    committed_ = true;
    if (!old.empty()) fs::remove_all(old, ec);
}

}  // namespace flowhls
