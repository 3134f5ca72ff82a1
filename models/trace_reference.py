#!/usr/bin/python3
"""Writes every intermediate value of an ONNX model, evaluated in float64 with numpy, for
`flowhls csim OUT --trace REF_DIR` (per-layer bisection).

    /usr/bin/python3 models/trace_reference.py [--bias-scale=product] MODEL.onnx REF_DIR [INPUT ...]

INPUT: one .pb (TensorProto) or .npy file per graph input that is not an initializer, in graph
order; default: OUT's test input is not known here, so give the files the project was compiled
with (data/<input>.npy of the project, or the model's test_data_set_0/input_N.pb).

The evaluator is flowhls's float64 QDQ reference (tests/frontend/onnx/qdq_reference.py),
written from the ONNX operator documents and independent of flowhls's converters: every float
op in float64, DequantizeLinear exact, QuantizeLinear rounding half to even, so a correct
integer design matches every quantized value bit for bit and a float design matches within
float32 rounding. Graph outputs are cast to their ONNX element type, as ONNX specifies.

--bias-scale=product evaluates the int32 bias of a quantized Conv or Gemm (DequantizeLinear of
an int32 tensor) at the exact product sx * sw of its input and weight scales, as QLinearConv
specifies and flowhls's integer layers compute, instead of the float32 scale the graph gives
(float32(sx * sw), up to 2^-24 off): the two references differ only where a layer's exact value
lies within |bias| * 2^-24 output steps of a rounding tie.

REF_DIR/index.txt lists one value a line: name, producing node, op, shape, file (tab-separated,
control characters and '%' written as %XX); the values are REF_DIR/vN.npy in node order.
"""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "frontend", "onnx"))
import qdq_reference  # noqa: E402  (the float64 evaluator)


def escape(name):
    return "".join(f"%{ord(c):02X}" if ord(c) < 0x20 or c in "%\x7f" else c for c in name)


def read_tensor(path):
    if path.endswith(".npy"):
        return np.load(path, allow_pickle=False)
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def exact_bias_scales(model):
    """The scale of each int32 bias DequantizeLinear feeding a Conv or Gemm replaced by the
    exact float64 product of the input and weight scales (float32 x float32 is exact in float64)."""
    producers = {o: n for n in model.graph.node for o in n.output}
    values = {t.name: t for t in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == "Constant":
            values[n.output[0]] = next(a.t for a in n.attribute if a.name == "value")
    changed = 0
    for n in model.graph.node:
        if n.op_type not in ("Conv", "Gemm") or len(n.input) < 3:
            continue
        dq = [producers.get(i) for i in n.input[:3]]
        if any(d is None or d.op_type != "DequantizeLinear" for d in dq):
            continue
        if dq[2].input[0] not in values or values[dq[2].input[0]].data_type != onnx.TensorProto.INT32:
            continue
        sx = numpy_helper.to_array(values[dq[0].input[1]]).astype(np.float64)
        sw = numpy_helper.to_array(values[dq[1].input[1]]).astype(np.float64)
        name = dq[2].input[1] + "_exact_product"
        model.graph.initializer.append(numpy_helper.from_array(sx * sw, name))
        dq[2].input[1] = name
        changed += 1
    return changed


def main():
    args = [a for a in sys.argv[1:] if a != "--bias-scale=product"]
    if len(args) < 2:
        sys.exit(__doc__)
    model = onnx.load(args[0])
    out_dir = args[1]
    if len(args) + 1 < len(sys.argv):
        print(f"trace_reference.py: {exact_bias_scales(model)} bias scales made the exact product sx * sw")
    initializers = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    files = args[2:]
    if len(files) != len(inputs):
        sys.exit(f"trace_reference.py: the model has {len(inputs)} input(s); {len(files)} file(s) given")
    feeds = {}
    for i, path in zip(inputs, files):
        shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
        x = read_tensor(path)
        if x.size != int(np.prod(shape)):
            sys.exit(f"trace_reference.py: {path} holds {x.size} values; input '{i.name}' has shape {shape}")
        feeds[i.name] = x.reshape(shape)
    env = qdq_reference.run(model, feeds)
    outputs = {o.name: o.type.tensor_type.elem_type for o in model.graph.output}
    os.makedirs(out_dir, exist_ok=True)
    lines = ["# value\tnode\top\tshape\tfile (float64 reference: models/trace_reference.py)"]
    k = 0
    for n in model.graph.node:
        for name in n.output:
            if not name or name not in env:
                continue
            v = np.asarray(env[name])
            if name in outputs:
                v = v.astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[outputs[name]])
            file = f"v{k}.npy"
            k += 1
            np.save(os.path.join(out_dir, file), np.ascontiguousarray(v))
            shape = "x".join(str(d) for d in v.shape) or "scalar"
            lines.append("\t".join([escape(name), escape(n.name), n.op_type, shape, file]))
    with open(os.path.join(out_dir, "index.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"trace_reference.py: {k} values of {len(model.graph.node)} nodes written to {out_dir}")


if __name__ == "__main__":
    main()
