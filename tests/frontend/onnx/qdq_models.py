#!/usr/bin/python3
"""Small QDQ models (DequantizeLinear -> Conv/Gemm/Add/MaxPool/Relu -> QuantizeLinear) with test data
from flowhls's own float64 reference of the QDQ semantics.

Every model reads uint8 (or float) input and writes uint8 / int8 (or float) output; the
expected output is the float64 evaluation: dequantized operands (x - zx) * sx exactly in
float64, the Conv / Gemm in float64, bias bq * sb, then round half to even of value / sy plus
zy, saturated. Weights int8 random, scales random float32, bias scale float32(sx * sw).

    /usr/bin/python3 tests/frontend/onnx/qdq_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qdq_reference  # noqa: E402  (the float64 evaluator next to this file)


def conv2d(x, w, pads, strides, group=1):
    """float64 NCHW convolution, x [N,C,H,W], w [M,C/g,KH,KW] (qdq_reference's)."""
    return qdq_reference.conv(x, w, None, {"pads": pads, "strides": strides, "group": group})


def quantize(v, sy, zy, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.round(v / np.float64(sy)) + zy, info.min, info.max).astype(dtype)


def f32(v):
    return np.float32(v)


class Model:
    def __init__(self, rng):
        self.rng = rng
        self.nodes, self.inits = [], []

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, output, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def scale(self, lo=2e-3, hi=3e-2):
        return f32(self.rng.uniform(lo, hi))

    def dq(self, q, scale, zero, name, axis=None):
        s = self.init(name + "_scale", np.array(scale, dtype=np.float32))
        z = self.init(name + "_zero", np.array(zero))
        attrs = {} if axis is None else {"axis": axis}
        return self.node("DequantizeLinear", [q, s, z], name, **attrs)

    def q(self, v, scale, zero, name):
        s = self.init(name + "_scale", np.array(scale, dtype=np.float32))
        z = self.init(name + "_zero", np.array(zero))
        return self.node("QuantizeLinear", [v, s, z], name)

    def save(self, out_dir, name, inputs, outputs, feeds, expected, opsets=(("", 13),)):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
        onnx.checker.check_model(model)
        d = os.path.join(out_dir, name)
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        onnx.save(model, os.path.join(d, "model.onnx"))
        for i, (n, a) in enumerate(feeds):
            with open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())
        for i, (n, a) in enumerate(expected):
            with open(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def conv_model(out_dir, name, seed, cin, cout, k, pads, strides, per_channel, relu_node, out_type, group=1,
               bias_factor=None):
    """bias_factor: the bias scale is float32(sx * sw * bias_factor) instead of float32(sx * sw)."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    h = w = 9
    x = rng.integers(0, 256, size=(1, cin, h, w)).astype(np.uint8)
    sx, zx = m.scale(), np.uint8(rng.integers(100, 160))
    wq = rng.integers(-127, 128, size=(cout, cin // group, k, k)).astype(np.int8)
    sw = np.array([m.scale(1e-3, 1e-2) for _ in range(cout)], dtype=np.float32) if per_channel else m.scale(1e-3, 1e-2)
    sb = (np.float32(sx) * sw).astype(np.float32)
    if bias_factor is not None:
        sb = (np.float64(sx) * np.asarray(sw, np.float64) * bias_factor).astype(np.float32)
    bq = rng.integers(-20000, 20000, size=(cout,)).astype(np.int32)
    sy = m.scale(0.05, 0.4)
    zy = np.uint8(rng.integers(0, 80)) if out_type == np.uint8 else np.int8(rng.integers(-20, 20))
    xf = m.dq("x", sx, zx, "x_dq")
    wf = m.dq(m.init("w", wq), sw, np.zeros(sw.shape, np.int8) if per_channel else np.int8(0), "w_dq",
              axis=0 if per_channel else None)
    bf = m.dq(m.init("b", bq), sb, np.zeros(sb.shape, np.int32) if per_channel else np.int32(0), "b_dq",
              axis=0 if per_channel else None)
    y = m.node("Conv", [xf, wf, bf], "conv", pads=pads, strides=strides, group=group)
    if relu_node:
        y = m.node("Relu", [y], "relu")
    m.q(y, sy, zy, "y")
    # float64 reference.
    x64 = (x.astype(np.float64) - float(zx)) * np.float64(sx)
    sw64 = np.asarray(sw, dtype=np.float64).reshape(-1, 1, 1, 1) if per_channel else np.float64(sw)
    w64 = wq.astype(np.float64) * sw64
    b64 = bq.astype(np.float64) * np.asarray(sb, dtype=np.float64)
    ref = conv2d(x64, w64, pads, strides, group) + b64.reshape(1, -1, 1, 1)
    if relu_node:
        ref = np.maximum(ref, 0.0)
    yq = quantize(ref, sy, float(zy), out_type)
    onnx_type = TensorProto.UINT8 if out_type == np.uint8 else TensorProto.INT8
    m.save(out_dir, name, [helper.make_tensor_value_info("x", TensorProto.UINT8, x.shape)],
           [helper.make_tensor_value_info("y", onnx_type, yq.shape)], [("x", x)], [("y", yq)])


def gemm_model(out_dir, name, seed, trans_b, relu_node):
    rng = np.random.default_rng(seed)
    m = Model(rng)
    n_in, n_out = 48, 20
    x = rng.integers(0, 256, size=(2, n_in)).astype(np.uint8)
    sx, zx = m.scale(), np.uint8(rng.integers(100, 160))
    wq = rng.integers(-127, 128, size=(n_out, n_in)).astype(np.int8)
    sw = m.scale(1e-3, 1e-2)
    sb = np.float32(np.float32(sx) * sw)
    bq = rng.integers(-20000, 20000, size=(n_out,)).astype(np.int32)
    sy, zy = m.scale(0.05, 0.4), np.uint8(rng.integers(0, 80))
    xf = m.dq("x", sx, zx, "x_dq")
    wf = m.dq(m.init("w", wq if trans_b else np.ascontiguousarray(wq.T)), sw, np.int8(0), "w_dq")
    bf = m.dq(m.init("b", bq), sb, np.int32(0), "b_dq")
    y = m.node("Gemm", [xf, wf, bf], "gemm", transB=1 if trans_b else 0)
    if relu_node:
        y = m.node("Relu", [y], "relu")
    m.q(y, sy, zy, "y")
    ref = ((x.astype(np.float64) - float(zx)) * np.float64(sx)) @ (wq.astype(np.float64) * np.float64(sw)).T
    ref = ref + bq.astype(np.float64) * np.float64(sb)
    if relu_node:
        ref = np.maximum(ref, 0.0)
    yq = quantize(ref, sy, float(zy), np.uint8)
    m.save(out_dir, name, [helper.make_tensor_value_info("x", TensorProto.UINT8, x.shape)],
           [helper.make_tensor_value_info("y", TensorProto.UINT8, yq.shape)], [("x", x)], [("y", yq)])


def pipeline_model(out_dir, name, seed):
    """float input -> QuantizeLinear -> DQ -> Conv -> Q -> DQ -> Relu -> Q -> DQ -> MaxPool -> Q -> DQ."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    x = rng.uniform(-1, 1, size=(1, 2, 10, 10)).astype(np.float32)
    sx, zx = m.scale(5e-3, 1e-2), np.uint8(128)
    wq = rng.integers(-127, 128, size=(4, 2, 3, 3)).astype(np.int8)
    sw = m.scale(1e-3, 1e-2)
    sb = np.float32(np.float32(sx) * sw)
    bq = rng.integers(-3000, 3000, size=(4,)).astype(np.int32)
    sy, zy = m.scale(0.02, 0.05), np.uint8(100)
    xq = m.q("x", sx, zx, "x_q")
    xf = m.dq(xq, sx, zx, "x_dq")
    wf = m.dq(m.init("w", wq), sw, np.int8(0), "w_dq")
    bf = m.dq(m.init("b", bq), sb, np.int32(0), "b_dq")
    c = m.q(m.node("Conv", [xf, wf, bf], "conv", pads=[1, 1, 1, 1]), sy, zy, "conv_q")
    r = m.q(m.node("Relu", [m.dq(c, sy, zy, "conv_dq")], "relu"), sy, zy, "relu_q")
    p = m.q(m.node("MaxPool", [m.dq(r, sy, zy, "relu_dq")], "pool", kernel_shape=[2, 2], strides=[2, 2]), sy, zy,
            "pool_q")
    m.dq(p, sy, zy, "y")
    # Reference: QuantizeLinear of the float input in float32 as ONNX specifies, then float64.
    xq_v = np.clip(np.round(x / sx) + float(zx), 0, 255).astype(np.uint8)
    x64 = (xq_v.astype(np.float64) - float(zx)) * np.float64(sx)
    ref = conv2d(x64, wq.astype(np.float64) * np.float64(sw), [1, 1, 1, 1], [1, 1])
    ref = ref + (bq.astype(np.float64) * np.float64(sb)).reshape(1, -1, 1, 1)
    q1 = quantize(ref, sy, float(zy), np.uint8).astype(np.int64)
    q2 = np.maximum(q1, int(zy))
    q3 = q2.reshape(1, 4, 5, 2, 5, 2).max(axis=(3, 5))
    y = ((q3.astype(np.float32) - np.float32(zy)) * np.float32(sy)).astype(np.float32)
    m.save(out_dir, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
           [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], [("x", x)], [("y", y)])


def add_model(out_dir, name, seed, a_type, b_shape, relu_node, out_type, dyadic=False, contrib=False):
    """QuantizeLinear([Relu](Add(DequantizeLinear(a), DequantizeLinear(b)))), b broadcast; with
    `dyadic`, power-of-two scales whose sums land on rounding ties (rounded half to even); with
    `contrib`, ONNX Runtime's com.microsoft QLinearAdd node instead (opset 17, no Relu)."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    info_a, info_b = np.iinfo(a_type), np.iinfo(np.uint8)
    a = rng.integers(info_a.min, info_a.max + 1, size=(1, 4, 5, 5)).astype(a_type)
    b = rng.integers(0, 256, size=b_shape).astype(np.uint8)
    if dyadic:
        sa, sb, sy = f32(2.0 ** -5), f32(2.0 ** -7), f32(2.0 ** -4)
    else:
        sa, sb, sy = m.scale(), m.scale(), m.scale(0.01, 0.05)
    za = a_type(rng.integers(-20, 20) if a_type == np.int8 else rng.integers(100, 160))
    zb = np.uint8(rng.integers(100, 160))
    zy = np.uint8(rng.integers(0, 80)) if out_type == np.uint8 else np.int8(rng.integers(-20, 20))
    if contrib:
        params = [m.init(n, np.array(v)) for n, v in [("sa", sa), ("za", za), ("sb", sb), ("zb", zb), ("sy", sy),
                                                      ("zy", zy)]]
        m.nodes.append(helper.make_node("QLinearAdd", ["a"] + params[:2] + ["b"] + params[2:], ["y"], name="y",
                                        domain="com.microsoft"))
    else:
        y = m.node("Add", [m.dq("a", sa, za, "a_dq"), m.dq("b", sb, zb, "b_dq")], "add")
        if relu_node:
            y = m.node("Relu", [y], "relu")
        m.q(y, sy, zy, "y")
    ref = (a.astype(np.float64) - float(za)) * np.float64(sa) + (b.astype(np.float64) - float(zb)) * np.float64(sb)
    if relu_node:
        ref = np.maximum(ref, 0.0)
    yq = quantize(ref, sy, float(zy), out_type)
    onnx_type = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}
    m.save(out_dir, name, [helper.make_tensor_value_info("a", onnx_type[a_type], a.shape),
                           helper.make_tensor_value_info("b", TensorProto.UINT8, b.shape)],
           [helper.make_tensor_value_info("y", onnx_type[out_type], yq.shape)], [("a", a), ("b", b)], [("y", yq)],
           (("", 17), ("com.microsoft", 1)) if contrib else (("", 13),))


ONNX_TYPES = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}


def gemm_bias_tie_model(out_dir, name, seed):
    """A Gemm whose result depends on the bias scale being the graph's float32(sx * sw), not the
    product sx * sw: scales with a large float32 rounding error, m = sx * sw / sy near 1e-5 (dense
    accumulator values), and per column a bias chosen (searching) so that the value lies between
    the two semantics' rounding boundaries. Expected: qdq_reference's float64 evaluation of the
    graph as written; checked to differ from the product's in some output."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    n_in, n_out = 32, 8
    x = rng.integers(0, 256, size=(2, n_in)).astype(np.uint8)
    while True:
        sx, sw = m.scale(1e-2, 3e-2), m.scale(2e-3, 5e-3)
        sb = np.float32(np.float64(sx) * np.float64(sw))
        if abs(np.float64(sb) - np.float64(sx) * np.float64(sw)) > 2.0 ** -25 * np.float64(sb):
            break
    sy, zx, zy = m.scale(4.0, 6.0), np.uint8(128), np.uint8(128)
    wq = rng.integers(-127, 128, size=(n_out, n_in)).astype(np.int8)
    acc = (x.astype(np.int64) - int(zx)) @ wq.astype(np.int64).T  # [2, n_out] without the bias
    p, g = np.float64(sx) * np.float64(sw) / np.float64(sy), np.float64(sb) / np.float64(sy)
    candidates = np.arange(-8000000, 8000000, dtype=np.int64)
    bq = rng.integers(-8000000, 8000000, size=(n_out,)).astype(np.int64)
    for j in range(n_out // 2):  # half the columns on a boundary of row 0, the others random
        graph = np.round(acc[0, j] * p + candidates * g)
        product = np.round((acc[0, j] + candidates) * p)
        hits = candidates[graph != product]
        bq[j] = hits[rng.integers(0, len(hits))]
    bq = bq.astype(np.int32)
    xf = m.dq("x", sx, zx, "x_dq")
    wf = m.dq(m.init("w", wq), sw, np.int8(0), "w_dq")
    bf = m.dq(m.init("b", bq), sb, np.int32(0), "b_dq")
    m.q(m.node("Gemm", [xf, wf, bf], "gemm", transB=1), sy, zy, "y")
    save_by_reference(m, out_dir, name, [("x", x)], "y", np.uint8)
    # The same graph with the bias at the exact product: it must differ.
    graph = helper.make_graph(m.nodes, name, [helper.make_tensor_value_info("x", TensorProto.UINT8, x.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.UINT8, None)],
                              [i for i in m.inits if i.name != "b_dq_scale"] +
                              [numpy_helper.from_array(np.float64(sx) * np.float64(sw), "b_dq_scale")])
    exact = qdq_reference.run(helper.make_model(graph), {"x": x})["y"]
    written = qdq_reference.run(onnx.load(os.path.join(out_dir, name, "model.onnx")), {"x": x})["y"]
    differ = int(np.sum(exact != written))
    if differ == 0:
        sys.exit(f"qdq_models.py: {name}: the bias scale changes no output")


def random_q(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, size=shape).astype(dtype)


def zero_point(rng, dtype):
    return dtype(rng.integers(100, 160) if dtype == np.uint8 else rng.integers(-20, 20))


def save_by_reference(m, out_dir, name, feeds, out_name, out_type):
    """Saves the model with the expected output of qdq_reference's float64 evaluation."""
    inputs = [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype.type], a.shape) for n, a in feeds]
    graph = helper.make_graph(m.nodes, name, inputs, [helper.make_tensor_value_info(out_name, ONNX_TYPES[out_type],
                                                                                    None)], m.inits)
    env = qdq_reference.run(helper.make_model(graph), dict(feeds))
    y = env[out_name]
    m.save(out_dir, name, inputs, [helper.make_tensor_value_info(out_name, ONNX_TYPES[out_type], y.shape)], feeds,
           [(out_name, y)])


def concat_model(out_dir, name, seed, types, same_scale, out_type):
    """QuantizeLinear(Concat(DequantizeLinear(x0), DequantizeLinear(x1), ...), axis 1): with
    `same_scale` every operand has the output's scale and zero point (a pure integer concat),
    else each its own random ones (requantized)."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    sy, zy = m.scale(), zero_point(rng, out_type)
    feeds, parts = [], []
    for k, t in enumerate(types):
        x = random_q(rng, t, (1, 2 + k, 4, 5))
        s, z = (sy, zy) if same_scale else (m.scale(), zero_point(rng, t))
        feeds.append((f"x{k}", x))
        parts.append(m.dq(f"x{k}", s, z, f"x{k}_dq"))
    m.q(m.node("Concat", parts, "concat", axis=1), sy, zy, "y")
    save_by_reference(m, out_dir, name, feeds, "y", out_type)


def avgpool_model(out_dir, name, seed, dtype, same_scale, global_pool=False, scales=None, **attrs):
    """QuantizeLinear(AveragePool|GlobalAveragePool(DequantizeLinear(x))): with `same_scale` the
    output has the input's scale (an exact integer division by the count), else its own (or
    the given `scales`)."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    x = random_q(rng, dtype, (1, 3, 7, 7))
    sx, zx = m.scale(), zero_point(rng, dtype)
    sy, zy = (sx if same_scale else m.scale()), zero_point(rng, dtype)
    if scales:
        sx, sy = f32(scales[0]), f32(scales[1])
    xf = m.dq("x", sx, zx, "x_dq")
    pooled = m.node("GlobalAveragePool", [xf], "pool") if global_pool else m.node("AveragePool", [xf], "pool", **attrs)
    m.q(pooled, sy, zy, "y")
    save_by_reference(m, out_dir, name, [("x", x)], "y", dtype)


def qlinear_matmul_model(out_dir, name, seed, constant_b):
    """QLinearMatMul with constant per-tensor scales and zero points (batched a [2, 3, 16]
    uint8, b [16, 5] int8, a constant or a second input); expected: rhe(acc * sa * sb / sy) + zy
    in float64."""
    rng = np.random.default_rng(seed)
    m = Model(rng)
    a = random_q(rng, np.uint8, (2, 3, 16))
    b = random_q(rng, np.int8, (16, 5))
    sa, sb, sy = m.scale(), m.scale(1e-3, 1e-2), m.scale(0.01, 0.05)
    za, zb, zy = np.uint8(rng.integers(100, 160)), np.int8(rng.integers(-5, 5)), np.uint8(rng.integers(0, 80))
    params = [m.init(n, np.array(v)) for n, v in [("sa", sa), ("za", za), ("sb", sb), ("zb", zb), ("sy", sy),
                                                  ("zy", zy)]]
    b_name = m.init("b", b) if constant_b else "b"
    m.nodes.append(helper.make_node("QLinearMatMul", ["a"] + params[:2] + [b_name] + params[2:], ["y"], name="y"))
    acc = (a.astype(np.int64) - int(za)) @ (b.astype(np.int64) - int(zb))
    y = quantize(acc.astype(np.float64) * np.float64(sa) * np.float64(sb), sy, float(zy), np.uint8)
    feeds = [("a", a)] + ([] if constant_b else [("b", b)])
    m.save(out_dir, name, [helper.make_tensor_value_info(n, ONNX_TYPES[v.dtype.type], v.shape) for n, v in feeds],
           [helper.make_tensor_value_info("y", TensorProto.UINT8, y.shape)], feeds, [("y", y)])


def main():
    out = sys.argv[1]
    conv_model(out, "qdq_conv", 1, 3, 8, 3, [1, 1, 1, 1], [1, 1], False, False, np.uint8)
    conv_model(out, "qdq_conv_relu_per_channel", 2, 4, 6, 3, [0, 0, 0, 0], [2, 2], True, True, np.uint8)
    conv_model(out, "qdq_conv_int8_out", 3, 2, 4, 5, [2, 2, 2, 2], [1, 1], True, False, np.int8)
    conv_model(out, "qdq_conv_depthwise", 4, 4, 4, 3, [1, 1, 1, 1], [1, 1], True, True, np.uint8, group=4)
    gemm_model(out, "qdq_gemm", 5, True, True)
    gemm_model(out, "qdq_gemm_not_transposed", 6, False, False)
    pipeline_model(out, "qdq_pipeline", 7)
    add_model(out, "qdq_add", 8, np.uint8, (1, 4, 5, 5), False, np.uint8)
    add_model(out, "qdq_add_relu_broadcast", 9, np.int8, (1, 4, 1, 1), True, np.int8)
    add_model(out, "qdq_add_ties", 10, np.uint8, (1, 4, 5, 5), False, np.uint8, dyadic=True)
    add_model(out, "qlinear_add_contrib", 11, np.uint8, (1, 4, 5, 5), False, np.uint8, contrib=True)
    concat_model(out, "qdq_concat_same_scale", 12, [np.uint8, np.uint8, np.uint8], True, np.uint8)
    concat_model(out, "qdq_concat_requantized", 13, [np.uint8, np.int8, np.uint8], False, np.uint8)
    avgpool_model(out, "qdq_avgpool_same_scale", 14, np.uint8, True, kernel_shape=[3, 3], strides=[2, 2],
                  pads=[1, 1, 1, 1])
    avgpool_model(out, "qdq_avgpool_include_pad", 15, np.uint8, False, kernel_shape=[3, 3], strides=[2, 2],
                  pads=[1, 1, 1, 1], count_include_pad=1)
    avgpool_model(out, "qdq_avgpool_border_counts", 16, np.int8, False, kernel_shape=[2, 3], strides=[1, 2],
                  pads=[1, 0, 0, 2])
    avgpool_model(out, "qdq_avgpool_2x2", 17, np.uint8, True, kernel_shape=[2, 2], strides=[2, 2])
    avgpool_model(out, "qdq_global_avgpool", 18, np.int8, False, global_pool=True)
    qlinear_matmul_model(out, "qlinear_matmul_constant_b", 20, True)
    qlinear_matmul_model(out, "qlinear_matmul_two_inputs", 21, False)
    gemm_bias_tie_model(out, "qdq_gemm_bias_scale_tie", 22)
    conv_model(out, "qdq_conv_bias_own_scale", 23, 3, 5, 3, [1, 1, 1, 1], [1, 1], True, True, np.uint8,
               bias_factor=1.37)
    # sx / sy = 1.5 over 9 positions: window sums of 3 (mod 6) land on ties that no integer
    # multiplier rounds to even, so this one keeps the float path.
    avgpool_model(out, "qdq_avgpool_tie_float", 19, np.uint8, False, scales=(3 / 128, 1 / 64), kernel_shape=[3, 3])


if __name__ == "__main__":
    main()
