// Atomic creation of an output directory: written in a temporary sibling, then renamed.
#pragma once

#include <string>

namespace flowhls {

/// Name of the marker file that identifies a directory created by flowhls.
extern const char *const kProjectMarker;

/// A staging directory next to the final one. Files are written into it; commit() moves it
/// into place (replacing an earlier flowhls output). If commit() is never called the
/// staging directory is removed, so a failed run leaves nothing behind.
class OutputDir {
public:
    /// Checks that `final_path` can be written (its parent exists and is a writable
    /// directory, and it is absent or an earlier flowhls output) and creates the staging
    /// directory. Throws flowhls::Error naming the path and the cause.
    explicit OutputDir(const std::string &final_path);
    ~OutputDir();
    OutputDir(const OutputDir &) = delete;
    OutputDir &operator=(const OutputDir &) = delete;

    /// Writes `contents` to `relative` inside the staging directory (creating directories).
    void write(const std::string &relative, const std::string &contents);
    /// Moves the staging directory to the final path.
    void commit();

    const std::string &final_path() const { return final_; }
    const std::string &staging_path() const { return staging_; }

private:
    std::string final_;
    std::string staging_;
    bool committed_ = false;
};

}  // namespace flowhls
