#!/usr/bin/python3
"""flowhls compile --precision auto --target bambu end to end (docs/quantization.md, "auto on
PandA-Bambu").

    precision_auto_bambu.py FLOWHLS SOURCE_DIR WORK MODEL.onnx INPUT ATOL [nobits]

1. The float64 reference (models/trace_reference.py) of MODEL on INPUT gives the expected outputs.
2. The PandA-Bambu project at --precision auto, compiled twice: byte-identical.
3. Its C99 simulation (tests/emit/fixed-csim.sh: gcc as its Makefile builds it, and again under
   AddressSanitizer and UBSan, same outputs, no report) within ATOL of the float64 reference,
   and the same top-1 per batch row as the model's own test output (PyTorch's, when there is a
   test_data_set_0/output_0.pb beside the model).
4. report.json: every row auto, W 16, I from the measured max |value| + 1 bit of headroom; the
   formats of the nodes equal the Vitis --precision auto project's, except the node that reads
   the graph input, which also covers the input's range (Bambu has no input load filter).
5. The Vitis project compiled with those formats written out (the model's format, which the
   Vitis input load takes, = that of the node reading the input; KEY=fixed<W,I> per node): its
   C simulation (ap_fixed stand-in) gives the Bambu outputs bit for bit. The Vitis --precision
   auto project's outputs are compared too and the largest difference printed (it rounds the
   input twice when its input load's format differs from the first node's). Skipped with
   `nobits` (a model with copies passes add, e.g. a fork, whose auto format is their producer's:
   the spelled-out model format would differ).
6. Refused with one error line, exit 2, nothing written: auto<32> (the chosen formats' sums need
   more than int64_t).
Prints "precision-auto-bambu: PASS" at the end; exit 1 on a failure.
"""
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

PY = "/usr/bin/python3"


def fail(msg):
    print("precision-auto-bambu: FAIL: " + msg)
    sys.exit(1)


def run(args, what):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(what + ": exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    return r.stdout + r.stderr


def csim_outputs(src, project, kind):
    """Runs tests/emit/fixed-csim.sh on PROJECT; {output name: float32 array} of its `kind` run."""
    env = dict(os.environ, OPT="-O0")  # the ap_fixed stand-in builds in 13 s at -O0, 80 s at -O2
    r = subprocess.run([os.path.join(src, "tests", "emit", "fixed-csim.sh"), project, "-"], capture_output=True,
                       text=True, env=env)
    print(r.stdout + r.stderr, end="")
    d = os.path.join(project, "build", "outputs-" + kind)
    if not os.path.isdir(d):
        fail("no outputs of the %s simulation of %s" % (kind, project))
    return {n[len("tb_out_"):-len(".bin")]: np.fromfile(os.path.join(d, n), dtype=np.float32) for n in sorted(os.listdir(d))}


def raw_bytes(project, kind):
    d = os.path.join(project, "build", "outputs-" + kind)
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


def main():
    flowhls, src, work, model, inp, atol = sys.argv[1:7]
    bits = not (len(sys.argv) > 7 and sys.argv[7] == "nobits")
    atol = float(atol)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ref = os.path.join(work, "ref")
    run([PY, os.path.join(src, "models", "trace_reference.py"), model, ref, inp], "float64 reference")
    expected = run([PY, os.path.join(src, "tests", "driver", "expected_outputs.py"), model, ref], "expected").split()
    common = ["--inputs", inp] + expected + ["--atol", str(atol), "--rtol", "0"]
    bambu = ["--target", "bambu", "--device", "xc7z020"]

    # 2. deterministic
    for d in ("a", "b"):
        run([flowhls, "compile", model, "--precision", "auto", "-o", os.path.join(work, d)] + common + bambu, "compile " + d)
    if subprocess.run(["diff", "-r", os.path.join(work, "a"), os.path.join(work, "b")], capture_output=True).returncode:
        fail("the two Bambu projects differ")
    print("deterministic: the two PandA-Bambu projects are byte-identical")
    if "flowhls_fx_" not in open(os.path.join(work, "a", "kernel.c")).read():
        fail("the Bambu kernel does not compute in fixed point")

    # 3. C99 simulation within ATOL of float64, top-1
    got = csim_outputs(src, os.path.join(work, "a"), "c99")
    index = {}
    for line in open(os.path.join(ref, "index.txt")):
        f = line.rstrip("\n").split("\t")
        if not line.startswith("#"):
            index[f[0]] = np.load(os.path.join(ref, f[4])).astype(np.float64)
    outputs = [o.name for o in onnx.load(model).graph.output]
    worst = 0.0
    for name in outputs:
        want = index[name]
        g = got[name].reshape(want.shape).astype(np.float64)
        err = float(np.abs(g - want).max())
        worst = max(worst, err)
        print("output %s: max |error| %.6g against the float64 reference (ATOL %g)" % (name, err, atol))
        if err > atol:
            fail("output %s off by %.6g > %g" % (name, err, atol))
        pb = os.path.join(os.path.dirname(model), "test_data_set_0", "output_0.pb")
        if name == outputs[0] and os.path.exists(pb):
            t = onnx.TensorProto()
            t.ParseFromString(open(pb, "rb").read())
            torch_out = numpy_helper.to_array(t).astype(np.float64).reshape(want.shape)
            e = float(np.abs(g - torch_out).max())
            rows = want.shape[0] if want.ndim > 1 else 1
            same = (g.reshape(rows, -1).argmax(1) == torch_out.reshape(rows, -1).argmax(1)).all()
            print("output %s: max |error| %.6g against the model's test output (PyTorch), top-1 %s" %
                  (name, e, "same" if same else "DIFFERENT"))
            if e > atol or not same:
                fail("against the model's test output: %.6g, top-1 same: %s" % (e, same))

    # 4. formats
    rows = json.load(open(os.path.join(work, "a", "report.json")))["precision"]
    if len(rows) < 3:
        fail("report.json lists %d fixed-point filters" % len(rows))
    for r in rows:
        need = 1 if r["max_abs"] == 0 else max(1, math.frexp(r["max_abs"])[1] + 1)
        if not r["auto"] or r["width"] != 16 or r["integer"] != min(16, need + 1):
            fail("format not from the rule: %s" % r)
    run([flowhls, "compile", model, "--precision", "auto", "-o", os.path.join(work, "vitis-auto")] + common,
        "compile for Vitis")
    vit = {r["node"]: r for r in json.load(open(os.path.join(work, "vitis-auto", "report.json")))["precision"] if r["node"]}
    first = rows[0]
    rows = [r for r in rows if r["node"]]  # copies passes add take their producer's format
    for r in rows:
        v = vit.get(r["node"])
        if v is None:
            fail("node %s is fixed point on Bambu, not on Vitis" % r["node"])
        if r is first:
            if r["integer"] < v["integer"]:
                fail("the first node has fewer integer bits than on Vitis: %s vs %s" % (r, v))
        elif r["format"] != v["format"]:
            fail("node %s: %s on Bambu, %s on Vitis" % (r["node"], r["format"], v["format"]))
    print("formats: " + ", ".join("%s %s" % (r["node"], r["format"]) for r in rows))

    # 5. the Vitis design with the same formats: identical bits
    if not bits:
        rows = []
    spelled = ["--precision", first["format"]]
    for r in rows:
        spelled += ["--precision", "%s=%s" % (r["node"], r["format"])]
    if bits:
        run([flowhls, "compile", model, "-o", os.path.join(work, "vitis-same")] + spelled + common,
            "compile Vitis, same formats")
        csim_outputs(src, os.path.join(work, "vitis-same"), "standin")
        b, v = raw_bytes(os.path.join(work, "a"), "c99"), raw_bytes(os.path.join(work, "vitis-same"), "standin")
        if b != v:
            fail("the Bambu outputs differ from the Vitis design's with the same formats")
        print("identical bit for bit to the Vitis design with the same formats (%s)" % " ".join(spelled))
    va = csim_outputs(src, os.path.join(work, "vitis-auto"), "standin")
    diff = max(float(np.abs(va[n].astype(np.float64) - got[n].astype(np.float64)).max()) for n in outputs)
    print("against the Vitis --precision auto design: max |difference| %.6g (%s)" %
          (diff, "identical" if diff == 0 else "its input load rounds the input to its own format first"))

    # 6. refusals
    out = os.path.join(work, "refused")
    r = subprocess.run([flowhls, "compile", model, "--precision", "auto<32>", "-o", out] + common + bambu,
                       capture_output=True, text=True)
    errs = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith("flowhls: error:")]
    if r.returncode != 2 or len(errs) != 1 or "do not fit the 64 bits" not in errs[0] or os.path.exists(out):
        fail("auto<32> on Bambu: exit %d, %s" % (r.returncode, r.stdout + r.stderr))
    print("refused: " + errs[0])
    print("precision-auto-bambu: PASS: %s at --precision auto on PandA-Bambu, max |error| %.6g (ATOL %g)" %
          (os.path.basename(os.path.dirname(model)), worst, atol))


if __name__ == "__main__":
    main()
