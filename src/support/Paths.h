// Checking the files and directories a user names, with words for each kind of problem.
#pragma once

#include <cstdint>
#include <string>

namespace flowhls {

/// Throws flowhls::Error "cannot read WHAT 'PATH': REASON" unless `path` is an existing
/// regular file; REASON is "no such file", "it is a directory", "it is a character device,
/// not a regular file", "'DIR' is not a directory", "permission denied", ...
void require_regular_file(const std::string &path, const std::string &what);

/// Throws flowhls::Error "WHAT 'PATH': REASON" unless `path` is an existing directory;
/// REASON is "no such directory", "it is a file, not a directory", ...
void require_directory(const std::string &path, const std::string &what);

/// The contents of the regular file `path` (checked with require_regular_file); throws
/// flowhls::Error when it is larger than `max_bytes` or cannot be read.
std::string read_file_bytes(const std::string &path, const std::string &what, int64_t max_bytes);

/// Why `path` cannot be used, from stat(2): "" when it exists, else "no such file or
/// directory", "'DIR' is not a directory", "permission denied", ...
std::string stat_problem(const std::string &path);

/// The kind of an existing path in words: "a directory", "a character device", "a named
/// pipe", "a socket", "a block device", "a regular file".
std::string path_kind(const std::string &path);

}  // namespace flowhls
