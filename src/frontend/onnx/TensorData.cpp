// Conversions between ONNX TensorProtos, .npy files and Halide buffers.
#include "frontend/onnx/TensorData.h"
#include "flowhls/Error.h"
#include "frontend/onnx/Converter.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace flowhls::onnx_import {

using onnx::TensorProto;

namespace {

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read '" + path + "'");
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

template <typename T, typename Src>
void copy_values(const Src &src, Halide::Buffer<> &dst) {
    T *out = static_cast<T *>(dst.data());
    for (int i = 0; i < src.size(); i++) out[i] = static_cast<T>(src.Get(i));
}

// ONNX element type of a NumPy descr ("<f4" ...), 0 when unknown.
int elem_type_of_descr(const std::string &d) {
    static const std::pair<const char *, int> table[] = {
        {"<f4", TensorProto::FLOAT},  {"<f8", TensorProto::DOUBLE}, {"|i1", TensorProto::INT8},
        {"|u1", TensorProto::UINT8},  {"<i2", TensorProto::INT16},  {"<u2", TensorProto::UINT16},
        {"<i4", TensorProto::INT32},  {"<u4", TensorProto::UINT32}, {"<i8", TensorProto::INT64},
        {"<u8", TensorProto::UINT64}, {"|b1", TensorProto::BOOL}};
    for (const auto &e : table) {
        if (d == e.first) return e.second;
    }
    return 0;
}

}  // namespace

std::string elem_type_name(int t) {
    switch (t) {
    case TensorProto::FLOAT: return "float";
    case TensorProto::UINT8: return "uint8";
    case TensorProto::INT8: return "int8";
    case TensorProto::UINT16: return "uint16";
    case TensorProto::INT16: return "int16";
    case TensorProto::INT32: return "int32";
    case TensorProto::INT64: return "int64";
    case TensorProto::STRING: return "string";
    case TensorProto::BOOL: return "bool";
    case TensorProto::FLOAT16: return "float16";
    case TensorProto::DOUBLE: return "double";
    case TensorProto::UINT32: return "uint32";
    case TensorProto::UINT64: return "uint64";
    case TensorProto::COMPLEX64: return "complex64";
    case TensorProto::COMPLEX128: return "complex128";
    case TensorProto::BFLOAT16: return "bfloat16";
    default: return "type " + std::to_string(t);
    }
}

Halide::Type halide_type_of(int t, std::string *why_not) {
    if (why_not) why_not->clear();
    switch (t) {
    case TensorProto::FLOAT: return Halide::Float(32);
    case TensorProto::DOUBLE: return Halide::Float(64);
    case TensorProto::UINT8: return Halide::UInt(8);
    case TensorProto::BOOL: return Halide::UInt(8);
    case TensorProto::INT8: return Halide::Int(8);
    case TensorProto::UINT16: return Halide::UInt(16);
    case TensorProto::INT16: return Halide::Int(16);
    case TensorProto::INT32: return Halide::Int(32);
    case TensorProto::INT64: return Halide::Int(64);
    case TensorProto::UINT32: return Halide::UInt(32);
    case TensorProto::UINT64: return Halide::UInt(64);
    default:
        if (why_not) *why_not = "element type " + elem_type_name(t) + " is not supported";
        return Halide::Type();
    }
}

std::vector<int> halide_extents(const std::vector<int64_t> &shape) {
    std::vector<int> extents;
    for (auto it = shape.rbegin(); it != shape.rend(); ++it) extents.push_back(static_cast<int>(*it));
    if (extents.empty()) extents.push_back(1);
    return extents;
}

Halide::Buffer<> make_buffer(Halide::Type type, const std::vector<int64_t> &shape) {
    for (int64_t d : shape) {
        if (d < 0) throw Unsupported("negative tensor dimension " + std::to_string(d));
        if (d > (int64_t(1) << 31) - 1) throw Error("tensor dimension " + std::to_string(d) + " is too large");
    }
    Halide::Buffer<> b(type, halide_extents(shape));
    std::memset(b.data(), 0, b.size_in_bytes());
    return b;
}

std::vector<int64_t> tensor_dims(const TensorProto &t) { return {t.dims().begin(), t.dims().end()}; }

Halide::Buffer<> tensor_to_buffer(const TensorProto &t, const std::string &what) {
    std::string why;
    Halide::Type type = halide_type_of(t.data_type(), &why);
    if (!why.empty()) throw Unsupported(what + ": " + why);
    if (t.data_location() == TensorProto::EXTERNAL) {
        throw Error(what + " keeps its data in an external file, which is not supported");
    }
    std::vector<int64_t> dims = tensor_dims(t);
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    Halide::Buffer<> b = make_buffer(type, dims);
    size_t bytes = static_cast<size_t>(count) * type.bytes();
    if (t.has_raw_data()) {
        if (t.raw_data().size() != bytes) {
            throw Error(what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data, its dims need " +
                        std::to_string(bytes));
        }
        std::memcpy(b.data(), t.raw_data().data(), bytes);
        return b;
    }
    int64_t have = 0;
    switch (t.data_type()) {
    case TensorProto::FLOAT: have = t.float_data_size(); if (have == count) copy_values<float>(t.float_data(), b); break;
    case TensorProto::DOUBLE: have = t.double_data_size(); if (have == count) copy_values<double>(t.double_data(), b); break;
    case TensorProto::INT64: have = t.int64_data_size(); if (have == count) copy_values<int64_t>(t.int64_data(), b); break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
        have = t.uint64_data_size();
        if (have == count) {
            if (t.data_type() == TensorProto::UINT32) copy_values<uint32_t>(t.uint64_data(), b);
            else copy_values<uint64_t>(t.uint64_data(), b);
        }
        break;
    default:
        have = t.int32_data_size();
        if (have == count) {
            switch (t.data_type()) {
            case TensorProto::INT32: copy_values<int32_t>(t.int32_data(), b); break;
            case TensorProto::INT16: copy_values<int16_t>(t.int32_data(), b); break;
            case TensorProto::UINT16: copy_values<uint16_t>(t.int32_data(), b); break;
            case TensorProto::INT8: copy_values<int8_t>(t.int32_data(), b); break;
            default: copy_values<uint8_t>(t.int32_data(), b); break;
            }
        }
        break;
    }
    if (have != count) {
        throw Error(what + " holds " + std::to_string(have) + " values, its dims need " + std::to_string(count));
    }
    return b;
}

TensorProto buffer_to_tensor(const Halide::Buffer<> &values, const std::vector<int64_t> &shape, int elem_type,
                             const std::string &name) {
    TensorProto t;
    t.set_name(name);
    t.set_data_type(elem_type);
    for (int64_t d : shape) t.add_dims(d);
    t.set_raw_data(std::string(static_cast<const char *>(values.data()), values.size_in_bytes()));
    return t;
}

TestTensor read_test_tensor(const std::string &path) {
    std::string bytes = read_file(path);
    TestTensor out;
    bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
    if (!npy) {
        TensorProto t;
        if (!t.ParseFromString(bytes)) throw Error("'" + path + "' is not a TensorProto (.pb) file");
        out.name = t.name();
        out.shape = tensor_dims(t);
        out.elem_type = t.data_type();
        out.values = tensor_to_buffer(t, "'" + path + "'");
        return out;
    }
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) throw Error("'" + path + "' is not a .npy file");
    int major = static_cast<unsigned char>(bytes[6]);
    size_t header_len, start;
    if (major == 1) {
        header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
        start = 10;
    } else {
        if (bytes.size() < 12) throw Error("'" + path + "' has a truncated header");
        header_len = 0;
        for (int i = 0; i < 4; i++) header_len |= size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
        start = 12;
    }
    if (start + header_len > bytes.size()) throw Error("'" + path + "' has a truncated header");
    std::string header = bytes.substr(start, header_len);
    auto field = [&](const std::string &key) {
        size_t k = header.find("'" + key + "':");
        if (k == std::string::npos) throw Error("'" + path + "' has no '" + key + "' in its header");
        return k + key.size() + 3;
    };
    size_t d = header.find('\'', field("descr"));
    size_t e = header.find('\'', d + 1);
    std::string descr = header.substr(d + 1, e - d - 1);
    out.elem_type = elem_type_of_descr(descr);
    if (!out.elem_type) throw Error("'" + path + "' holds dtype " + descr + ", which is not supported");
    if (header.find("True", field("fortran_order")) == header.find_first_not_of(' ', field("fortran_order"))) {
        throw Error("'" + path + "' is in Fortran order");
    }
    size_t s = header.find('(', field("shape"));
    size_t s_end = header.find(')', s);
    std::string dims = header.substr(s + 1, s_end - s - 1);
    std::istringstream ds(dims);
    std::string item;
    while (std::getline(ds, item, ',')) {
        if (item.find_first_not_of(' ') == std::string::npos) continue;
        out.shape.push_back(std::stoll(item));
    }
    out.values = make_buffer(halide_type_of(out.elem_type, nullptr), out.shape);
    size_t need = out.values.size_in_bytes();
    if (bytes.size() - start - header_len < need) throw Error("'" + path + "' is truncated");
    std::memcpy(out.values.data(), bytes.data() + start + header_len, need);
    return out;
}

}  // namespace flowhls::onnx_import
