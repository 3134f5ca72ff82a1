#!/usr/bin/python3
"""flowhls's design-space exploration time beside HIDA's published compile time (issue 14).

Runs `flowhls dse MODEL --device xcvu9p --clock 200 [--max-points N]` (HIDA's part and clock)
for each model, and prints the exploration's wall time and the CPU time of the process (user +
system, from the operating system: on a machine shared with other work the wall time is the
larger), per point and in all, beside HIDA's published ResNet-18 compile time (83.1 s,
bench/reference/hida_dnn.csv, `hida_compile_s`: HIDA's whole flow, its DSE included, on its
authors' machine). The flowhls figures are measured here; HIDA's is published. The designs
the exploration picks are estimates (docs/dse.md); this script reports times only.

    /usr/bin/python3 bench/dse_time.py [--flowhls build/flowhls] [--max-points 40]
                                       [MODEL.onnx ...] [-- DSE OPTIONS]
Default model: build/zoo/resnet18_64/model.onnx (ResNet-18 at 64x64, `models/export.py`).
"""
import argparse
import csv
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def hida_compile_seconds():
    with open(os.path.join(HERE, "reference", "hida_dnn.csv")) as f:
        for row in csv.DictReader(f):
            if row["model"] == "ResNet-18":
                return float(row["hida_compile_s"])
    raise SystemExit("bench/reference/hida_dnn.csv has no ResNet-18 row")


def explore(flowhls, model, max_points, options):
    """Runs one exploration; returns (points, wall s, CPU s, dse's own seconds)."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [flowhls, "dse", model, "--device", "xcvu9p", "--clock", "200", "--max-points", str(max_points),
               "-o", os.path.join(out, "dse")] + options
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit("flowhls dse failed on %s:\n%s" % (model, run.stderr))
    m = re.search(r"dse: (\d+) points evaluated in ([0-9.]+) s", run.stdout)
    if not m:
        sys.exit("no 'points evaluated' line in flowhls dse's output:\n" + run.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(m.group(1)), wall, cpu, float(m.group(2))


def main():
    argv = sys.argv[1:]
    options = []
    if "--" in argv:
        options = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flowhls", default=os.path.join(ROOT, "build", "flowhls"))
    parser.add_argument("--max-points", type=int, default=40)
    parser.add_argument("models", nargs="*", default=[os.path.join(ROOT, "build", "zoo", "resnet18_64", "model.onnx")])
    args = parser.parse_args(argv)
    hida = hida_compile_seconds()
    print("Exploration time, xcvu9p at 200 MHz (flowhls: measured here, %d CPU core(s) online; "
          "HIDA: published)" % os.cpu_count())
    print("%-40s %6s %9s %9s %11s  %s" % ("model", "points", "wall s", "CPU s", "CPU s/point", "HIDA ResNet-18 compile"))
    for model in args.models:
        points, wall, cpu, _ = explore(args.flowhls, model, args.max_points, options)
        label = os.path.relpath(model, ROOT) if model.startswith(ROOT) else model
        print("%-40s %6d %9.1f %9.1f %11.2f  %.1f s (published)" % (label, points, wall, cpu, cpu / max(points, 1), hida))


if __name__ == "__main__":
    main()
