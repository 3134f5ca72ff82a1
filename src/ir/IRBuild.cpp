// int_const / int_var / load / store / serial_for: the IR the passes build.
#include "ir/IRBuild.h"

namespace flowhls {

using namespace Halide::Internal;

Halide::Expr int_const(int64_t v) { return make_const(Halide::Int(32), v); }

Halide::Expr int_var(const std::string &name) { return Variable::make(Halide::Int(32), name); }

Halide::Expr load(Halide::Type type, const std::string &buffer, const Halide::Expr &index) {
    return Load::make(type, buffer, index, Halide::Buffer<>(), Parameter(), const_true(), ModulusRemainder());
}

Stmt store(const std::string &buffer, const Halide::Expr &value, const Halide::Expr &index) {
    return Store::make(buffer, value, index, Parameter(), const_true(), ModulusRemainder());
}

Stmt serial_for(const std::string &name, Halide::Expr min, Halide::Expr extent, Stmt body) {
    return For::make(name, std::move(min), std::move(extent), ForType::Serial, Halide::DeviceAPI::None,
                     std::move(body));
}

}  // namespace flowhls
