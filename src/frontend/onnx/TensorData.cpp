// Conversions between ONNX TensorProtos, .npy files and Halide buffers.
#include <charconv>
#include "frontend/onnx/TensorData.h"
#include "flowhls/Error.h"
#include "frontend/onnx/Converter.h"
#include "frontend/onnx/OpSupport.h"
#include "ir/IRQueries.h"
#include "support/Paths.h"
#include "support/Sizes.h"

#include <cctype>
#include <cstring>
#include <limits>

namespace flowhls::onnx_import {

using onnx::TensorProto;

namespace {

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
    }
    // Halide computes strides from every extent: the nonzero ones must fit even in an empty tensor.
    std::vector<int64_t> nonzero;
    for (int64_t d : shape) {
        if (d != 0) nonzero.push_back(d);
    }
    if (checked_bytes(nonzero, type.bytes(), kMaxTensorBytes) < 0) {
        throw Error("a tensor of shape " + shape_text(shape) + " would take more than " +
                    byte_size_text(kMaxTensorBytes) + ", the most one tensor may hold");
    }
    Halide::Buffer<> b(type, halide_extents(shape));
    if (b.size_in_bytes() > 0) std::memset(b.data(), 0, b.size_in_bytes());
    return b;
}

std::vector<int64_t> tensor_dims(const TensorProto &t) { return {t.dims().begin(), t.dims().end()}; }

int element_bytes(int t) {
    switch (t) {
    case TensorProto::UINT8:
    case TensorProto::INT8:
    case TensorProto::BOOL: return 1;
    case TensorProto::UINT16:
    case TensorProto::INT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: return 2;
    case TensorProto::FLOAT:
    case TensorProto::INT32:
    case TensorProto::UINT32: return 4;
    case TensorProto::DOUBLE:
    case TensorProto::INT64:
    case TensorProto::UINT64:
    case TensorProto::COMPLEX64: return 8;
    case TensorProto::COMPLEX128: return 16;
    default: return 0;
    }
}

namespace {

// How many values a TensorProto holds in its typed field for its element type, and how many
// of them make one element.
int64_t typed_values(const TensorProto &t, int64_t *per_element) {
    *per_element = 1;
    switch (t.data_type()) {
    case TensorProto::FLOAT: return t.float_data_size();
    case TensorProto::COMPLEX64: *per_element = 2; return t.float_data_size();
    case TensorProto::DOUBLE: return t.double_data_size();
    case TensorProto::COMPLEX128: *per_element = 2; return t.double_data_size();
    case TensorProto::INT64: return t.int64_data_size();
    case TensorProto::UINT32:
    case TensorProto::UINT64: return t.uint64_data_size();
    case TensorProto::STRING: return t.string_data_size();
    default: return t.int32_data_size();
    }
}

}  // namespace

void check_tensor(const TensorProto &t, const std::string &what, int64_t max_bytes) {
    if (!TensorProto::DataType_IsValid(t.data_type()) || t.data_type() == TensorProto::UNDEFINED) {
        throw Error(what + " has an unknown element type (" + std::to_string(t.data_type()) + ")");
    }
    for (int64_t d : t.dims()) {
        if (d < 0) throw Error(what + " has a negative dimension (" + std::to_string(d) + ")");
    }
    if (t.data_location() == TensorProto::EXTERNAL || t.external_data_size() > 0) {
        throw Error(what + " keeps its data in an external file, which is not supported");
    }
    std::vector<int64_t> dims = tensor_dims(t);
    int64_t count = checked_bytes(dims, 1, std::numeric_limits<int64_t>::max());
    int size = std::max(element_bytes(t.data_type()), 1);
    int64_t bytes = checked_bytes(dims, size, max_bytes);
    if (count < 0 || bytes < 0) {
        throw Error(what + " has shape " + shape_text(dims) + ", more than the " + byte_size_text(max_bytes) +
                    " one tensor may hold");
    }
    if (t.has_raw_data()) {
        if (t.data_type() == TensorProto::STRING) throw Error(what + " holds strings as raw data");
        if (static_cast<int64_t>(t.raw_data().size()) != bytes) {
            throw Error(what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data, its dims need " +
                        std::to_string(bytes));
        }
        return;
    }
    int64_t per_element = 1;
    int64_t have = typed_values(t, &per_element);
    if (have != count * per_element) {
        throw Error(what + " holds " + std::to_string(have / per_element) + " values, its dims need " +
                    std::to_string(count));
    }
}

std::vector<double> buffer_doubles(const Halide::Buffer<> &b) {
    std::vector<double> out;
    out.reserve(b.number_of_elements());
    for (size_t k = 0; k < b.number_of_elements(); k++) {
        out.push_back(read_element(b, static_cast<int64_t>(k), [](auto v) { return static_cast<double>(v); }));
    }
    return out;
}

Halide::Buffer<> tensor_to_buffer(const TensorProto &t, const std::string &what) {
    std::string why;
    Halide::Type type = halide_type_of(t.data_type(), &why);
    if (!why.empty()) throw Unsupported(what + ": " + why);
    check_tensor(t, what, kMaxTensorBytes);
    std::vector<int64_t> dims = tensor_dims(t);
    Halide::Buffer<> b = make_buffer(type, dims);
    if (t.has_raw_data()) {
        if (b.size_in_bytes() > 0) std::memcpy(b.data(), t.raw_data().data(), b.size_in_bytes());
        return b;
    }
    switch (t.data_type()) {
    case TensorProto::FLOAT: copy_values<float>(t.float_data(), b); break;
    case TensorProto::DOUBLE: copy_values<double>(t.double_data(), b); break;
    case TensorProto::INT64: copy_values<int64_t>(t.int64_data(), b); break;
    case TensorProto::UINT32: copy_values<uint32_t>(t.uint64_data(), b); break;
    case TensorProto::UINT64: copy_values<uint64_t>(t.uint64_data(), b); break;
    case TensorProto::INT32: copy_values<int32_t>(t.int32_data(), b); break;
    case TensorProto::INT16: copy_values<int16_t>(t.int32_data(), b); break;
    case TensorProto::UINT16: copy_values<uint16_t>(t.int32_data(), b); break;
    case TensorProto::INT8: copy_values<int8_t>(t.int32_data(), b); break;
    default: copy_values<uint8_t>(t.int32_data(), b); break;
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

namespace {

// The header of a .npy file: a Python dict literal with 'descr', 'fortran_order' and 'shape'.
class NpyHeader {
public:
    NpyHeader(const std::string &text, const std::string &path) : text_(text), path_(path) {}

    void parse(std::string *descr, bool *fortran_order, std::vector<int64_t> *shape) {
        expect('{');
        bool have_descr = false, have_order = false, have_shape = false;
        while (!peek('}')) {
            std::string key = quoted();
            expect(':');
            if (key == "descr") *descr = quoted(), have_descr = true;
            else if (key == "fortran_order") *fortran_order = boolean(), have_order = true;
            else if (key == "shape") *shape = tuple(), have_shape = true;
            else fail("unknown key '" + key + "'");
            if (!peek(',')) break;
            expect(',');
        }
        expect('}');
        if (!have_descr || !have_order || !have_shape) fail("'descr', 'fortran_order' and 'shape' are all needed");
    }

private:
    const std::string &text_;
    const std::string &path_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string &why) const {
        throw Error("'" + path_ + "' is not a valid .npy file: its header " + why);
    }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) pos_++;
    }
    bool peek(char c) {
        skip_space();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    void expect(char c) {
        if (!peek(c)) fail(std::string("lacks '") + c + "' at offset " + std::to_string(pos_));
        pos_++;
    }
    std::string quoted() {
        skip_space();
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) fail("has a key or value that is not a string");
        char q = text_[pos_++];
        size_t end = text_.find(q, pos_);
        if (end == std::string::npos || end - pos_ > 64) fail("has an unterminated string");
        std::string s = text_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return s;
    }
    bool boolean() {
        skip_space();
        for (const char *word : {"True", "False"}) {
            if (text_.compare(pos_, std::strlen(word), word) == 0) {
                pos_ += std::strlen(word);
                return word[0] == 'T';
            }
        }
        fail("has a 'fortran_order' that is not True or False");
    }
    // "(2, 3)", "(5,)" or "()".
    std::vector<int64_t> tuple() {
        std::vector<int64_t> dims;
        if (!peek('(')) fail("has a 'shape' that is not a tuple");
        pos_++;
        while (!peek(')')) {
            skip_space();
            size_t start = pos_;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) pos_++;
            if (pos_ == start) fail("has a 'shape' whose items are not non-negative integers");
            int64_t dim = 0;
            auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, dim);
            if (ec != std::errc() || end != text_.data() + pos_) fail("has a dimension that is too large");
            dims.push_back(dim);
            if (!peek(',')) break;
            pos_++;
        }
        expect(')');
        return dims;
    }
};

TestTensor parse_npy(const std::string &bytes, const std::string &path) {
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) throw Error("'" + path + "' is not a .npy file");
    int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3) throw Error("'" + path + "' is .npy version " + std::to_string(major) + " (1 to 3 are read)");
    size_t header_len = 0, start = major == 1 ? 10 : 12;
    if (bytes.size() < start) throw Error("'" + path + "' has a truncated header");
    for (size_t i = 8; i < start; i++) header_len |= size_t(static_cast<unsigned char>(bytes[i])) << (8 * (i - 8));
    if (header_len > bytes.size() - start) throw Error("'" + path + "' has a truncated header");
    std::string header = bytes.substr(start, header_len);
    std::string descr;
    bool fortran = false;
    TestTensor out;
    NpyHeader(header, path).parse(&descr, &fortran, &out.shape);
    out.elem_type = elem_type_of_descr(descr);
    if (!out.elem_type) throw Error("'" + path + "' holds dtype " + descr + ", which is not supported");
    if (fortran) throw Error("'" + path + "' is in Fortran order");
    Halide::Type type = halide_type_of(out.elem_type, nullptr);
    int64_t need = checked_bytes(out.shape, type.bytes(), kMaxTensorBytes);
    int64_t have = static_cast<int64_t>(bytes.size() - start - header_len);
    if (need < 0) {
        throw Error("'" + path + "' has shape " + shape_text(out.shape) + ", more than the " +
                    byte_size_text(kMaxTensorBytes) + " one tensor may hold");
    }
    if (have < need) {
        throw Error("'" + path + "' is truncated: its header gives shape " + shape_text(out.shape) + " (" +
                    std::to_string(need) + " bytes), the file holds " + std::to_string(have));
    }
    out.values = make_buffer(type, out.shape);
    if (need > 0) std::memcpy(out.values.data(), bytes.data() + start + header_len, static_cast<size_t>(need));
    return out;
}

}  // namespace

TestTensor parse_test_tensor(const std::string &bytes, const std::string &path, bool npy) {
    if (npy) return parse_npy(bytes, path);
    TensorProto t;
    if (!t.ParseFromString(bytes)) throw Error("'" + path + "' is not a TensorProto (.pb) file");
    check_tensor(t, "'" + path + "'", kMaxTensorBytes);
    std::string why;
    halide_type_of(t.data_type(), &why);
    if (!why.empty()) throw Error("'" + path + "': " + why);
    TestTensor out;
    out.name = t.name();
    out.shape = tensor_dims(t);
    out.elem_type = t.data_type();
    out.values = tensor_to_buffer(t, "'" + path + "'");
    return out;
}

TestTensor read_test_tensor(const std::string &path) {
    bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
    // A file of one tensor holds at most the most one tensor may hold, and its header.
    std::string bytes = read_file_bytes(path, "test data file", kMaxTensorBytes + (1 << 20));
    return parse_test_tensor(bytes, path, npy);
}

}  // namespace flowhls::onnx_import
