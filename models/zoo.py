#!/usr/bin/python3
"""Runs the flowhls model zoo: export with PyTorch, compile, simulate against PyTorch's output.

Prints one row per model: compile time, C simulation time and verdict, the largest error
against PyTorch, and flowhls's QoR estimate (latency, DSP, BRAM18K on the chosen part).

    /usr/bin/python3 models/zoo.py [--flowhls build/flowhls] [--target vitis|bambu] [MODEL ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import export  # noqa: E402  (the exporter next to this file)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flowhls", default=os.path.join(HERE, "..", "build", "flowhls"))
    parser.add_argument("--work", default=os.path.join(HERE, "..", "build", "zoo"))
    parser.add_argument("--target", default="vitis")
    parser.add_argument("--device", default="xcu250")
    every = list(export.MODELS) + list(export.QUANTIZED)
    parser.add_argument("names", nargs="*", help="models (default: all): " + ", ".join(every))
    args = parser.parse_args()
    names = args.names or every
    print(f"{'model':14} {'compile':>8} {'csim':>8}  {'result':6} {'max abs err':>12} {'latency (cyc)':>15} "
          f"{'DSP':>6} {'BRAM18K':>8}")
    failed = 0
    for name in names:
        if not os.path.exists(os.path.join(args.work, name, "model.onnx")):
            export.export_any(name, args.work)
        out = os.path.join(args.work, f"out-{name}-{args.target}")
        # Tolerances a model asks for (quantized models: two output LSB).
        tolerance = []
        settings = os.path.join(args.work, name, "flowhls.json")
        if os.path.exists(settings):
            with open(settings) as f:
                tol = json.load(f)
            tolerance = ["--atol", repr(tol["atol"]), "--rtol", repr(tol["rtol"])]
        t0 = time.time()
        rc, log = run([args.flowhls, "compile", os.path.join(args.work, name, "model.onnx"), "-o", out,
                       "-t", args.target, "--device", args.device] + tolerance)
        t1 = time.time()
        if rc != 0:
            print(f"{name:14} COMPILE FAILED: {log.strip().splitlines()[-1]}")
            failed += 1
            continue
        rc, sim = run([args.flowhls, "csim", out, "-v"])
        t2 = time.time()
        result = "PASS" if rc == 0 and "csim: PASS" in sim else "FAIL"
        failed += result != "PASS"
        err = re.search(r"max abs error ([0-9.e+-]+)", sim)
        design = json.load(open(os.path.join(out, "report.json")))["design"]
        res = design["resources"]
        print(f"{name:14} {t1 - t0:7.1f}s {t2 - t1:7.1f}s  {result:6} {err.group(1) if err else '?':>12} "
              f"{design['latency_cycles']:>15,} {res['DSP']['used']:>6} {res['BRAM18K']['used']:>8}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
