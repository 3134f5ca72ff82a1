#!/usr/bin/python3
"""The fixed-point sums' widths of a float model compiled with --precision, recomputed in numpy.

    fixed_accumulator_check.py FLOWHLS MODEL.onnx PRECISION WORK [NODE=fixed<W,I> ...]

Compiles MODEL with --precision PRECISION (Vitis) into WORK and reads kernel.h's two typedefs
per filter (data `<f>_t`, sums `<f>_acc_t`, the ONNX node in the comment above them). For every
Conv / Gemm node it recomputes, independently of flowhls's analysis (analysis/FixedWidths.cpp,
docs/quantization.md "Accumulator widths"), the range of its sums: the weights and the bias
quantized to the node's format (round half to even, saturated), the input bounded by its
producer's format [-2^(I-1), 2^(I-1) - 2^-F], per output b + sum over the terms of the larger
(smaller) of w * x_lo and w * x_hi, with the single products, the bias, the input's range and
Gemm's literal 1.0 (beta) also held by the sums' type; then the narrowest P with the range rounded outward onto
the grid of 2^-2F inside [-2^(I_acc-1), 2^(I_acc-1) - 2^-2F]. It requires `<f>_acc_t` to be
ap_fixed<2F + P, P> (Relu and MaxPool: P = the producer's I, their values being the
producer's), every such accumulator narrower than the rule fixed<2F + I + 10, I + 10>, the same
sums in report.json's precision rows (sums, sums_proven, sums_max_abs), and prints the table. NODE=fixed<W,I> arguments additionally require those accumulators (the
figures of docs/quantization.md). Exit 0: PASS; 1: FAIL.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixed_point_check import attr  # noqa: E402


def fail(msg):
    print("fixed-accumulators: FAIL: " + msg)
    sys.exit(1)


def quantize(v, W, I):
    """The values of fixed<W,I> the ROM holds: round half to even, saturated."""
    F = W - I
    raw = np.clip(np.round(np.asarray(v, dtype=np.float64) * 2.0 ** F), -2.0 ** (W - 1), 2.0 ** (W - 1) - 1)
    return raw * 2.0 ** -F


def typedefs(kernel_h):
    """ONNX node (or 'filter NAME') -> ((W, I) of the data, (W, I) of the sums)."""
    out, who = {}, None
    data = None
    for line in open(kernel_h):
        m = re.match(r"// (?:ONNX node '([^']*)'|filter (\w+))", line)
        if m:
            who = m.group(1) or m.group(2)
            continue
        m = re.match(r"typedef ap_fixed<(\d+), (\d+),.*> \w+?(_acc)?_t;", line)
        if m and who is not None:
            wi = (int(m.group(1)), int(m.group(2)))
            if m.group(3):
                out[who] = (data, wi)
            else:
                data = wi
    return out


def sum_integer_bits(lo, hi, frac):
    """Narrowest P: [lo, hi] rounded outward onto 2^-frac inside fixed<frac + P, P>'s range."""
    step = 2.0 ** -frac
    hi = math.ceil(max(hi, 0.0) / step) * step
    lo = math.floor(min(lo, 0.0) / step) * step
    p = 1
    while hi > 2.0 ** (p - 1) - step or lo < -2.0 ** (p - 1):
        p += 1
    return p


def main():
    flowhls, model_path, precision, work = sys.argv[1:5]
    want = dict(a.split("=", 1) for a in sys.argv[5:])
    shutil.rmtree(work, ignore_errors=True)
    r = subprocess.run([flowhls, "compile", model_path, "--precision", precision, "-o", work], capture_output=True, text=True)
    if r.returncode != 0:
        fail("compile: " + r.stdout + r.stderr)
    types = typedefs(os.path.join(work, "kernel.h"))
    model = onnx.load(model_path)
    inits = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}

    def source(value):
        """The ONNX value whose filter produces `value` (through Flatten / Reshape)."""
        while value in producer and producer[value].op_type in ("Flatten", "Reshape"):
            value = producer[value].input[0]
        return value

    def source_format(value):
        """The data format of the filter producing `value`."""
        value = source(value)
        if value not in producer:
            return types["input_load"][0]  # the graph input's copy on chip
        return types[producer[value].name][0]

    def stored(lo, hi, W, I):
        """[lo, hi] rounded onto fixed<W,I>'s grid (outward) and saturated into its range."""
        step = 2.0 ** -(W - I)
        top, bottom = 2.0 ** (I - 1) - step, -2.0 ** (I - 1)
        return (min(max(math.floor(lo / step) * step, bottom), top), min(max(math.ceil(hi / step) * step, bottom), top))

    out_range = {}  # ONNX value -> the range of the values its filter stores (saturated)
    checked = []
    for n in model.graph.node:
        if n.name not in types:
            continue
        (W, I), acc = types[n.name]
        F = W - I
        Wp, Ip = source_format(n.input[0])
        # The input's values: its producer's stored range where proven, else its format.
        x_lo, x_hi = out_range.get(source(n.input[0]), (-2.0 ** (Ip - 1), 2.0 ** (Ip - 1) - 2.0 ** -(Wp - Ip)))
        lo, hi = x_lo, x_hi  # the loaded values themselves
        if n.op_type in ("Conv", "Gemm"):
            w = quantize(inits[n.input[1]], W, I)
            if n.op_type == "Conv":
                rows = w.reshape(w.shape[0], -1)
            else:
                rows = w if attr(n, "transB", 0) else w.T
            b = quantize(inits[n.input[2]], W, I) if len(n.input) > 2 and n.input[2] else np.zeros(rows.shape[0])
            b = np.broadcast_to(b, (rows.shape[0],))
            big = np.maximum(rows * x_lo, rows * x_hi).sum(axis=1) + b
            small = np.minimum(rows * x_lo, rows * x_hi).sum(axis=1) + b
            prods = np.concatenate([(rows * x_lo).ravel(), (rows * x_hi).ravel(), b])  # each product, the bias
            lo, hi = min(lo, small.min(), prods.min()), max(hi, big.max(), prods.max())
            out_range[n.output[0]] = stored(small.min(), big.max(), W, I)
            if n.op_type == "Gemm":  # the literal beta (1.0) times the bias, in the sums' type
                hi = max(hi, 1.0)
        elif n.op_type == "Relu":
            out_range[n.output[0]] = stored(max(x_lo, 0.0), max(x_hi, 0.0), W, I)
        elif n.op_type == "MaxPool":
            out_range[n.output[0]] = stored(x_lo, x_hi, W, I)
        else:
            continue
        p = sum_integer_bits(lo, hi, 2 * F)
        expect = (2 * F + p, p)
        rule = (2 * F + I + 10, I + 10)
        checked.append((n.name, n.op_type, "fixed<%d,%d>" % (W, I), max(-lo, hi), expect, acc, rule))
        if acc != expect:
            fail("%s: sums fixed<%d,%d>, recomputed fixed<%d,%d> (max |value| %.6g)" % (n.name, acc[0], acc[1], expect[0],
                                                                                    expect[1], max(-lo, hi)))
        if acc[0] >= rule[0]:
            fail("%s: sums fixed<%d,%d> not narrower than the rule's fixed<%d,%d>" % (n.name, acc[0], acc[1], *rule))
        if n.name in want and want.pop(n.name) != "fixed<%d,%d>" % acc:
            fail("%s: sums fixed<%d,%d>, the doc's table says otherwise" % (n.name, acc[0], acc[1]))
    if want:
        fail("nodes not checked: %s" % sorted(want))
    # report.json's precision rows give the same sums' formats, each proven.
    rows = {r["node"]: r for r in json.load(open(os.path.join(work, "report.json")))["precision"] if r["node"]}
    for name, op, fmt, m, e, acc, rule in checked:
        r = rows.get(name)
        if not r or r["sums"] != "fixed<%d,%d>" % acc or not r["sums_proven"] or r["sums_max_abs"] < m * (1 - 1e-9):
            fail("%s: report.json's precision row %s, expected sums fixed<%d,%d> proven >= %.6g" % (name, r, acc[0], acc[1], m))
    if not any(c[1] in ("Conv", "Gemm") for c in checked):
        fail("no Conv or Gemm checked")
    for name, op, fmt, m, e, acc, rule in checked:
        print("  %-16s %-8s %-14s max |value| %9.4f  sums fixed<%d,%d> (rule fixed<%d,%d>)" % (name, op, fmt, m, acc[0], acc[1],
                                                                                            rule[0], rule[1]))
    print("fixed-accumulators: PASS: %d filters' sums as recomputed" % len(checked))


if __name__ == "__main__":
    main()
