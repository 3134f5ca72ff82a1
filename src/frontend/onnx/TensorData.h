// ONNX tensors and .npy files as Halide buffers: element types, initializers, test data.
#pragma once

#include <Halide.h>
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// The Halide type holding ONNX element type `elem_type` (bool: UInt(8)); "" in `why_not`
/// when supported, else the reason.
Halide::Type halide_type_of(int elem_type, std::string *why_not);
/// The ONNX name of an element type ("float", "int64", ...).
std::string elem_type_name(int elem_type);

/// Bytes of one element of ONNX element type `elem_type` (complex64: 8); 0 for strings and
/// unknown types.
int element_bytes(int elem_type);

/// Contract: checks that `tensor` (named `what` in messages) is consistent before any of its
/// data is used: a known element type, dims >= 0 whose element count times the element size
/// is at most `max_bytes` (checked without overflow), data kept in the file (external data
/// is refused) and exactly as many values (raw bytes or typed fields) as the dims need.
/// Throws flowhls::Error naming `what`.
void check_tensor(const onnx::TensorProto &tensor, const std::string &what, int64_t max_bytes);

/// A buffer of `type` for a tensor of ONNX shape `shape` (Halide dimension order is reversed;
/// a scalar gets one dimension of extent 1).
Halide::Buffer<> make_buffer(Halide::Type type, const std::vector<int64_t> &shape);
/// Halide dimension extents of an ONNX shape.
std::vector<int> halide_extents(const std::vector<int64_t> &shape);

/// A tensor's values; `what` names it in error messages. Throws flowhls::Error for
/// unsupported types, external data or sizes that do not match the dims (check_tensor runs
/// before anything is allocated).
Halide::Buffer<> tensor_to_buffer(const onnx::TensorProto &tensor, const std::string &what);
/// The values of a buffer of any numeric type as doubles, in memory order.
std::vector<double> buffer_doubles(const Halide::Buffer<> &values);
/// The dims of a TensorProto.
std::vector<int64_t> tensor_dims(const onnx::TensorProto &tensor);
/// A TensorProto holding `values` (ONNX shape `shape`, element type `elem_type`).
onnx::TensorProto buffer_to_tensor(const Halide::Buffer<> &values, const std::vector<int64_t> &shape,
                                   int elem_type, const std::string &name);

/// One test data file: its values, ONNX shape and (for .pb files) tensor name.
struct TestTensor {
    std::string name;
    std::vector<int64_t> shape;
    int elem_type = 0;
    Halide::Buffer<> values;
};

/// Reads a TensorProto (.pb) or NumPy (.npy, by its extension) file. Throws flowhls::Error
/// naming the file.
TestTensor read_test_tensor(const std::string &path);

/// Parses the contents of a test data file named `path` in messages: NumPy .npy (versions
/// 1 to 3, C order) when `npy`, else a TensorProto. Sizes are checked against the bytes
/// present before anything is allocated. Throws flowhls::Error naming `path` and the cause.
TestTensor parse_test_tensor(const std::string &bytes, const std::string &path, bool npy);

}  // namespace flowhls::onnx_import
