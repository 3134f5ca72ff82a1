#!/usr/bin/python3
"""Prints the `--expected FILE` arguments of a model's graph outputs in a trace reference
directory (models/trace_reference.py's index.txt), for `flowhls compile` (paths without spaces).

    /usr/bin/python3 tests/driver/expected_outputs.py MODEL.onnx REF_DIR
"""
import sys

import onnx

files = {}
for line in open(sys.argv[2] + "/index.txt"):
    f = line.rstrip("\n").split("\t")
    if not line.startswith("#"):
        files[f[0]] = sys.argv[2] + "/" + f[4]
print(" ".join("--expected " + files[o.name] for o in onnx.load(sys.argv[1]).graph.output))
