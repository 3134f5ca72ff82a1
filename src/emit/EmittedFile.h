// A generated file: path relative to the output directory and its contents.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// One file of a generated project.
struct EmittedFile {
    std::string path;
    std::string contents;
    /// Written with the execute bit (scripts).
    bool executable = false;
};

}  // namespace flowhls
