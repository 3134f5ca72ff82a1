#!/usr/bin/python3
"""Structure-aware generator of hostile inputs for flowhls: ONNX models that parse but are
invalid (or valid but at the edges: division by zero, INT_MIN / -1, long view chains), test
data files (.npy, .pb) whose headers lie, and directives files.

    /usr/bin/python3 fuzz/generate.py --regression fuzz/regression   # one case per class
    /usr/bin/python3 fuzz/generate.py --out DIR --count N --seed S   # N randomized cases

Each case is written as DIR/<kind>/<class>[-<n>].<ext>, kind being:
  invalid   ONNX models flowhls must refuse (exit 2, one `flowhls: error:` line),
  valid     ONNX models it must compile and simulate (exit 0, csim PASS),
  data      test data files it must refuse as --inputs of fuzz/regression/relu4.onnx,
  directives directives files it must refuse for `compile -e gemm`.
Run with /usr/bin/python3 (Debian's python3-onnx and python3-numpy).
"""
import argparse
import os
import random
import struct

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I32 = TensorProto.INT32
I64 = TensorProto.INT64


def model(nodes, inputs, outputs, inits=(), opset=13, functions=(), value_info=(), ir=8, extra_opsets=()):
    graph = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(inits), value_info=list(value_info))
    opsets = [helper.make_opsetid("", opset)] + list(extra_opsets)
    m = helper.make_model(graph, opset_imports=opsets, functions=list(functions), producer_name="flowhls-fuzz")
    m.ir_version = ir
    return m


def vi(name, elem, shape):
    """A value of `elem` type; `shape` a list of dims, or an int: that rank, every dim unknown."""
    if isinstance(shape, int):
        shape = ["%s_d%d" % (name, i) for i in range(shape)]
    return helper.make_tensor_value_info(name, elem, shape)


def tensor(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


# ---- ONNX models flowhls must refuse -------------------------------------------------------

def output_not_produced(r):
    """A graph output no node produces, below opset 17 (crashed libonnx's version converter)."""
    return model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, [1, 4])],
                 [vi("y", F, [1, 4]), vi("ghost%d" % r.randint(0, 99), F, [1, 4])], opset=r.choice([7, 9, 11, 13, 15, 16]))


def input_not_produced(r):
    return model([helper.make_node(r.choice(["Relu", "Sigmoid", "Neg"]), ["missing"], ["y"])],
                 [vi("x", F, [1, 4])], [vi("y", F, [1, 4])], opset=r.choice([11, 13, 17]))


def value_produced_twice(r):
    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Neg", ["x"], ["y"])]
    if r.random() < 0.5:
        nodes = [helper.make_node("Relu", ["x"], ["x"])]  # overwrites a graph input
        return model(nodes, [vi("x", F, [1, 4])], [vi("x", F, [1, 4])])
    return model(nodes, [vi("x", F, [1, 4])], [vi("y", F, [1, 4])])


def cycle(r):
    n = r.randint(2, 5)
    nodes = [helper.make_node("Relu", ["v%d" % ((i + 1) % n)], ["v%d" % i]) for i in range(n)]
    nodes.append(helper.make_node("Add", ["x", "v0"], ["y"]))
    return model(nodes, [vi("x", F, [1, 4])], [vi("y", F, [1, 4])], opset=r.choice([13, 16, 17]))


def unsorted_nodes(r):
    nodes = [helper.make_node("Neg", ["a"], ["y"]), helper.make_node("Relu", ["x"], ["a"])]
    return model(nodes, [vi("x", F, [1, 4])], [vi("y", F, [1, 4])])


def recursive_function(r):
    """A model-local function that calls itself (overflowed the stack in function expansion)."""
    body = [helper.make_node("f", ["a"], ["b"], domain="local")]
    f = helper.make_function("local", "f", ["a"], ["b"], body, [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    nodes = [helper.make_node("f", ["x"], ["y"], domain="local")]
    return model(nodes, [vi("x", F, [1, 4])], [vi("y", F, [1, 4])], opset=17, functions=[f],
                 extra_opsets=[helper.make_opsetid("local", 1)])


def mutually_recursive_functions(r):
    ops = [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]
    f = helper.make_function("local", "f", ["a"], ["b"], [helper.make_node("g", ["a"], ["b"], domain="local")], ops)
    g = helper.make_function("local", "g", ["a"], ["b"], [helper.make_node("f", ["a"], ["b"], domain="local")], ops)
    nodes = [helper.make_node("f", ["x"], ["y"], domain="local")]
    return model(nodes, [vi("x", F, [1, 4])], [vi("y", F, [1, 4])], opset=17, functions=[f, g],
                 extra_opsets=[helper.make_opsetid("local", 1)])


def window_op(r, op, attr, value):
    """Conv / MaxPool / AveragePool with a zero or negative stride, dilation or kernel size."""
    attrs = {"kernel_shape": [3, 3]}
    attrs[attr] = [value, r.choice([1, value])] if attr != "group" else value
    inputs = ["x"]
    inits = []
    if op == "Conv":
        inputs.append("w")
        inits.append(tensor("w", np.ones((2, 1, 3, 3), np.float32)))
    return model([helper.make_node(op, inputs, ["y"], **attrs)], [vi("x", F, [1, 1, 8, 8])], [vi("y", F, 4)], inits,
                 opset=r.choice([11, 13]))


def conv_zero_stride(r):
    return window_op(r, "Conv", "strides", r.choice([0, -1, -7]))


def conv_negative_dilation(r):
    return window_op(r, "Conv", "dilations", r.choice([0, -1, -3]))


def conv_zero_group(r):
    return window_op(r, "Conv", "group", r.choice([0, -2]))


def maxpool_zero_kernel(r):
    return window_op(r, "MaxPool", "kernel_shape", r.choice([0, -2]))


def averagepool_negative_stride(r):
    return window_op(r, "AveragePool", "strides", r.choice([0, -1]))


def huge_input_shape(r):
    """Static shapes too large to allocate."""
    shape = r.choice([[1, 3, 100000, 100000], [1 << 20, 1 << 20], [4096, 4096, 4096], [1, 2 ** 31 + 5]])
    return model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, shape)], [vi("y", F, shape)])


def shape_overflows_int64(r):
    shape = [1 << 40, 1 << 40, 1 << 30]
    return model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, shape)], [vi("y", F, shape)])


def initializer_claims_more(r):
    """An initializer whose dims claim more than its data holds."""
    t = tensor("w", np.ones(4, np.float32))
    del t.dims[:]
    t.dims.extend(r.choice([[1000000, 1000000], [4096, 4096], [5], [1 << 62, 4]]))
    return model([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", F, [1, 4])], [vi("y", F, 2)], [t])


def initializer_negative_dims(r):
    t = tensor("w", np.ones(4, np.float32))
    del t.dims[:]
    t.dims.extend([-4])
    return model([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", F, [4])], [vi("y", F, 1)], [t])


def memory_budget(r):
    """Tensors that fit one by one but not together within --max-memory 64M."""
    shape = tensor("s", np.array([1, r.choice([64, 96]), 1024, 1024], np.int64))
    nodes = [helper.make_node("ConstantOfShape", ["s"], ["c"], value=helper.make_tensor("v", F, [1], [1.0])),
             helper.make_node("Add", ["c", "x"], ["y"])]
    return model(nodes, [vi("x", F, [1, 1, 1, 1])], [vi("y", F, 4)], [shape])


def expand_to_huge(r):
    shape = tensor("s", np.array([1 << 20, 1 << 20], np.int64))
    return model([helper.make_node("Expand", ["x", "s"], ["y"])], [vi("x", F, [1, 1])], [vi("y", F, 2)], [shape])


def range_huge(r):
    inits = [tensor("a", np.array(0, np.int64)), tensor("b", np.array(r.choice([1 << 40, 2 ** 63 - 1]), np.int64)),
             tensor("d", np.array(1, np.int64))]
    return model([helper.make_node("Range", ["a", "b", "d"], ["y"])], [vi("x", F, [1])], [vi("y", I64, 1)], inits,
                 opset=13)


def conv_bias_mismatch(r):
    inits = [tensor("w", np.ones((4, 2, 3, 3), np.float32)), tensor("b", np.ones(r.choice([3, 5, 8]), np.float32))]
    return model([helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], [vi("x", F, [1, 2, 6, 6])],
                 [vi("y", F, [1, 4, 6, 6])], inits)


def add_float_int64(r):
    inits = [tensor("k", np.array([1, 2, 3, 4], np.int64))]
    return model([helper.make_node(r.choice(["Add", "Mul", "Sub"]), ["x", "k"], ["y"])], [vi("x", F, [4])],
                 [vi("y", F, [4])], inits)


def gather_index_out_of_range(r):
    inits = [tensor("i", np.array([0, r.choice([4, 7, -5, 1000])], np.int64))]
    return model([helper.make_node("Gather", ["x", "i"], ["y"], axis=0)], [vi("x", F, [4, 2])], [vi("y", F, 2)],
                 inits)


def constant_two_values(r):
    node = helper.make_node("Constant", [], ["c"], value_float=1.0, value_int=2)
    return model([node, helper.make_node("Add", ["x", "c"], ["y"])], [vi("x", F, [4])], [vi("y", F, [4])])


def ceil_mode_out_of_range(r):
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], ceil_mode=r.choice([2, -1, 7]))
    return model([node], [vi("x", F, [1, 1, 4, 4])], [vi("y", F, 4)])


def transb_out_of_range(r):
    inits = [tensor("w", np.ones((4, 4), np.float32))]
    node = helper.make_node("Gemm", ["x", "w"], ["y"], transB=r.choice([2, -1, 9]))
    return model([node], [vi("x", F, [1, 4])], [vi("y", F, 2)], inits)


def layernorm_axis_beyond_int32(r):
    """LayerNormalization with an axis whose low 32 bits are negative: libonnx's shape inference
    narrowed it to int and wrote at that index (SIGSEGV)."""
    inits = [tensor("w", np.ones((5,), np.float32)), tensor("b", np.zeros((5,), np.float32))]
    axis = r.choice([2 ** 31, 2 ** 32 - 1, 2 ** 40 + 2 ** 31])
    node = helper.make_node("LayerNormalization", ["x", "w", "b"], ["y", "mean", "inv"], axis=axis)
    return model([node], [vi("x", F, [2, 3, 4, 5])], [vi("y", F, 4), vi("mean", F, 4), vi("inv", F, 4)], inits,
                 opset=17)


def axis_beyond_int32(r):
    """Other axis attributes beyond int32 (libonnx may narrow them to a valid axis)."""
    axis = r.choice([2 ** 31, 2 ** 32 + 1, -(2 ** 31) - 1, 2 ** 40, -(2 ** 62)])
    op = r.choice(["Flatten", "Softmax", "Concat", "Gather"])
    inputs = {"Concat": ["x", "x"], "Gather": ["x", "i"]}.get(op, ["x"])
    inits = [tensor("i", np.zeros((1,), np.int64))] if op == "Gather" else []
    return model([helper.make_node(op, inputs, ["y"], axis=axis)], [vi("x", F, [2, 3, 4, 5])], [vi("y", F, 4)], inits)


def scan_count_huge(r):
    """Scan (opset 9) with a huge num_scan_inputs: libonnx sized vectors by it (23 GB, then the
    OOM killer)."""
    body = helper.make_graph([helper.make_node("Add", ["sum_in", "next"], ["sum_out"]),
                              helper.make_node("Identity", ["sum_out"], ["scan_out"])], "scan_body",
                             [vi("sum_in", F, [2]), vi("next", F, [2])], [vi("sum_out", F, [2]), vi("scan_out", F, [2])])
    count = r.choice([2 ** 32 - 1, 2 ** 62, 2 ** 31, -(2 ** 31) - 1, 0, 3])
    node = helper.make_node("Scan", ["initial", "x"], ["y", "z"], body=body, num_scan_inputs=count)
    return model([node], [vi("initial", F, [2]), vi("x", F, [3, 2])], [vi("y", F, [2]), vi("z", F, [3, 2])], opset=9)


def nonprintable_names(r):
    """Control bytes and invalid UTF-8 in names (messages must escape them)."""
    name = r.choice(["\x1b[31mred\x1b[0m", "two\nlines", "tab\there", "bell\x07"])
    node = helper.make_node("NoSuchOp", ["x"], ["y"], name=name)
    m = model([node], [vi("x", F, [4])], [vi("y", F, [4])])
    m.graph.node[0].name = name + "\xff"  # protobuf strings are bytes on the wire
    return m


def sparse_initializer(r):
    values = tensor("w_values", np.ones(2, np.float32))
    indices = tensor("w_indices", np.array([0, 9999], np.int64))
    sparse = helper.make_sparse_tensor(values, indices, [4])
    m = model([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", F, [4])], [vi("y", F, [4])])
    m.graph.sparse_initializer.append(sparse)
    return m


def external_data(r):
    t = tensor("w", np.ones(4, np.float32))
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add()
    e.key, e.value = "location", r.choice(["../../../../etc/passwd", "/dev/zero", "weights.bin"])
    return model([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", F, [4])], [vi("y", F, [4])], [t])


def subgraphs_too_deep(r):
    depth = r.randint(17, 30)  # protobuf refuses more than about 32 (100 levels of messages)
    inner = helper.make_graph([helper.make_node("Identity", ["x"], ["o0"])], "b", [], [vi("o0", F, [4])])
    for d in range(depth):
        cond = helper.make_node("Constant", [], ["c%d" % d], value=helper.make_tensor("t", TensorProto.BOOL, [], [1]))
        leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["e%d" % d])], "e", [], [vi("e%d" % d, F, [4])])
        node = helper.make_node("If", ["c%d" % d], ["o%d" % (d + 1)], then_branch=inner, else_branch=leaf)
        inner = helper.make_graph([cond, node], "b%d" % d, [], [vi("o%d" % (d + 1), F, [4])])
    nodes = list(inner.node)
    nodes.append(helper.make_node("Add", ["x", "o%d" % depth], ["y"]))
    return model(nodes, [vi("x", F, [4])], [vi("y", F, [4])])


def attribute_twice(r):
    node = helper.make_node("Softmax", ["x"], ["y"], axis=1)
    node.attribute.append(helper.make_attribute("axis", 0))
    return model([node], [vi("x", F, [2, 4])], [vi("y", F, [2, 4])])


def bad_opset(r):
    m = model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, [4])], [vi("y", F, [4])],
              opset=r.choice([18, 0, -3, 1 << 40]))
    return m


def no_graph(r):
    m = onnx.ModelProto()
    m.ir_version = 8
    m.opset_import.add().version = 13
    return m


def string_tensor(r):
    t = helper.make_tensor("s", TensorProto.STRING, [2], [b"a", b"b"])
    return model([helper.make_node("Identity", ["s"], ["y"])], [vi("x", F, [1])], [vi("y", TensorProto.STRING, [2])], [t])


def reshape_overflow(r):
    s = tensor("s", np.array([1 << 40, 1 << 40, -1], np.int64))
    return model([helper.make_node("Reshape", ["x", "s"], ["y"])], [vi("x", F, [2, 2])], [vi("y", F, 3)], [s])


def slice_inputs(step):
    return [tensor("st", np.array([0], np.int64)), tensor("en", np.array([2 ** 63 - 1], np.int64)),
            tensor("ax", np.array([0], np.int64)), tensor("sp", np.array([step], np.int64))]


def slice_step_zero(r):
    return model([helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], [vi("x", F, [8])], [vi("y", F, 1)],
                 slice_inputs(0))


def negative_input_dim(r):
    m = model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, [1, 4])], [vi("y", F, [1, 4])])
    m.graph.input[0].type.tensor_type.shape.dim[1].dim_value = -4
    return m


def required_input_empty(r):
    return model([helper.make_node(r.choice(["Add", "Mul", "Div"]), ["x", ""], ["y"])], [vi("x", F, [4])],
                 [vi("y", F, [4])])


def einsum_garbage(r):
    eq = r.choice(["...,...->......", "ij,jk->ii", "a" * 80, "", "->", "ij,,jk"])
    inits = [tensor("w", np.ones((4, 4), np.float32))]
    return model([helper.make_node("Einsum", ["x", "w"], ["y"], equation=eq)], [vi("x", F, [4, 4])],
                 [vi("y", F, 2)], inits, opset=13)


def convtranspose_weight_rank(r):
    """ConvTranspose whose declared weights have a lower rank than its data (libonnx's shape
    inference read past the kernel shape: SIGSEGV)."""
    w = tensor("W", np.ones((1, 2), np.float32))
    return model([helper.make_node("ConvTranspose", ["X", "W"], ["Y"], strides=[3, 2], pads=[1, 2, 1, 2])],
                 [vi("X", F, [1, 1, 3, 3])], [vi("Y", F, [1, 2, 7, 3])], [w], opset=11)


def convtranspose_inferred_weight_rank(r):
    """A ConvTranspose whose weights come from another node with a lower rank: only known after
    shape inference, which read past the kernel shape (SIGSEGV)."""
    nodes = [helper.make_node("Reshape", ["w0", "s"], ["W"]),
             helper.make_node("ConvTranspose", ["X", "W"], ["Y"], strides=[3, 2], pads=[1, 2, 1, 2])]
    inits = [tensor("w0", np.ones(2, np.float32)), tensor("s", np.array([1, 2], np.int64))]
    return model(nodes, [vi("X", F, [1, 1, 3, 3])], [vi("Y", F, 4)], inits, opset=r.choice([11, 13]))


def convolution_inferred_data_rank(r):
    """A Conv / ConvTranspose whose data comes from another node with a higher rank."""
    nodes = [helper.make_node("Unsqueeze", ["x0", "a"], ["X"]),
             helper.make_node(r.choice(["ConvTranspose", "Conv"]), ["X", "W"], ["Y"])]
    inits = [tensor("W", np.ones((1, 1, 2, 2), np.float32)), tensor("a", np.array([4], np.int64))]
    return model(nodes, [vi("x0", F, [1, 1, 3, 3])], [vi("Y", F, 4)], inits, opset=13)


def local_function_call(r):
    """A call of a model-local function (here a ConvTranspose with rank-2 weights in its body:
    libonnx's function inference crashed on it)."""
    body = [helper.make_node("ConvTranspose", ["X", "W"], ["Y"], strides=[3, 2], pads=[1, 2, 1, 2])]
    f = helper.make_function("local", "f", ["X", "W"], ["Y"], body, [helper.make_opsetid("", 13)])
    return model([helper.make_node("f", ["X", "W"], ["Y"], domain="local")], [vi("X", F, [1, 1, 3, 3])],
                 [vi("Y", F, 4)], [tensor("W", np.ones((1, 2), np.float32))], opset=13, functions=[f],
                 extra_opsets=[helper.make_opsetid("local", 1)])


def convolution_in_if_body(r):
    """A ConvTranspose inside an If branch."""
    then = helper.make_graph([helper.make_node("Reshape", ["w0", "s"], ["W"]),
                              helper.make_node("ConvTranspose", ["X", "W"], ["Y1"])], "then", [], [vi("Y1", F, 4)])
    other = helper.make_graph([helper.make_node("Identity", ["X"], ["Y2"])], "else", [], [vi("Y2", F, 4)])
    inits = [tensor("w0", np.ones(2, np.float32)), tensor("s", np.array([1, 2], np.int64))]
    return model([helper.make_node("If", ["c"], ["Y"], then_branch=then, else_branch=other)],
                 [vi("X", F, [1, 1, 3, 3]), vi("c", TensorProto.BOOL, [])], [vi("Y", F, 4)], inits, opset=13)


INVALID = [output_not_produced, input_not_produced, value_produced_twice, cycle, unsorted_nodes, recursive_function,
           mutually_recursive_functions, conv_zero_stride, conv_negative_dilation, conv_zero_group, maxpool_zero_kernel,
           averagepool_negative_stride, huge_input_shape, shape_overflows_int64, initializer_claims_more,
           initializer_negative_dims, memory_budget, expand_to_huge, range_huge, conv_bias_mismatch, add_float_int64,
           gather_index_out_of_range, constant_two_values, ceil_mode_out_of_range, transb_out_of_range,
           nonprintable_names, sparse_initializer, external_data, subgraphs_too_deep, attribute_twice, bad_opset,
           no_graph, string_tensor, reshape_overflow, slice_step_zero, negative_input_dim,
           required_input_empty, einsum_garbage, layernorm_axis_beyond_int32, axis_beyond_int32, scan_count_huge,
           convtranspose_weight_rank, convtranspose_inferred_weight_rank,
           convolution_inferred_data_rank, local_function_call, convolution_in_if_body]


# ---- ONNX models flowhls must compile and simulate ----------------------------------------

INT32_MIN = -(2 ** 31)


def integer_division_test_data(r):
    """Div and Mod (both kinds) of int32 graph inputs, with test data holding 0 divisors and
    INT_MIN / -1: C simulation against NumPy-computed expectations (0 for x / 0)."""
    a = [7, -7, 7, -7, 5, INT32_MIN, INT32_MIN, 0, 13, -13, 2 ** 31 - 1, 1]
    b = [2, 2, -2, -2, 0, -1, 1, 0, 0, -1, -1, INT32_MIN]

    def wrap(v):
        return (v + 2 ** 31) % 2 ** 32 - 2 ** 31

    def tdiv(x, y):  # truncated, exact
        return 0 if y == 0 else (abs(x) // abs(y)) * (1 if (x < 0) == (y < 0) else -1)

    q = [wrap(tdiv(x, y)) for x, y in zip(a, b)]
    fm = [0 if y == 0 else x - y * tdiv(x, y) for x, y in zip(a, b)]
    pm = [0 if y == 0 else x % y for x, y in zip(a, b)]
    a, b, q, fm, pm = (np.array(v, np.int32) for v in (a, b, q, fm, pm))
    nodes = [helper.make_node("Div", ["a", "b"], ["q"]), helper.make_node("Mod", ["a", "b"], ["fm"], fmod=1),
             helper.make_node("Mod", ["a", "b"], ["pm"], fmod=0)]
    m = model(nodes, [vi("a", I32, [12]), vi("b", I32, [12])], [vi("q", I32, [12]), vi("fm", I32, [12]), vi("pm", I32, [12])])
    return m, {"input_0": a, "input_1": b, "output_0": q, "output_1": fm, "output_2": pm}


def integer_division_constants(r):
    """The same folded at compile time (constant inputs)."""
    a = np.array([7, -7, 5, INT32_MIN, 0], np.int32)
    b = np.array([-2, 2, 0, -1, 0], np.int32)
    nodes = [helper.make_node("Div", ["a", "b"], ["q"]), helper.make_node("Mod", ["a", "b"], ["m"], fmod=1),
             helper.make_node("Add", ["q", "x"], ["y"]), helper.make_node("Add", ["m", "x"], ["z"])]
    return model(nodes, [vi("x", I32, [5])], [vi("y", I32, [5]), vi("z", I32, [5])],
                 [tensor("a", a), tensor("b", b)]), None


def integer_division_random(r):
    """Div and Mod of int32 inputs without test data: the JIT reference on random inputs
    (which hold 0 and -1) against the generated C."""
    nodes = [helper.make_node("Div", ["a", "b"], ["q"]), helper.make_node("Mod", ["a", "b"], ["m"], fmod=1)]
    return model(nodes, [vi("a", I32, [64]), vi("b", I32, [64])], [vi("q", I32, [64]), vi("m", I32, [64])]), None


def slice_extreme_steps(r):
    """Steps of 2^63 - 1 and -2^63 (one element each): no overflow in the slice arithmetic."""
    step = r.choice([2 ** 63 - 1, -(2 ** 63)])
    inits = slice_inputs(step)
    if step < 0:
        inits[0], inits[1] = tensor("st", np.array([7], np.int64)), tensor("en", np.array([-(2 ** 63)], np.int64))
    return model([helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])], [vi("x", F, [8])],
                 [vi("y", F, [1])], inits), None


def long_view_chain(r):
    n = r.randint(100, 400)
    nodes = []
    prev = "x"
    for i in range(n):
        nodes.append(helper.make_node(r.choice(["Identity", "Flatten"]), [prev], ["v%d" % i]))
        prev = "v%d" % i
    nodes.append(helper.make_node("Relu", [prev], ["y"]))
    return model(nodes, [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]), None


VALID = [integer_division_test_data, integer_division_constants, integer_division_random, slice_extreme_steps,
         long_view_chain]


# ---- test data files -------------------------------------------------------------------------

def npy(header, payload=b"", version=1):
    h = header.encode("latin1")
    pad = (64 - (10 + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    if version == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + payload
    return b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<I", len(h)) + h + payload


def npy_shape_not_tuple(r):
    return npy("{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % r.choice(["4", "[1, 4]", "'x'", "(1, 4"]),
               b"\0" * 16), "npy"


def npy_claims_more(r):
    return npy("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 4), }" % r.choice([1000, 1 << 20]), b"\0" * 16), "npy"


def npy_huge_shape(r):
    return npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100000), }", b"\0" * 16), "npy"


def npy_dim_over_int64(r):
    # 19 digits, beyond int64 (found by the fuzzer: the reader once threw out_of_range).
    return npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 9999999999999999999), }", b"\0" * 16), "npy"


def npy_negative_dim(r):
    return npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 4), }", b"\0" * 16), "npy"


def npy_header_length_lies(r):
    data = bytearray(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }", b"\0" * 16))
    data[8:10] = struct.pack("<H", 65535)
    return bytes(data), "npy"


def npy_version_3_huge_header(r):
    data = bytearray(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }", b"\0" * 16, version=2))
    data[8:12] = struct.pack("<I", 0xffffffff)
    return bytes(data), "npy"


def npy_bad_dtype(r):
    return npy("{'descr': '%s', 'fortran_order': False, 'shape': (1, 4), }" % r.choice(["<c8", "|O", "<U4", ""]),
               b"\0" * 32), "npy"


def npy_fortran(r):
    return npy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 4), }", b"\0" * 16), "npy"


def npy_not_npy(r):
    return bytes(r.getrandbits(8) for _ in range(r.randint(0, 40))), "npy"


def pb_claims_more(r):
    t = tensor("x", np.zeros(4, np.float32))
    del t.dims[:]
    t.dims.extend(r.choice([[1000, 4], [1 << 20, 1 << 20], [1 << 62, 8]]))
    return t.SerializeToString(), "pb"


def pb_negative_dims(r):
    t = tensor("x", np.zeros(4, np.float32))
    del t.dims[:]
    t.dims.extend([-1, -4])
    return t.SerializeToString(), "pb"


def pb_unknown_type(r):
    t = tensor("x", np.zeros(4, np.float32))
    t.data_type = r.choice([0, 99, -1])
    return t.SerializeToString(), "pb"


def pb_external(r):
    t = tensor("x", np.zeros(4, np.float32))
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add()
    e.key, e.value = "location", "/etc/shadow"
    return t.SerializeToString(), "pb"


def pb_garbage(r):
    return bytes(r.getrandbits(8) for _ in range(r.randint(1, 64))), "pb"


DATA = [npy_shape_not_tuple, npy_claims_more, npy_huge_shape, npy_dim_over_int64, npy_negative_dim, npy_header_length_lies,
        npy_version_3_huge_header, npy_bad_dtype, npy_fortran, npy_not_npy, pb_claims_more, pb_negative_dims,
        pb_unknown_type, pb_external, pb_garbage]


# ---- directives files ------------------------------------------------------------------------

def json_number_overflow(r):
    return '{"prod": {"pipeline": {"loop": "x", "ii": %s}}}' % r.choice(["1e400", "99999999999999999999999", "-1e400"])


def json_not_json(r):
    return r.choice(["{", "[1, 2", "\x00\x01", "{'single': 'quotes'}", ""])


def json_deep_nesting(r):
    n = r.randint(10000, 50000)
    return "[" * n + "]" * n


def json_wrong_types(r):
    return r.choice(['{"prod": {"pipeline": "fast"}}', '{"prod": 5}', '[1, 2, 3]', '{"prod": {"unroll": {"factor": []}}}',
                     '{"prod": {"partition": {"dim": 1e9, "kind": "cyclic", "factor": -3}}}'])


DIRECTIVES = [json_number_overflow, json_not_json, json_deep_nesting, json_wrong_types]


# ---- writing -------------------------------------------------------------------------------

def write_model(path, m):
    with open(path, "wb") as f:
        f.write(m.SerializeToString())


def write_valid(dirpath, name, made):
    m, data = made
    os.makedirs(dirpath, exist_ok=True)
    if data is None:
        write_model(os.path.join(dirpath, name + ".onnx"), m)
        return
    # A model with test data: a directory with model.onnx and test_data_set_0.
    case = os.path.join(dirpath, name)
    os.makedirs(os.path.join(case, "test_data_set_0"), exist_ok=True)
    write_model(os.path.join(case, "model.onnx"), m)
    for key, values in data.items():
        t = numpy_helper.from_array(np.asarray(values), key)
        with open(os.path.join(case, "test_data_set_0", key + ".pb"), "wb") as f:
            f.write(t.SerializeToString())


def write_case(out, kind, fn, r, suffix=""):
    name = fn.__name__ + suffix
    d = os.path.join(out, kind)
    os.makedirs(d, exist_ok=True)
    if kind == "invalid":
        write_model(os.path.join(d, name + ".onnx"), fn(r))
    elif kind == "valid":
        write_valid(d, name, fn(r))
    elif kind == "data":
        payload, ext = fn(r)
        with open(os.path.join(d, name + "." + ext), "wb") as f:
            f.write(payload)
    else:
        with open(os.path.join(d, name + ".json"), "w", encoding="latin1") as f:
            f.write(fn(r))


def relu4():
    """The valid model the data cases are given to: y = Relu(x), x float [1, 4]."""
    return model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, [1, 4])], [vi("y", F, [1, 4])])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--regression", help="write one case per class into this directory")
    p.add_argument("--out", help="write --count randomized cases into this directory")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    kinds = [("invalid", INVALID), ("valid", VALID), ("data", DATA), ("directives", DIRECTIVES)]
    if a.regression:
        for kind, fns in kinds:
            for fn in fns:
                write_case(a.regression, kind, fn, random.Random(fn.__name__))
        write_model(os.path.join(a.regression, "relu4.onnx"), relu4())
    if a.out:
        r = random.Random(a.seed)
        every = [(kind, fn) for kind, fns in kinds for fn in fns]
        for i in range(a.count):
            kind, fn = every[i % len(every)]
            write_case(a.out, kind, fn, r, "-%d" % i)
        write_model(os.path.join(a.out, "relu4.onnx"), relu4())


if __name__ == "__main__":
    main()
