// OutputDir: write into a temporary sibling directory, then rename into place; stale
// staging directories of killed runs are removed; the project marker lists what was written.
#include "support/OutputDir.h"
#include "flowhls/Error.h"
#include "support/Paths.h"
#include "support/Sha256.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

const char *const kProjectMarker = ".flowhls-project";
const char *const kStagingMarker = ".flowhls-staging";

namespace {

const char *const kMarkerTitle = "flowhls project directory; flowhls may replace it.";

std::string errno_text() { return std::strerror(errno); }

std::string first_line_of(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// This boot's id (a stale marker from before a reboot names a process that is gone).
std::string boot_id() { return first_line_of("/proc/sys/kernel/random/boot_id"); }

// Start time of process `pid` (field 22 of /proc/PID/stat), "" when there is none.
std::string start_time(pid_t pid) {
    std::string stat = first_line_of("/proc/" + std::to_string(pid) + "/stat");
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) return "";
    std::istringstream fields(stat.substr(paren + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; i++) {
        if (i == 22) return field;
    }
    return "";
}

// What a staging marker says: the process writing the directory.
std::string staging_marker_text() {
    pid_t pid = getpid();
    return "flowhls staging directory\npid " + std::to_string(pid) + "\nboot " + boot_id() + "\nstart " +
           start_time(pid) + "\n";
}

// Whether the process a staging marker names is still running.
bool owner_alive(const std::string &marker_path) {
    std::ifstream in(marker_path);
    std::string title, key, pid_text, boot, start;
    std::getline(in, title);
    in >> key >> pid_text >> key >> boot >> key >> start;
    if (title != "flowhls staging directory" || pid_text.empty()) return false;
    pid_t pid = static_cast<pid_t>(std::atol(pid_text.c_str()));
    return pid > 0 && boot == boot_id() && start_time(pid) == start;
}

// Staging directories (".NAME.tmp-XXXXXX", and ".old" copies being replaced) in `parent`
// whose writer is gone: killed runs, power loss. Removed.
void remove_stale_staging(const fs::path &parent) {
    static const std::regex staging_name(R"(\..+\.tmp-[A-Za-z0-9]{6}(\.old)?)");
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(parent, ec)) {
        std::string name = e.path().filename().string();
        if (!std::regex_match(name, staging_name) || !e.is_directory(ec) || e.is_symlink(ec)) continue;
        fs::path marker = e.path() / kStagingMarker;
        bool stale;
        if (fs::exists(marker, ec)) {
            stale = !owner_alive(marker.string());
        } else {
            // Killed between creating the directory and its marker: empty, and not just made.
            auto age = fs::file_time_type::clock::now() - fs::last_write_time(e.path(), ec);
            stale = !ec && fs::is_empty(e.path(), ec) && age > std::chrono::minutes(1);
        }
        if (stale) fs::remove_all(e.path(), ec);
    }
}

// The outermost ancestor of `dir` that does not exist ("" when `dir` exists).
fs::path first_missing(const fs::path &dir) {
    fs::path missing;
    std::error_code ec;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing = p;
        if (p == p.parent_path()) break;
    }
    return missing;
}

}  // namespace

OutputDir::OutputDir(const std::string &final_path) {
    if (final_path.empty()) throw Error("no output directory given");
    fs::path p = fs::absolute(fs::path(final_path)).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    final_ = p.string();
    fs::path parent = p.parent_path();
    std::string where = "cannot write output directory '" + final_path + "': ";
    std::error_code ec;
    fs::path missing = first_missing(parent);
    fs::path existing = missing.empty() ? parent : missing.parent_path();
    std::string problem = stat_problem(existing.string());
    if (!problem.empty()) throw Error(where + problem);
    if (path_kind(existing.string()) != "a directory") {
        throw Error(where + "'" + existing.string() + "' is " + path_kind(existing.string()) + ", not a directory");
    }
    if (missing.empty() && fs::exists(p, ec)) {
        if (path_kind(final_) != "a directory") throw Error(where + "it is " + path_kind(final_) + ", not a directory");
        if (!fs::is_empty(p, ec) && !fs::exists(p / kProjectMarker, ec)) {
            throw Error("output directory '" + final_path +
                        "' exists and was not created by flowhls; remove it or choose another");
        }
    }
    std::unique_lock<std::mutex> lock = interrupt_lock();
    if (!missing.empty()) {
        fs::create_directories(parent, ec);
        if (ec) throw Error(where + "cannot create '" + parent.string() + "': " + ec.message());
        created_root_ = missing.string();
    }
    remove_stale_staging(parent);
    std::string templ = (parent / ("." + p.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
        int error = errno;
        remove_created_parents();
        throw Error(where + std::strerror(error));
    }
    staging_ = buf.data();
    cleanup_ = std::make_unique<CleanupPath>(created_root_.empty() ? staging_ : created_root_);
    std::ofstream(fs::path(staging_) / kStagingMarker) << staging_marker_text();
}

OutputDir::~OutputDir() {
    std::unique_lock<std::mutex> lock = interrupt_lock();
    if (!committed_ && !staging_.empty()) {
        std::error_code ec;
        fs::remove_all(staging_, ec);
        remove_created_parents();
    }
    cleanup_.reset();
}

void OutputDir::remove_created_parents() {
    if (created_root_.empty()) return;
    std::error_code ec;
    for (fs::path dir = fs::path(final_).parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (!fs::remove(dir, ec) || dir == fs::path(created_root_)) break;  // remove() keeps a non-empty one
    }
}

void OutputDir::write(const std::string &relative, const std::string &contents) {
    fs::path rel = fs::path(relative).lexically_normal();
    if (rel.empty() || rel.is_absolute() || *rel.begin() == "..") {
        throw std::logic_error("OutputDir::write: '" + relative + "' is not inside the project");
    }
    std::unique_lock<std::mutex> lock = interrupt_lock();
    fs::path path = fs::path(staging_) / rel;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) throw Error("cannot write '" + (fs::path(final_) / relative).string() + "': " + errno_text());
    digests_[rel.string()] = sha256_hex(contents);
}

void OutputDir::commit() {
    std::string marker = std::string(kMarkerTitle) + "\n# sha256 path: the files flowhls wrote (flowhls csim runs only these)\n";
    for (const auto &d : digests_) marker += "sha256 " + d.second + " " + d.first + "\n";
    write(kProjectMarker, marker);
    digests_.erase(kProjectMarker);
    std::unique_lock<std::mutex> lock = interrupt_lock();
    std::error_code ec;
    std::string old;
    if (fs::exists(final_, ec)) {
        // The directory being replaced is marked like a staging directory, so that it is
        // recognized and removed if this process dies before it does.
        std::ofstream(fs::path(final_) / kStagingMarker) << staging_marker_text();
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
    fs::remove(fs::path(final_) / kStagingMarker, ec);
    if (!old.empty()) fs::remove_all(old, ec);
}

std::map<std::string, std::string> read_project_manifest(const std::string &dir) {
    fs::path marker = fs::path(dir) / kProjectMarker;
    std::error_code ec;
    if (!fs::is_regular_file(marker, ec)) {
        throw Error("'" + dir + "' is not a flowhls project (it has no " + kProjectMarker + " marker)");
    }
    std::string text = read_file_bytes(marker.string(), "project marker", 1 << 20);
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    if (line != kMarkerTitle) throw Error("'" + marker.string() + "' is not a marker flowhls writes");
    std::map<std::string, std::string> files;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string kind, digest, path;
        fields >> kind >> digest;
        std::getline(fields >> std::ws, path);
        if (kind != "sha256" || digest.size() != 64 || path.empty()) {
            throw Error("'" + marker.string() + "' is not a marker flowhls writes (line '" + line + "')");
        }
        files[path] = digest;
    }
    if (files.empty()) {
        throw Error("'" + dir + "' was written by an older flowhls (its marker lists no files); compile it again");
    }
    return files;
}

}  // namespace flowhls
