// Checking user-named files and directories; reading whole files with a size limit.
#include "support/Paths.h"
#include "flowhls/Error.h"
#include "support/Sizes.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace flowhls {

namespace fs = std::filesystem;

std::string stat_problem(const std::string &path) {
    if (path.empty()) return "the path is empty";
    struct stat st;
    if (stat(path.c_str(), &st) == 0) return "";
    int error = errno;
    if (error == ENOTDIR) {
        // Name the component that is not a directory.
        fs::path p(path);
        for (fs::path prefix = p.parent_path(); !prefix.empty() && prefix != prefix.root_path();
             prefix = prefix.parent_path()) {
            struct stat ps;
            if (stat(prefix.c_str(), &ps) == 0 && !S_ISDIR(ps.st_mode)) {
                return "'" + prefix.string() + "' is " + path_kind(prefix.string()) + ", not a directory";
            }
        }
        return "a component of the path is not a directory";
    }
    if (error == ENOENT) return "no such file or directory";
    if (error == EACCES) return "permission denied";
    return std::strerror(error);
}

std::string path_kind(const std::string &path) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return "missing";
    if (S_ISDIR(st.st_mode)) return "a directory";
    if (S_ISCHR(st.st_mode)) return "a character device";
    if (S_ISBLK(st.st_mode)) return "a block device";
    if (S_ISFIFO(st.st_mode)) return "a named pipe";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    return "a regular file";
}

void require_regular_file(const std::string &path, const std::string &what) {
    std::string problem = stat_problem(path);
    if (problem == "no such file or directory") problem = "no such file";
    if (!problem.empty()) throw Error("cannot read " + what + " '" + path + "': " + problem);
    std::string kind = path_kind(path);
    if (kind == "a directory") throw Error("cannot read " + what + " '" + path + "': it is a directory, not a file");
    if (kind != "a regular file") {
        throw Error("cannot read " + what + " '" + path + "': it is " + kind + ", not a regular file");
    }
}

void require_directory(const std::string &path, const std::string &what) {
    std::string problem = stat_problem(path);
    if (problem == "no such file or directory") problem = "no such directory";
    if (!problem.empty()) throw Error(what + " '" + path + "': " + problem);
    std::string kind = path_kind(path);
    if (kind != "a directory") throw Error(what + " '" + path + "': it is " + kind + ", not a directory");
}

std::string read_file_bytes(const std::string &path, const std::string &what, int64_t max_bytes) {
    require_regular_file(path, what);
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot read " + what + " '" + path + "': " + std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        throw Error("cannot read " + what + " '" + path + "': it is not a regular file");
    }
    if (st.st_size > max_bytes) {
        close(fd);
        throw Error("cannot read " + what + " '" + path + "': it holds " + byte_size_text(st.st_size) +
                    ", more than the limit of " + byte_size_text(max_bytes));
    }
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = read(fd, &bytes[done], bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int error = errno;
            close(fd);
            throw Error("cannot read " + what + " '" + path + "': " + std::strerror(error));
        }
        if (n == 0) break;  // it shrank while being read
        done += static_cast<size_t>(n);
    }
    close(fd);
    bytes.resize(done);
    return bytes;
}

}  // namespace flowhls
