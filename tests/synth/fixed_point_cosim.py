#!/usr/bin/python3
"""Fixed point through the real PandA-Bambu and Verilator (docs/bambu.md, "Fixed point").

    fixed_point_cosim.py FLOWHLS BAMBU WORK [PRECISION]

A two-layer MLP built here (16 -> 8 Gemm, Relu, 8 -> 4 Gemm; seeded weights, on-chip ROMs),
compiled with --target bambu --precision PRECISION (default fixed<16,6>; `auto`: formats from
the ranges measured on its seeded random input, which both compilations get); its C99 simulation's outputs
(tests/emit/fixed-csim.sh) become the expected outputs of a second compilation with
--atol 0 --rtol 0, which is synthesized by Bambu and co-simulated in Verilator: PASS means the
RTL computes the C simulation's outputs bit for bit. Exit 0: PASS; 1: a failure; 77: Bambu or
Verilator missing (1 in CI, FLOWHLS_CI set).
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def model(path):
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((8, 16)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((4, 8)) * 0.3).astype(np.float32)
    b2 = (rng.standard_normal(4) * 0.1).astype(np.float32)
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1", transB=1),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], name="fc2", transB=1)]
    inits = [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))]
    g = helper.make_graph(nodes, "mlp2", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)


def main():
    flowhls, bambu, work = sys.argv[1], sys.argv[2], sys.argv[3]
    precision = sys.argv[4] if len(sys.argv) > 4 else "fixed<16,6>"
    missing = ""
    if not bambu or not os.access(bambu, os.X_OK):
        bambu = shutil.which("bambu") or ""
        if not bambu:
            missing = "PandA-Bambu not found (CMake's FLOWHLS_BAMBU, shared/vendor/panda-bambu, PATH)"
    if not missing and not shutil.which("verilator"):
        missing = "verilator is not on PATH"
    if missing:
        print(("FAIL: " if os.environ.get("FLOWHLS_CI") else "SKIP: ") + missing)
        sys.exit(1 if os.environ.get("FLOWHLS_CI") else 77)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    onnx_path = os.path.join(work, "mlp2.onnx")
    model(onnx_path)
    common = ["--precision", precision, "--target", "bambu", "--device", "xc7z020", "--weights", "rom"]
    c = os.path.join(work, "c")
    r = subprocess.run([flowhls, "compile", onnx_path, "-o", c] + common, capture_output=True, text=True)
    if r.returncode != 0:
        fail("compile: " + r.stdout + r.stderr)
    if "flowhls_fx_" not in open(os.path.join(c, "kernel.c")).read():
        fail("the kernel does not compute in fixed point")
    r = subprocess.run([os.path.join(HERE, "..", "emit", "fixed-csim.sh"), c, "-"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("C simulation: " + r.stdout + r.stderr)
    got = np.fromfile(os.path.join(c, "build", "outputs-c99", "tb_out_y.bin"), dtype=np.float32).reshape(1, 4)
    want = np.load(os.path.join(c, "data", "y.expected.npy"))
    print("C simulation: max |error| %.3g against the float reference" % np.abs(got - want).max())
    expected = os.path.join(work, "y.c99.npy")
    np.save(expected, got)
    rtl = os.path.join(work, "rtl")
    inputs = os.path.join(c, "data", "x.npy")
    r = subprocess.run([flowhls, "compile", onnx_path, "-o", rtl, "--inputs", inputs, "--expected", expected,
                        "--atol", "0", "--rtol", "0",
                        "--synth", "--bambu", bambu] + common, capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    if r.returncode != 0 or "synth: PASS" not in r.stdout + r.stderr:
        fail("the RTL's outputs differ from the C simulation's (or Bambu failed)")
    if precision.startswith("auto"):
        formats = json.load(open(os.path.join(rtl, "report.json")))["precision"]
        if formats != json.load(open(os.path.join(c, "report.json")))["precision"]:
            fail("the two compilations chose different formats")
        print("formats: " + ", ".join("%s %s" % (r["node"], r["format"]) for r in formats))
    print("PASS: the RTL computes the C simulation's outputs bit for bit (%s)" % precision)


if __name__ == "__main__":
    main()
