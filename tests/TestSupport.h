// Helpers shared by the tests: temporary directories, golden files, small programs.
#pragma once

#include "flowhls/HalideProgram.h"

#include <nlohmann/json.hpp>

#include <string>

namespace flowhls::test {

/// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string &path() const { return path_; }
    std::string operator/(const std::string &name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

/// Compares `actual` with tests/golden/`name`. On a mismatch the actual text is written
/// next to the build (name + ".actual") and a diff-friendly message is returned; "" if equal.
std::string check_golden(const std::string &name, const std::string &actual);

/// Reads a whole file ("" if it does not exist).
std::string read_file(const std::string &path);

/// The directory into which `/usr/bin/python3 SCRIPT DIR` (SCRIPT relative to the source
/// tree) wrote its models, made once per script for the whole test run and removed at exit;
/// "" when the script failed (no numpy / onnx).
const std::string &python_models(const std::string &script);

/// Runs `command` with /bin/sh; returns its exit status and fills `output` with stdout and stderr.
int run_shell(const std::string &command, std::string *output);

/// Runs the flowhls binary with `args` (a shell-quoted string); returns its exit status and
/// fills `output` with stdout and stderr. `compile` commands get --verify-each.
int run_flowhls(const std::string &args, std::string *output);

/// Checks `report` (a parsed report.json) against docs/report.schema.json, with the subset of
/// JSON Schema it uses (type, required, properties, items, additionalProperties; a key the
/// schema does not list is a problem too); returns the first problem as "report.path: what",
/// "" if the report conforms.
std::string report_schema_problem(const nlohmann::json &report);

/// A two-stage program small enough for golden tests: a 3-tap horizontal blur of an 8x4
/// float image followed by a scale, both stages at the root.
HalideProgram small_program();

/// The sum of a 4x3 image, then every pixel divided by it: a reduction to one element (an
/// accumulator for scalar-replacement, a one-element intermediate for trivial-buffers).
HalideProgram normalize_program();

}  // namespace flowhls::test
