// Builders of small Halide IR statements for hand-made filter graphs in tests.
#pragma once

#include <Halide.h>

#include <string>
#include <utility>

namespace flowhls {
namespace test {

/// An Int(32) variable.
inline Halide::Expr var(const std::string &n) { return Halide::Internal::Variable::make(Halide::Int(32), n); }

/// A float load of `buf` at `index`.
inline Halide::Expr load(const std::string &buf, Halide::Expr index) {
    using namespace Halide::Internal;
    return Load::make(Halide::Float(32), buf, std::move(index), Halide::Buffer<>(), Parameter(), const_true(),
                      ModulusRemainder());
}

/// A store of `value` to `buf` at `index`.
inline Halide::Internal::Stmt store(const std::string &buf, Halide::Expr value, Halide::Expr index) {
    using namespace Halide::Internal;
    return Store::make(buf, std::move(value), std::move(index), Parameter(), const_true(), ModulusRemainder());
}

/// A serial loop of `v` from 0 over `extent` iterations.
inline Halide::Internal::Stmt loop(const std::string &v, int extent, Halide::Internal::Stmt body) {
    using namespace Halide::Internal;
    return For::make(v, 0, extent, ForType::Serial, Halide::DeviceAPI::None, std::move(body));
}

}  // namespace test
}  // namespace flowhls
