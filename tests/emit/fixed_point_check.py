#!/usr/bin/python3
"""A float ONNX model compiled with --precision fixed<W,I> (Vitis), checked in C simulation.

    fixed_point_check.py FLOWHLS MODEL.onnx W I WORK XILINX_HLS_INCLUDE
    fixed_point_check.py FLOWHLS MODEL.onnx W I WORK --bambu

With --bambu the PandA-Bambu project is checked instead (docs/quantization.md, "Fixed point on
PandA-Bambu"): compiled twice (byte-identical), its C99 simulation built with gcc as its
Makefile does and again under AddressSanitizer and UndefinedBehaviorSanitizer (same outputs,
no report), its outputs identical bit for bit to the Vitis project's C simulation with the
ap_fixed stand-in, then the same error bound and top-1 as below.

1. Compiles the model twice (WORK/a, WORK/b) and requires byte-identical projects.
2. Builds and runs WORK/a's C simulation with flowhls's ap_fixed stand-in and, when AMD's
   headers are there, with them (tests/emit/fixed-csim.sh): both outputs identical bit for bit.
3. Compares the stand-in's outputs with the float reference (the project's expected data) within
   the first-order error bound of the format, derived per layer below, and requires the same
   top-1 class for every batch row.

The bound (docs/quantization.md, "Fixed point for float models"): every stored value is rounded
to nearest (AP_RND_CONV) on a grid of 2^-F, F = W - I: error at most q = 2^-(F+1); products and
sums are exact in the accumulator (2F fraction bits) unless they saturate, which the check
refuses (every activation must stay inside the format's range, every layer's sum of |w x| + |b|
inside its accumulator's, read from kernel.h). With e
the error bound of a layer's input and x its float input:
  Conv / Gemm:  e' = e * max_row sum|w|  +  q * (max_window sum|x| + K e)  +  q (bias)  +  q (stored output)
                (K the terms of one output: weights each off by at most q)
  Relu, MaxPool, Flatten, Reshape: e' = e (a max or copy of grid values is on the grid)
  Softmax (in float on the converted inputs): e' = (exp(2e) - 1) + (K + 1) * 2^-(2F+1) + q
  the model input: e = q (converted to fixed point on entry).
The worst-case bound compounds max_row sum|w| per layer and is loose for deep models; the test's
tolerance is the smaller of it and a statistical one: the roundings independent and uniform
(variance q^2/3), variances propagated the same way (sum w^2 var + sum x^2 q^2/3 + 2 q^2/3;
Softmax sqrt(2) max(p) sigma + q/sqrt(3)), tolerance 6 sigma.
Exit 0: all checks passed; 1: a check failed; 77: passed but AMD's headers are missing (the
bit-for-bit comparison did not run; not with --bambu).
"""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "frontend", "onnx"))
import qdq_reference  # noqa: E402


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def error_bound(model, x_in, W, I):
    """The first-order bound of the output's error, and the largest value the design holds."""
    F = W - I
    q = 2.0 ** -(F + 1)
    trailing_softmax = [n for n in model.graph.node if n.op_type == "Softmax"]
    body = onnx.ModelProto()
    body.CopyFrom(model)
    while len(body.graph.node) and body.graph.node[-1].op_type == "Softmax":
        del body.graph.node[-1]
    if any(n.op_type == "Softmax" for n in body.graph.node):
        fail("a Softmax inside the model: the check handles a final one only")
    inp = model.graph.input[0].name
    env = qdq_reference.run(body, {inp: x_in.astype(np.float64)})
    inits = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer}
    err = {inp: q}
    var = {inp: q * q / 3}  # statistical: independent roundings, uniform in [-q, q]
    largest = np.abs(x_in).max()
    widest_sum = {}  # node -> the largest sum of |w x| + |b| over its outputs
    for n in body.graph.node:
        e = err[n.input[0]]
        x = env[n.input[0]]
        if n.op_type in ("Conv", "Gemm"):
            w = inits[n.input[1]]
            if n.op_type == "Conv":
                rows = np.abs(w).reshape(w.shape[0], -1)
            else:
                rows = np.abs(w) if attr(n, "transB", 0) else np.abs(w).T
            k = rows.shape[1]
            bias_max = np.abs(inits[n.input[2]]).max() if len(n.input) > 2 and n.input[2] else 0.0
            # sum over one output's terms of |x|: exactly, per row (Gemm) or window (Conv)
            if n.op_type == "Conv":
                ones = np.ones((1,) + w.shape[1:])
                a = {k2: attr(n, k2, d) for k2, d in (("strides", [1, 1]), ("pads", [0, 0, 0, 0]), ("dilations", [1, 1]))}
                a["group"] = 1
                xs = np.abs(x).sum(axis=1, keepdims=True) if attr(n, "group", 1) == 1 else None
                if xs is None:
                    fail("grouped Conv: the check has no error bound for it")
                window = qdq_reference.conv(xs, ones[:, :1] * 1.0, None, a).max()
            else:
                window = np.abs(x).sum(axis=-1).max()
            v = var[n.input[0]]
            sq = qdq_reference.conv((x * x).sum(axis=1, keepdims=True), ones[:, :1] * 1.0, None, a).max() \
                if n.op_type == "Conv" else (x * x).sum(axis=-1).max()
            v = v * (rows * rows).sum(axis=1).max() + sq * q * q / 3 + 2 * q * q / 3
            e = e * rows.sum(axis=1).max() + q * (window + k * e) + 2 * q
            widest_sum[n.name] = rows.sum(axis=1).max() * np.abs(x).max() + bias_max
        elif n.op_type not in ("Relu", "MaxPool", "Flatten", "Reshape"):
            fail("op %s: the check has no error bound for it" % n.op_type)
        else:
            v = var[n.input[0]]
        err[n.output[0]] = e
        var[n.output[0]] = v
        largest = max(largest, np.abs(env[n.output[0]]).max())
    out = env[body.graph.node[-1].output[0]]
    e = err[body.graph.node[-1].output[0]]
    sigma = np.sqrt(var[body.graph.node[-1].output[0]])
    if trailing_softmax:
        k = out.shape[-1]
        z = np.exp(out - out.max(axis=-1, keepdims=True))
        out = z / z.sum(axis=-1, keepdims=True)
        sigma = np.sqrt(2) * out.max() * sigma + q / np.sqrt(3)
        e = np.expm1(2 * e) + (k + 1) * 2.0 ** -(2 * F + 1) + q
    return e, 6 * sigma, largest, widest_sum, out


def accumulator_integer_bits(kernel_h):
    """ONNX node -> the integer bits of its sums' typedef in kernel.h (ap_fixed, or the format in
    the comment of PandA-Bambu's int64_t)."""
    out, node = {}, None
    for line in open(kernel_h):
        m = re.match(r"// ONNX node '([^']*)'", line)
        if m:
            node = m.group(1)
        m = re.match(r"typedef (?:ap_fixed<\d+, (\d+),.*|int64_t \w+;.*: fixed<\d+,(\d+)>.*)", line)
        if m and node is not None and "_acc_t" in line:
            out[node] = int(m.group(1) or m.group(2))
    return out


def compile_twice(flowhls, model_path, precision, work, extra):
    """WORK/a and WORK/b compiled alike; fails unless byte-identical."""
    for d in ("a", "b"):
        r = subprocess.run([flowhls, "compile", model_path, "--precision", precision, "-o", os.path.join(work, d)] + extra,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail("compile: " + r.stdout + r.stderr)
    r = subprocess.run(["diff", "-r", os.path.join(work, "a"), os.path.join(work, "b")], capture_output=True, text=True)
    if r.returncode != 0:
        fail("two compilations differ:\n" + r.stdout[:2000])
    print("deterministic: the two projects are byte-identical")


def csim(project, inc):
    """tests/emit/fixed-csim.sh on PROJECT; its exit status."""
    r = subprocess.run([os.path.join(HERE, "fixed-csim.sh"), project, inc], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    if r.returncode not in (0, 77):
        fail("fixed-csim.sh exit %d" % r.returncode)
    return r.returncode


def bambu_outputs(flowhls, model_path, precision, work):
    """The --bambu checks up to the outputs: the directory of the C99 simulation's outputs."""
    compile_twice(flowhls, model_path, precision, work, ["--target", "bambu", "--device", "xc7z020"])
    csim(os.path.join(work, "a"), "-")
    vitis = os.path.join(work, "vitis")
    r = subprocess.run([flowhls, "compile", model_path, "--precision", precision, "-o", vitis], capture_output=True, text=True)
    if r.returncode != 0:
        fail("compile for Vitis: " + r.stdout + r.stderr)
    csim(vitis, "-")
    c99, standin = os.path.join(work, "a", "build", "outputs-c99"), os.path.join(vitis, "build", "outputs-standin")
    names = sorted(os.listdir(c99))
    if not names or names != sorted(os.listdir(standin)):
        fail("outputs %s (PandA-Bambu) against %s (Vitis)" % (names, sorted(os.listdir(standin))))
    for n in names:
        with open(os.path.join(c99, n), "rb") as f, open(os.path.join(standin, n), "rb") as g:
            if f.read() != g.read():
                fail("%s: the PandA-Bambu C99 and the Vitis ap_fixed simulations differ" % n)
        print("identical to the Vitis design's: %s (%d bytes)" % (n, os.path.getsize(os.path.join(c99, n))))
    return c99


def main():
    flowhls, model_path, W, I, work, inc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    precision = "fixed<%d,%d>" % (W, I)
    project = os.path.join(work, "a")
    if inc == "--bambu":
        outputs = bambu_outputs(flowhls, model_path, precision, work)
        vendor_skipped = False
    else:
        compile_twice(flowhls, model_path, precision, work, [])
        vendor_skipped = csim(project, inc) == 77
        outputs = os.path.join(project, "build", "outputs-standin")

    model = onnx.load(model_path)
    t = onnx.TensorProto()
    with open(os.path.join(os.path.dirname(model_path), "test_data_set_0", "input_0.pb"), "rb") as f:
        t.ParseFromString(f.read())
    x_in = numpy_helper.to_array(t)
    bound, tol6, largest, widest_sum, ref64 = error_bound(model, x_in, W, I)
    if largest >= 2.0 ** (I - 1):
        fail("values up to %.3f do not fit fixed<%d,%d> (range +-%g): it saturates" % (largest, W, I, 2.0 ** (I - 1)))
    sums = accumulator_integer_bits(os.path.join(project, "kernel.h"))
    for node, widest in sorted(widest_sum.items()):
        if node not in sums:
            fail("no sums' typedef for %s in kernel.h" % node)
        if widest >= 2.0 ** (sums[node] - 1):
            fail("%s: sums up to %.3f do not fit its accumulator (+-%g)" % (node, widest, 2.0 ** (sums[node] - 1)))
    outs = [f for f in sorted(os.listdir(outputs))]
    if len(outs) != 1:
        fail("expected one output, got %s" % outs)
    name = outs[0][len("tb_out_"):-len(".bin")]
    got = np.fromfile(os.path.join(outputs, outs[0]), dtype=np.float32)
    want = np.load(os.path.join(project, "data", name + ".expected.npy")).astype(np.float64)
    got = got.reshape(want.shape).astype(np.float64)
    err = np.abs(got - want).max()
    err64 = np.abs(got - ref64.reshape(want.shape)).max()
    # The expected data are float32 (Halide's JIT): allow its own rounding besides the bound.
    tol = min(bound, tol6) + 1e-5 + 1e-5 * np.abs(want).max()
    rows = want.reshape(want.shape[0], -1)
    top_got, top_want = got.reshape(rows.shape).argmax(axis=1), rows.argmax(axis=1)
    print("fixed<%d,%d>: max |error| %.6g vs float32 reference, %.6g vs float64; worst-case bound %.6g, "
          "6-sigma tolerance %.6g; largest value %.3f; top-1 %s vs %s"
          % (W, I, err, err64, bound, tol6, largest, list(top_got), list(top_want)))
    if err > tol:
        fail("error %.6g above the derived tolerance %.6g" % (err, tol))
    if not (top_got == top_want).all():
        fail("top-1 differs")
    if vendor_skipped:
        print("SKIP: AMD's headers are missing, the bit-for-bit comparison did not run")
        sys.exit(77)
    print("PASS")


if __name__ == "__main__":
    main()
