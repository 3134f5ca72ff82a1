// Atomic creation of an output directory: written in a temporary sibling, then renamed.
#pragma once

#include "support/Interrupt.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace flowhls {

/// Name of the marker file that identifies a directory created by flowhls. It lists the
/// SHA-256 of every file flowhls wrote (see read_project_manifest).
extern const char *const kProjectMarker;
/// Name of the file that identifies a staging directory and the process writing it.
extern const char *const kStagingMarker;

/// A staging directory next to the final one. Files are written into it; commit() moves it
/// into place (replacing an earlier flowhls output). If commit() is never called the
/// staging directory is removed, and so are the parent directories it created, so a failed
/// run leaves nothing behind; on SIGINT/SIGTERM/SIGHUP too when install_interrupt_cleanup()
/// was called. Staging directories left in the same parent by a run that was killed
/// (SIGKILL, power loss) are recognized by their marker and removed.
class OutputDir {
public:
    /// Checks that `final_path` can be written (its parent is a writable directory or can be
    /// created, and it is absent or an earlier flowhls output), removes stale staging
    /// directories of dead runs from the parent, and creates the staging directory. Throws
    /// flowhls::Error naming the path and the cause.
    explicit OutputDir(const std::string &final_path);
    ~OutputDir();
    OutputDir(const OutputDir &) = delete;
    OutputDir &operator=(const OutputDir &) = delete;

    /// Writes `contents` to `relative` inside the staging directory (creating directories).
    void write(const std::string &relative, const std::string &contents);
    /// Writes the project marker (with the manifest of the files written) and moves the
    /// staging directory to the final path.
    void commit();

    const std::string &final_path() const { return final_; }
    const std::string &staging_path() const { return staging_; }

private:
    std::string final_;
    std::string staging_;
    std::string created_root_;  // the outermost parent directory this object created, or ""
    std::map<std::string, std::string> digests_;  // SHA-256 of each file written, by relative path
    std::unique_ptr<CleanupPath> cleanup_;
    bool committed_ = false;
    void remove_created_parents();
};

/// The files a project's marker lists, with their SHA-256 (hex), by relative path. Throws
/// flowhls::Error when `dir` has no marker or the marker is not one flowhls writes.
std::map<std::string, std::string> read_project_manifest(const std::string &dir);

}  // namespace flowhls
