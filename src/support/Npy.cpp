// npy_bytes: serializes a dense Halide buffer in NumPy's .npy format (version 1.0).
#include "support/Npy.h"

#include <stdexcept>

namespace flowhls {

std::string npy_descr(Halide::Type t) {
    int bytes = t.bytes();
    char kind = t.is_float() ? 'f' : (t.is_uint() ? 'u' : 'i');
    if (t.is_bool()) kind = 'u';
    std::string order = bytes == 1 ? "|" : "<";
    return order + kind + std::to_string(bytes);
}

std::string npy_bytes(const Halide::Buffer<> &buffer) {
    // NumPy's shape is outermost first; a 1-tuple needs a trailing comma.
    std::string shape;
    for (int d = buffer.dimensions() - 1; d >= 0; d--) {
        shape += std::to_string(buffer.dim(d).extent());
        if (d > 0) shape += ", ";
    }
    if (buffer.dimensions() == 1) shape += ",";
    std::string header = "{'descr': '" + npy_descr(buffer.type()) + "', 'fortran_order': False, 'shape': (" +
                         shape + "), }";
    // Magic (6) + version (2) + length (2) + header + '\n' is padded to a multiple of 64.
    size_t total = 10 + header.size() + 1;
    header += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    out += header;
    // Dense, dimension 0 innermost: the host memory is already in C order of the reversed shape.
    int64_t stride = 1;
    for (int d = 0; d < buffer.dimensions(); d++) {
        if (buffer.dim(d).stride() != stride) throw std::logic_error("npy_bytes: buffer is not dense");
        stride *= buffer.dim(d).extent();
    }
    out.append(reinterpret_cast<const char *>(buffer.data()), buffer.size_in_bytes());
    return out;
}

}  // namespace flowhls
