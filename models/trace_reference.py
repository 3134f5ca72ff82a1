#!/usr/bin/python3
"""Writes every intermediate value of an ONNX model, evaluated in float64 with numpy, for
`flowhls csim OUT --trace REF_DIR` (per-layer bisection).

    /usr/bin/python3 models/trace_reference.py MODEL.onnx REF_DIR [INPUT ...]

INPUT: one .pb (TensorProto) or .npy file per graph input that is not an initializer, in graph
order; default: OUT's test input is not known here, so give the files the project was compiled
with (data/<input>.npy of the project, or the model's test_data_set_0/input_N.pb).

The evaluator is flowhls's float64 QDQ reference (tests/frontend/onnx/qdq_reference.py),
written from the ONNX operator documents and independent of flowhls's converters: every float
op in float64, DequantizeLinear exact, QuantizeLinear rounding half to even, so a correct
integer design matches every quantized value bit for bit and a float design matches within
float32 rounding. Graph outputs are cast to their ONNX element type, as ONNX specifies.

Each int32 bias of a quantized Conv or Gemm is evaluated at the scale its DequantizeLinear gives
(the graph as written, usually float32(sx * sw)), as flowhls's integer layers compute it.

    /usr/bin/python3 models/trace_reference.py --ranges MODEL.onnx OUT.txt INPUT ...

--ranges (what `flowhls compile --precision auto` runs on its calibration inputs): INPUT files
in groups of one per graph input (graph order); a file may hold several samples (its size a
multiple of the input's). Every sample is evaluated and OUT.txt gets, tab-separated, "samples N",
"input NAME MAX" per graph input and "value NAME NODE OP MAX" per node output: the max |value|
over all samples (exact, repr); a non-finite value stops it with a message.

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


def node_label(n, index):
    return n.name if n.name else f"{n.op_type} #{index}"


def ranges(model, out_path, files):
    """max |value| of every graph input and node output over the samples of `files`."""
    initializers = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    if not files or len(files) % len(inputs):
        sys.exit(f"trace_reference.py: the model has {len(inputs)} input(s); {len(files)} calibration file(s) "
                 "given, not a multiple")
    top = {}
    samples = 0
    for g in range(0, len(files), len(inputs)):
        group = []
        for i, path in zip(inputs, files[g:g + len(inputs)]):
            shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
            size = int(np.prod(shape))
            try:
                x = read_tensor(path)
            except Exception as e:  # noqa: BLE001  (any unreadable file is reported the same way)
                sys.exit(f"trace_reference.py: cannot read calibration file {path}: {e}")
            if x.size == 0 or x.size % size:
                sys.exit(f"trace_reference.py: calibration file {path} holds {x.size} values, not a multiple of "
                         f"input '{i.name}' ({size} values, shape {shape})")
            group.append((i.name, x.reshape([-1] + shape), shape))
        count = {len(x) for _, x, _ in group}
        if len(count) != 1:
            sys.exit(f"trace_reference.py: the calibration files {files[g:g + len(inputs)]} hold different sample counts")
        for k in range(count.pop()):
            feeds = {name: x[k].reshape(shape) for name, x, shape in group}
            env = qdq_reference.run(model, feeds)
            samples += 1
            for name, v in list(feeds.items()) + list(env.items()):
                v = np.asarray(v)
                if v.dtype.kind != "f" or v.size == 0:
                    continue
                if not np.all(np.isfinite(v)):
                    sys.exit(f"trace_reference.py: value '{name}' is not finite on calibration sample {samples}")
                top[name] = max(top.get(name, 0.0), float(np.max(np.abs(v))))
    lines = [f"samples\t{samples}"]
    for i in inputs:
        lines.append(f"input\t{escape(i.name)}\t{top.get(i.name, 0.0)!r}")
    for index, n in enumerate(model.graph.node):
        for name in n.output:
            if name and name in top:
                lines.append("\t".join(["value", escape(name), escape(node_label(n, index)), n.op_type,
                                         repr(top[name])]))
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"trace_reference.py: ranges of {len(lines) - 1} values over {samples} sample(s) written to {out_path}")


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "--ranges":
        ranges(onnx.load(args[1]), args[2], args[3:])
        return
    if len(args) < 2 or args[0].startswith("-"):
        sys.exit(__doc__)
    model = onnx.load(args[0])
    out_dir = args[1]
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
