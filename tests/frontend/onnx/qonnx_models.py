#!/usr/bin/python3
"""Small QONNX models (Quant / Trunc of qonnx.custom_op.general and finn.custom_op.general)
with expected outputs from a numpy reference written from the QONNX operator documents
(docs/qonnx-custom-ops/quant_op.md, trunc_op.md):

    Quant:  q = round_mode(clamp(x / scale + zeropt, min, max)); y = (q - zeropt) * scale
            min, max: signed [-2^(b-1) (+1 narrow), 2^(b-1) - 1], unsigned [0, 2^b - 1 (-1 narrow)]
    Trunc:  t = round_half_even(x / scale + zeropt) / 2^(in_bits - out_bits)
            y = (round_mode(t) - zeropt) * scale

in float32 in that order (bit for bit what flowhls generates), plus models flowhls must refuse.

    /usr/bin/python3 tests/frontend/onnx/qonnx_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qdq_reference  # noqa: E402  (its float64 Conv)

QONNX, FINN = "qonnx.custom_op.general", "finn.custom_op.general"


def round_mode(y, mode):
    """The rounding modes of QONNX's table, on float32 values (exact in float64)."""
    y64 = y.astype(np.float64)
    mode = mode.upper()
    if mode == "ROUND":
        r = np.round(y64)
    elif mode == "CEIL":
        r = np.ceil(y64)
    elif mode == "FLOOR":
        r = np.floor(y64)
    elif mode in ("ROUND_TO_ZERO", "DOWN"):
        r = np.trunc(y64)
    elif mode == "UP":
        r = np.sign(y64) * np.ceil(np.abs(y64))
    elif mode == "HALF_UP":
        r = np.sign(y64) * np.floor(np.abs(y64) + 0.5)
    elif mode == "HALF_DOWN":
        r = np.sign(y64) * np.ceil(np.abs(y64) - 0.5)
    else:
        raise ValueError(mode)
    return r.astype(np.float32)


def int_range(bits, signed, narrow):
    if signed:
        return -(2 ** (bits - 1)) + (1 if narrow else 0), 2 ** (bits - 1) - 1
    return 0, 2 ** bits - 1 - (1 if narrow else 0)


def quant(x, scale, zero, bits, signed=1, narrow=0, mode="ROUND"):
    """QONNX Quant in float32 (NaN stays NaN: the clamp compares)."""
    s, z = np.float32(scale), np.float32(zero)
    y = (x.astype(np.float32) / s + z).astype(np.float32)
    lo, hi = int_range(bits, signed, narrow)
    y = np.where(y > hi, np.float32(hi), np.where(y < lo, np.float32(lo), y)).astype(np.float32)
    return ((round_mode(y, mode) - z) * s).astype(np.float32)


def trunc(x, scale, zero, in_bits, out_bits, mode="FLOOR"):
    """QONNX Trunc (the five-input form) in float32."""
    s, z = np.float32(scale), np.float32(zero)
    y = np.round((x.astype(np.float32) / s + z).astype(np.float32)).astype(np.float32)
    y = (y / np.float32(2.0 ** (in_bits - out_bits))).astype(np.float32)
    return ((round_mode(y, mode) - z) * s).astype(np.float32)


class Builder:
    def __init__(self):
        self.nodes, self.inits = [], []

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def quant(self, x, out, scale, zero, bits, domain=QONNX, **attrs):
        s = self.init(out + "_scale", np.asarray(scale, np.float32))
        z = self.init(out + "_zeropt", np.asarray(zero, np.float32))
        b = self.init(out + "_bitwidth", np.asarray(bits, np.float32))
        self.nodes.append(helper.make_node("Quant", [x, s, z, b], [out], name=out, domain=domain, **attrs))
        return out

    def trunc(self, x, out, scale, zero, in_bits, out_bits, domain=QONNX, **attrs):
        names = [self.init(out + "_" + k, np.asarray(v, np.float32))
                 for k, v in [("scale", scale), ("zeropt", zero), ("in_bits", in_bits), ("out_bits", out_bits)]]
        self.nodes.append(helper.make_node("Trunc", [x] + names, [out], name=out, domain=domain, **attrs))
        return out

    def node(self, op, inputs, out, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out


def save(out_dir, name, b, feeds, outputs, opset=13, domains=(QONNX, FINN)):
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, a.shape) for n, a in feeds]
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, a.shape) for n, a in outputs]
    graph = helper.make_graph(b.nodes, name, inputs, outs, b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)] +
                              [helper.make_opsetid(d, 1) for d in domains])
    onnx.checker.check_model(model)
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, items in (("input", feeds), ("output", outputs)):
        for i, (n, a) in enumerate(items):
            with open(os.path.join(d, "test_data_set_0", f"{kind}_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def modes_model(out_dir):
    """Every rounding mode, bit widths 2 to 8, signed / unsigned / narrow, per-channel scales,
    zero points, Trunc; inputs on multiples of 1/8 so that many values fall on ties."""
    rng = np.random.default_rng(21)
    x = (rng.integers(-400, 400, size=(1, 4, 5, 5)) / 8.0).astype(np.float32)
    x[0, 0, 0, :3] = [np.float32(1e30), np.float32(-1e30), np.float32(0.0)]
    b = Builder()
    per_channel = np.array([0.25, 0.5, 0.3, 0.0625], np.float32).reshape(1, 4, 1, 1)
    cases = [
        ("round_s8", dict(scale=np.float32(0.0731), zero=0.0, bits=8, signed=1, narrow=0, rounding_mode="ROUND")),
        ("ceil_u4_narrow", dict(scale=per_channel, zero=1.0, bits=4, signed=0, narrow=1, rounding_mode="CEIL")),
        ("floor_s2", dict(scale=np.float32(0.5), zero=0.0, bits=2, signed=1, narrow=0, rounding_mode="FLOOR")),
        ("to_zero_s5_narrow", dict(scale=np.float32(0.25), zero=0.0, bits=5, signed=1, narrow=1,
                                   rounding_mode="ROUND_TO_ZERO")),
        ("up_u3", dict(scale=np.float32(0.75), zero=2.0, bits=3, signed=0, narrow=0, rounding_mode="UP")),
        ("half_up_s6", dict(scale=np.float32(0.25), zero=0.0, bits=6, signed=1, narrow=0, rounding_mode="HALF_UP")),
        ("half_down_s7", dict(scale=per_channel, zero=0.0, bits=7, signed=1, narrow=0, rounding_mode="half_down")),
        ("round_u8_finn", dict(scale=np.float32(0.125), zero=3.0, bits=8, signed=0, narrow=0, rounding_mode="ROUND")),
    ]
    outputs = []
    for k, (tag, c) in enumerate(cases):
        attrs = {"signed": c["signed"], "narrow": c["narrow"], "rounding_mode": c["rounding_mode"]}
        b.quant("x", tag, c["scale"], c["zero"], c["bits"], domain=FINN if "finn" in tag else QONNX, **attrs)
        outputs.append((tag, quant(x, c["scale"], c["zero"], c["bits"], c["signed"], c["narrow"], c["rounding_mode"])))
    b.trunc("x", "trunc_floor", np.float32(0.125), 0.0, 8, 4)
    outputs.append(("trunc_floor", trunc(x, 0.125, 0.0, 8, 4)))
    b.trunc("x", "trunc_round", np.float32(0.0625), 0.0, 10, 3, domain=FINN, rounding_mode="ROUND")
    outputs.append(("trunc_round", trunc(x, 0.0625, 0.0, 10, 3, "ROUND")))
    save(out_dir, "qonnx_modes", b, [("x", x)], outputs)


def brevitas_model(out_dir):
    """A Brevitas-style CNN: Quant on the input activations, on constant float weights (4-bit
    per channel, 3-bit) and after each ReLU, around Conv, MaxPool and MatMul; power-of-two
    scales keep every float sum exact, so the float64 reference is bit-exact."""
    rng = np.random.default_rng(22)
    x = (rng.integers(-128, 128, size=(1, 1, 8, 8)) / 64.0).astype(np.float32)
    w1 = rng.normal(0, 0.3, size=(4, 1, 3, 3)).astype(np.float32)
    b1 = (rng.integers(-8, 8, size=(4,)) / 16.0).astype(np.float32)
    w2 = rng.normal(0, 0.2, size=(64, 5)).astype(np.float32)
    b2 = (rng.integers(-8, 8, size=(5,)) / 16.0).astype(np.float32)
    s_w1 = np.array([2.0 ** -3, 2.0 ** -2, 2.0 ** -3, 2.0 ** -4], np.float32).reshape(4, 1, 1, 1)
    b = Builder()
    xq = b.quant("x", "x_quant", np.float32(2.0 ** -6), 0.0, 8, signed=1, narrow=0, rounding_mode="ROUND")
    w1q = b.quant(b.init("w1", w1), "w1_quant", s_w1, 0.0, 4, signed=1, narrow=1, rounding_mode="ROUND")
    c = b.node("Conv", [xq, w1q, b.init("b1", b1)], "conv", pads=[1, 1, 1, 1])
    r = b.node("Relu", [c], "relu")
    rq = b.quant(r, "relu_quant", np.float32(2.0 ** -3), 0.0, 4, domain=FINN, signed=0, narrow=0,
                 rounding_mode="ROUND")
    p = b.node("MaxPool", [rq], "pool", kernel_shape=[2, 2], strides=[2, 2])
    shape = b.init("shape", np.array([1, 64], np.int64))
    f = b.node("Reshape", [p, shape], "flat")
    w2q = b.quant(b.init("w2", w2), "w2_quant", np.float32(2.0 ** -4), 0.0, 3, signed=1, narrow=0,
                  rounding_mode="ROUND")
    m = b.node("MatMul", [f, w2q], "matmul")
    a = b.node("Add", [m, b.init("b2", b2)], "add")
    b.quant(a, "y", np.float32(2.0 ** -4), 0.0, 8, signed=1, narrow=0, rounding_mode="ROUND")
    # Reference: float64 arithmetic on the quantized values (exact: small multiples of powers of two).
    xr = quant(x, 2.0 ** -6, 0.0, 8).astype(np.float64)
    w1r = quant(w1, s_w1, 0.0, 4, 1, 1).astype(np.float64)
    conv = qdq_reference.conv(xr, w1r, b1.astype(np.float64), {"pads": [1, 1, 1, 1], "strides": [1, 1]})
    relu = quant(np.maximum(conv, 0.0).astype(np.float32), 2.0 ** -3, 0.0, 4, 0, 0).astype(np.float64)
    pool = relu.reshape(1, 4, 4, 2, 4, 2).max(axis=(3, 5)).reshape(1, 64)
    w2r = quant(w2, 2.0 ** -4, 0.0, 3).astype(np.float64)
    lin = pool @ w2r + b2.astype(np.float64)
    assert np.all(lin.astype(np.float32) == lin), "the reference is not exact in float32"
    y = quant(lin.astype(np.float32), 2.0 ** -4, 0.0, 8)
    save(out_dir, "qonnx_brevitas_cnn", b, [("x", x)], [("y", y)], opset=13)


def bad_models(out_dir):
    """Models flowhls refuses, one reason each."""
    x = np.zeros((1, 4), np.float32)
    cases = {
        "qonnx_bad_bits9": dict(bits=9),
        "qonnx_bad_bits1": dict(bits=1),
        "qonnx_bad_bits_fraction": dict(bits=4.5),
        "qonnx_bad_rounding": dict(bits=4, rounding_mode="STOCHASTIC"),
    }
    for name, c in cases.items():
        b = Builder()
        attrs = {"rounding_mode": c["rounding_mode"]} if "rounding_mode" in c else {}
        b.quant("x", "y", np.float32(0.1), 0.0, c["bits"], **attrs)
        save(out_dir, name, b, [("x", x)], [("y", x)])
    # A run-time bit width.
    b = Builder()
    s, z = b.init("s", np.float32(0.1)), b.init("z", np.float32(0.0))
    b.nodes.append(helper.make_node("Quant", ["x", s, z, "bits"], ["y"], name="y", domain=QONNX))
    graph = helper.make_graph(b.nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]),
                                             helper.make_tensor_value_info("bits", TensorProto.FLOAT, [])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(QONNX, 1)])
    os.makedirs(os.path.join(out_dir, "qonnx_bad_runtime_bits"), exist_ok=True)
    onnx.save(model, os.path.join(out_dir, "qonnx_bad_runtime_bits", "model.onnx"))
    # The seven-input Trunc and a Quant of an unknown domain.
    for name, node in [
        ("qonnx_bad_trunc7", helper.make_node("Trunc", ["x", "s", "z", "i", "s", "z", "o"], ["y"], name="y",
                                              domain=QONNX)),
        ("qonnx_bad_domain", helper.make_node("Quant", ["x", "s", "z", "o"], ["y"], name="y", domain="my.domain")),
    ]:
        b = Builder()
        b.init("s", np.float32(0.1)), b.init("z", np.float32(0.0)), b.init("i", np.float32(8))
        b.init("o", np.float32(4))
        b.nodes.append(node)
        save(out_dir, name, b, [("x", x)], [("y", x)], domains=(QONNX, "my.domain"))


def main():
    out = sys.argv[1]
    modes_model(out)
    brevitas_model(out)
    bad_models(out)


if __name__ == "__main__":
    main()
