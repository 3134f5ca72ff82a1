// Small read-only queries on Halide IR shared by the passes and analyses.
#pragma once

#include <Halide.h>

#include <set>
#include <string>

namespace flowhls {

/// Names of the buffers a statement or expression loads from and stores to.
struct BufferAccesses {
    std::set<std::string> loads, stores;
};
BufferAccesses buffer_accesses(const Halide::Internal::Stmt &s);
BufferAccesses buffer_accesses(const Halide::Expr &e);

/// Names of the variables an expression or statement refers to.
std::set<std::string> referenced_variables(const Halide::Expr &e);
std::set<std::string> referenced_variables(const Halide::Internal::Stmt &s);

}  // namespace flowhls
