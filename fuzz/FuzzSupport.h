// What the fuzz targets share: running a parser and telling a user error from a bug.
#pragma once

#include "flowhls/Error.h"
#include "frontend/onnx/Converter.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace flowhls::fuzz {

/// Runs `parse`: a flowhls::Error is the answer to bad input (fine); a ConverterFailure, any
/// other exception or a Halide error escaping are bugs and abort, so libFuzzer records a crash.
template <typename F>
void expect_clean(F &&parse) {
    try {
        parse();
    } catch (const onnx_import::ConverterFailure &e) {
        std::fprintf(stderr, "fuzz: converter failure: %s\n", e.what());
        std::abort();
    } catch (const Error &) {
        return;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "fuzz: internal error: %s\n", e.what());
        std::abort();
    } catch (...) {
        std::fprintf(stderr, "fuzz: unknown exception\n");
        std::abort();
    }
}

}  // namespace flowhls::fuzz
