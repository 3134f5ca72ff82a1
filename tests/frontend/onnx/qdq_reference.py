#!/usr/bin/python3
"""float64 reference of a QDQ model: evaluates the ONNX graph with numpy, every float op in
float64 (DequantizeLinear exact, Conv/Gemm/MaxPool/Relu in float64, QuantizeLinear rounding
half to even), and writes the outputs as a test data set for flowhls.

    /usr/bin/python3 tests/frontend/onnx/qdq_reference.py MODEL.onnx INPUT.pb OUT_DIR

The QuantizeLinear of a float32 graph input divides in float32 as ONNX specifies, and a float
graph output is the float32 DequantizeLinear of its integers, so a correct integer design
matches bit for bit. Ops: Constant, ConstantOfShape, Cast, QuantizeLinear, DequantizeLinear,
Conv (2-D, groups), Gemm, MatMul, Add, Relu, MaxPool (2-D), AveragePool (2-D, pads,
count_include_pad, ceil_mode), GlobalAveragePool, Concat, Flatten, Reshape, ArgMax, Softmax
(opset 13: along one axis).
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

INTS = {onnx.TensorProto.UINT8: np.uint8, onnx.TensorProto.INT8: np.int8}


def attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def conv(x, w, b, a):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    group = a.get("group", 1)
    sh, sw = a.get("strides", [1, 1])
    p = a.get("pads", [0, 0, 0, 0])
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    oh, ow = (x.shape[2] - kh) // sh + 1, (x.shape[3] - kw) // sw + 1
    y = np.zeros((n, m, oh, ow))
    per = m // group
    for o in range(m):
        g = o // per
        for i in range(oh):
            for j in range(ow):
                y[:, o, i, j] = np.sum(x[:, g * cg:(g + 1) * cg, i * sh:i * sh + kh, j * sw:j * sw + kw] * w[o], axis=(1, 2, 3))
    return y + (0 if b is None else b.reshape(1, -1, 1, 1))


def average_pool(x, a):
    """2-D AveragePool in float64: the window sum of the values inside the input over the number
    of positions inside the input (or inside the padded input with count_include_pad)."""
    n, c, h, w = x.shape
    kh, kw = a["kernel_shape"]
    sh, sw = a.get("strides", [1, 1])
    p = a.get("pads", [0, 0, 0, 0])
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        sys.exit("qdq_reference.py: AveragePool auto_pad is not supported")
    include = a.get("count_include_pad", 0)
    rnd = np.ceil if a.get("ceil_mode", 0) else np.floor
    oh = int(rnd((h + p[0] + p[2] - kh) / sh)) + 1
    ow = int(rnd((w + p[1] + p[3] - kw) / sw)) + 1
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * sh - p[0], j * sw - p[1]
            r1, c1 = r0 + kh, c0 + kw
            window = x[:, :, max(r0, 0):min(r1, h), max(c0, 0):min(c1, w)]
            if include:
                count = (min(r1, h + p[2]) - max(r0, -p[0])) * (min(c1, w + p[3]) - max(c0, -p[1]))
            else:
                count = (min(r1, h) - max(r0, 0)) * (min(c1, w) - max(c0, 0))
            y[:, :, i, j] = window.sum(axis=(2, 3)) / count
    return y


def per_axis(v, x, axis):
    v = np.asarray(v)
    if v.size == 1:
        return v.reshape(())
    shape = [1] * x.ndim
    shape[axis] = -1
    return v.reshape(shape)


def run(model, feeds):
    env = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    env.update(feeds)
    graph_inputs = set(feeds)
    for n in model.graph.node:
        a = attrs(n)
        i = [env[k] if k else None for k in n.input]
        op = n.op_type
        if op == "Constant":
            out = numpy_helper.to_array(a["value"])
        elif op == "ConstantOfShape":
            v = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
            out = np.full(tuple(i[0]), v[0], dtype=v.dtype)
        elif op == "Cast":
            to = helper.tensor_dtype_to_np_dtype(a["to"]) if hasattr(helper, "tensor_dtype_to_np_dtype") else \
                onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[a["to"]]
            out = i[0].astype(to)
        elif op == "QuantizeLinear":
            zp = i[2] if len(i) > 2 and i[2] is not None else np.uint8(0)
            axis = a.get("axis", 1)
            s, z = per_axis(i[1], i[0], axis), per_axis(zp, i[0], axis)
            if n.input[0] in graph_inputs:  # float32 input: float32 division, as ONNX specifies
                q = np.round(i[0].astype(np.float32) / s.astype(np.float32))
            else:
                q = np.round(i[0].astype(np.float64) / s.astype(np.float64))
            info = np.iinfo(zp.dtype)
            out = np.clip(q + z.astype(np.float64), info.min, info.max).astype(zp.dtype)
        elif op == "DequantizeLinear":
            axis = a.get("axis", 1)
            zp = i[2] if len(i) > 2 and i[2] is not None else np.zeros(1, np.int64)
            d = i[0].astype(np.int64) - per_axis(zp, i[0], axis).astype(np.int64)
            out = d.astype(np.float64) * per_axis(i[1], i[0], axis).astype(np.float64)
        elif op == "Conv":
            out = conv(i[0], i[1], i[2] if len(i) > 2 else None, a)
        elif op == "Gemm":
            x, w = i[0], i[1]
            if a.get("transA", 0):
                x = x.T
            if a.get("transB", 0):
                w = w.T
            out = a.get("alpha", 1.0) * (x @ w) + (a.get("beta", 1.0) * i[2] if len(i) > 2 else 0)
        elif op == "MatMul":
            out = i[0] @ i[1]
        elif op == "Add":
            out = i[0] + i[1]
        elif op == "AveragePool":
            out = average_pool(i[0], a)
        elif op == "Concat":
            out = np.concatenate(i, axis=a["axis"])
        elif op == "GlobalAveragePool":
            out = i[0].mean(axis=(2, 3), keepdims=True)
        elif op == "Relu":
            out = np.maximum(i[0], 0)
        elif op == "MaxPool":
            kh, kw = a["kernel_shape"]
            sh, sw = a.get("strides", [1, 1])
            p = a.get("pads", [0, 0, 0, 0])
            x = np.pad(i[0], ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])), constant_values=-np.inf)
            oh, ow = (x.shape[2] - kh) // sh + 1, (x.shape[3] - kw) // sw + 1
            out = np.stack([np.stack([x[:, :, r * sh:r * sh + kh, c * sw:c * sw + kw].max(axis=(2, 3))
                                      for c in range(ow)], -1) for r in range(oh)], -2)
        elif op == "Softmax":  # opset >= 13: along `axis` (default -1)
            if max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) < 13:
                sys.exit("qdq_reference.py: Softmax before opset 13 (over flattened axes) is not supported")
            z = i[0] - i[0].max(axis=a.get("axis", -1), keepdims=True)
            e = np.exp(z)
            out = e / e.sum(axis=a.get("axis", -1), keepdims=True)
        elif op == "Flatten":
            out = i[0].reshape(i[0].shape[0], -1)
        elif op == "Reshape":
            shape = [i[0].shape[k] if d == 0 else d for k, d in enumerate(i[1])]
            out = i[0].reshape(shape)
        elif op == "ArgMax":
            out = np.argmax(i[0], axis=a.get("axis", 0))
            if a.get("keepdims", 1):
                out = np.expand_dims(out, a.get("axis", 0))
        else:
            sys.exit(f"qdq_reference.py: op {op} is not supported")
        env[n.output[0]] = out
    return env


def main():
    model = onnx.load(sys.argv[1])
    t = onnx.TensorProto()
    with open(sys.argv[2], "rb") as f:
        t.ParseFromString(f.read())
    x = numpy_helper.to_array(t)
    env = run(model, {model.graph.input[0].name: x})
    data = os.path.join(sys.argv[3], "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(t.SerializeToString())
    for k, o in enumerate(model.graph.output):
        v = env[o.name]
        want = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[o.type.tensor_type.elem_type]
        # A float output is the float32 DequantizeLinear of the integers it dequantizes.
        v = v.astype(want)
        with open(os.path.join(data, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(v, o.name).SerializeToString())


if __name__ == "__main__":
    main()
